"""Saying one has no time for approvals decides nothing ("这周出差顾不上审批了", "I won't get to my approvals today"): a
to-do passed on in the same message is passed on, and its card shown. Written after the seventieth round's writer
reported a hand-over refused as an approval; none of these phrasings is the round's."""

from __future__ import annotations

import pytest

from evals.doubles.scripted import tool_call


@pytest.mark.parametrize(("said", "to"), [
    ("明天一整天都在路上，顾不上看审批了。王五那个请假麻烦转给赵六吧", "赵六"),
    ("I can't get to approving anything today, sorry. Could you pass Wang Wu's leave to Zhao Liu?", "Zhao Liu"),
])
def test_no_time_for_approvals_is_no_decision_beside_a_hand_over(graph_driver, store, start_request, said, to):
    start_request(requester="user_3", approver="user_2", days=1, reason="搬家")
    agent = graph_driver(tool_call("transferTask", {"taskId": "task_1", "nextUserId": to}), "ok", user_id="user_2",
                         fixed_answers=True)
    agent.say(said)
    assert [a["name"] for a in agent.actions] == ["transferTask"]
    assert store.snapshot()["tasks"][0]["status"] == "pending"
