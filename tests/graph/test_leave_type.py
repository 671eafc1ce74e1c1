"""A leave's type on the start card: named or implied by the person's words, or, when they say none, the default type
(personal leave, which takes no balance) put in by code and shown as inferred, in place of any type the model chose;
words that point to two types are asked about."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage

from evals.doubles.scripted import tool_call


def leave(days: float, reason: str, **fields: Any) -> dict[str, Any]:
    return tool_call("runWorkFlow", {"processKey": "process_qingjia", "reason": reason, "days": days,
                                     "nextUserId": "王五", **({"fields": fields} if fields else {})})


def type_record(card: dict[str, Any]) -> tuple[str, str, str, str]:
    [record] = [r for r in card["fields"] if r["field"] == "leaveType"]
    return record["value"], record["how"], record["said"], record["replaced"]


def test_a_leave_that_names_no_type_is_personal_leave_shown_as_inferred(graph_driver):
    agent = graph_driver(leave(3, "回老家"), "已提交。")
    agent.say("请3天假，回老家，王五审批")
    card = agent.card
    assert type_record(card) == ("事假", "inferred", "", "")
    assert "请假类型：事假（推断）" in card["values"]
    assert card["leave"][0] == "你没有说请哪种假：按事假提交（不带薪，不占额度）；如果是别的假期，请拒绝这张卡片并说明"


def test_a_type_the_model_chose_that_the_words_do_not_imply_is_replaced_by_the_default(graph_driver):
    agent = graph_driver(leave(3, "回老家", leaveType="年假"), "已提交。")
    agent.say("请3天假，回老家，王五审批")
    assert type_record(agent.card) == ("事假", "inferred", "", "年假")
    assert agent.card["leave"][0].startswith("你没有说请哪种假")


def test_a_type_the_words_imply_is_inferred_from_them_and_one_they_name_is_stated(graph_driver):
    sick = graph_driver(leave(2, "感冒发烧"), "已提交。", thread_id="sick")
    sick.say("感冒发烧，请2天假，王五审批")
    assert type_record(sick.card)[:3] == ("病假", "inferred", "发烧")
    assert sick.card["leave"] == ["病假：带薪，不占额度"]
    annual = graph_driver(leave(2, "带孩子去海边"), "已提交。", thread_id="annual")
    annual.say("I'd like 2 days of annual leave to take my kids to the seaside, Wang Wu approves")
    assert type_record(annual.card)[:2] == ("年假", "filled")  # the model left it out: the person's words filled it
    named = graph_driver(leave(2, "在家休息"), "已提交。", thread_id="named")
    named.say("感冒了，想用调休在家休息2天，王五审批")  # a type named (用调休) beats one implied (感冒)
    assert type_record(named.card)[:2] == ("调休", "filled")


def test_words_that_point_to_two_types_are_asked_about(graph_driver, store):
    agent = graph_driver(leave(2, "陪家人"), "已提交。")
    result = agent.say("请2天假陪家人，年假或者调休都行，王五审批")
    last = result["messages"][-1]
    assert isinstance(last, AIMessage) and not last.tool_calls
    assert "请假类型" in str(last.content) and "年假" in str(last.content)
    assert agent.interrupts == [] and store.snapshot()["requests"] == []
