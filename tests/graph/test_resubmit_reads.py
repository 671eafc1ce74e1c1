"""A resend reads what the person changes now, through the real graph with a scripted model that leaves the change
out or adds one of its own, as the offline model did: the new dates of a returned trip are read from the message that
gives them, not from the earlier one it was filed with; a reason the model wrote that the person never said is left
out, not asked about. Phrasings written for these tests, none from the evaluation sets.

The graph's clock says 2027-01-15, a Friday.
"""

from __future__ import annotations

import pytest

from evals.doubles.scripted import tool_call
from tools import execute_call
from tools.workflow import TOOLSET


def test_a_returned_trip_gets_the_dates_the_person_gives_now(graph_driver, store, make_ctx):
    trip = tool_call("runWorkFlow", {"processKey": "process_chuchai", "reason": "见供应商", "nextUserId": "赵六",
                                     "fields": {"destination": "广州"}})
    agent = graph_driver(trip, "已提交。", tool_call("resubmitRequest", {"requestId": "出差"}), "已重新提交。")
    agent.say("下周一到周三去广州见供应商，帮我提个出差，赵六审批")
    agent.approve()
    execute_call(TOOLSET, "returnTask", {"taskId": "task_1", "comment": "对方改期了，日期重填"}, make_ctx("user_4"))
    agent.say("那就改成1月25日到27日，再交一次")
    assert agent.card is not None and agent.card["action"] == "resubmitRequest"
    [action] = agent.actions
    assert action["args"]["fields"] == {"startDate": "2027-01-25", "endDate": "2027-01-27"}
    agent.approve()
    [request] = store.snapshot()["requests"]
    assert request["status"] == "pending" and "2027-01-25" in request["form"]


def test_a_reason_the_person_never_gave_is_left_out_of_a_resend(graph_driver, store, make_ctx):
    claim = tool_call("runWorkFlow", {"processKey": "process_baoxiao", "reason": "client lunch", "nextUserId": "Li Si",
                                      "fields": {"amount": 2510, "category": "餐饮"}})
    fixed = tool_call("resubmitRequest", {"requestId": "req_1", "reason": "corrected the amount",
                                          "fields": {"amount": 2150}})
    agent = graph_driver(claim, "Filed.", fixed, "Sent again.")
    agent.say("Claim 2510 yuan for the client lunch, Li Si approves")
    agent.approve()
    execute_call(TOOLSET, "returnTask", {"taskId": "task_1", "comment": "the receipt says 2150"}, make_ctx("user_2"))
    agent.say("argh, typo: it's 2150 yuan. fix it and send it again")
    [action] = agent.actions
    assert action["args"]["fields"] == {"amount": 2150} and not action["args"].get("reason")
    agent.approve()
    [request] = store.snapshot()["requests"]
    assert request["reason"] == "client lunch" and '"amount": 2150' in request["form"]


def _returned_claim(graph_driver, make_ctx, *replies):
    claim = tool_call("runWorkFlow", {"processKey": "process_baoxiao", "reason": "团队午餐", "nextUserId": "李四",
                                      "fields": {"amount": 980, "category": "餐饮"}})
    agent = graph_driver(claim, "已提交。", *replies)
    agent.say("报销团队午餐980元，餐饮，李四审批")
    agent.approve()
    execute_call(TOOLSET, "returnTask", {"taskId": "task_1", "comment": "小票是890"}, make_ctx("user_2"))
    return agent


def test_a_reason_that_restates_the_changed_amount_is_no_new_reason(graph_driver, make_ctx):
    # written after the rule (the ninth round: the model's "金额改为七百五十元" became the reason); none from a scenario
    fixed = tool_call("resubmitRequest", {"requestId": "req_1", "reason": "金额改为八百九十元", "fields": {"amount": 890}})
    agent = _returned_claim(graph_driver, make_ctx, fixed, "已重新提交。")
    agent.say("好吧，金额改成八百九十元，再提一次")
    [action] = agent.actions
    assert action["args"]["fields"] == {"amount": 890} and not action["args"].get("reason")


def test_a_reason_the_person_changes_is_kept(graph_driver, make_ctx):
    fixed = tool_call("resubmitRequest", {"requestId": "req_1", "reason": "团队午餐（项目启动）",
                                          "fields": {"amount": 890}})
    agent = _returned_claim(graph_driver, make_ctx, fixed, "已重新提交。")
    agent.say("金额改成890，事由改成“团队午餐（项目启动）”，重新提交")
    [action] = agent.actions
    assert action["args"]["reason"] == "团队午餐（项目启动）" and action["args"]["fields"] == {"amount": 890}


