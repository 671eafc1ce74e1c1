"""The engine's requests and tasks as rows: what a snapshot, the page's panels and the chat's tables read.

A request is a process instance; its form values are read from the instance data, its current steps from its ready
tasks. Nothing here deserializes SpiffWorkflow's state: these are plain reads of the engine's tables.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import date
from typing import Any

from sqlalchemy import Connection, select

from tools.workflow.engine import FormField, ProcessEngine, format_instance_id, format_task_id
from tools.workflow.engine import tables as t

REQUEST_STATUS = {
    "running": "pending", "approved": "approved", "rejected": "rejected", "ended": "ended", "returned": "returned",
    "withdrawn": "withdrawn",
}
"""An instance's status as a request's: pending while it runs; returned while it waits on its requester to change
and resubmit it; withdrawn when they took it back."""
COMMENT_REQUIRED_OVER_DAYS = 1.0
"""A request longer than this needs a comment with every decision (and is flagged)."""


def duration_days(form: dict[str, Any], fields: Sequence[FormField]) -> float | None:
    """How long a request lasts, in days: its number field counted in days (`unit` day, the leave's `days`), else
    the calendar days of its date range (a date field that may not be before another: a trip's start and end);
    None when the form says neither."""
    for field in fields:
        value = form.get(field.id)
        if field.unit == "day" and isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
    for field in fields:
        end, start = form.get(field.id), form.get(field.not_before) if field.not_before else None
        if field.type == "date" and isinstance(end, str) and isinstance(start, str):
            try:
                return float((date.fromisoformat(end) - date.fromisoformat(start)).days + 1)
            except ValueError:
                return None
    return None


def is_flagged(form: dict[str, Any], fields: Sequence[FormField]) -> bool:
    """Over one day: the approver must judge the reason, and write a comment with the decision."""
    days = duration_days(form, fields)
    return days is not None and days > COMMENT_REQUIRED_OVER_DAYS


def task_status(row: Any) -> str:
    """A task's status as the seed's tasks had it: pending, approved or rejected (and cancelled, or returned to the
    requester)."""
    if row.status == "ready":
        return "pending"
    if row.status == "completed":
        return "approved" if row.approved else "rejected"
    return str(row.status)


def processes_view(conn: Connection, engine: ProcessEngine) -> list[dict[str, Any]]:
    """Each deployed key's latest version."""
    return [
        {
            "key": d.key, "name": d.name, "name_en": d.name_en, "version": d.version, "startable": True,
            "fields": json.dumps([f.to_dict() for f in d.fields], ensure_ascii=False),
        }
        for d in engine.definitions(conn)
    ]


def _fields(conn: Connection, engine: ProcessEngine, cache: dict[tuple[str, int], tuple[FormField, ...]],
            key: str, version: int) -> tuple[FormField, ...]:
    if (key, version) not in cache:
        cache[key, version] = engine.definition(conn, key, version).fields
    return cache[key, version]


def requests_view(conn: Connection, engine: ProcessEngine, *, requester: str | None = None) -> list[dict[str, Any]]:
    """One row per instance (of one requester when given), oldest first."""
    query = select(t.instances).order_by(t.instances.c.id)
    if requester is not None:
        query = query.where(t.instances.c.requester == requester)
    instances = conn.execute(query).all()
    ready: dict[int, list[str]] = {}
    if instances:
        rows = conn.execute(
            select(t.tasks.c.instance_id, t.tasks.c.step).where(
                t.tasks.c.status == "ready", t.tasks.c.instance_id.in_([i.id for i in instances])
            ).order_by(t.tasks.c.id)
        ).all()
        for row in rows:
            ready.setdefault(row.instance_id, []).append(row.step)
    cache: dict[tuple[str, int], tuple[FormField, ...]] = {}
    out = []
    for inst in instances:
        fields = _fields(conn, engine, cache, inst.process_key, inst.process_version)
        data = json.loads(inst.data)
        form = {f.id: data.get(f.id) for f in fields}
        steps = ready.get(inst.id, [])
        out.append({
            "id": inst.id, "process_key": inst.process_key, "process_version": inst.process_version,
            "requester_id": inst.requester, "status": REQUEST_STATUS.get(inst.status, inst.status),
            "reason": data.get("reason"), "days": data.get("days"),
            "form": json.dumps(form, ensure_ascii=False, sort_keys=True),
            "step": "、".join(dict.fromkeys(steps)) or None, "flagged": is_flagged(form, fields),
            "created_at": inst.created_at, "decided_at": inst.ended_at,
        })
    return out


def tasks_view(conn: Connection) -> list[dict[str, Any]]:
    """One row per user task, oldest first."""
    rows = conn.execute(
        select(t.tasks, t.instances.c.process_key).join(t.instances, t.instances.c.id == t.tasks.c.instance_id)
        .order_by(t.tasks.c.id)
    ).all()
    return [
        {
            "id": row.id, "request_id": row.instance_id, "process_key": row.process_key, "step": row.step,
            "element_id": row.element_id, "assignee_id": row.assignee,
            "candidate_users": ",".join(json.loads(row.candidate_users)),
            "candidate_groups": ",".join(json.loads(row.candidate_groups)),
            "status": task_status(row), "comment": row.comment, "decided_by": row.decided_by,
            "created_at": row.created_at, "decided_at": row.decided_at,
        }
        for row in rows
    ]


__all__ = [
    "COMMENT_REQUIRED_OVER_DAYS", "duration_days", "format_instance_id", "format_task_id", "is_flagged",
    "processes_view", "requests_view", "task_status", "tasks_view",
]
