"""Withdrawing or resending a request the person speaks of as someone else's by pronoun after naming them ("Li Si
texted me to cancel his leave request for him") is refused and told: only its requester does that. Before, the
lookup of the person's own requests found none and the model filed a new leave instead (the twenty-ninth round, read
after its run). Through the real graph with a scripted model; phrasings written for these tests."""

from __future__ import annotations

import pytest

from evals.doubles.scripted import tool_call


@pytest.mark.parametrize(("said", "told"), [
    ("Wang Wu's phone died and he asked me to pull back his expense claim for him, can you do it?", "only Wang Wu can"),
    ("王五刚给我打电话，让我帮他把他的报销撤回一下", "只有王五本人"),
    ("Wang Wu wants me to send his returned claim in again on his behalf", "only Wang Wu can"),
    # the name in a sentence before the one that asks (the fortieth round, read after its run; none of its words)
    ("Wang Wu's move fell through. Please cancel his expense claim for him, he's offline", "only Wang Wu can"),
    # his own words quoted (the forty-eighth round's run; none of its words)
    ('Wang Wu pinged me: "my laptop died, please cancel my expense claim for me". Could you?', "only Wang Wu can"),
    ("王五在群里跟我说：“帮我把我那个报销撤了，金额填错了”，你帮他撤一下", "只有王五本人"),
    # asked for him, "帮他把…撤回" (the seventy-sixth round's run; none of its words)
    ("王五说那笔报销不用报了，麻烦你替他把报销撤回", "只有王五本人"),
])
def test_another_persons_request_spoken_of_by_pronoun_is_not_withdrawn(graph_driver, store, start_request, said,
                                                                       told):
    start_request(requester="user_3", approver="user_2", days=1, reason="搬家")
    call = "resubmitRequest" if "again" in said else "withdrawRequest"
    claimed = "Withdrawn." if "again" not in said else "Sent."  # the model says it did it, asked again says so again
    agent = graph_driver(tool_call(call, {"requestId": "claim"}), claimed, claimed, fixed_answers=True)
    agent.say(said)
    assert agent.actions == []
    assert told in str(agent.values["messages"][-1].content)
    assert store.snapshot()["requests"][0]["status"] == "pending"


@pytest.mark.parametrize("said", [
    "Li Si says the dates clash with his plans, so please withdraw my leave request",
    "Wang Wu wanted me to pull his claim as well, which I can't, but please withdraw my own leave request",
])
def test_ones_own_request_with_a_colleague_named_is_withdrawn(graph_driver, store, start_request, said):
    start_request(requester="user_1", approver="user_2", days=1, reason="搬家")
    agent = graph_driver(tool_call("withdrawRequest", {"requestId": "leave"}), "done.", fixed_answers=True)
    agent.say(said)
    [action] = agent.actions
    assert action["name"] == "withdrawRequest"


@pytest.mark.parametrize(("said", "told"), [
    # the fifty-sixth round's writer, none of its words: the refusal sent the model to the approver's tools, and its
    # plain answer was sent back for one of them, again and again
    ("Wang Wu's trip request has been stuck with Li Si all week. Chase Li Si about it for me, would you?",
     "only Wang Wu can send its approver a reminder"),
    ("王五的请假在李四那卡好几天了，你帮我催催李四", "只有王五本人能催办"),
])
def test_urging_another_persons_request_one_holds_no_step_of_is_told_plainly(graph_driver, store, start_request, said,
                                                                           told):
    start_request(requester="user_3", approver="user_2", days=1, reason="搬家")
    agent = graph_driver(tool_call("urgeTask", {"requestId": "leave"}), "OK.", "OK.", fixed_answers=True)
    agent.say(said, user_id="user_4")
    assert agent.actions == []
    assert told in str(agent.values["messages"][-1].content)
    assert store.snapshot()["urges"] == []
