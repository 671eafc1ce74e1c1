"""A refusal of a tool's rules is told only of numbers the person gave: a leave of 10 days the model made up for "use
up the rest of my vacation" is asked how many days, not refused as over the balance "this request needs 10 days"
(the seventy-first round's run, two trials of three). Phrasings written for these tests, none from the evaluation
sets."""

from __future__ import annotations

import pytest

from evals.doubles.scripted import tool_call


def _leave(days: float):
    return tool_call("runWorkFlow", {"processKey": "process_qingjia", "reason": "family trip", "days": days,
                                     "nextUserId": "Wang Wu", "fields": {"leaveType": "年假"}})


@pytest.mark.parametrize("said", [
    "I'd like to take whatever annual leave I still have before New Year. Wang Wu signs off.",
    "年底前把剩下的年假休掉，王五批",
])
def test_days_nobody_said_are_asked_before_any_balance_is_judged(graph_driver, store, said):
    agent = graph_driver(_leave(12), "x", user_id="user_2", fixed_answers=True)
    answer = str(agent.say(said)["messages"][-1].content)
    assert "12" not in answer and ("?" in answer or "？" in answer)
    assert store.snapshot()["requests"] == []


def test_days_the_person_said_over_the_balance_are_refused_naming_it(graph_driver, store):
    agent = graph_driver(_leave(12), "x", user_id="user_2", fixed_answers=True)
    answer = str(agent.say("12 days of annual leave from next Monday for a family trip, Wang Wu signs off")
                 ["messages"][-1].content)
    assert "12" in answer and "5" in answer and store.snapshot()["requests"] == []
