"""Answers state only what is known (issue 33): a final answer never presents a figure, date, id or name the person,
a tool's result or the run did not give; the model is told once and answers again, else the answer says plainly that
the assistant does not know. The models are scripted to invent; the person never reads what they invented."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage

from evals.doubles.scripted import tool_call
from graph.prompts import NOT_KNOWN, REDO_UNKNOWN_NOTE
from tools.spec import ToolRegistry
from tools.workflow import TOOLSET
from tools.workflow.prompts import INTRO

BEFORE_BALANCES = ToolRegistry([spec for spec in TOOLSET.registry if "balance" not in spec.name.lower()])
"""The workflow's tools as they were before leave balances: no tool knows how much leave anybody has."""


def final(result: dict[str, Any]) -> AIMessage:
    answer = result["messages"][-1]
    assert isinstance(answer, AIMessage) and not answer.tool_calls
    return answer


NOT_KNOWN_ZH = NOT_KNOWN["zh"]["alone"] + "\n" + INTRO["zh"]
NOT_KNOWN_EN = NOT_KNOWN["en"]["alone"] + "\n" + INTRO["en"]


def test_a_balance_no_tool_knows_is_never_shown_when_the_model_invents_it_twice(graph_driver):
    agent = graph_driver("你还有10天年假。", "你还有十天年假，可以放心休。", registry=BEFORE_BALANCES)
    answer = final(agent.say("我还有几天年假？"))
    assert answer.content == NOT_KNOWN_ZH
    assert "10" not in answer.content and "十" not in answer.content
    assert answer.response_metadata["ungrounded"] == ["10天"]
    assert answer.response_metadata["thought"] == "回答里有对话中没有出现过的值，我改为说明不知道。"
    assert agent.values["budget"]["model_calls"] == 2 and agent.script_used_up  # the redo is a model call
    redo_prompt = agent.model.prompts[1]
    assert redo_prompt[-2].content == "你还有10天年假。"  # the model sees what it wrote, then which value nothing showed
    assert redo_prompt[-1].content == REDO_UNKNOWN_NOTE["zh"].format(values="「10天」")


def test_a_redone_answer_that_says_it_does_not_know_is_the_answer(graph_driver):
    agent = graph_driver(
        "You have 10 days of annual leave left.", "I can't see leave balances here, so I don't know.",
        registry=BEFORE_BALANCES,
    )
    answer = final(agent.say("How much annual leave do I have left?"))
    assert answer.content == "I can't see leave balances here, so I don't know."
    assert answer.response_metadata["redone"] == ["10 days"]
    assert agent.values["budget"]["model_calls"] == 2


def test_a_colleagues_salary_is_not_made_up_in_any_numeral_system(graph_driver):
    agent = graph_driver("李四的月薪是一万二千元。", "李四每月拿 12,000 元。")
    answer = final(agent.say("李四的工资是多少？"))
    assert answer.content == TOOLSET.language.unknown("李四的工资是多少？", "zh")  # what no tool knows, said as such
    assert answer.response_metadata["ungrounded"] == ["一万二千元"]  # 李四 is the person's own word: known


def test_a_request_that_does_not_exist_gets_no_made_up_date_or_approver(graph_driver):
    agent = graph_driver(
        tool_call("queryMyRequests", {}, id="q"),
        "req_9 已于 12月1日 由王五批准。",
        "req_9 在12月1日被王五批准了。",
        user_id="user_2",
    )
    answer = final(agent.say("req_9 现在到哪一步了？"))
    for invented in ("12月1日", "王五", "批准"):
        assert invented not in answer.content
    assert answer.content.endswith("\n" + NOT_KNOWN["zh"]["beyond"])
    # the made-up date is what the check reads; 王五 is a colleague of the directory (the store's), so no invention
    # of the check's own, but the whole answer is replaced and he is not named in it
    assert answer.response_metadata["ungrounded"] == ["12月1日"]
    assert answer.response_metadata["outcome"] == []  # what actually happened stays true: nothing was changed


def test_no_model_call_is_left_for_a_redo_so_the_answer_is_replaced_at_once(graph_driver):
    agent = graph_driver("You have 12 days left.", max_model_calls=1, registry=BEFORE_BALANCES)
    answer = final(agent.say("How many days of annual leave do I have?"))
    assert answer.content == NOT_KNOWN_EN
    assert agent.values["budget"]["model_calls"] == 1 and agent.script_used_up


