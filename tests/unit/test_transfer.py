"""Transfer (转交): one who holds a waiting step passes it to a colleague, who is told; the timeline and the audit
show who passed it on; never to the request's requester, never by the requester, a group's step only inside its
groups unless its process allows more, and only while it waits (compare-and-set)."""

from __future__ import annotations

import threading

import pytest

from tools import execute_call
from tools.errors import NeedsPersonError, PolicyError
from tools.workflow import TOOLSET
from tools.workflow.engine import PROCESSES_DIR, EngineError, moves
from tools.workflow.engine.moves import move_task
from tools.workflow.transfer import transfer_card


def _call(make_ctx, actor: str, tool: str, args: dict, **kwargs):
    return execute_call(TOOLSET, tool, args, make_ctx(actor, **kwargs))


def test_a_transferred_task_is_the_new_holders_and_they_are_told(store, make_ctx, start_request):
    start_request(requester="user_1", approver="user_2", days=2, reason="回老家")
    result = _call(make_ctx, "user_2", "transferTask", {"taskId": "张三", "nextUserId": "王五", "comment": "我这周出差"})
    assert (result["status"], result["to"], result["requestId"]) == ("transferred", "王五", "req_1")
    assert _call(make_ctx, "user_2", "queryTodoTask", {"userId": "user_2"})["total"] == 0
    [todo] = _call(make_ctx, "user_3", "queryTodoTask", {"userId": "user_3"})["tasks"]
    assert todo["taskId"] == "task_1"
    [told] = [n for n in store.snapshot()["notifications"] if n["recipient_id"] == "user_3"
              and "转交" in n["subject"]]
    assert "李四把张三的请假申请 req_1（2 天）转交给您审批" in told["body"] and "附言：我这周出差" in told["body"]
    [mine] = _call(make_ctx, "user_1", "queryMyRequests", {})["requests"]
    assert any("李四 转交给王五（我这周出差）" in line for line in mine["timeline"]), mine["timeline"]
    _call(make_ctx, "user_3", "handleTodoTask", {"taskId": "task_1", "isOK": True, "result": "同意"})
    assert store.snapshot()["requests"][0]["status"] == "approved"


def test_the_card_says_who_from_who_to_the_request_and_the_comment(store, make_ctx, start_request):
    start_request(requester="user_1", approver="user_2", days=2, reason="回老家")
    with store.read() as conn:
        card = transfer_card(conn, {"taskId": "task_1", "nextUserId": "user_3", "comment": "我这周出差"}, "zh")
        en = transfer_card(conn, {"taskId": "task_1", "nextUserId": "user_3", "comment": ""}, "en")
    assert card["summary"] == "把张三的请假申请 req_1（2 天）转交给王五审批"
    assert (card["from"], card["to"], card["comment"]) == ("李四", "王五", "我这周出差")
    assert list(card["labels"].values()) == ["流程", "申请", "申请人", "当前步骤", "转交人", "转给", "附言", "接下来"]
    assert en["summary"] == "Pass Zhang San's leave request req_1 (2 days) on to Wang Wu" and "comment" not in en["labels"]


def test_a_task_is_never_passed_to_its_requester_nor_by_them(store, make_ctx, start_request):
    start_request(requester="user_1", approver="user_2", days=1, reason="看牙医")
    with pytest.raises(PolicyError) as to_requester:
        _call(make_ctx, "user_2", "transferTask", {"taskId": "task_1", "nextUserId": "张三"})
    assert to_requester.value.code == "transfer_to_requester"
    with pytest.raises(PolicyError) as by_requester:
        _call(make_ctx, "user_1", "transferTask", {"taskId": "task_1", "nextUserId": "张三"})
    assert by_requester.value.code == "self_approval"
    with pytest.raises(PolicyError) as stranger:
        _call(make_ctx, "user_4", "transferTask", {"taskId": "task_1", "nextUserId": "王五"})
    assert stranger.value.code == "not_assignee"
    with pytest.raises(PolicyError) as own:
        _call(make_ctx, "user_2", "transferTask", {"taskId": "task_1", "nextUserId": "李四"})
    assert own.value.code == "transfer_to_self"
    assert isinstance(own.value, NeedsPersonError) and own.value.choices == ("王五", "赵六", "管理员")  # asked who
    assert store.snapshot()["process_task_moves"] == []


