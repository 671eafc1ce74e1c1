"""A start's approver is the one named as approving, not one its words send something to ("I paid 600 yuan for the
wreath the team sent to Wang Wu's father's funeral… Zhao Liu approves": Zhao Liu, not Wang Wu), while a transfer's
taker is still the one it goes to (the fifty-ninth round's writer; none of its words). Through the real graph with a
scripted model."""

from __future__ import annotations

import pytest

from evals.doubles.scripted import tool_call


@pytest.mark.parametrize("said", [
    "Claim 300 yuan for the flowers we sent to Wang Wu's mother in hospital, category Other, Zhao Liu approves",
    "报销送给王五家里的果篮300元，其他类，赵六审批",
])
def test_the_approver_named_as_approving_wins_over_whom_something_was_sent_to(graph_driver, said):
    agent = graph_driver(tool_call("runWorkFlow", {"processKey": "process_baoxiao", "reason": "flowers",
                                                   "nextUserId": "赵六", "fields": {"amount": 300, "category": "其他"}}),
                         "OK", user_id="user_2")
    agent.say(said)
    [card] = agent.actions
    assert card["args"]["nextUserId"] == "user_4"


def test_a_transfer_still_goes_to_whom_it_is_passed(graph_driver, start_request):
    start_request(requester="user_1", approver="user_2", days=1, reason="看病")
    agent = graph_driver(tool_call("transferTask", {"taskId": "张三", "nextUserId": "赵六"}), "OK", user_id="user_2",
                         fixed_answers=True)
    agent.say("张三的请假转给王五，他来批")
    [action] = agent.actions
    assert action["args"]["nextUserId"] == "user_3"


def test_a_decision_beside_a_transfer_names_no_approver_of_it():
    # the thirty-seventh round's scenario, caught by the oracle when the approver's cue was read on either side of
    # a name: "approve Zhao Liu's day off" made Zhao Liu the taker of the trip passed on to Li Si
    from tools.workflow.approver_words import taker_first
    from tools.workflow.cc import pick_person

    named = [{"id": "user_4", "name": "赵六", "alias": "Zhao Liu"}, {"id": "user_2", "name": "李四", "alias": "Li Si"}]
    text = "approve zhao liu's day off, and hand the guangzhou trip over to Li Si"
    assert [p["id"] for p in taker_first(pick_person)("nextUserId", text, named)] == ["user_2"]
    text = "Claim 300 yuan for flowers sent to Li Si's mother, Zhao Liu approves"
    assert [p["id"] for p in taker_first(pick_person)("nextUserId", text, named)] == ["user_4"]
