"""A waiting task's timers, stored, found when due and fired exactly once: a reminder, an escalation, a due date.

`schedule` stores the timers a task gets when it becomes ready (`timer_specs.planned_timers`, due times worked out
by the engine's clock and working days). `due` lists the waiting timers whose time has come, oldest first, by the
`(status, due_at)` index. `fire` fires one in the caller's transaction: it claims the timer with compare-and-set
(`UPDATE process_timers … WHERE id = :id AND status = 'waiting'`), then does its effect, so the claim and the effect
(and the caller's e-mails) commit together or not at all. Of two services firing one timer, the second updates no
row (PostgreSQL makes it wait for the first's commit and re-checks; SQLite's `BEGIN IMMEDIATE` queues it) and gets
None. A timer whose task was decided, sent back or withdrawn is not fired: it is marked cancelled in the transaction
that settled its task (`cancel_settled`), or, for a row left waiting by an older version, when it comes due.

- remind: nothing changes; the caller e-mails the task's holders (`TimerFired.holders`).
- escalate: the task moves to its assignee's manager when the timer says `${manager}` and they have one who is not the
  requester (`manager_of`, the caller's reporting line), else to the timer's groups (`escalate_to`): its assignee and
  candidate users are replaced and its offers with them, with compare-and-set on the task's status (a decision that
  got there first wins). When those groups hold nobody but the requester (who never decides their own request), the
  task stays where it is and its holders are reminded instead (`moved_to` is then empty).
- due: the task is past its due date; the timeline says so, nobody is e-mailed.

Each firing is in the request's timeline (`happened`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC
from typing import Any, Literal, cast

from sqlalchemy import Connection, Row, delete, func, insert, select, update

from tools.workflow.engine import tables
from tools.workflow.engine.changes import Happened
from tools.workflow.engine.deployments import deployment_of, model_of
from tools.workflow.engine.errors import EngineError
from tools.workflow.engine.ids import format_instance_id, format_task_id
from tools.workflow.engine.records import Record
from tools.workflow.engine.timer_specs import MANAGER, PlannedTimer, TimerAction

ManagerOf = Callable[[Connection, str], str | None]
"""A person's manager (a user id), or None: the caller's reporting line, read in the firing's transaction."""


def no_managers(conn: Connection, user_id: str) -> str | None:
    """The reporting line of an engine that was given none: nobody has a manager."""
    return None


HAPPENED_KINDS: dict[str, Literal["reminded", "escalated", "overdue"]] = {
    "remind": "reminded", "escalate": "escalated", "due": "overdue",
}
"""A fired timer's entry in the timeline, by its action."""


@dataclass(frozen=True)
class TimerFired(Record):
    """Event: a task's timer fired; the caller tells the people concerned (a reminder: `holders`; an escalation: the
    members of `escalated_to`, and `holders`, who no longer hold it)."""

    timer_id: int
    """The timer's row id."""
    action: TimerAction
    """remind, escalate or due."""
    name: str
    """The timer's name as modelled (提醒审批人)."""
    task_id: str
    """The task (`task_4`)."""
    instance_id: str
    """Its request (`req_3`)."""
    process_key: str
    """The process key."""
    step: str
    """The step's name (审批人审批)."""
    step_en: str
    """Its English name, or ""."""
    requester: str
    """Who started the request."""
    holders: tuple[str, ...]
    """Who held the task when the timer fired: its assignee and candidate users, then its groups' members."""
    escalated_to: tuple[str, ...]
    """The groups an escalation moved the task to ("hr"); () otherwise, and when it went to a manager."""
    moved_to: tuple[str, ...]
    """Who an escalation moved the task to: the assignee's manager, or the members of its groups when it fired, never
    the requester; () when it moved nowhere (a reminder instead)."""
    due_at: str
    """When it was due, ISO 8601 UTC."""
    fired_at: str
    """When it fired, ISO 8601 UTC."""
    created_at: str
    """When the task became ready (what the timer counted from)."""
    form: dict[str, Any] = field(default_factory=dict)
    """The request's start-form values (for the e-mail's text)."""
    kind: Literal["timer_fired"] = "timer_fired"
    """The event's kind."""


