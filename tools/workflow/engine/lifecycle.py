"""A request's life besides its decisions: a step sends it back to its requester (`return_task`), the requester
changes its form and sends it again (`resubmit`), or withdraws it (`cancel`); and its timeline (`timeline`).

Returning is a generic step outcome, like approving or rejecting: the request waits on its requester (status
`returned`), its waiting steps are gone, and nothing about the process's domain is known here. A resubmitted request
keeps its id, its version and its history, and runs from its start again on the changed form (as DingTalk and Feishu
approvals do: every step decides it anew). Each change is a compare-and-set on the instance's `version` and the
statuses it leaves (`UPDATE … WHERE id = :id AND version = :expected`), in the caller's transaction: of a withdraw and
a decision that meet, one wins and the other is refused (`instance_not_pending`, `task_not_pending`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import date
from typing import Any

from sqlalchemy import Connection, Row, insert, select, update

from tools.workflow.engine import deployments, forms, tables
from tools.workflow.engine.changes import (
    AnyEvent,
    Happened,
    HappenedKind,
    RequestReturned,
    Resubmitted,
    Returned,
    TaskWithdrawn,
    Withdrawn,
)
from tools.workflow.engine.decisions import decision_entry
from tools.workflow.engine.errors import EngineError
from tools.workflow.engine.ids import format_instance_id, format_task_id, parse_instance_id
from tools.workflow.engine.records import InstanceStatus, TaskView
from tools.workflow.engine.running import Ready, new_run
from tools.workflow.engine.spiff import dumps, loads
from tools.workflow.engine.tasks import check_offered, dump, insert_tasks, pending_row, task_row
from tools.workflow.engine.timers import cancel_settled
from tools.workflow.engine.views import Header, ended_event, history, ready_event, ready_rows, task_view

PENDING: tuple[InstanceStatus, ...] = ("running", "returned")
"""The statuses of a request its requester may still withdraw."""
LEFT_OUT_ON_RESUBMIT = ("approved", "comment")
"""Instance data a resubmitted run starts without: the last decision routes nothing on the new round."""


def _instance(conn: Connection, instance_id: str | int) -> Row[Any]:
    number = parse_instance_id(instance_id)
    row = conn.execute(select(tables.instances).where(tables.instances.c.id == number)).first()
    if row is None:
        raise EngineError("unknown_instance", f"There is no request {format_instance_id(number)}.")
    return row


def _header(conn: Connection, row: Row[Any], data: dict[str, Any]) -> Header:
    model = deployments.model_of(deployments.deployment_of(conn, row))
    return Header(row.id, model, row.process_version, row.requester, data)


def _store_instance(conn: Connection, row: Row[Any], code: str, **values: Any) -> None:
    """The instance's new state with compare-and-set; `code` when someone changed it meanwhile."""
    changed = conn.execute(
        update(tables.instances)
        .where(tables.instances.c.id == row.id, tables.instances.c.version == row.version)
        .values(version=row.version + 1, **values)
    ).rowcount
    if changed != 1:
        raise EngineError(code, f"Request {format_instance_id(row.id)} changed meanwhile; look at it again.")


def _withdraw_waiting(conn: Connection, header: Header, now: str) -> tuple[tuple[TaskView, ...], list[AnyEvent]]:
    """Cancel the instance's waiting steps and the timers of its settled ones: their views and an event for each (their
    holders are told)."""
    waiting = ready_rows(conn, header.instance_id)
    decided = history(conn, [header.instance_id])[header.instance_id]
    t = tables.tasks
    conn.execute(update(t).where(t.c.instance_id == header.instance_id, t.c.status == "ready")
                 .values(status="cancelled", decided_at=now))
    cancel_settled(conn, header.instance_id, now)
    views = tuple(task_view(header, task_row(conn, r.id), decided) for r in waiting)
    events: list[AnyEvent] = [
        TaskWithdrawn(
            task_id=v.id, instance_id=v.instance_id, process_key=v.process_key, step=v.step, step_en=v.step_en,
            requester=v.requester, assignees=tuple(dict.fromkeys([*([v.assignee] if v.assignee else []),
                                                                   *v.candidate_users])),
            candidate_groups=v.candidate_groups, form=header.form(),
        )
        for v in views
    ]
    return views, events


def _act(conn: Connection, instance_id: int, kind: str, user_id: str, now: str, *, comment: str = "",
         detail: dict[str, Any] | None = None) -> None:
    conn.execute(insert(tables.instance_actions).values(
        instance_id=instance_id, kind=kind, user_id=user_id, comment=comment, detail=dump(detail or {}), at=now,
    ))


def cancel(conn: Connection, instance_id: str, *, user_id: str, comment: str, now: str) -> Withdrawn:
    """Withdraw a request still pending (running, or sent back): its run cancelled, its waiting steps gone, the
    request ended as withdrawn. `instance_not_pending` when it already ended (or changed meanwhile)."""
    row = _instance(conn, instance_id)
    rid = format_instance_id(row.id)
    if row.status not in PENDING:
        raise EngineError("instance_not_pending", f"Request {rid} is {row.status}, not pending: it cannot be withdrawn.")
    data = json.loads(row.data)
    workflow = loads(row.state)
    workflow.cancel()
    _store_instance(conn, row, "instance_not_pending", status="withdrawn", state=dumps(workflow), updated_at=now,
                    ended_at=now)
    header = _header(conn, row, data)
    cancelled, events = _withdraw_waiting(conn, header, now)
    _act(conn, row.id, "withdrawn", user_id, now, comment=comment)
    events.append(ended_event(header, "withdrawn"))
    return Withdrawn(instance_id=rid, previous=row.status, cancelled=cancelled, events=tuple(events))


