"""One message that decides several to-dos each its own way is read, for each call, as the part about that call's
to-do: its decision, its return, its comment. Through the real graph with a scripted model; phrasings written for these
tests after the rule (the twenty-second round's writer found such messages asked "approve or reject?"), none from a
scenario."""

from __future__ import annotations

from datetime import date

import pytest

from evals.doubles.scripted import tool_call
from tools.request import read_request
from tools.workflow.each_own import parts


def _two(start_request) -> None:  # type: ignore[no-untyped-def]
    start_request(requester="user_1", approver="user_2", days=1, reason="回老家")  # task_1: 张三
    start_request(requester="user_3", approver="user_2", days=1, reason="搬家")  # task_2: 王五


@pytest.mark.parametrize(("said", "first", "second"), [
    ("张三的假批了，王五那个驳回，这周人手太紧", (True, ""), (False, "这周人手太紧")),
    ("Approve Zhang San's leave and turn down Wang Wu's, we're short-staffed that day",
     (True, ""), (False, "we're short-staffed that day")),
    ("王五的不行，驳回；张三的同意", (True, ""), (False, "")),
])
def test_each_to_do_gets_the_decision_said_of_it(graph_driver, store, start_request, said, first, second):
    _two(start_request)
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "task_1", "isOK": True}),
                         tool_call("handleTodoTask", {"taskId": "task_2", "isOK": False}), "好的。", user_id="user_2")
    agent.say(said)
    assert [a["name"] for a in agent.actions] == ["handleTodoTask"]
    assert agent.actions[0]["args"]["isOK"] is first[0] and first[1] in (agent.actions[0]["args"].get("result") or "")
    agent.approve()
    [second_card] = agent.actions
    assert second_card["args"]["taskId"] == "task_2"
    assert second_card["args"]["isOK"] is second[0] and second[1] in second_card["args"]["result"]


def test_a_return_beside_an_approval_is_that_to_dos_return(graph_driver, store, start_request):
    _two(start_request)
    agent = graph_driver(tool_call("returnTask", {"taskId": "task_2", "comment": "x"}), "OK.", user_id="user_2")
    agent.say("Sign off on Zhang San's leave, and send Wang Wu's back to him - he needs to give the moving date")
    [action] = agent.actions
    assert action["name"] == "returnTask" and "moving date" in action["args"]["comment"]


@pytest.mark.parametrize("said", ["张三和王五的假都批了", "approve both, Zhang San's and Wang Wu's", "张三的批了"])
def test_a_message_with_one_decision_is_read_whole(said):
    people = [{"id": "user_1", "name": "张三", "alias": "Zhang San"}, {"id": "user_3", "name": "王五", "alias": "Wang Wu"}]
    request = read_request([said], index=0, people=people, actor_id="user_2", today=date(2026, 12, 7))
    assert parts(request, "user_2") == []


@pytest.mark.parametrize(("said", "given", "comment"), [  # written after the rule (the twenty-first round, read)
    ("the taxi one - send it back, he needs to attach the receipts", "taxi", "he needs to attach the receipts"),
    ("把那笔打车的退回去，让他补发票", "打车", "让他补发票"),
    ("the taxi claim: kick it back, the receipts are missing", "taxi claim", "the receipts are missing"),
])
def test_a_to_do_named_by_what_it_is_for_is_that_one(graph_driver, store, make_ctx, start_request, said, given,
                                                     comment):
    from tools import execute_call
    from tools.workflow import TOOLSET

    start_request(requester="user_1", approver="user_3", days=1, reason="dentist")
    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "userId": "user_2", "reason": "打车去客户那 taxi",
                                          "nextUserId": "user_3", "fields": {"amount": 380, "category": "差旅"}},
                 make_ctx("user_2"))
    agent = graph_driver(tool_call("returnTask", {"taskId": given, "comment": comment}), "OK.", user_id="user_3")
    agent.say(said)
    [action] = agent.actions
    assert action["name"] == "returnTask" and action["args"]["taskId"] == "task_2"


@pytest.mark.parametrize(("said", "given"), [
    # the model named it by its amount (the twenty-first round, read; written after the rule)
    ("三千二那笔没问题，批了吧", "三千二"), ("the 3,200 claim is fine, approve it", "3,200 claim"),
    # the person did, the model called it anything (the twenty-third round, read; written after the rule)
    ("三千二那笔我核过了，通过，意见写票据齐全", "报销"), ("The 3,200 claim checks out - approve it, note: receipts ok", "claim"),
])
def test_a_to_do_named_by_its_amount_is_that_one(graph_driver, make_ctx, said, given):
    from tools import execute_call
    from tools.workflow import TOOLSET

    for requester, amount in (("user_1", 860), ("user_3", 3200)):
        execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "userId": requester, "reason": "出差打车",
                                              "nextUserId": "user_2", "fields": {"amount": amount, "category": "差旅"}},
                     make_ctx(requester))
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": given, "isOK": True}), "OK.", user_id="user_2")
    agent.say(said)
    [action] = agent.actions
    assert action["args"]["taskId"] == "task_2"


@pytest.mark.parametrize("said", ["Approve the leave request waiting on me", "把那个请假批了"])
def test_a_to_do_named_by_its_process_alone_among_two_is_asked_about(graph_driver, store, start_request, said):
    # the twenty-eighth round, read: "the leave request" among two was "no pending task" (written after the rule)
    _two(start_request)
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "leave", "isOK": True}), "OK.", user_id="user_2")
    result = agent.say(said)
    question = str(result["messages"][-1].content)
    assert agent.actions == [] and ("张三" in question or "Zhang San" in question)
    assert [t["status"] for t in store.snapshot()["tasks"]] == ["pending", "pending"]


@pytest.mark.parametrize("said", [  # the eighty-second round's run; none of its words
    "张三那个请假批了，王五跟我说他那天可以替张三值班，意见写：同意，由王五值班",
    "Approve Zhang San's leave. Wang Wu told me he can take Zhang San's shift, comment: fine, Wang Wu covers the shift",
])
def test_a_person_named_in_a_dictated_comment_or_in_what_someone_said_decides_no_to_do(graph_driver, start_request,
                                                                                     store, said):
    start_request(requester="user_1", approver="user_2", days=1, reason="家里有事")
    start_request(requester="user_3", approver="user_2", days=1, reason="体检")
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "张三" if said[0] > "z" else "Zhang San", "isOK": True}),
                         "OK", user_id="user_2", fixed_answers=True)
    agent.say(said)
    [action] = agent.actions
    assert action["args"]["taskId"] == "task_1"
    agent.approve()
    assert agent.actions == []
    assert [t["status"] for t in store.snapshot()["tasks"]] == ["approved", "pending"]
