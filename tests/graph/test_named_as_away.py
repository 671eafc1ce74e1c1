"""A person named only as away ("李四这两周都在外地", "Li Si is off this week") is no approver: the claim the sixty-third
round's writer refiled was carded for the colleague they said was away. Phrasings written for these tests, none from
a scenario."""

from __future__ import annotations

import pytest

from evals.doubles.scripted import tool_call


@pytest.mark.parametrize("said", [
    "王五这周都出差了，这笔重新报一下：480元，买会议室白板，办公类",
    "Wang Wu is away all week, so file it again: 480 yuan for a whiteboard, office supplies",
])
def test_a_person_named_only_as_away_is_asked_about_not_filed_as_approver(graph_driver, said):
    call = tool_call("runWorkFlow", {"processKey": "process_baoxiao", "reason": "whiteboard",
                                     "fields": {"amount": 480, "category": "办公"}})
    agent = graph_driver(call, "OK", user_id="user_1")
    answer = str(agent.say(said)["messages"][-1].content)
    assert agent.actions == [] and ("谁" in answer or "Who" in answer)


@pytest.mark.parametrize("said", [
    "王五这周不在，让赵六审批吧：480元，买白板，办公类",
    "Wang Wu is away, Zhao Liu approves: 480 yuan for a whiteboard, office supplies",
])
def test_the_one_named_as_approver_beside_one_away_is_the_approver(graph_driver, said):
    call = tool_call("runWorkFlow", {"processKey": "process_baoxiao", "reason": "whiteboard",
                                     "fields": {"amount": 480, "category": "办公"}})
    agent = graph_driver(call, "OK", user_id="user_1")
    agent.say(said)
    [card] = agent.actions
    assert card["args"]["nextUserId"] == "user_4"
