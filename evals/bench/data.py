"""Store contents for the benchmarks: extra users and a large backlog of open tasks, kept apart from a scenario's rows."""

from __future__ import annotations

import random
from typing import Any

from sqlalchemy import func, insert, select

from tools import WorkflowStore
from tools.workflow.store import requests, tasks, users, utcnow

BENCH_USER_PREFIX = "bench_"
APPROVERS = ("user_1", "user_2", "user_3", "user_4", "user_admin")
REASONS = (
    "家里有事，需要回老家处理",
    "身体不适，医生建议休息",
    "孩子学校开家长会",
    "Moving to a new apartment this week",
    "Dentist appointment and recovery",
    "参加亲戚婚礼",
    "Family visit from abroad",
    "年假，出去旅游放松一下",
)


def bench_user_id(index: int) -> str:
    return f"{BENCH_USER_PREFIX}{index:03d}"


def add_users(store: WorkflowStore, count: int) -> list[str]:
    """Add `count` users (`bench_000`...) to the store; returns their ids."""
    ids = [bench_user_id(i) for i in range(count)]
    rows = [{"id": uid, "name": f"员工{i:03d}", "email": f"staff{i:03d}@example.com"} for i, uid in enumerate(ids)]
    if rows:
        with store.transaction() as conn:
            conn.execute(insert(users), rows)
    return ids


def add_backlog(store: WorkflowStore, *, total_users: int, open_tasks: int, seed: int = 11) -> dict[str, Any]:
    """Grow the store to `total_users` users and `open_tasks` pending requests awaiting approval.

    The backlog's requests and tasks get ids ≤ 0, so rows a scenario creates afterwards keep the ids its
    script names (SQLite gives a new row the largest id + 1). Most tasks wait on the seed users, whose
    to-do lists are what the scenarios read, so observations are long.
    """
    with store.read() as conn:
        existing = conn.execute(select(func.count()).select_from(users)).scalar_one()
    requesters = add_users(store, max(0, total_users - existing))
    rng = random.Random(seed)
    now = utcnow()
    request_rows, task_rows = [], []
    for k in range(open_tasks):
        number = -k  # 0, -1, -2, ...
        approver = APPROVERS[k % len(APPROVERS)] if k % 4 else rng.choice(requesters or list(APPROVERS))
        requester = rng.choice([r for r in requesters if r != approver] or ["user_1"])
        days = rng.choice((0.5, 1, 1, 2, 3, 5))
        request_rows.append(
            {
                "id": number,
                "process_key": "process_qingjia",
                "requester_id": requester,
                "reason": rng.choice(REASONS),
                "days": days,
                "status": "pending",
                "flagged": days > 1,
                "created_at": now,
            }
        )
        task_rows.append({"id": number, "request_id": number, "assignee_id": approver, "status": "pending", "created_at": now})
    if request_rows:
        with store.transaction() as conn:
            conn.execute(insert(requests), request_rows)
            conn.execute(insert(tasks), task_rows)
    with store.read() as conn:
        user_count = conn.execute(select(func.count()).select_from(users)).scalar_one()
    return {"users": user_count, "open_tasks": len(task_rows)}


def without_backlog(snapshot: dict[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    """A store snapshot without the backlog's rows, so a scenario is graded on its own rows only."""
    out = dict(snapshot)
    out["users"] = [r for r in snapshot.get("users", []) if not str(r["id"]).startswith(BENCH_USER_PREFIX)]
    out["requests"] = [r for r in snapshot.get("requests", []) if r["id"] > 0]
    out["tasks"] = [r for r in snapshot.get("tasks", []) if r["id"] > 0]
    return out
