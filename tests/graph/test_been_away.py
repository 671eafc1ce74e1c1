"""A trip that already happened, said beside the leave asked for ("连着出差了两周…下周一想调休一天", "back from the
Shanghai trip, need a comp day Monday"), names no trip to request: the comp day had been filed as a trip and its
destination asked (the fifty-eighth round's run; none of its words). Through the real graph with a scripted model."""

from __future__ import annotations

import pytest

from evals.doubles.scripted import tool_call


@pytest.mark.parametrize("said", [
    "这个月出差了三周，周六也在见客户，下周二想调休一天，李四审批",
    "Just back from the Chengdu trip, worked the whole weekend, need a comp day next Tuesday, Li Si approves",
])
def test_a_trip_that_happened_is_no_trip_to_request(graph_driver, said):
    agent = graph_driver(tool_call("runWorkFlow", {"processKey": "process_chuchai", "reason": "rest", "days": 1,
                                                   "nextUserId": "李四"}), "OK", user_id="user_1")
    agent.say(said)
    [card] = agent.actions
    assert card["args"]["processKey"] == "process_qingjia" and card["args"]["fields"]["leaveType"] == "调休"


@pytest.mark.parametrize("said", ["下周去成都出差三天，见客户，李四审批", "business trip to Chengdu next week, Li Si approves"])
def test_a_trip_to_come_is_still_a_trip(graph_driver, said):
    agent = graph_driver(tool_call("runWorkFlow", {"processKey": "process_qingjia", "reason": "见客户",
                                                   "nextUserId": "李四"}), "OK", user_id="user_1")
    agent.say(said)
    actions = agent.actions
    proposed = actions[0]["args"]["processKey"] if actions else None
    asked = str(agent.messages[-1].content)
    assert proposed == "process_chuchai" or "出发日期" in asked or "start date" in asked.lower()  # the trip's dates asked


@pytest.mark.parametrize("said", [  # the sixty-third round's writer: a refund fee's claim was asked a trip's dates
    "广州出差取消了，改签手续费80元那就报了吧，差旅类，李四审批",
    "The Xi'an trip was called off, so put the 80 yuan change fee through under travel, Li Si approves",
])
def test_a_trip_called_off_is_no_trip_to_request_beside_its_claim(graph_driver, said):
    call = tool_call("runWorkFlow", {"processKey": "process_baoxiao", "reason": "change fee", "nextUserId": "李四",
                                     "fields": {"amount": 80, "category": "差旅"}})
    agent = graph_driver(call, "OK", user_id="user_1")
    agent.say(said)
    [card] = agent.actions
    assert card["args"]["processKey"] == "process_baoxiao" and card["args"]["fields"]["amount"] == 80
