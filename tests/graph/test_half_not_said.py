"""Half a day on one day with neither half said is asked ("上午还是下午？"), as docs/leave.md says, not refused as half a
day that does not match the day's whole one (the thirty-fourth round's writer found it refused). Phrasings written for
these tests, none from a scenario."""

from __future__ import annotations

import pytest

from evals.doubles.scripted import tool_call


@pytest.mark.parametrize(("said", "answer", "half"), [
    ("下周三请半天事假，去银行办点事，李四批", "下午吧", "下午"),
    ("I'd like half a day of personal leave next Wednesday to sort out my bank account. Li Si approves.",
     "the morning", "上午"),
])
def test_half_a_day_with_no_half_said_is_asked_then_filed(graph_driver, store, said, answer, half):
    agent = graph_driver(tool_call("runWorkFlow", {
        "processKey": "process_qingjia", "reason": "去银行办点事" if "银行" in said else "sort out my bank account",
        "days": 0.5, "nextUserId": "李四",
        "fields": {"leaveType": "事假", "startDate": "下周三", "endDate": "下周三"}}), "好的", user_id="user_1")
    result = agent.say(said)
    question = str(result["messages"][-1].content)
    assert agent.actions == [] and ("上午还是下午" in question or "morning or the afternoon" in question), question
    agent.say(answer)
    [card] = agent.actions
    assert card["args"]["fields"]["startHalf"] == half and card["args"]["days"] == 0.5
    agent.approve()
    [row] = store.snapshot()["requests"]
    assert row["days"] == 0.5 and f'"startHalf": "{half}"' in row["form"]


def test_half_a_day_with_its_half_said_is_filed_without_a_question(graph_driver, store):
    agent = graph_driver(tool_call("runWorkFlow", {
        "processKey": "process_qingjia", "reason": "去银行办点事", "days": 0.5, "nextUserId": "李四",
        "fields": {"leaveType": "事假", "startDate": "下周三", "endDate": "下周三"}}), "好的", user_id="user_1")
    agent.say("下周三下午请半天事假，去银行办点事，李四批")
    [card] = agent.actions
    assert card["args"]["fields"]["startHalf"] == "下午"
