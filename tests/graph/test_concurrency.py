"""Concurrent decisions on one SQLite file: compare-and-set lets exactly one through."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from tools import DomainError, execute_call
from tools.workflow import TOOLSET

THREADS = 20


def decide_all_at_once(make_ctx, task_id: str, keys: list[tuple[str, str]]) -> list[Any]:
    """Decide `task_id` as its assignee (user_2) in one thread per (thread_id, call_id), released by a barrier.

    Returns each thread's result dict, DomainError, or any other exception (which would be a bug).
    """
    barrier = threading.Barrier(len(keys))

    def decide(index: int) -> Any:
        thread_id, call_id = keys[index]
        ctx = make_ctx("user_2", thread_id=thread_id, call_id=call_id)
        args = {"taskId": task_id, "isOK": index % 2 == 0, "result": f"decision {index}"}
        barrier.wait(timeout=30)
        try:
            return execute_call(TOOLSET, "handleTodoTask", args, ctx)
        except Exception as exc:  # noqa: BLE001 - collected and classified below
            return exc

    with ThreadPoolExecutor(max_workers=len(keys)) as pool:
        return list(pool.map(decide, range(len(keys))))


def test_twenty_threads_deciding_one_task_give_one_success(store, make_ctx, start_request):
    task_id = start_request(requester="user_1", approver="user_2")["taskId"]
    outcomes = decide_all_at_once(make_ctx, task_id, [("t-race", f"call-{i}") for i in range(THREADS)])

    successes = [o for o in outcomes if isinstance(o, dict)]
    refusals = [o for o in outcomes if isinstance(o, DomainError)]
    others = [o for o in outcomes if not isinstance(o, dict | DomainError)]
    assert others == [], f"unexpected exceptions: {others!r}"
    assert len(successes) == 1, successes
    assert len(refusals) == THREADS - 1
    assert {r.code for r in refusals} == {"task_not_pending"}, {str(r) for r in refusals}

    snap = store.snapshot()
    [task] = snap["tasks"]
    [request] = snap["requests"]
    assert task["status"] == request["status"] == successes[0]["status"]
    assert task["comment"] == successes[0]["comment"]
    decisions = [e for e in snap["tool_executions"] if e["tool"] == "handleTodoTask"]
    assert len(decisions) == 1
    executed = store.audit_entries("tool_executed", thread_id="t-race")
    assert [a["detail"]["tool"] for a in executed] == ["handleTodoTask"]
    # Every refusal is audited with its reason, in its own transaction; nothing else of it was kept.
    refused = store.audit_entries("tool_refused", thread_id="t-race")
    assert sorted(a["detail"]["error"] for a in refused) == ["task_not_pending"] * (THREADS - 1)
    # One e-mail: the requester is told once that the request ended (besides the one the start sent the approver).
    assert [(n["recipient_id"], n["thread_id"]) for n in snap["notifications"]] == [
        ("user_2", "thread-test"), ("user_1", "t-race")]


def test_twenty_threads_with_one_idempotency_key_decide_once(store, make_ctx, start_request):
    task_id = start_request(requester="user_1", approver="user_2")["taskId"]
    outcomes = decide_all_at_once(make_ctx, task_id, [("t-race", "call-same")] * THREADS)

    others = [o for o in outcomes if not isinstance(o, dict)]
    assert others == [], f"a repeated call must replay, not fail: {others!r}"
    assert sum(1 for o in outcomes if not o.get("replayed")) == 1
    assert len({(o["status"], o["comment"]) for o in outcomes}) == 1  # every replay returns the one result
    snap = store.snapshot()
    assert len([e for e in snap["tool_executions"] if e["tool"] == "handleTodoTask"]) == 1