def test_a_decided_task_is_not_passed_on(store, make_ctx, start_request):
    start_request(requester="user_1", approver="user_2", days=1, reason="看牙医")
    _call(make_ctx, "user_2", "handleTodoTask", {"taskId": "task_1", "isOK": True, "result": "同意"})
    with pytest.raises(PolicyError) as late:
        _call(make_ctx, "user_2", "transferTask", {"taskId": "task_1", "nextUserId": "王五"})
    assert late.value.code == "task_not_pending"


def test_a_move_is_a_compare_and_set_on_the_holders_it_read(store, start_request, monkeypatch):
    """A move worked out on a read that another move made stale updates nothing and is refused."""
    start_request(requester="user_1", approver="user_2", days=1, reason="看牙医")
    with store.read() as conn:
        stale = moves.pending_row(conn, "task_1")
    with store.transaction() as conn:
        move_task(conn, "task_1", to_users=["user_3"], kind="transferred", from_user="user_2", by="user_2", now="t1")
    monkeypatch.setattr(moves, "pending_row", lambda conn, task_id: stale)  # the second mover read before the first
    with store.transaction() as conn, pytest.raises(EngineError) as raced:
        move_task(conn, "task_1", to_users=["user_4"], kind="transferred", from_user="user_2", by="user_2", now="t2")
    assert raced.value.code == "task_not_pending"
    assert [(m["to_users"], m["at"]) for m in store.snapshot()["process_task_moves"]] == [('["user_3"]', "t1")]
    assert store.snapshot()["tasks"][0]["assignee_id"] == "user_3"


def _at_hr(make_ctx, start_request) -> None:
    """A 5-day leave approved by 李四 waits on the group hr (管理员) as task_2."""
    start_request(requester="user_1", approver="user_2", days=5, reason="回老家结婚")
    _call(make_ctx, "user_2", "handleTodoTask", {"taskId": "task_1", "isOK": True, "result": "同意，注意安排工作"})


def test_a_group_task_stays_in_its_group(store, make_ctx, start_request):
    _at_hr(make_ctx, start_request)
    with pytest.raises(PolicyError) as outside:
        _call(make_ctx, "user_admin", "transferTask", {"taskId": "task_2", "nextUserId": "王五"})
    assert outside.value.code == "transfer_outside_group"


def test_a_process_that_says_transfer_outside_group_lets_a_group_task_leave_it(store, make_ctx, start_request):
    bpmn = (PROCESSES_DIR / "qingjia.bpmn").read_text(encoding="utf-8")
    marker = '<camunda:property name="workingTime" value="true" />'
    assert marker in bpmn
    store.deploy(bpmn.replace(marker, marker + '<camunda:property name="transferOutsideGroup" value="true" />', 1))
    _at_hr(make_ctx, start_request)
    result = _call(make_ctx, "user_admin", "transferTask", {"taskId": "task_2", "nextUserId": "王五"})
    assert result["to"] == "王五"
    [todo] = _call(make_ctx, "user_3", "queryTodoTask", {"userId": "user_3"})["tasks"]
    assert todo["taskId"] == "task_2" and "groups" not in todo


def test_a_transfer_and_a_decision_that_meet_leave_exactly_one_of_them(store, make_ctx, start_request):
    start_request(requester="user_1", approver="user_2", days=1, reason="看牙医")
    barrier, outcomes = threading.Barrier(2), {}

    def run(name: str, tool: str, args: dict) -> None:
        barrier.wait()
        try:
            _call(make_ctx, "user_2", tool, args)
            outcomes[name] = "done"
        except PolicyError as exc:
            outcomes[name] = exc.code

    threads = [threading.Thread(target=run, args=("transfer", "transferTask", {"taskId": "task_1", "nextUserId": "王五"})),
               threading.Thread(target=run, args=("decide", "handleTodoTask",
                                                  {"taskId": "task_1", "isOK": True, "result": "同意"}))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    [task] = store.snapshot()["tasks"]
    if outcomes["transfer"] == "done":
        assert outcomes["decide"] == "not_assignee" and (task["status"], task["assignee_id"]) == ("pending", "user_3")
    else:
        assert outcomes == {"decide": "done", "transfer": "task_not_pending"} and task["status"] == "approved"
        assert store.snapshot()["process_task_moves"] == []