def test_a_text_protocol_model_is_redone_in_plain_text(graph_driver):
    agent = graph_driver(
        "Thought: 余额应该是10天。\nFinal Answer: 你还有10天年假。",
        "我这里查不到年假余额。",
        protocol="react", registry=BEFORE_BALANCES,
    )
    answer = final(agent.say("我还有几天年假？"))
    assert answer.content == "我这里查不到年假余额。"
    assert "Reply with plain text only" in str(agent.model.prompts[1][-1].content)


def test_figures_the_person_gave_pass_untouched_in_digits_or_chinese_numerals(graph_driver):
    said = "好的：报销 6800 元的机票，12月8日出发，共两天。要我现在发起吗？"
    agent = graph_driver(said)
    answer = final(agent.say("我要报销六千八百元的机票，12月8号出发，出差2天"))
    assert answer.content == said and "ungrounded" not in answer.response_metadata
    assert agent.values["budget"]["model_calls"] == 1


def test_figures_the_person_gave_pass_untouched_in_english(graph_driver):
    said = "Three days off, December 8 to December 10, for the move. Shall I file it?"
    agent = graph_driver(said)
    answer = final(agent.say("I need 3 days off from Dec 8 to Dec 10 for moving house"))
    assert answer.content == said and agent.values["budget"]["model_calls"] == 1


def test_figures_names_and_ids_a_tool_returned_pass_untouched(graph_driver, start_request):
    started = start_request(requester="user_1", approver="user_2", days=2, reason="家里有事")
    said = f"你有 1 个待办：张三请假 2 天（{started['taskId']}，{started['requestId']}），原因是家里有事。"
    agent = graph_driver(tool_call("queryTodoTask", {"userId": "user_2"}, id="q"), said, user_id="user_2")
    answer = final(agent.say("我有哪些待办？"))
    assert answer.content == said and "ungrounded" not in answer.response_metadata


def test_a_count_of_what_a_tool_listed_passes_untouched(graph_driver):
    said = "有三个流程可以发起。"
    agent = graph_driver(tool_call("getAllWorkFlow", id="w"), said)
    assert final(agent.say("有哪些流程？")).content == said


def test_the_answers_own_numbering_and_questions_are_no_figures(graph_driver):
    said = "可以这样做：\n1. 告诉我请几天；\n2. 说明原因。\n第3步由审批人决定。要请5天吗？"
    agent = graph_driver(said)
    assert final(agent.say("怎么请假？")).content == said


def test_what_actually_happened_stays_true_when_the_answer_after_a_write_is_replaced(graph_driver, store):
    leave = {"processKey": "process_qingjia", "reason": "看牙医", "days": 1, "nextUserId": "李四"}
    agent = graph_driver(
        tool_call("runWorkFlow", leave, id="c1"),
        "已提交，李四一般 2 小时内就会批准。",
        "已提交，2 小时内会批准。",
    )
    agent.say("明天看牙医，请1天假，李四审批。")
    result = agent.approve()  # the start card
    answer = final(result)
    assert "2 小时" not in answer.content and "2小时" not in answer.content
    assert answer.content.startswith("我查到的结果：\n已发起请假申请")
    assert answer.content.endswith(NOT_KNOWN["zh"]["beyond"])
    [line] = answer.response_metadata["outcome"]
    assert (line["tool"], line["status"]) == ("runWorkFlow", "executed")
    assert [r["status"] for r in store.snapshot()["requests"]] == ["pending"]


def test_words_put_in_an_approvers_mouth_are_never_shown(graph_driver):
    # the model answers why a request came back without looking it up, twice quoting what nobody wrote
    agent = graph_driver("管理员说：你不能撤回自己的请假。", "管理员说：请假时间太长了，要改短。")
    answer = final(agent.say("我的请假怎么被退回来了？管理员说了什么"))
    assert answer.content == NOT_KNOWN_ZH
    # the question asks for the person's requests: the model is reminded to look them up, and answers again
    assert answer.response_metadata["ungrounded"] == ["请假时间太长了，要改短"]


def test_a_comment_the_tools_returned_may_be_told_in_the_answer(graph_driver, store, make_ctx, start_request):
    from tools import execute_call

    start_request(requester="user_1", approver="user_2", days=2, reason="搬家")
    execute_call(TOOLSET, "returnTask", {"taskId": "task_1", "comment": "只能批一天，第二天有客户来访"}, make_ctx("user_2"))
    agent = graph_driver(tool_call("queryMyRequests", {}), "李四的意见是：第二天有客户来访，只能批一天。")
    answer = final(agent.say("我的请假怎么被退回来了？李四说了什么"))
    assert answer.content == "李四的意见是：第二天有客户来访，只能批一天。"


