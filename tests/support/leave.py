"""Two leave requests started at once against one balance, each on its own thread, connection and transaction: what
the balance tests on SQLite and PostgreSQL share."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from graph.calls import new_call_id
from tools import CallContext, DomainError, WorkflowStore, execute_call
from tools.workflow import TOOLSET, writes


def annual_leave(requester: str, approver: str, days: float) -> dict[str, Any]:
    return {"processKey": "process_qingjia", "userId": requester, "reason": "带家人出去旅游", "days": days,
            "nextUserId": approver, "fields": {"leaveType": "年假"}}


def start_two_at_once(store: WorkflowStore, requester: str, days: tuple[float, float], monkeypatch: pytest.MonkeyPatch,
                      *, meet: bool) -> list[Any]:
    """Start two annual leaves of `requester` at once through the real runWorkFlow; each one's result or refusal.

    With `meet`, both have passed every check and started their instance in their own transaction before either holds
    its days: the hold's conditional update, not an earlier read, decides which one gets them. (SQLite's BEGIN
    IMMEDIATE lets one write transaction in at a time, so there the second cannot start before the first commits.)"""
    start = threading.Barrier(2)
    meeting = threading.Barrier(2, timeout=20)
    hold = writes.hold_started

    def hold_when_both_are_here(*args: Any, **kwargs: Any) -> Any:
        if meet:
            meeting.wait()
        return hold(*args, **kwargs)

    monkeypatch.setattr(writes, "hold_started", hold_when_both_are_here)
    results: list[Any] = [None, None]

    def file(index: int) -> None:
        ctx = CallContext(backend=store, actor_id=requester, thread_id=f"race-{index}", call_id=new_call_id())
        start.wait()
        try:
            results[index] = execute_call(TOOLSET, "runWorkFlow", annual_leave(requester, "user_3", days[index]), ctx)
        except DomainError as exc:
            results[index] = exc

    threads = [threading.Thread(target=file, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def assert_one_got_the_days(store: WorkflowStore, results: list[Any], requester: str, allocated: float,
                            held: float) -> None:
    """One request was filed and holds its days; the other was refused naming the balance, and nothing of it stayed."""
    refused = [r for r in results if isinstance(r, DomainError)]
    filed = [r for r in results if isinstance(r, dict)]
    assert len(filed) == 1 and len(refused) == 1, results
    assert refused[0].code == "leave_balance_short", refused[0]
    snapshot = store.snapshot()
    [row] = [r for r in snapshot["leave_balances"] if r["user_id"] == requester and r["leave_type"] == "年假"
             and r["year"] == filed[0]["leave"]["year"]]
    assert (row["allocated"], row["held"], row["used"]) == (allocated, held, 0)
    assert row["allocated"] - row["held"] - row["used"] >= 0
    assert [r["id"] for r in snapshot["requests"] if r["requester_id"] == requester] == [
        int(filed[0]["requestId"].removeprefix("req_"))
    ]
