"""A correction after a declined start card is the same request: what the first message said and the correction does
not change is still said (a taxi's category), and the number the correction gives is the amount. Through the real
graph with a scripted model; phrasings written for these tests, none from the evaluation sets."""

from __future__ import annotations

import pytest

from evals.doubles.scripted import tool_call


def _claim(amount: float, **fields):
    return tool_call("runWorkFlow", {"processKey": "process_baoxiao", "reason": "打车去客户那", "nextUserId": "李四",
                                     "fields": {"amount": amount, **fields}})


@pytest.mark.parametrize(("first", "correction", "amount"), [
    ("报销打车去客户那的费用1280元，李四审批", "金额是1080，不是1280", 1080),
    ("Claim 1280 yuan for the taxi to the client, Li Si approves", "no wait, the total was 1080", 1080),
    ("报销打车去客户那的费用1280元，李四审批", "不对，应该是1080", 1080),
    ("Claim 1280 yuan for the taxi to the client, Li Si approves", "make it 1080", 1080),
    # the correction's number alone, right after the declined card (the fifteenth round's writer found it asked again)
    ("报销打车去客户那的费用1280元，李四审批", "1080才对", 1080),
    ("Claim 1280 yuan for the taxi to the client, Li Si approves", "oops, 1080", 1080),
    ("Claim 1280 yuan for the taxi to the client, Li Si approves", "1080 — I misread the receipt", 1080),
])
def test_a_correction_after_a_declined_card_keeps_the_category_and_files_the_new_amount(
    graph_driver, store, first, correction, amount
):
    # the model's second call leaves the category out; the taxi of the first message still implies travel
    agent = graph_driver(_claim(1280, category="差旅"), "好的，没有提交。", _claim(amount), "已提交。")
    agent.say(first)
    agent.resume({"decisions": [{"type": "reject", "message": "金额不对"}]})
    agent.say(correction)
    [action] = agent.actions
    assert action["args"]["fields"] == {"amount": amount, "category": "差旅"}
    assert not any(w in action["args"]["reason"] for w in ("wait", "total", "make it", "应该", "不对"))  # no why


def test_a_number_alone_that_speaks_of_no_amount_corrects_nothing(graph_driver, store):
    # "2 people went" is a count, not the claim's amount: the model's 2 is not filed as yuan
    agent = graph_driver(_claim(1280, category="差旅"), "好的，没有提交。", _claim(2), "已提交。")
    agent.say("报销打车去客户那的费用1280元，李四审批")
    agent.resume({"decisions": [{"type": "reject", "message": "再想想"}]})
    agent.say("我们去了2个人，事由写清楚点")
    assert all(action["args"]["fields"].get("amount") != 2 for action in agent.actions)
    assert store.snapshot()["requests"] == []


@pytest.mark.parametrize(("first", "then", "kind"), [  # written after the rule (the fourteenth round's writer)
    ("请20天年假回老家，李四审批", "那就先请3天吧", "年假"),
    ("20 days of annual leave for a trip home, Li Si approves", "ok, just 3 days then", "年假"),
])
def test_a_change_after_a_refused_request_keeps_what_it_said(graph_driver, store, first, then, kind):
    # the leave was refused (too long for its type); the next message changes only the days: the type still stands
    leave = {"processKey": "process_qingjia", "reason": "回老家", "nextUserId": "李四"}
    agent = graph_driver(tool_call("runWorkFlow", {**leave, "days": 20, "fields": {"leaveType": kind}}),
                         tool_call("runWorkFlow", {**leave, "days": 3}), "已提交。")
    agent.say(first)
    assert agent.actions == []
    agent.say(then)
    [action] = agent.actions
    assert action["args"]["days"] == 3 and action["args"]["fields"]["leaveType"] == kind


_DOCK_EN = "Office supplies: a docking station for my desk, 0.9k. Put in an expense claim, Li Si approves"
_DOCK_ZH = "买了个扩展坞，办公用品，九百，报销一下，李四审批"