def _returned_trip(graph_driver, make_ctx, resend, said):
    trip = tool_call("runWorkFlow", {"processKey": "process_chuchai", "reason": "见供应商", "nextUserId": "赵六",
                                     "fields": {"destination": "广州"}})
    agent = graph_driver(trip, "已提交。", resend, "已重新提交。")
    agent.say(said)
    agent.approve()
    execute_call(TOOLSET, "returnTask", {"taskId": "task_1", "comment": "晚一天回来吧"}, make_ctx("user_4"))
    return agent


@pytest.mark.parametrize(("filed", "given", "change", "changed"), [
    # the new last day only: the start the request was filed with stays, whether the model's `fields` are blank or
    # name the new day as both ends (written for this test; none from a scenario)
    ("1月25日到27日去广州见供应商，帮我提个出差，赵六审批", {}, "回来的日期改成28号吧，出发那天不变，重新提交一下",
     {"endDate": "2027-01-28"}),
    ("Business trip to Guangzhou Jan 25-27 to meet a supplier, Zhao Liu approves",
     {"startDate": "2027-01-28", "endDate": "2027-01-28"},
     "make the return date Jan 28 instead, same departure day, and send it back in", {"endDate": "2027-01-28"}),
    # the first day only: the last stays
    ("1月25日到27日去广州见供应商，帮我提个出差，赵六审批", {"startDate": "2027-01-24", "endDate": "2027-01-24"},
     "出发日期提前到24号吧，其他不变，再提交", {"startDate": "2027-01-24"}),
])
def test_a_returned_trip_whose_one_end_changes_keeps_the_other(graph_driver, make_ctx, filed, given, change, changed):
    resend = tool_call("resubmitRequest", {"requestId": "req_1", **({"fields": given} if given else {})})
    agent = _returned_trip(graph_driver, make_ctx, resend, filed)
    agent.say(change)
    [action] = agent.actions
    assert action["args"]["fields"] == changed


@pytest.mark.parametrize("said", ["好吧，金额改成890，再交一次", "fine, make it 890 and send it in again"])
def test_a_new_start_that_sends_again_is_the_resend_of_the_returned_request(graph_driver, make_ctx, said):
    # written after the rule (the twelfth round, re-run: "改成3天，再帮我提交一遍" filed a new leave); none from it
    start = tool_call("runWorkFlow", {"processKey": "process_baoxiao", "reason": "团队午餐", "nextUserId": "李四",
                                      "fields": {"amount": 890, "category": "餐饮"}})
    agent = _returned_claim(graph_driver, make_ctx, start, "已重新提交。")
    agent.say(said)
    [action] = agent.actions
    assert action["name"] == "resubmitRequest" and action["args"]["requestId"] == "req_1"


@pytest.mark.parametrize(("said", "tool"), [  # written after the rule (the thirteenth round's re-run, read); none from it
    ('make the reason "team lunch with the Suzhou client" and resubmit it', "returnTask"),
    ("事由写成「和苏州客户的午餐」，重新提交一下", "handleTodoTask"),
])
def test_a_call_on_a_to_do_from_someone_nothing_waits_on_that_sends_again_is_the_resend(graph_driver, make_ctx, said,
                                                                                          tool):
    on_a_todo = tool_call(tool, {"taskId": "req_1", "comment": "team lunch with the Suzhou client", "isOK": True})
    agent = _returned_claim(graph_driver, make_ctx, on_a_todo, "已重新提交。")
    agent.say(said)
    [action] = agent.actions
    assert action["name"] == "resubmitRequest" and action["args"]["requestId"] == "req_1"
    assert "Suzhou client" in action["args"]["reason"] or "苏州客户" in action["args"]["reason"]


def test_a_return_proposed_for_send_it_back_in_is_the_resend_with_the_new_end(graph_driver, make_ctx):
    # written after the rule (the fifteenth round, read: "… and send it back in" became a return); none from it
    on_a_todo = tool_call("returnTask", {"taskId": "req_1", "comment": "change it and send it again"})
    agent = _returned_trip(graph_driver, make_ctx, on_a_todo, "1月25日到27日去广州见供应商，帮我提个出差，赵六审批")
    agent.say("alright, move the return day to the 28th and send it back in")
    [action] = agent.actions
    assert action["name"] == "resubmitRequest" and action["args"]["fields"] == {"endDate": "2027-01-28"}


def test_send_it_back_to_him_from_the_requester_is_the_resend(graph_driver, make_ctx):
    # written after the rule (the eighteenth round, read: "make it 2,160 and send it back to him"); none from it
    agent = _returned_claim(graph_driver, make_ctx, tool_call("returnTask", {"taskId": "lunch", "comment": "890"}),
                            "Sent again.")
    agent.say("my bad, make it 890 and send it back to him")
    [action] = agent.actions
    assert action["name"] == "resubmitRequest" and action["args"]["fields"] == {"amount": 890}


