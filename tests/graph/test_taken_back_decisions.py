"""A decision taken back in the same breath is not the decision: "approve it... actually no, pass it on to Wang Wu"
passes it on, and "批了吧……哦不，驳回" rejects (the thirty-fourth round's writer found the pass-on refused as an
approval). Phrasings written for these tests, none from a scenario."""

from __future__ import annotations

import pytest

from evals.doubles.scripted import tool_call


@pytest.mark.parametrize("said", [
    "OK Zhang San's leave... actually no, he moved to Wang Wu's team last week. Hand it over to Wang Wu.",
    "张三的假批了吧，哦不，他已经调到王五组了，转给王五处理",
])
def test_an_approval_taken_back_for_a_pass_on_passes_it_on(graph_driver, store, start_request, said):
    start_request(requester="user_1", approver="user_2", days=2, reason="回老家")
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "task_1", "isOK": True}), "好的", user_id="user_2",
                         fixed_answers=True)
    agent.say(said)
    [card] = agent.actions
    assert card["name"] == "transferTask" and card["args"]["nextUserId"] == "user_3"
    agent.approve()
    [task] = [t for t in store.snapshot()["tasks"] if t["status"] == "pending"]
    assert task["assignee_id"] == "user_3"


@pytest.mark.parametrize(("said", "approved"), [
    ("张三的批了吧……哦不对，驳回，这周人手不够", False),
    ("Reject Zhang San's. No wait, I mean approve it, he cleared it with me.", True),
    ("驳回张三的，天数不对", False),  # 不对 of the days, after the decision: nothing taken back
])
def test_the_decision_said_last_is_the_one_made(graph_driver, store, start_request, said, approved):
    start_request(requester="user_1", approver="user_2", days=2, reason="回老家")
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "task_1", "isOK": not approved, "result": "按你说的"}),
                         "好的", user_id="user_2", fixed_answers=True)
    agent.say(said)
    [card] = agent.actions
    assert card["name"] == "handleTodoTask" and card["args"]["isOK"] is approved
