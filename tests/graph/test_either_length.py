"""A length said as one of two ("两三天", "one or two days", "2-3 days", 三到五天) is no length of the person's: it is
asked, never picked, whatever the model put in (a leave "想请两三天假" was filed as 2 days: the seventy-third round's
run, every trial). Phrasings written for these tests, none from the evaluation sets."""

from __future__ import annotations

from datetime import date

import pytest

from evals.doubles.scripted import tool_call
from tools.request import read_request


@pytest.mark.parametrize(("said", "days"), [
    ("月底想请个三四天假陪老人看病", []), ("maybe one or two days off next week", []), ("need 2-3 days off", []),
    ("请四到五天年假", []), ("请4天年假", [4.0]), ("周一到周三请3天", [3.0]), ("一天半就够", [1.5]),
])
def test_a_length_said_as_either_of_two_is_none(said, days):
    assert read_request([said], index=0, today=date(2026, 12, 7))["days"] == days


@pytest.mark.parametrize(("said", "answer", "asked"), [
    ("月底想请个三四天假陪老人看病，李四审批", "就三天吧", "几天"),
    ("I'd like two or three days off to help my parents move, Li Si approves", "three days", "How many days"),
])
def test_the_model_picking_one_of_two_lengths_is_asked_which(graph_driver, store, said, answer, asked):
    leave = {"processKey": "process_qingjia", "reason": "陪老人看病" if "老人" in said else "help my parents move",
             "nextUserId": "李四", "fields": {"leaveType": "事假"}}
    agent = graph_driver(tool_call("runWorkFlow", {**leave, "days": 3}), tool_call("runWorkFlow", {**leave, "days": 3}),
                         "ok", fixed_answers=True)
    question = str(agent.say(said)["messages"][-1].content)
    assert asked in question and agent.actions == []
    agent.say(answer)
    [action] = agent.actions
    assert action["args"]["days"] == 3