@pytest.mark.parametrize("said", ["对，是我写错了，金额改成2045再提交", "my typo - change the amount to 2045 and resubmit"])
def test_an_amount_the_model_put_in_days_is_the_amount(graph_driver, store, make_ctx, said):
    # the thirtieth-round reading (ho29, after its run): a claim's new amount sent as days was refused as over 365 days
    # before any guard read the person's words; a form without days leaves them out, and the amount is read
    agent = _returned_claim(graph_driver, make_ctx, tool_call("resubmitRequest", {"requestId": "报销", "days": 2045}),
                            "已重新提交。")
    agent.say(said)
    [action] = agent.actions
    assert action["args"]["fields"]["amount"] == 2045
    agent.approve()
    [request] = store.snapshot()["requests"]
    assert request["status"] == "pending" and request["days"] is None and '"amount": 2045' in request["form"]


@pytest.mark.parametrize(("said", "asked"), [  # the forty-seventh round's writer found a claim asked of days and dates
    ("帮我把退回的报销重新提交一下", ("报销金额", "报销类别")),
    ("please resubmit the claim that came back", ("Amount", "Category")),
])
def test_a_resend_with_no_change_asks_what_changes_among_the_requests_own_fields(graph_driver, make_ctx, said, asked):
    agent = _returned_claim(graph_driver, make_ctx, tool_call("resubmitRequest", {"requestId": "req_1"}), "好的")
    question = str(agent.say(said)["messages"][-1].content)
    assert agent.actions == [] and all(label in question for label in asked), question
    assert "天数" not in question and "days" not in question


@pytest.mark.parametrize("said", [  # the seventy-fourth round's run; written for this test
    "收据补好了，报销帮我重新提交，跟李四说一声日期已经改成消费当天了",
    "please resubmit my claim and tell Li Si the date on the receipt was changed to the day of the lunch",
])
def test_what_the_person_asks_to_tell_the_approver_is_the_resends_note(graph_driver, make_ctx, said):
    made_up = tool_call("resubmitRequest", {"requestId": "报销", "days": 1, "reason": "改了日期",
                                            "fields": {"amount": 6000, "category": "差旅"}})
    agent = _returned_claim(graph_driver, make_ctx, made_up, "已重新提交。")
    agent.say(said)
    [action] = agent.actions
    assert "改成消费当天" in action["args"]["note"] or "changed to the day of the lunch" in action["args"]["note"]
    assert not any((action["args"].get("fields") or {}).values()) and not action["args"].get("reason")


@pytest.mark.parametrize(("said", "given"), [  # the full oracle run after the one-date rule (ho58_trip_dates_returned_en)
    ("Zhao Liu sent my Guangzhou trip back. Make the end date next Thursday and resend it.", "next Thursday"),
    ("结束日期改成下周四，重新提交", "下周四"),
])
def test_a_returned_trips_end_named_as_such_is_its_end(graph_driver, make_ctx, said, given):
    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_chuchai", "reason": "见供应商", "nextUserId": "user_4",
                                          "fields": {"destination": "广州", "startDate": "2027-01-18",
                                                     "endDate": "2027-01-20"}}, make_ctx("user_1"))
    execute_call(TOOLSET, "returnTask", {"taskId": "task_1", "comment": "晚一天回来吧"}, make_ctx("user_4"))
    resend = tool_call("resubmitRequest", {"requestId": "req_1", "fields": {"endDate": given}})
    agent = graph_driver(resend, "OK")
    agent.say(said)
    [action] = agent.actions
    assert action["args"]["fields"] == {"endDate": "2027-01-21"}


@pytest.mark.parametrize(("said", "misnamed", "reason"), [  # the eighty-sixth round's run; written after the rule
    ("事由改成：给新同事买的键盘和鼠标，再交一次", {"description": "给新同事买的键盘和鼠标"}, "给新同事买的键盘和鼠标"),
    ("把事由写成“部门周会的茶点”，重新提交", {"purpose": "部门周会的茶点"}, "部门周会的茶点"),
    ("change the reason to snacks for the sprint review, then send it again", {"details": "snacks for the sprint review"},
     "snacks for the sprint review"),
])
def test_a_change_the_model_files_under_a_name_the_form_lacks_is_read_from_the_person(graph_driver, store, make_ctx,
                                                                                       said, misnamed, reason):
    fixed = tool_call("resubmitRequest", {"requestId": "req_1", "fields": {"amount": 980, "category": "餐饮", **misnamed}})
    agent = _returned_claim(graph_driver, make_ctx, fixed, "已重新提交。")
    agent.say(said)
    [action] = agent.actions
    assert action["name"] == "resubmitRequest" and action["args"].get("reason") == reason, action["args"]
    agent.approve()
    [request] = store.snapshot()["requests"]
    assert request["status"] == "pending" and request["reason"] == reason
