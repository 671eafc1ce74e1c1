"""Store contents for the benchmarks: extra users and a large backlog of open tasks, kept apart from a scenario's rows."""

from __future__ import annotations

import random
from typing import Any

from sqlalchemy import func, insert, select, text

from tools import WorkflowStore
from tools.workflow.engine import parse_instance_id, parse_task_id
from tools.workflow.engine import tables as engine_tables
from tools.workflow.legacy import move_instance, move_task
from tools.workflow.store import users, utcnow

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
    """Grow the store to `total_users` users and `open_tasks` pending leave requests awaiting approval.

    The backlog's requests (engine instances) and tasks get ids ≤ 0, so rows a scenario creates afterwards keep the
    ids its script names (the id counters are set back to 0). Most tasks wait on the seed users, whose to-do lists
    are what the scenarios read, so observations are long.
    """
    with store.read() as conn:
        existing = conn.execute(select(func.count()).select_from(users)).scalar_one()
    requesters = add_users(store, max(0, total_users - existing))
    rng = random.Random(seed)
    created = 0
    with store.transaction() as conn:
        for k in range(open_tasks):
            approver = APPROVERS[k % len(APPROVERS)] if k % 4 else rng.choice(requesters or list(APPROVERS))
            requester = rng.choice([r for r in requesters if r != approver] or ["user_1"])
            data = {"days": rng.choice((0.5, 1, 1, 2, 3, 5)), "reason": rng.choice(REASONS), "nextUserId": approver}
            started = store.process_engine.start(conn, "process_qingjia", requester=requester, data=data)
            now = utcnow()
            move_instance(conn, engine_tables.instances, parse_instance_id(started.instance_id), -k, created_at=now)
            move_task(conn, parse_task_id(started.tasks[0].id), -k, created_at=now)
            created += 1
        _restart_ids(conn)
    with store.read() as conn:
        user_count = conn.execute(select(func.count()).select_from(users)).scalar_one()
    return {"users": user_count, "open_tasks": created}


def _restart_ids(conn: Any) -> None:
    """The next request and task get id 1 again (the backlog took ids ≤ 0)."""
    for table in (engine_tables.instances, engine_tables.tasks):
        if conn.dialect.name == "sqlite":
            conn.execute(text("UPDATE sqlite_sequence SET seq = 0 WHERE name = :name"), {"name": table.name})
        else:
            conn.execute(text(f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), 1, false)"))


def without_backlog(snapshot: dict[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    """A store snapshot without the backlog's rows, so a scenario is graded on its own rows only."""
    out = dict(snapshot)
    out["users"] = [r for r in snapshot.get("users", []) if not str(r["id"]).startswith(BENCH_USER_PREFIX)]
    out["requests"] = [r for r in snapshot.get("requests", []) if r["id"] > 0]
    out["tasks"] = [r for r in snapshot.get("tasks", []) if r["id"] > 0]
    return out
