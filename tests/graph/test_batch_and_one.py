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
ONE_OF_THE_BATCH = tool_call("handleTodoTask", {"taskId": "task_1", "isOK": True})  # 张三's leave: the batch's


@pytest.mark.parametrize(("said", "first"), [
    ("请假那两条全部同意；张三那笔报销不行，驳回，票据不全", BATCH),
    ("张三的报销驳回，票据不全；请假的都通过", ONE),
    ("Approve all the leave requests. Zhang San's expense claim: reject it, the receipts are missing", BATCH),
    ("reject Zhang San's claim (no receipts) and approve both leaves", ONE),
    ("请假的两条都同意，张三那笔报销驳回，没有发票", ONE_OF_THE_BATCH),
    ("Both leave requests are fine, approve them; Zhang San's claim is rejected, no receipts", ONE_OF_THE_BATCH),
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
    # the second was proposed as the person said; one decision for the batch is refused, the model asked once more
    assert len(agent.model.prompts) == (2 if first is ONE_OF_THE_BATCH else 1)
    assert {t["id"]: t["status"] for t in store.snapshot()["tasks"]} == {1: "approved", 2: "approved", 3: "rejected"}


@pytest.mark.parametrize(("said", "one"), [  # written for the rule (the twenty-ninth round, read after its run)
    ("请假这两条都给过了吧，备注“节日快乐”", "task_1"),
    ("go ahead and approve both leave requests", "task_2"),
])
def test_one_decision_proposed_for_all_of_a_process_is_the_batch(graph_driver, store, make_ctx, start_request, said,
                                                                 one):
    _three(start_request, make_ctx)
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": one, "isOK": True}), "done.", user_id="user_2",
                         fixed_answers=True)
    agent.say(said)
    [action] = agent.actions
    assert action["name"] == "decideTasks" and action["args"]["processKey"] == "process_qingjia"
    agent.approve()
    assert {t["id"]: t["status"] for t in store.snapshot()["tasks"]} == {1: "approved", 2: "approved", 3: "pending"}


@pytest.mark.parametrize("said", ["张三那个KTV的报销驳回，不在报销范围", "reject Zhang San's KTV claim, not covered"])
def test_a_request_id_names_its_to_do(graph_driver, store, make_ctx, start_request, said):
    # the model gave the request's id (req_3) for the to-do: the one step of it waiting on the person is meant
    _three(start_request, make_ctx)
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "req_3", "isOK": False}), "done.", user_id="user_2",
                         fixed_answers=True)
    agent.say(said)
    [action] = agent.actions
    assert action["args"]["taskId"] == "task_3" and action["args"]["isOK"] is False


@pytest.mark.parametrize(("said", "told"), [  # the thirty-first round, read after its run: the answer named only ids;
    # the fifty-fourth: it named not what was decided (the days, the place the condition was about)
    ("张三的请假批了", ("已批准张三的请假申请（", "天", "task_1）")),
    ("Reject Wang Wu's leave, we're short that week", ("Rejected Wang Wu's leave request (", "day", "task_2)")),
])
def test_a_decision_says_whose_request_it_decided_and_what_it_was(graph_driver, store, make_ctx, start_request, said,
                                                                   told):
    _three(start_request, make_ctx)
    task, ok = ("task_1", True) if "张三" in said else ("task_2", False)
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": task, "isOK": ok}), "done.", user_id="user_2",
                         fixed_answers=True)
    agent.say(said)
    result = agent.approve()
    content = str(result["messages"][-1].content)
    assert all(part in content for part in told), content


@pytest.mark.parametrize(("segment", "several"), [
    ("approve all the restaurant claims", True), ("both of the others' leaves are fine", False),
    ("reject the rest", False), ("其余的都驳回", False), ("请假的都通过", True),
])
def test_several_is_not_the_rest_of_those_named(segment, several):
    # "the rest" is a whole word: "restaurant" holds none (found reading the change)
    from tools.workflow.each_own import _several

    assert _several(segment) is several


@pytest.mark.parametrize("said", [  # the seventy-seventh round's writer: "Leave the other one" made it a batch of leaves
    "Sign off everything Zhang San sent me. Leave that one, I'll deal with it on Monday.",
    "OK approve all of Zhang San's, just leave the last one, I need to check it",
])
def test_leave_the_verb_is_no_leave_named(graph_driver, store, make_ctx, start_request, said):
    _three(start_request, make_ctx)
    batch = tool_call("decideTasks", {"isOK": True, "requester": "张三"})
    agent = graph_driver(batch, "OK", user_id="user_2", fixed_answers=True)
    agent.say(said)
    [action] = agent.actions
    assert action["name"] == "decideTasks" and not action["args"].get("processKey"), action["args"]
    assert sorted(action["args"].get("taskIds") or []) in ([], ["task_1", "task_3"]), action["args"]
    assert "leave" not in str(action["args"].get("comment") or "").lower()  # what they keep for later is no comment
