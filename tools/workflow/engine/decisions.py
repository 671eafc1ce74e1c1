"""Deciding a task: worked out in memory once (`decide`), then stored with compare-and-set (`store_decision`) by
`complete`, or read for its next steps by `preview`.

`decide` writes nothing, so a refusal or a process error leaves nothing behind. `store_decision` writes the
instance with `UPDATE … WHERE id = :id AND version = :expected` and the task with `UPDATE process_tasks … WHERE id
= :id AND status = 'ready'`: of two workers deciding one task, the second updates 0 rows and gets
`task_not_pending` (PostgreSQL makes it wait for the first's commit, then re-checks; on SQLite, `BEGIN IMMEDIATE`
queues it behind the first).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from SpiffWorkflow.bpmn.workflow import BpmnWorkflow
from SpiffWorkflow.util.task import TaskState
from sqlalchemy import Connection, Row, select, update

from tools.workflow.engine import tables
from tools.workflow.engine.deployments import deployment_of, model_of
from tools.workflow.engine.errors import EngineError
from tools.workflow.engine.ids import format_instance_id, format_task_id
from tools.workflow.engine.records import Completed, Event, InstanceStatus, Outcome
from tools.workflow.engine.running import Ready, ReadyTask, find_task, ready_tasks, run_engine, run_task
from tools.workflow.engine.spiff import dumps, loads
from tools.workflow.engine.tasks import dump, insert_tasks, task_row
from tools.workflow.engine.timers import cancel_settled
from tools.workflow.engine.views import Header, ended_event, history, ready_event, ready_rows, task_view


@dataclass(frozen=True)
class Decided:
    """A decision worked out in memory on a fresh copy of the instance: nothing is stored yet."""

    instance: Row[Any]
    """The instance's row as read (its `version` is the compare-and-set's expected one)."""
    workflow: BpmnWorkflow
    """The run, on past the decided task to its next user tasks or its end."""
    data: dict[str, Any]
    """The instance data with the decision set (`approved`, `comment`, the entry appended to `history`)."""
    ready: list[ReadyTask]
    """The user tasks ready after it, their assignments resolved (those of other branches included)."""
    status: InstanceStatus
    """running, or approved/rejected when the decision ends the instance."""


def decision_entry(row: Row[Any], *, user_id: str, approved: bool, comment: str, at: str) -> dict[str, Any]:
    """A decision as the instance data's `history` keeps it."""
    return {
        "task_id": format_task_id(row.id), "element_id": row.element_id, "step": row.step, "step_en": row.step_en,
        "user": user_id, "approved": approved, "comment": comment, "at": at,
    }


def decide(
    conn: Connection, row: Row[Any], *, approved: bool, comment: str, entry: dict[str, Any], ready: Ready = ready_tasks
) -> Decided:
    """Decide the ready task `row` in memory: load its instance, find its ready SpiffWorkflow task, set the decision
    on the instance data (`entry` appended to `history`), run the task and the engine on, and find the user tasks
    ready after it (`ready`). `task_not_pending` when the run no longer has the task ready."""
    instance = conn.execute(select(tables.instances).where(tables.instances.c.id == row.instance_id)).one()
    data: dict[str, Any] = json.loads(instance.data)
    workflow = loads(instance.state)
    spiff_task = find_task(workflow, row.spiff_task_id)
    if spiff_task is None or spiff_task.state != TaskState.READY:
        raise EngineError("task_not_pending", f"Task {format_task_id(row.id)} is not pending any more.")
    data.update(approved=approved, comment=comment, history=[*data.get("history", []), entry])
    run_task(spiff_task, data)
    run_engine(workflow)
    found = ready(workflow, data)
    status: InstanceStatus = ("approved" if approved else "rejected") if workflow.is_completed() else "running"
    return Decided(instance=instance, workflow=workflow, data=data, ready=found, status=status)


def store_decision(
    conn: Connection, row: Row[Any], decided: Decided, *, user_id: str, approved: bool, comment: str, now: str
) -> list[Row[Any]]:
    """Store a decision with compare-and-set: the instance's new state and data, the task decided, the tasks no
    longer ready cancelled (a parallel branch the run ended) with the timers of those settled, the newly ready ones
    inserted; those new rows."""
    tid, instance = format_task_id(row.id), decided.instance
    changed = conn.execute(
        update(tables.instances)
        .where(tables.instances.c.id == instance.id, tables.instances.c.version == instance.version)
        .values(
            state=dumps(decided.workflow), data=dump(decided.data), status=decided.status,
            version=instance.version + 1, updated_at=now, ended_at=now if decided.status != "running" else None,
        )
    ).rowcount
    if changed != 1:
        raise EngineError("task_not_pending", f"Task {tid}'s request changed meanwhile: it was decided; look again.")
    t = tables.tasks
    marked = conn.execute(
        update(t)
        .where(t.c.id == row.id, t.c.status == "ready")
        .values(status="completed", decided_by=user_id, approved=approved, comment=comment, decided_at=now)
    ).rowcount
    if marked != 1:
        raise EngineError("task_not_pending", f"Task {tid} was decided meanwhile by someone else.")
    ready_ids = {str(item.task.id) for item in decided.ready}
    conn.execute(
        update(t)
        .where(t.c.instance_id == instance.id, t.c.status == "ready", t.c.spiff_task_id.not_in(ready_ids or {""}))
        .values(status="cancelled", decided_at=now)
    )
    cancel_settled(conn, instance.id, now)
    known = {r.spiff_task_id for r in conn.execute(select(t.c.spiff_task_id).where(t.c.instance_id == instance.id))}
    return insert_tasks(conn, instance.id, [item for item in decided.ready if str(item.task.id) not in known], now)


def completed(conn: Connection, row: Row[Any], decided: Decided, new_rows: Sequence[Row[Any]]) -> Completed:
    """What `complete` returns once the decision is stored: the decided task, the tasks ready now, the events."""
    instance = decided.instance
    header = Header(instance.id, model_of(deployment_of(conn, instance)), instance.process_version,
                    instance.requester, decided.data)
    decisions = history(conn, [instance.id])[instance.id]
    tid = format_task_id(row.id)
    decided_view = task_view(header, task_row(conn, row.id), tuple(h for h in decisions if h.task_id != tid))
    new_views = tuple(task_view(header, new_row, decisions) for new_row in new_rows)
    events: list[Event] = [ready_event(header, view) for view in new_views]
    if decided.status != "running":
        events.append(ended_event(header, cast(Outcome, decided.status)))
    return Completed(
        task=decided_view, instance_id=format_instance_id(instance.id), status=decided.status,
        tasks=tuple(task_view(header, r, decisions) for r in ready_rows(conn, instance.id)), events=tuple(events),
    )
