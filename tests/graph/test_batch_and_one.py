"""One message that decides several to-dos of one process at once and another by name, each its own way ("两个请假都
批了，张三的报销驳回"), gets a card for each: the batch reads the part about several, the named to-do its own part,
whichever the model proposes first. Before, read whole, the message both approved and rejected, and the batch was
asked "approve or reject?" (the twenty-ninth round's writer's report). Phrasings written for these tests."""

from __future__ import annotations

import pytest

from evals.doubles.scripted import tool_call
from tools import execute_call
from tools.workflow import TOOLSET


def _three(start_request, make_ctx) -> None:  # type: ignore[no-untyped-def]
    start_request(requester="user_1", approver="user_2", days=1, reason="回老家")  # task_1: 张三's leave
    start_request(requester="user_3", approver="user_2", days=1, reason="搬家")  # task_2: 王五's leave
    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "userId": "user_1", "reason": "打车",
                                          "nextUserId": "user_2", "fields": {"amount": 120, "category": "差旅"}},
                 make_ctx("user_1"))  # task_3: 张三's claim


BATCH = tool_call("decideTasks", {"isOK": True, "processKey": "process_qingjia"})
ONE = tool_call("handleTodoTask", {"taskId": "task_3", "isOK": False})


@pytest.mark.parametrize(("said", "first"), [
    ("请假那两条全部同意；张三那笔报销不行，驳回，票据不全", BATCH),
    ("张三的报销驳回，票据不全；请假的都通过", ONE),
    ("Approve all the leave requests. Zhang San's expense claim: reject it, the receipts are missing", BATCH),
    ("reject Zhang San's claim (no receipts) and approve both leaves", ONE),
])
def test_a_batch_and_a_named_to_do_decided_apart_each_get_a_card(graph_driver, store, make_ctx, start_request, said,
                                                                 first):
    _three(start_request, make_ctx)
    agent = graph_driver(first, "模型不会再被问。", user_id="user_2", fixed_answers=True)
    agent.say(said)
    cards = []
    while agent.actions:
        [action] = agent.actions
        cards.append((action["name"], action["args"].get("taskId"), action["args"].get("isOK")))
        agent.approve()
    assert sorted(cards, key=str) == [("decideTasks", None, True), ("handleTodoTask", "task_3", False)]
    assert len(agent.model.prompts) == 1  # the second was proposed as the person said
    assert {t["id"]: t["status"] for t in store.snapshot()["tasks"]} == {1: "approved", 2: "approved", 3: "rejected"}
