"""A request of the person's named by whom it still waits on ("withdraw whichever of my claims Li Si hasn't approved
yet", 撤回还压在李四那边的那个报销) is the one that person holds now, when one of theirs fits: before, the look-up
found two claims and asked which, though the words said (the fifty-fourth round, read after its run). Through the real
graph with a scripted model; phrasings written for these tests, none of that round's."""

from __future__ import annotations

import pytest

from evals.doubles.scripted import tool_call
from tools import execute_call
from tools.workflow import TOOLSET


def _claims(make_ctx, *, decided_by: str = "user_2") -> None:
    """Two expense claims of 张三's to 李四: the first still with 李四, the second approved by 李四 (now at finance)."""
    for reason, amount in (("打车去机场", 320), ("新加坡客户拜访机票", 6800)):
        execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "userId": "user_1", "reason": reason,
                                              "nextUserId": "user_2", "fields": {"amount": amount, "category": "差旅"}},
                     make_ctx("user_1"))
    execute_call(TOOLSET, "handleTodoTask", {"taskId": "task_2", "isOK": True, "result": "ok"}, make_ctx(decided_by))


@pytest.mark.parametrize("said", [
    "Pull back the claim that's still sitting with Li Si, the other one can stay.",
    "Cancel my expense claim Li Si has not signed off on yet",
    "李四还没批的那个报销帮我撤回吧",
    "把还压在李四那边的报销撤了",
])
def test_the_request_still_with_whom_they_named_is_the_one_withdrawn(graph_driver, store, make_ctx, said):
    _claims(make_ctx)
    agent = graph_driver(tool_call("withdrawRequest", {"requestId": "expense claim"}), "done", fixed_answers=True)
    agent.say(said)
    [action] = agent.actions
    assert action["name"] == "withdrawRequest" and action["args"]["requestId"] == "req_1"
    agent.approve()
    assert [r["status"] for r in store.snapshot()["requests"]] == ["withdrawn", "pending"]


@pytest.mark.parametrize("said", [
    "Withdraw the expense claim I sent to Li Si",  # both went to him: which one is theirs to say
    "Li Si said no to lunch, withdraw my claim",  # nothing said of what he has not decided
    "撤回我给李四的那个报销",
])
def test_words_that_say_nothing_of_who_holds_it_still_ask_which(graph_driver, store, make_ctx, said):
    _claims(make_ctx)
    agent = graph_driver(tool_call("withdrawRequest", {"requestId": "expense claim"}), "done", fixed_answers=True)
    agent.say(said)
    assert agent.actions == []
    answer = str(agent.messages[-1].content)
    assert "req_1" in answer and "req_2" in answer  # asked which of the two
