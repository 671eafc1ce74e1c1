"""An amount of money is no text of a form: an answer to "how much?" the model put in a trip's destination is not
filed as the place (the seventy-first round's run filed "一共326块5" as where the trip went, every trial). Phrasings
written for these tests, none from the evaluation sets."""

from __future__ import annotations

from datetime import date

import pytest

from evals.doubles.scripted import tool_call
from tools.readers import only_an_amount


@pytest.mark.parametrize(("text", "amount"), [
    ("一共326块5", True), ("¥480", True), ("合计1200元", True), ("450 yuan", True), ("in all 86.5 RMB", True),
    ("北京", False), ("上海，3天", False), ("深圳的客户现场", False), ("480元的椅子", False), ("Chengdu", False),
])
def test_only_an_amount_is_read_as_such(text, amount):
    assert only_an_amount(text, date(2026, 12, 7)) is amount


@pytest.mark.parametrize("answer", ["一共780块", "total 780 yuan"])
def test_an_amount_put_as_a_destination_is_asked_again(graph_driver, store, answer):
    trip = tool_call("runWorkFlow", {"processKey": "process_chuchai", "reason": "见客户", "nextUserId": "李四",
                                     "fields": {"destination": answer, "startDate": "2027-01-20", "endDate": "2027-01-21"}})
    agent = graph_driver(trip, "好的", fixed_answers=True)
    result = agent.say(f"下周三到周四出差见客户，李四审批，{answer}")
    assert agent.actions == [] and store.snapshot()["requests"] == []
    asked = str(result["messages"][-1].content)
    assert "?" in asked or "？" in asked


@pytest.mark.parametrize(("first", "dates"), [  # the eighty-eighth round's run; written after the rule
    ("file a business trip for the client workshop, zhao liu signs off", "next tuesday till next thursday"),
    ("帮我提个出差，去见客户，赵六审批", "下周二到下周四"),
])
def test_dates_given_where_a_destination_was_asked_first_are_the_dates(graph_driver, store, first, dates):
    trip = tool_call("runWorkFlow", {"processKey": "process_chuchai", "reason": "client workshop", "nextUserId": "赵六"})
    agent = graph_driver(trip, "ok", user_id="user_3")
    agent.say(first)
    asked = str(agent.say(dates)["messages"][-1].content)
    assert agent.actions == [] and store.snapshot()["requests"] == []
    assert ("destination" in asked.lower() or "地点" in asked) and "date" not in asked.lower() and "日期" not in asked