def _taken_for_a_return(correction, amount):
    return ["好的，没有提交。", tool_call("returnTask", {"taskId": "expense", "comment": correction}), "已提交。"], False


def _taken_for_a_resend(correction, amount):
    # the offline model's declined card is answered in code: its next call is the resend it took the correction for
    return [tool_call("resubmitRequest", {"requestId": "扩展坞", "amount": amount}), "已提交。"], True


@pytest.mark.parametrize(("taken_for", "first", "correction", "amount"), [  # written after the rule
    (_taken_for_a_return, _DOCK_EN, "sorry, it's 0.95k, rest the same", 950),  # the fifteenth round, read
    (_taken_for_a_return, _DOCK_ZH, "不好意思，是九百五，其他不变", 950),
    (_taken_for_a_resend, _DOCK_ZH, "发票上是九百五，其他不变，重新提交吧", 950),  # the twenty-fifth round, read
    (_taken_for_a_resend, _DOCK_EN, "receipt says 0.95k, resubmit it please", 950),
])
def test_a_correction_after_a_declined_card_taken_for_another_write_is_the_start_again(
        graph_driver, store, taken_for, first, correction, amount):
    claim = tool_call("runWorkFlow", {"processKey": "process_baoxiao", "reason": "docking station", "nextUserId": "李四",
                                      "fields": {"amount": 900, "category": "办公"}})
    then, fixed_answers = taken_for(correction, amount)
    agent = graph_driver(claim, *then, fixed_answers=fixed_answers)
    agent.say(first)
    agent.resume({"decisions": [{"type": "reject", "message": "amount is off"}]})
    agent.say(correction)
    [action] = agent.actions
    assert action["name"] == "runWorkFlow" and action["args"]["processKey"] == "process_baoxiao"
    assert action["args"]["fields"]["amount"] == amount


@pytest.mark.parametrize(("first", "correction", "place"), [  # written after the rule (the eighteenth round, read)
    ("周三到周五去杭州见客户，提个出差，李四审批", "搞错了，其实是宁波，不是杭州，别的照旧", "宁波"),
    ("Business trip to Hangzhou Wednesday to Friday to see a client, Li Si approves",
     "my bad — Ningbo, not Hangzhou. Everything else stays", "Ningbo"),
])
def test_a_place_corrected_after_a_declined_card_is_the_one_filed(graph_driver, store, first, correction, place):
    # the model leaves the destination out both times: the code reads it, and reads the correction over it
    trip = tool_call("runWorkFlow", {"processKey": "process_chuchai", "reason": "见客户", "nextUserId": "李四",
                                     "fields": {"startDate": "2027-01-20", "endDate": "2027-01-22"}})
    agent = graph_driver(trip, "好的，没有提交。", trip, "已提交。")
    agent.say(first)
    agent.resume({"decisions": [{"type": "reject", "message": "地点不对"}]})
    agent.say(correction)
    [action] = agent.actions
    assert action["args"]["fields"]["destination"] == place


@pytest.mark.parametrize("said", [  # the twenty-third round, read; written after the rule
    "下周一二想休两天，年假或者调休都可以，李四批",
    "Two days off next Mon-Tue, annual leave or comp days, either works. Li Si approves",
])
def test_two_kinds_of_leave_named_and_none_chosen_is_asked_not_defaulted(graph_driver, store, said):
    leave = tool_call("runWorkFlow", {"processKey": "process_qingjia", "reason": "休息", "days": 2, "nextUserId": "李四"})
    agent = graph_driver(leave, "好的。")
    result = agent.say(said)
    assert agent.interrupts == [] and store.snapshot()["requests"] == []
    answer = str(result["messages"][-1].content)
    assert ("年假" in answer and "调休" in answer) or ("nnual" in answer and "omp" in answer)


