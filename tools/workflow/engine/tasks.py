"""The engine's task rows: found by id, offered to users and groups, and inserted as a run's user tasks get ready."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import Connection, Row, and_, insert, or_, select

from tools.workflow.engine import tables
from tools.workflow.engine.errors import EngineError
from tools.workflow.engine.ids import format_task_id, parse_task_id
from tools.workflow.engine.running import ReadyTask
from tools.workflow.engine.timers import schedule


def dump(value: Any) -> str:
    """A value as the engine's JSON columns store it."""
    return json.dumps(value, ensure_ascii=False, sort_keys=False)


def task_row(conn: Connection, task_id: str | int) -> Row[Any]:
    """A task's row, in any status (`task_not_found` if there is none)."""
    number = parse_task_id(task_id)
    row = conn.execute(select(tables.tasks).where(tables.tasks.c.id == number)).first()
    if row is None:
        raise EngineError("task_not_found", f"There is no task {format_task_id(number)}.")
    return row


def pending_row(conn: Connection, task_id: str | int) -> Row[Any]:
    """A ready task's row (`task_not_pending` when it was already decided)."""
    row = task_row(conn, task_id)
    if row.status != "ready":
        raise EngineError(
            "task_not_pending", f"Task {format_task_id(row.id)} is {row.status}, not pending: it was already decided."
        )
    return row


def offered_rows(conn: Connection, user_id: str, groups: Sequence[str]) -> Sequence[Row[Any]]:
    """The ready task rows offered to a user: as assignee, as a candidate user, or to one of `groups`."""
    t, o = tables.tasks, tables.task_offers
    offered = and_(o.c.kind == "user", o.c.name == user_id)
    if groups:
        offered = or_(offered, and_(o.c.kind == "group", o.c.name.in_(list(groups))))
    offered_ids = select(o.c.task_id).where(offered)
    return conn.execute(select(t).where(t.c.status == "ready", t.c.id.in_(offered_ids)).order_by(t.c.id)).all()


def check_offered(conn: Connection, row: Row[Any], user_id: str, groups: Sequence[str] | None) -> None:
    """`task_not_offered` unless the task is offered to the user, by name or to one of their groups (None: the
    groups the engine's tables give them)."""
    member_of = set(groups) if groups is not None else set(tables.groups_of(conn, user_id))
    candidates = set(json.loads(row.candidate_users)) | ({row.assignee} if row.assignee else set())
    if user_id not in candidates and not member_of & set(json.loads(row.candidate_groups)):
        raise EngineError("task_not_offered", f"Task {format_task_id(row.id)} ({row.step}) is not offered to {user_id}.")


def insert_tasks(conn: Connection, instance_id: int, ready: Iterable[ReadyTask], now: str) -> list[Row[Any]]:
    """Rows for a run's newly ready user tasks, with their offers and timers; the rows as stored."""
    rows: list[Row[Any]] = []
    for item in ready:
        task, assignee, users, groups = item.task, item.assignee, item.users, item.groups
        spec = task.task_spec
        result = conn.execute(
            insert(tables.tasks).values(
                instance_id=instance_id, spiff_task_id=str(task.id), element_id=spec.bpmn_id,
                step=spec.bpmn_name or spec.bpmn_id, step_en=str(spec.extensions.get("label_en", "")),
                assignee=assignee, candidate_users=dump(users), candidate_groups=dump(groups), status="ready",
                created_at=now,
            )
        )
        number = int(result.inserted_primary_key[0])  # type: ignore[index]
        offered_users = dict.fromkeys([*([assignee] if assignee else []), *users])
        offers = [{"task_id": number, "kind": "user", "name": u} for u in offered_users]
        offers += [{"task_id": number, "kind": "group", "name": g} for g in groups]
        if offers:
            conn.execute(insert(tables.task_offers), offers)
        schedule(conn, instance_id, number, item.timers, now)
        rows.append(conn.execute(select(tables.tasks).where(tables.tasks.c.id == number)).one())
    return rows