def stamp(moment: Any) -> str:
    """A time as the engine's tables store it: ISO 8601 UTC with microseconds."""
    return str(moment.astimezone(UTC).isoformat(timespec="microseconds"))


def schedule(conn: Connection, instance_id: int, task_id: int, planned: Iterable[PlannedTimer], now: str) -> None:
    """Store a task's timers, waiting, as it becomes ready."""
    rows = [
        {"instance_id": instance_id, "task_id": task_id, "element_id": p.element_id, "name": p.name,
         "action": p.action, "escalate_to": json.dumps(list(p.escalate_to)), "due_at": stamp(p.due_at),
         "status": "waiting", "detail": "{}", "created_at": now}
        for p in planned
    ]
    if rows:
        conn.execute(insert(tables.timers), rows)


def due(conn: Connection, now: str, limit: int = 100) -> list[int]:
    """The ids of the waiting timers due at `now` or before, the longest due first (at most `limit`)."""
    t = tables.timers
    query = select(t.c.id).where(t.c.status == "waiting", t.c.due_at <= now).order_by(t.c.due_at, t.c.id).limit(limit)
    return [row.id for row in conn.execute(query)]


def cancel_settled(conn: Connection, instance_id: int, now: str) -> int:
    """Cancel the waiting timers of the instance's steps that are no longer waiting (decided, sent back, withdrawn),
    in the transaction that settled them: a settled step's timers never wait for their due time to be cancelled, and
    the table says truthfully what is still to fire. How many it cancelled."""
    t, k = tables.timers, tables.tasks
    settled = select(k.c.id).where(k.c.instance_id == instance_id, k.c.status != "ready")
    return int(conn.execute(
        update(t).where(t.c.instance_id == instance_id, t.c.status == "waiting", t.c.task_id.in_(settled))
        .values(status="cancelled", fired_at=now, detail=json.dumps({"task_settled": True}))
    ).rowcount)


DUE_ACTIONS = ("due", "escalate")
"""The timers a step's due date is read from: its own due date, and when it moves on (an escalation)."""


def due_dates(conn: Connection, task_ids: Iterable[int]) -> dict[int, str]:
    """When each waiting step is due, by task number: the earliest of its waiting due date and escalation (ISO 8601
    UTC); a step with neither is left out."""
    ids = list(task_ids)
    if not ids:
        return {}
    t = tables.timers
    rows = conn.execute(
        select(t.c.task_id, func.min(t.c.due_at).label("due_at"))
        .where(t.c.task_id.in_(ids), t.c.status == "waiting", t.c.action.in_(DUE_ACTIONS)).group_by(t.c.task_id)
    )
    return {row.task_id: row.due_at for row in rows}


def next_due(conn: Connection) -> str | None:
    """When the next waiting timer is due, or None."""
    t = tables.timers
    return conn.execute(select(t.c.due_at).where(t.c.status == "waiting").order_by(t.c.due_at).limit(1)).scalar()


def _holders(conn: Connection, task: Row[Any]) -> tuple[str, ...]:
    people = [*([task.assignee] if task.assignee else []), *json.loads(task.candidate_users)]
    for group in json.loads(task.candidate_groups):
        people += tables.members_of(conn, group)
    return tuple(dict.fromkeys(p for p in people if p != task.requester_id))


def _claim(conn: Connection, timer_id: int, status: str, now: str, by: str, detail: dict[str, Any]) -> bool:
    t = tables.timers
    claimed = conn.execute(
        update(t).where(t.c.id == timer_id, t.c.status == "waiting")
        .values(status=status, fired_at=now, fired_by=by, detail=json.dumps(detail, ensure_ascii=False))
    ).rowcount
    return bool(claimed == 1)


def _escalate(conn: Connection, task: Row[Any], manager: str | None, groups: Sequence[str]) -> None:
    """Move a waiting task to `manager` (its assignee then), else to `groups`: its former holders cleared, its offers
    replaced."""
    t, o = tables.tasks, tables.task_offers
    moved = conn.execute(
        update(t).where(t.c.id == task.id, t.c.status == "ready")
        .values(assignee=manager, candidate_users="[]", candidate_groups=json.dumps([] if manager else list(groups)))
    ).rowcount
    if moved != 1:
        raise EngineError("task_not_pending", f"Task {format_task_id(task.id)} was decided meanwhile.")
    conn.execute(delete(o).where(o.c.task_id == task.id))
    offers = ([{"task_id": task.id, "kind": "user", "name": manager}] if manager
              else [{"task_id": task.id, "kind": "group", "name": g} for g in dict.fromkeys(groups)])
    conn.execute(insert(o), offers)


