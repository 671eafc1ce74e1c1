"""Stores written before the process engine: their pending requests carried into engine instances on first start.

The seed's store kept requests and their one approval task in its own tables (`requests`, `tasks`, `processes`). On the
first start of such a store, every request still pending with its pending task becomes an instance of the process it
was started for (the leave process, the only one that could be started), on that process's current version, with the
same data (days, reason, the task's assignee as `nextUserId`) and the same ids (`req_5` stays `req_5`, `task_7` stays
`task_7`, so e-mails and conversations that name them still do), waiting at its first step for the same approver.
Ids of new requests and tasks then continue after the highest old one. Decided requests stay where they were: the
old tables are left as they are (read them with SQL), and nothing else reads them. One audit record
(`legacy_requests_carried`) says what was carried and what was not; a store that has it is not carried again.

A pending request the current process refuses (say, a reason longer than its form allows now) stays pending in the old
tables, named in that record with the form's reason: start it again through the assistant, or change the process.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection, Table, delete, func, insert, inspect, select, text, update

from tools.workflow.engine import EngineError, ProcessEngine, parse_instance_id, parse_task_id
from tools.workflow.engine import tables as t

logger = logging.getLogger(__name__)

CARRIED_EVENT = "legacy_requests_carried"
"""The audit event that records the carrying over (and marks it done)."""

_PENDING = text(
    "SELECT r.id, r.process_key, r.requester_id, r.reason, r.days, r.created_at, t.id AS task_id, t.assignee_id, "
    "t.created_at AS task_created_at FROM requests r JOIN tasks t ON t.request_id = r.id "
    "WHERE r.status = 'pending' AND t.status = 'pending' ORDER BY r.id, t.id"
)


def carry_legacy_requests(
    conn: Connection, engine: ProcessEngine, audit_log: Table, audit: Callable[[Connection, str, dict[str, Any]], Any]
) -> dict[str, Any] | None:
    """Carry the old tables' pending requests into `engine`'s instances, once per store, in the caller's transaction.

    Returns what was done (also written with `audit` to the store's `audit_log`), or None when there was nothing to
    do. The store passes its engine and audit log in: this module never imports the store.
    """
    names = set(inspect(conn).get_table_names())
    if not {"requests", "tasks"} <= names:
        return None
    done = conn.execute(select(func.count()).select_from(audit_log).where(audit_log.c.event == CARRIED_EVENT)).scalar_one()
    if done:
        return None
    carried: list[dict[str, Any]] = []
    refused: list[dict[str, Any]] = []
    seen: set[int] = set()
    for row in conn.execute(_PENDING).mappings().all():
        if row["id"] in seen:
            continue  # the seed made one task per request; a second pending one is left in the old tables
        seen.add(row["id"])
        data = {"days": row["days"], "reason": row["reason"], "nextUserId": row["assignee_id"]}
        try:
            with conn.begin_nested():
                started = engine.start(conn, row["process_key"], requester=row["requester_id"], data=data)
                instance_id = parse_instance_id(started.instance_id)
                [task] = started.tasks
                move_instance(conn, t.instances, instance_id, int(row["id"]), created_at=row["created_at"])
                move_task(conn, parse_task_id(task.id), int(row["task_id"]), created_at=row["task_created_at"])
                _bump(conn, t.instances, int(row["id"]))
                _bump(conn, t.tasks, int(row["task_id"]))
        except (EngineError, ValueError) as exc:
            refused.append({"request": f"req_{row['id']}", "why": str(exc)})
            logger.warning("legacy request req_%s was not carried into the process engine: %s", row["id"], exc)
            continue
        carried.append({"request": f"req_{row['id']}", "task": f"task_{row['task_id']}", "process": row["process_key"]})
    highest_request = conn.execute(text("SELECT COALESCE(MAX(id), 0) FROM requests")).scalar_one()
    highest_task = conn.execute(text("SELECT COALESCE(MAX(id), 0) FROM tasks")).scalar_one()
    _bump(conn, t.instances, int(highest_request))
    _bump(conn, t.tasks, int(highest_task))
    detail = {"carried": carried, "not_carried": refused, "old_tables": ["processes", "requests", "tasks"]}
    audit(conn, CARRIED_EVENT, detail)
    return detail


def move_instance(conn: Connection, table: Table, old: int, new: int, *, created_at: str) -> None:
    """Give an instance the id it had in the old tables (its tasks follow it)."""
    row = dict(conn.execute(select(table).where(table.c.id == old)).mappings().one())
    row.update(created_at=created_at, updated_at=created_at)
    if old == new:
        conn.execute(update(table).where(table.c.id == old).values(created_at=created_at, updated_at=created_at))
        return
    conn.execute(insert(table).values({**row, "id": new}))
    conn.execute(update(t.tasks).where(t.tasks.c.instance_id == old).values(instance_id=new))
    conn.execute(update(t.timers).where(t.timers.c.instance_id == old).values(instance_id=new))
    conn.execute(delete(table).where(table.c.id == old))


def move_task(conn: Connection, old: int, new: int, *, created_at: str) -> None:
    """Give a task the id it had in the old tables, with who it is offered to and its timers (due from when it was
    carried over)."""
    row = dict(conn.execute(select(t.tasks).where(t.tasks.c.id == old)).mappings().one())
    offers = [dict(o) for o in conn.execute(select(t.task_offers).where(t.task_offers.c.task_id == old)).mappings()]
    timers = [dict(r) for r in conn.execute(select(t.timers).where(t.timers.c.task_id == old)).mappings()]
    conn.execute(delete(t.task_offers).where(t.task_offers.c.task_id == old))
    conn.execute(delete(t.timers).where(t.timers.c.task_id == old))
    conn.execute(delete(t.tasks).where(t.tasks.c.id == old))
    conn.execute(insert(t.tasks).values({**row, "id": new, "created_at": created_at}))
    if offers:
        conn.execute(insert(t.task_offers), [{**o, "task_id": new} for o in offers])
    if timers:
        conn.execute(insert(t.timers), [{**{k: v for k, v in r.items() if k != "id"}, "task_id": new} for r in timers])


def _bump(conn: Connection, table: Table, at_least: int) -> None:
    """New ids of the table continue after `at_least` (ids given explicitly do not move PostgreSQL's sequence)."""
    if at_least <= 0:
        return
    if conn.dialect.name == "sqlite":
        current = conn.execute(text("SELECT seq FROM sqlite_sequence WHERE name = :name"), {"name": table.name}).scalar()
        if current is None:
            conn.execute(text("INSERT INTO sqlite_sequence (name, seq) VALUES (:name, :seq)"),
                         {"name": table.name, "seq": at_least})
        elif current < at_least:
            conn.execute(text("UPDATE sqlite_sequence SET seq = :seq WHERE name = :name"),
                         {"name": table.name, "seq": at_least})
        return
    conn.execute(
        text(f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), "  # noqa: S608 - our own table names
             f"GREATEST(:seq, (SELECT COALESCE(MAX(id), 0) FROM {table.name})))"),
        {"seq": at_least},
    )
