"""A withdrawal taken back in the same message keeps the request: nothing is withdrawn, and the reminder asked for
instead comes to its card; a withdrawal asked again after it is carded as before. Written after the sixty-seventh
round's run; none of these phrasings is the round's."""

from __future__ import annotations

import pytest

from evals.doubles.scripted import tool_call


@pytest.mark.parametrize("said", [
    "把我那个请假撤回吧……哦算了，先不撤了，帮我催一下李四",
    "withdraw my leave request - actually no, keep it, just nudge Li Si",
])
def test_a_withdrawal_taken_back_withdraws_nothing_and_the_reminder_comes(graph_driver, store, start_request, said):
    start_request(requester="user_1", approver="user_2", days=1, reason="看病")
    agent = graph_driver(tool_call("withdrawRequest", {"requestId": "req_1"}), "ok", "ok", user_id="user_1",
                         fixed_answers=True)
    agent.say(said)
    assert [a["name"] for a in agent.actions] == ["urgeTask"]
    assert store.snapshot()["requests"][0]["status"] == "pending"


def test_a_withdrawal_asked_again_after_keeping_it_is_carded(graph_driver, store, start_request):
    start_request(requester="user_1", approver="user_2", days=1, reason="看病")
    agent = graph_driver(tool_call("withdrawRequest", {"requestId": "req_1"}), "ok", user_id="user_1",
                         fixed_answers=True)
    agent.say("先不撤了……不对，还是撤回吧，那天不去了")
    assert [a["name"] for a in agent.actions] == ["withdrawRequest"]


def test_another_request_kept_beside_the_one_withdrawn_is_no_take_back(graph_driver, store, start_request):
    start_request(requester="user_1", approver="user_2", days=1, reason="看病")
    agent = graph_driver(tool_call("withdrawRequest", {"requestId": "req_1"}), "ok", user_id="user_1",
                         fixed_answers=True)
    agent.say("cancel the sick day, I feel fine now - keep the other one though")
    assert [a["name"] for a in agent.actions] == ["withdrawRequest"]