def _manager(conn: Connection, task: Row[Any], targets: Sequence[str], manager_of: ManagerOf) -> str | None:
    """The assignee's manager when the timer escalates to `${manager}` and there is one who may take the task."""
    if MANAGER not in targets or not task.assignee:
        return None
    manager = manager_of(conn, task.assignee)
    return manager if manager and manager not in (task.assignee, task.requester_id) else None


def fire(conn: Connection, timer_id: int, *, now: str, by: str, manager_of: ManagerOf = no_managers) -> TimerFired | None:
    """Fire a waiting timer in the caller's transaction: claimed, then its effect. None when another service fired it
    first, or its task is no longer waiting (the timer is then marked cancelled)."""
    timer = conn.execute(select(tables.timers).where(tables.timers.c.id == timer_id)).first()
    if timer is None or timer.status != "waiting":
        return None
    i = tables.instances
    task = conn.execute(
        select(tables.tasks, i.c.requester.label("requester_id"), i.c.data.label("instance_data"))
        .join(i, i.c.id == tables.tasks.c.instance_id).where(tables.tasks.c.id == timer.task_id)
    ).one()
    if task.status != "ready":
        _claim(conn, timer_id, "cancelled", now, by, {"task_status": task.status})
        return None
    holders = _holders(conn, task)
    targets = tuple(json.loads(timer.escalate_to)) if timer.action == "escalate" else ()
    manager = _manager(conn, task, targets, manager_of)
    groups = () if manager else tuple(g for g in targets if g != MANAGER)
    moved_to = (manager,) if manager else tuple(
        dict.fromkeys(p for g in groups for p in tables.members_of(conn, g) if p != task.requester_id))
    if not moved_to:  # nobody in those groups but the requester, who never decides: the step stays, its holders reminded
        groups = ()
    detail = {"holders": list(holders), "escalated_to": list(groups), "moved_to": list(moved_to)}
    if not _claim(conn, timer_id, "fired", now, by, detail):
        return None
    if moved_to:
        _escalate(conn, task, manager, groups)
    instance = conn.execute(select(i).where(i.c.id == task.instance_id)).one()
    model = model_of(deployment_of(conn, instance))
    data = json.loads(task.instance_data)
    return TimerFired(
        timer_id=timer.id, action=cast(TimerAction, timer.action), name=timer.name, task_id=format_task_id(task.id),
        instance_id=format_instance_id(task.instance_id), process_key=instance.process_key, step=task.step,
        step_en=task.step_en, requester=task.requester_id, holders=holders, escalated_to=groups, moved_to=moved_to,
        due_at=timer.due_at, fired_at=now, created_at=task.created_at,
        form={f.id: data.get(f.id) for f in model.fields if f.id in data},
    )


def happened(conn: Connection, instance_id: int) -> list[Happened]:
    """The request's fired timers as timeline entries: reminded (who), escalated (to whom), overdue."""
    t, k = tables.timers, tables.tasks
    rows = conn.execute(
        select(t, k.c.step, k.c.step_en).join(k, k.c.id == t.c.task_id)
        .where(t.c.instance_id == instance_id, t.c.status == "fired").order_by(t.c.fired_at, t.c.id)
    )
    found = []
    for row in rows:
        detail = json.loads(row.detail)
        moved = row.action == "escalate" and bool(detail.get("moved_to"))
        kind = "escalated" if moved else HAPPENED_KINDS["remind" if row.action == "escalate" else row.action]
        people = detail.get("moved_to") if moved else detail.get("holders")
        found.append(Happened(kind=kind, user="", at=row.fired_at, step=row.step,
                              step_en=row.step_en, task_id=format_task_id(row.task_id), to=tuple(people or ())))
    return found