def test_the_leave_balance_answers_no_question_about_something_else(graph_driver, store):
    # written after the rule (the eighth round: the balance was shown for a team budget); none from a scenario
    agent = graph_driver(tool_call("getLeaveBalance", {}), "部门的差旅预算还剩5000元。", "还剩五千元。")
    answer = final(agent.say("部门今年的差旅预算还剩多少？"))
    refused = [m for m in agent.messages if getattr(m, "status", "") == "error"]
    assert len(refused) == 1 and "[balance_not_asked]" in str(refused[0].content)
    # asked only what no tool knows: that is said, and nothing of the balance the model looked up
    assert answer.content == TOOLSET.language.unknown("部门今年的差旅预算还剩多少？", "zh") and "年假" not in answer.content


def test_a_question_of_days_off_still_gets_the_balance(graph_driver, store):
    agent = graph_driver(tool_call("getLeaveBalance", {}), "You have 10 days of annual leave left.")
    answer = final(agent.say("how many vacation days have I got left this year?"))
    assert "10" in answer.content
    assert not [m for m in agent.messages if getattr(m, "status", "") == "error"]


@pytest.mark.parametrize("question", [  # written after the rule (the fourteenth round); none from a scenario
    "Does Wang Wu still have annual leave left? I want him to take over my shift",
    "王五今年的年假还剩几天？",
])
def test_another_persons_leave_balance_is_not_answered_with_the_persons_own(graph_driver, store, question):
    agent = graph_driver(tool_call("getLeaveBalance", {}), "I cannot see Wang Wu's balance.")
    answer = final(agent.say(question))
    refused = [m for m in agent.messages if getattr(m, "status", "") == "error"]
    assert len(refused) == 1 and "[balance_of_another]" in str(refused[0].content)
    assert "10" not in answer.content


@pytest.mark.parametrize(("said", "look_up"), [  # the seventieth round's run listed the processes, with their 5000 yuan
    ("Quick one: what's the most I can spend on a hotel room a night in Beijing?", "getAllWorkFlow"),
    ("出差去深圳，住宿一晚上限是多少？", "getAllUser"),
])
def test_a_question_only_of_what_no_tool_knows_is_told_so_without_an_unasked_list(graph_driver, said, look_up):
    agent = graph_driver(tool_call(look_up, {}), "The cap is 500 yuan a night.", "上限是五百元。", fixed_answers=True)
    answer = final(agent.say(said))
    assert answer.content == TOOLSET.language.unknown(said, "zh" if "出差" in said else "en")


def test_what_no_tool_knows_is_said_before_what_a_look_up_asked_for_found(graph_driver, store, start_request):
    start_request(requester="user_1", approver="user_2", days=1, reason="看病")
    agent = graph_driver(tool_call("queryMyRequests", {}), "你的请假在李四那里等审批。", fixed_answers=True)
    answer = final(agent.say("我的请假到哪一步了？报销款一般几天到账？"))
    told = TOOLSET.language.unknown("报销款一般几天到账？", "zh")
    assert answer.content.startswith(told) and "李四" in answer.content


def _big_claim(make_ctx) -> None:  # type: ignore[no-untyped-def]
    from tools import execute_call
    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "reason": "机票", "nextUserId": "user_2",
                                          "fields": {"amount": 6200, "category": "差旅"}}, make_ctx("user_1"))


@pytest.mark.parametrize(("said", "answer"), [  # the eightieth round's writer: a route's bound was cut from answers
    ("张三的报销批了", "已批准张三的6200元报销，因为超过5000元，已转到财务审批。"),
    ("Approve Zhang San's claim", "Approved Zhang San's claim of 6200 yuan; claims over 5000 yuan go on to finance."),
    ("张三那笔报销同意", "已同意。5000 元以上的报销还要财务审批，已经转过去了。"),
])
def test_a_bound_of_the_stored_rules_stated_as_a_bound_is_known(graph_driver, make_ctx, said, answer):
    _big_claim(make_ctx)
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "张三" if said[0] > "z" else "Zhang San", "isOK": True}),
                         answer, user_id="user_2")
    agent.say(said)
    agent.approve()
    assert final(agent.values).content == answer


@pytest.mark.parametrize("answer", [
    "已批准。超过8000元的报销才需要财务审批。",  # a bound no rule states
    "已批准，张三这个月已经报销了5000元。",  # a rule's figure, not stated as a bound
    "已批准，钱会在不超过3天内打到他卡上。",  # a bound of a rule (人事, 丧假), said of no step of theirs
])
def test_a_figure_of_the_rules_not_stated_as_their_bound_is_still_invented(graph_driver, make_ctx, answer):
    _big_claim(make_ctx)
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "张三", "isOK": True}), answer, answer,
                         user_id="user_2")
    agent.say("张三的报销批了")
    agent.approve()
    assert final(agent.values).content != answer
