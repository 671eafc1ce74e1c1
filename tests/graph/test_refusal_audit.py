"""The audit log says what was executed and what was refused: a write the executor's policy check refuses is
recorded as `tool_refused` (tool, arguments, error, actor, thread) in its own transaction, and nothing else of
the refused transaction is kept."""

from __future__ import annotations

import pytest
from langchain_core.messages import ToolMessage

from evals.doubles.scripted import tool_call
from tools import DomainError, check_call, execute_call
from tools.workflow import TOOLSET

APPROVE_TASK_1 = {"taskId": "task_1", "isOK": True, "result": "同意"}


def test_a_call_approved_before_the_store_changed_is_refused_and_audited(store, make_ctx, start_request):
    start_request(requester="user_1", approver="user_2")
    check_call(TOOLSET, "handleTodoTask", APPROVE_TASK_1, make_ctx("user_2"))  # the validator allows it
    decided = execute_call(TOOLSET, "handleTodoTask", {"taskId": "task_1", "isOK": False}, make_ctx("user_2"))
    before = store.snapshot()

    with pytest.raises(DomainError) as info:
        execute_call(TOOLSET, "handleTodoTask", APPROVE_TASK_1, make_ctx("user_2", thread_id="t-late"))
    assert info.value.code == "task_not_pending"

    [refused] = store.audit_entries("tool_refused")
    assert (refused["actor_id"], refused["thread_id"]) == ("user_2", "t-late")
    assert refused["detail"] == {
        "tool": "handleTodoTask",
        "args": APPROVE_TASK_1,
        "error": "task_not_pending",
        "message": info.value.message,
    }
    after = store.snapshot()
    assert len(after.pop("audit_log")) == len(before.pop("audit_log")) + 1
    assert after == before  # the decision stands, no execution was recorded
    assert after["tasks"][0]["status"] == decided["status"] == "rejected"


def test_reads_and_schema_refusals_are_not_audited(store, make_ctx):
    with pytest.raises(DomainError):
        execute_call(TOOLSET, "queryTodoTask", {"userId": "nobody"}, make_ctx())
    with pytest.raises(DomainError):
        execute_call(TOOLSET, "handleTodoTask", {"taskId": "task_1", "isOK": "maybe"}, make_ctx())
    assert store.audit_entries() == []


def test_an_approval_by_someone_else_is_audited_with_the_executors_refusal(graph_driver, store, start_request):
    start_request(requester="user_1", approver="user_2")
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "task_1", "isOK": True}, id="c1"), "好的",
                         user_id="user_2")
    agent.say("批准张三的请假")
    assert agent.interrupts  # the card waits for user_2

    agent.resume({"decisions": [{"type": "approve"}]}, user_id="user_3")  # someone else answers it

    events = [(a["event"], a["actor_id"], a["thread_id"]) for a in store.audit_entries(thread_id="t1")]
    assert events == [("review_approve", "user_3", "t1"), ("tool_refused", "user_3", "t1")]
    refused = store.audit_entries("tool_refused")[0]["detail"]
    assert (refused["tool"], refused["error"]) == ("handleTodoTask", "not_assignee")
    assert store.snapshot()["tasks"][0]["status"] == "pending"
    [observation] = [m for m in agent.messages if isinstance(m, ToolMessage)]
    assert str(observation.content).startswith("Error [not_assignee]")
