"""`SpiffEngine`: the `ProcessEngine` on SpiffWorkflow 3.2, embedded, with its state in the caller's database.

An instance's SpiffWorkflow state is serialized (JSON) into `process_instances.state` with a `version` for
compare-and-set. Each call works in memory first (deserialize, run, serialize) and writes last, so a refusal or
a process error leaves nothing behind; `complete` writes with `UPDATE … WHERE id = :id AND version = :expected`
and `UPDATE process_tasks … WHERE id = :id AND status = 'ready'`: of two workers deciding one task, the second
updates 0 rows and gets `task_not_pending` (PostgreSQL makes it wait for the first's commit, then re-checks; on
SQLite, `BEGIN IMMEDIATE` queues it behind the first). An error raised after a write is left for the caller's
transaction to roll back, as any exception inside `engine.begin()` does.

Instance data (the data contract BPMN authors write against): the start form's values, `requester`, and
`nextUserId` when given; each decision sets `approved` and `comment` and appends
`{task_id, step, user, approved, comment, at}` to `history`. The engine keeps the authoritative copy in
`process_instances.data` and hands it to SpiffWorkflow before each step, so parallel branches see every decision.

The class is the one callers use; its work is done by a module per concern: `deployments` (deploy, the models),
`running` (a run in memory, the ready tasks and their assignments), `tasks` (task rows and offers), `decisions`
(the one in-memory decide that `complete` stores and `preview` reads), `views` (task and instance views, events,
diagram marks), `timers` (a waiting task's timers, fired once by the timer service).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from SpiffWorkflow.bpmn.workflow import BpmnWorkflow
from sqlalchemy import Connection, Row, insert, select

from tools.workflow.engine import deployments, forms, lifecycle, moves, tables, timers
from tools.workflow.engine.changes import Happened, Resubmitted, Returned, Withdrawn
from tools.workflow.engine.decisions import completed, decide, decision_entry, store_decision
from tools.workflow.engine.errors import EngineError
from tools.workflow.engine.ids import format_instance_id, format_task_id, parse_instance_id, parse_task_id
from tools.workflow.engine.records import (
    Completed,
    Definition,
    Deployed,
    Event,
    InstanceStatus,
    InstanceView,
    NextStep,
    Preview,
    Started,
    TaskView,
)
from tools.workflow.engine.running import ReadyTask, approved_stages, new_run, next_step, ready_tasks
from tools.workflow.engine.spiff import dumps
from tools.workflow.engine.tasks import check_offered, dump, insert_tasks, offered_rows, pending_row, task_row
from tools.workflow.engine.timer_specs import planned_timers
from tools.workflow.engine.timers import TimerFired
from tools.workflow.engine.validation import Loaded
from tools.workflow.engine.views import Header, ended_event, instance_view, ready_event, task_view, task_views
from tools.workflow.engine.working_time import WorkingDay, weekdays

__all__ = ["SpiffEngine", "format_instance_id", "format_task_id", "parse_instance_id", "parse_task_id", "utcnow"]


def utcnow() -> datetime:
    return datetime.now(UTC)


class SpiffEngine:
    """The `ProcessEngine` on SpiffWorkflow, its state in the engine's tables (`tools.workflow.engine.tables`).

    `clock` gives the time stamps (timezone-aware UTC); `today` for `notPast` dates defaults to its date.
    `working_day` says which dates are working days, for timers that count working time (default Monday to Friday).
    `manager_of` gives a person's manager, for escalations to `${manager}` (default: nobody has one).
    """

    def __init__(self, *, clock: Callable[[], datetime] = utcnow, working_day: WorkingDay = weekdays,
                 manager_of: timers.ManagerOf = timers.no_managers) -> None:
        self.clock = clock
        self.working_day = working_day
        self.manager_of = manager_of

    # ---------------------------------------------------------------- deployments

    def deploy(self, conn: Connection, bpmn: str | Path, *, only_if_changed: bool = False) -> Deployed:
        return deployments.deploy(conn, bpmn, now=self._now(), only_if_changed=only_if_changed)

    def definitions(self, conn: Connection) -> list[Definition]:
        return deployments.latest_definitions(conn)

    def definition(self, conn: Connection, key: str, version: int | None = None) -> Definition:
        row = deployments.deployment_row(conn, key, version)
        return deployments.model_of(row).definition(row.version)

    # ---------------------------------------------------------------- start

    def start(
        self, conn: Connection, key: str, *, requester: str, data: dict[str, Any], today: date | None = None
    ) -> Started:
        if not isinstance(requester, str) or not requester.strip():
            raise EngineError("invalid_requester", f"requester must be a user id, not {requester!r}.")
        deployment, loaded, instance_data = self._start_data(conn, key, requester, data, today)
        workflow = new_run(loaded, instance_data)
        ready = self._ready(workflow, instance_data)
        now = self._now()
        status: InstanceStatus = "ended" if workflow.is_completed() else "running"
        result = conn.execute(
            insert(tables.instances).values(
                deployment_id=deployment.id, process_key=loaded.model.key, process_version=deployment.version,
                requester=instance_data["requester"], status=status, data=dump(instance_data), state=dumps(workflow),
                version=1, created_at=now, updated_at=now, ended_at=now if status != "running" else None,
            )
        )
        instance_id = int(result.inserted_primary_key[0])  # type: ignore[index]
        rows = insert_tasks(conn, instance_id, ready, now)
        header = Header(instance_id, loaded.model, deployment.version, instance_data["requester"], instance_data)
        tasks_out = tuple(task_view(header, row, ()) for row in rows)
        events: list[Event] = [ready_event(header, view) for view in tasks_out]
        if status != "running":
            events.append(ended_event(header, "ended"))
        return Started(
            instance_id=format_instance_id(instance_id), process_key=loaded.model.key, version=deployment.version,
            status=status, data=instance_data, tasks=tasks_out, events=tuple(events),
        )

    def preview_start(
        self, conn: Connection, key: str, *, requester: str, data: dict[str, Any], today: date | None = None
    ) -> tuple[tuple[NextStep, ...], ...]:
        _, loaded, instance_data = self._start_data(conn, key, requester, data, today)
        return approved_stages(new_run(loaded, instance_data), instance_data, self._ready)

    def _start_data(
        self, conn: Connection, key: str, requester: str, data: dict[str, Any], today: date | None
    ) -> tuple[Row[Any], Loaded, dict[str, Any]]:
        """The key's latest deployment, its checked document, and the instance data a start gives it: the start
        form's values checked (`FormError`) and the requester."""
        deployment = deployments.deployment_row(conn, key)
        loaded = deployments.loaded_of(deployment)
        values = forms.validate(loaded.model.fields, dict(data), today=today or self.clock().date())
        return deployment, loaded, {**values, "requester": requester.strip()}

    # ---------------------------------------------------------------- tasks

    def tasks_for(self, conn: Connection, user_id: str, groups: Sequence[str]) -> list[TaskView]:
        return task_views(conn, offered_rows(conn, user_id, groups))

    def task(self, conn: Connection, task_id: str) -> TaskView:
        return task_views(conn, [task_row(conn, task_id)])[0]

    def complete(
        self,
        conn: Connection,
        task_id: str,
        *,
        user_id: str,
        approved: bool,
        comment: str,
        groups: Sequence[str] | None = None,
    ) -> Completed:
        if not isinstance(approved, bool):
            raise EngineError("invalid_decision", f"approved must be true or false, not {approved!r}.")
        row = pending_row(conn, task_id)
        check_offered(conn, row, user_id, groups)
        now, comment = self._now(), comment or ""
        entry = decision_entry(row, user_id=user_id, approved=approved, comment=comment, at=now)
        decided = decide(conn, row, approved=approved, comment=comment, entry=entry, ready=self._ready)
        new_rows = store_decision(conn, row, decided, user_id=user_id, approved=approved, comment=comment, now=now)
        return completed(conn, row, decided, new_rows)

    def preview(self, conn: Connection, task_id: str, *, approved: bool) -> Preview:
        row = pending_row(conn, task_id)
        tid = format_task_id(row.id)
        # The copy's decision as it would be recorded (the comment is not known yet and routes nothing in the data
        # contract's conditions but its own).
        decided = decide(conn, row, approved=approved, comment="", entry={"task_id": tid, "approved": approved},
                         ready=self._ready)
        t = tables.tasks
        others = {r.spiff_task_id for r in conn.execute(
            select(t.c.spiff_task_id).where(t.c.instance_id == decided.instance.id, t.c.status == "ready", t.c.id != row.id)
        )}
        # a parallel branch already waiting is not this decision's doing
        steps = tuple(next_step(item) for item in decided.ready if str(item.task.id) not in others)
        return Preview(task_id=tid, approved=approved, ends=decided.status != "running", outcome=decided.status,
                       next=steps)

    # ---------------------------------------------------------------- instances

    def instance(self, conn: Connection, instance_id: str) -> InstanceView:
        return instance_view(conn, instance_id)

    # ---------------------------------------------------------------- a request's life: send back, resubmit, withdraw

    def return_task(
        self, conn: Connection, task_id: str, *, user_id: str, comment: str, groups: Sequence[str] | None = None
    ) -> Returned:
        return lifecycle.return_task(conn, task_id, user_id=user_id, comment=comment, groups=groups, now=self._now())

    def resubmit(
        self, conn: Connection, instance_id: str, *, user_id: str, changes: dict[str, Any], today: date | None = None,
        comment: str = "",
    ) -> Resubmitted:
        return lifecycle.resubmit(conn, instance_id, user_id=user_id, changes=changes, today=today or self.clock().date(),
                                  now=self._now(), ready=self._ready, comment=comment)

    def cancel(self, conn: Connection, instance_id: str, *, user_id: str, comment: str = "") -> Withdrawn:
        return lifecycle.cancel(conn, instance_id, user_id=user_id, comment=comment, now=self._now())

    def timeline(self, conn: Connection, instance_id: str) -> tuple[Happened, ...]:
        number = parse_instance_id(instance_id)
        found = [*lifecycle.timeline(conn, instance_id), *timers.happened(conn, number), *moves.happened(conn, number)]
        return tuple(sorted(found, key=lambda h: h.at))

    def move_task(
        self, conn: Connection, task_id: str, *, to_users: Sequence[str], to_groups: Sequence[str] = (),
        kind: moves.MoveKind, from_user: str, by: str, comment: str = "",
    ) -> moves.Moved:
        return moves.move_task(conn, task_id, to_users=to_users, to_groups=to_groups, kind=kind, from_user=from_user,
                               by=by, comment=comment, now=self._now())

    # ---------------------------------------------------------------- timers

    def due_timers(self, conn: Connection, *, limit: int = 100) -> list[int]:
        return timers.due(conn, self._now(), limit)

    def fire_timer(self, conn: Connection, timer_id: int, *, by: str) -> TimerFired | None:
        return timers.fire(conn, timer_id, now=self._now(), by=by, manager_of=self.manager_of)

    # ---------------------------------------------------------------- internals

    def _now(self) -> str:
        return self.clock().astimezone(UTC).isoformat(timespec="microseconds")

    def _ready(self, workflow: BpmnWorkflow, data: dict[str, Any]) -> list[ReadyTask]:
        """The ready user tasks (`running.ready_tasks`): every call goes through this one method, so a test can
        make two deciders meet right after both worked a decision out (tests/support/engine.py `race`). Each comes
        with its timers, due from now (`timer_specs.planned_timers`)."""
        now = self.clock()
        return [replace(item, timers=planned_timers(item.task, now, self.working_day))
                for item in ready_tasks(workflow, data)]