def return_task(
    conn: Connection, task_id: str, *, user_id: str, comment: str, groups: Sequence[str] | None, now: str
) -> Returned:
    """A waiting step sends its request back to the requester with a comment (required): the step ends as returned,
    the request's other waiting steps are gone, and the request waits on its requester (status returned) to change
    and resubmit it, or to withdraw it. Compare-and-set like a decision (`task_not_pending`)."""
    if not isinstance(comment, str) or not comment.strip():
        raise EngineError("comment_required", "Sending a request back needs a comment saying what to change.")
    row = pending_row(conn, task_id)
    check_offered(conn, row, user_id, groups)
    instance = conn.execute(select(tables.instances).where(tables.instances.c.id == row.instance_id)).one()
    data: dict[str, Any] = json.loads(instance.data)
    entry = decision_entry(row, user_id=user_id, approved=False, comment=comment.strip(), at=now) | {"returned": True}
    data["history"] = [*data.get("history", []), entry]
    workflow = loads(instance.state)
    workflow.cancel()
    _store_instance(conn, instance, "task_not_pending", status="returned", state=dumps(workflow), data=dump(data),
                    updated_at=now)
    t = tables.tasks
    marked = conn.execute(
        update(t).where(t.c.id == row.id, t.c.status == "ready")
        .values(status="returned", decided_by=user_id, approved=None, comment=comment.strip(), decided_at=now)
    ).rowcount
    if marked != 1:
        raise EngineError("task_not_pending", f"Task {format_task_id(row.id)} was decided meanwhile by someone else.")
    header = _header(conn, instance, data)
    cancelled, events = _withdraw_waiting(conn, header, now)
    decided = history(conn, [instance.id])[instance.id]
    view = task_view(header, task_row(conn, row.id), tuple(h for h in decided if h.task_id != format_task_id(row.id)))
    events.append(RequestReturned(
        instance_id=format_instance_id(instance.id), process_key=header.model.key, requester=instance.requester,
        task_id=view.id, step=view.step, step_en=view.step_en, user=user_id, comment=comment.strip(),
        form=header.form(),
    ))
    return Returned(task=view, instance_id=format_instance_id(instance.id), status="returned", cancelled=cancelled,
                    events=tuple(events))


def resubmit(
    conn: Connection, instance_id: str, *, user_id: str, changes: dict[str, Any], today: date, now: str, ready: Ready,
    comment: str = "",
) -> Resubmitted:
    """A request sent back, its form changed (`changes`: field id → new value, checked with the whole form by the
    form's rules, `FormError`; none when it goes again as it was), run again from its start on the version it began
    on, keeping its id and history; `comment` is the requester's note on the resend (kept in the timeline).
    `instance_not_returned` unless it waits on its requester."""
    row = _instance(conn, instance_id)
    rid = format_instance_id(row.id)
    if row.status != "returned":
        raise EngineError("instance_not_returned", f"Request {rid} is {row.status}: only a request sent back to its "
                          "requester can be resubmitted.")
    deployment = deployments.deployment_of(conn, row)
    loaded = deployments.loaded_of(deployment)
    old: dict[str, Any] = json.loads(row.data)
    before = {f.id: old.get(f.id) for f in loaded.model.fields if old.get(f.id) is not None}
    values = forms.validate(loaded.model.fields, {**before, **changes}, today=today)
    data = {k: v for k, v in old.items() if k not in LEFT_OUT_ON_RESUBMIT and k not in before} | values
    changed = {k: (before.get(k), v) for k, v in values.items() if before.get(k) != v}
    workflow = new_run(loaded, data)
    found = ready(workflow, data)
    status: InstanceStatus = "running" if not workflow.is_completed() else "ended"
    _store_instance(conn, row, "instance_not_returned", status=status, state=dumps(workflow), data=dump(data),
                    updated_at=now, ended_at=now if status != "running" else None)
    new_rows = insert_tasks(conn, row.id, found, now)
    _act(conn, row.id, "resubmitted", user_id, now, comment=comment,
         detail={"changes": {k: list(v) for k, v in changed.items()}})
    header = _header(conn, row, data)
    decided = history(conn, [row.id])[row.id]
    views = tuple(task_view(header, r, decided) for r in new_rows)
    events: list[AnyEvent] = [ready_event(header, v) for v in views]
    if status != "running":
        events.append(ended_event(header, "ended"))
    return Resubmitted(instance_id=rid, status=status, data=data, changes=changed, tasks=views, events=tuple(events))


def timeline(conn: Connection, instance_id: str) -> tuple[Happened, ...]:
    """Who did what to a request and when, oldest first: its start, each step's decision (approved, rejected, sent
    back), each resubmission with its changed values, its withdrawal."""
    row = _instance(conn, instance_id)
    found = [Happened(kind="started", user=row.requester, at=row.created_at)]
    for d in history(conn, [row.id])[row.id]:
        kind: HappenedKind = "returned" if d.returned else ("approved" if d.approved else "rejected")
        found.append(Happened(kind=kind, user=d.user, at=d.at, comment=d.comment, step=d.step, step_en=d.step_en,
                              task_id=d.task_id))
    a = tables.instance_actions
    for act in conn.execute(select(a).where(a.c.instance_id == row.id).order_by(a.c.id)):
        changes = {k: (v[0], v[1]) for k, v in json.loads(act.detail).get("changes", {}).items()}
        found.append(Happened(kind=act.kind, user=act.user_id, at=act.at, comment=act.comment, changes=changes))
    return tuple(sorted(found, key=lambda h: h.at))