@pytest.mark.parametrize(("first", "then"), [  # the thirty-eighth round, read after its run; none of its words
    ("Next Thursday afternoon off as comp time please, parents-in-law visiting. Zhao Liu approves",
     "ah, none left. use my annual leave for it then, same afternoon"),
    ("下周四下午调休半天，岳父母来看我们，赵六审批", "哦调休没了，那用我的年假吧，还是那个下午"),
])
def test_a_change_of_kind_after_a_refused_leave_taken_for_another_write_is_the_start_again(graph_driver, store, first,
                                                                                          then):
    leave = {"processKey": "process_qingjia", "reason": "parents-in-law visiting", "nextUserId": "赵六", "days": 0.5}
    agent = graph_driver(tool_call("runWorkFlow", {**leave, "fields": {"leaveType": "调休"}}),  # refused in code
                         tool_call("returnTask", {"taskId": "leave", "comment": then}), "y", user_id="user_3")
    agent.say(first)
    assert agent.actions == [] and "0" in str(agent.values["messages"][-1].content)  # no comp days left: refused
    agent.say(then)
    [action] = agent.actions
    assert action["name"] == "runWorkFlow" and action["args"]["fields"]["leaveType"] == "年假"
    assert action["args"]["fields"]["startHalf"] == "下午" and action["args"]["nextUserId"] == "user_4"


@pytest.mark.parametrize(("first", "correction", "day"), [  # written for this test; none from the evaluation sets
    ("下周二请一天事假去办护照，李四审批", "啊不对，改到下周四吧", "2027-01-21"),
    ("A day of personal leave next Tuesday to renew my passport, Li Si approves", "scratch that, next Thursday",
     "2027-01-21"),
    ("Personal leave next Tuesday to renew my passport, Li Si approves", "actually no, make it Thursday next week",
     "2027-01-21"),
])
def test_a_day_taken_back_after_a_declined_card_is_the_one_filed(graph_driver, store, first, correction, day):
    # the model's second call leaves the dates out; the day the correction gives is the leave's, its length kept
    leave = {"processKey": "process_qingjia", "reason": "办护照" if "护照" in first else "renew my passport",
             "days": 1, "nextUserId": "李四", "fields": {"leaveType": "事假"}}
    first_call = tool_call("runWorkFlow", {**leave, "fields": {"leaveType": "事假", "startDate": "2027-01-19",
                                                                 "endDate": "2027-01-19"}})
    agent = graph_driver(first_call, "好的，没有提交。", tool_call("runWorkFlow", leave), "已提交。")
    agent.say(first)
    agent.resume({"decisions": [{"type": "reject", "message": "日期不对"}]})
    agent.say(correction)
    [action] = agent.actions
    assert (action["args"]["fields"].get("startDate"), action["args"]["fields"].get("endDate")) == (day, day)
    assert action["args"]["days"] == 1


@pytest.mark.parametrize(("first", "answer"), [  # the seventy-third round's writer; written for this test
    ("Business trip to Xiamen from the Monday after next, the return isn't booked yet, Li Si approves", "1/28"),
    ("下下周一去厦门出差见客户，回程还没定，李四审批", "1月28号"),
])
def test_the_one_date_answering_the_end_date_keeps_the_start_said_before(graph_driver, store, first, answer):
    place = "厦门" if "厦门" in first else "Xiamen"
    asked = tool_call("runWorkFlow", {"processKey": "process_chuchai", "reason": "见客户", "nextUserId": "李四",
                                      "fields": {"destination": place, "startDate": "2027-01-25"}})
    both = tool_call("runWorkFlow", {"processKey": "process_chuchai", "reason": "见客户", "nextUserId": "李四",
                                     "fields": {"destination": place, "startDate": "2027-01-28", "endDate": "2027-01-28"}})
    agent = graph_driver(asked, both, "ok", fixed_answers=True)
    agent.say(first)
    agent.say(answer)
    [action] = agent.actions
    fields = action["args"]["fields"]
    assert (fields["startDate"], fields["endDate"]) == ("2027-01-25", "2027-01-28")
