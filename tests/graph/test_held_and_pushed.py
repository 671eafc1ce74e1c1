"""What the forty-seventh and forty-eighth rounds' run showed, each as the rule a person would state: a decision held
for now (先别批, "don't approve it yet") is neither approval nor rejection, and one the person quotes someone else as
asking for is not theirs; "push 一下", "give him a push" remind an approver. Phrasings written for these tests, none
from a scenario."""

from __future__ import annotations

import pytest

from evals.doubles.scripted import tool_call
from tools.workflow.words import URGE_WORDS, decision_in


@pytest.mark.parametrize("said", [
    "王五那个出差先别批，我问问客户那边", "暂时不要通过，等我把预算对一下",
    "don't approve Zhang San's trip yet, I need to check the budget", "do not sign it yet",
    '王五早上跟我说：“李四，我那笔报销你直接批了吧”，我先看看是什么',
    'Zhang San wrote to me: "just approve it, thanks". What is it for?',
])
def test_a_decision_held_or_quoted_from_someone_else_decides_nothing(said):
    assert decision_in(said) is None


@pytest.mark.parametrize(("said", "decided"), [
    ("别批了，这个预算不够", False), ("don't approve it, the budget is frozen", False),
    ('王五说：“我这边已经批了”，那我这边也通过吧', True),
])
def test_a_decision_of_the_persons_own_still_decides(said, decided):
    assert decision_in(said) is decided


@pytest.mark.parametrize("said", [
    "我的请假王五三天了还没批，帮我 push 一下", "can you give him a push on my leave? it's been a week",
    "请假一直卡在王五那，推一下吧",
])
def test_a_push_asked_for_is_a_reminder(graph_driver, start_request, said):
    assert URGE_WORDS.search(said)
    start_request(requester="user_1", approver="user_3", days=1, reason="看牙")
    agent = graph_driver(tool_call("queryMyRequests", {"userId": "user_1"}), "It is with Wang Wu.", "OK.",
                         user_id="user_1", fixed_answers=True)
    agent.say(said)
    assert [(a["name"], a["args"]["requestId"]) for a in agent.actions] == [("urgeTask", "req_1")]


@pytest.mark.parametrize(("said", "half"), [  # the forty-eighth round's run; none of these is its words
    ('My manager Li Si wrote back: "fine, have next Thursday morning off for the bank". File half a day, Li Si approves.',
     "上午"),
    ("李四回我说下周四下午可以去体检，帮我请半天病假，李四批", "下午"),
])
def test_a_decision_on_the_approver_named_by_someone_with_nothing_to_decide_is_their_start(graph_driver, store, said,
                                                                                         half):
    decided = tool_call("handleTodoTask", {"taskId": "Li Si" if "Li Si" in said else "李四", "isOK": True})
    agent = graph_driver(decided, "OK", user_id="user_3", fixed_answers=True)
    agent.say(said)
    [card] = agent.actions
    assert card["name"] == "runWorkFlow" and card["args"]["fields"].get("startHalf") == half
