"""The `ProcessEngine` interface: what the workflow tools need from a BPMN engine (its records: `records`).

Every method takes the caller's SQLAlchemy `Connection` and works inside the caller's transaction: the caller
commits an instance's new state together with its own rows (a tool execution's idempotency key, outbox e-mails).
Nothing is sent: `start` and `complete` return events (`TaskReady`, `InstanceEnded`) that the caller turns into
e-mails in that same transaction.

The engine enforces only what an engine can know: a task is decided while it is still ready (compare-and-set)
and only by a user it is offered to. Who may decide beyond that (never the requester, a comment on long
requests, ...) is the caller's policy; the records carry what it needs (`requester`, `assignee`, candidates).

SpiffWorkflow, embedded, implements it (`tools.workflow.engine.spiff_engine.SpiffEngine`); an engine behind a
REST API (Flowable, Camunda 7) could implement the same methods: deployments, process definitions with their
start forms, task queries by user and candidate groups, task completion with variables, and instance history.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from sqlalchemy import Connection

from tools.workflow.engine.changes import Happened, Resubmitted, Returned, Withdrawn
from tools.workflow.engine.moves import Moved, MoveKind
from tools.workflow.engine.records import (
    Choice,
    Completed,
    Decision,
    Definition,
    Deployed,
    DiagramMarks,
    Event,
    FieldType,
    FormField,
    InstanceEnded,
    InstanceStatus,
    InstanceView,
    NextStep,
    Outcome,
    Preview,
    Record,
    Started,
    StepDef,
    TaskReady,
    TaskStatus,
    TaskView,
)
from tools.workflow.engine.timers import TimerFired

__all__ = [
    "Choice",
    "Completed",
    "Decision",
    "Definition",
    "Deployed",
    "DiagramMarks",
    "Event",
    "FieldType",
    "FormField",
    "InstanceEnded",
    "InstanceStatus",
    "InstanceView",
    "NextStep",
    "Outcome",
    "Preview",
    "ProcessEngine",
    "Record",
    "Started",
    "StepDef",
    "TaskReady",
    "TaskStatus",
    "TaskView",
]


@runtime_checkable
class ProcessEngine(Protocol):
    """A BPMN engine as the workflow tools use it. Every method runs in the caller's transaction (`conn`).

    Errors are `EngineError`s (`DeployError` at deploy, `FormError` for start-form values) with a stable code.
    """

    def deploy(self, conn: Connection, bpmn: str | Path, *, only_if_changed: bool = False) -> Deployed:
        """Parse, validate and store a BPMN document (XML text or a file path); a key deployed again gets n + 1.

        Invalid BPMN raises `DeployError` naming the element and the fix, and stores nothing. With
        `only_if_changed`, XML identical to the key's latest version is not stored again (`created=False`).
        """
        ...

    def definitions(self, conn: Connection) -> list[Definition]:
        """The latest version of each deployed key, ordered by key."""
        ...

    def definition(self, conn: Connection, key: str, version: int | None = None) -> Definition:
        """One process definition: the latest version, or the given one (`unknown_process` if absent)."""
        ...

    def start(
        self, conn: Connection, key: str, *, requester: str, data: dict[str, Any], today: date | None = None
    ) -> Started:
        """Validate the start form, create an instance on the key's latest version, and run it to its user tasks.

        `data` holds the form's values and optionally `nextUserId`; `today` is the date `notPast` dates are
        checked against (default: today, UTC). Invalid values raise `FormError`; nothing is stored then.
        """
        ...

    def tasks_for(self, conn: Connection, user_id: str, groups: Sequence[str]) -> list[TaskView]:
        """Ready tasks offered to the user: as assignee, as a candidate user, or to one of `groups`."""
        ...

    def task(self, conn: Connection, task_id: str) -> TaskView:
        """One task by id, in any status (`task_not_found` if there is none)."""
        ...

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
        """Decide a ready task offered to `user_id` and run the instance on to its next user tasks or its end.

        Compare-and-set: a task no longer ready (decided by someone else meanwhile, even concurrently) raises
        `task_not_pending`; a task not offered to the user raises `task_not_offered`. `groups` are the user's
        groups; None reads them from the engine's group tables.
        """
        ...

    def instance(self, conn: Connection, instance_id: str) -> InstanceView:
        """An instance's status, data, history, current steps, diagram marks and BPMN XML."""
        ...

    def return_task(
        self, conn: Connection, task_id: str, *, user_id: str, comment: str, groups: Sequence[str] | None = None
    ) -> Returned:
        """Send a ready task's request back to its requester with a comment (required: `comment_required`) instead of
        deciding it: the task ends as returned, the request's other ready tasks are cancelled, and the request waits
        on its requester (status returned). Compare-and-set and offers as `complete`."""
        ...

    def resubmit(
        self, conn: Connection, instance_id: str, *, user_id: str, changes: dict[str, Any], today: date | None = None,
        comment: str = "",
    ) -> Resubmitted:
        """Run a returned request again from its start on its version, its form changed by `changes` (field id → new
        value; the whole form is checked, `FormError`; none to send it as it was), keeping its id and history, with
        the requester's `comment` on the resend in its timeline. `instance_not_returned` unless it
        was sent back. Who may resubmit is the caller's policy."""
        ...

    def cancel(self, conn: Connection, instance_id: str, *, user_id: str, comment: str = "") -> Withdrawn:
        """Withdraw a pending (running or returned) request: its run cancelled, its ready tasks cancelled, status
        withdrawn (an `InstanceEnded` with outcome withdrawn among the events). `instance_not_pending` when it already
        ended. Who may withdraw is the caller's policy."""
        ...

    def move_task(
        self, conn: Connection, task_id: str, *, to_users: Sequence[str], to_groups: Sequence[str] = (),
        kind: MoveKind, from_user: str, by: str, comment: str = "",
    ) -> Moved:
        """Pass a ready task on to other holders (transferred by a holder, or routed to a deputy), recorded for the
        timeline; compare-and-set on the holders as read (`task_not_pending`). Who may pass it on is the caller's
        policy (`tools.workflow.engine.moves`)."""
        ...

    def timeline(self, conn: Connection, instance_id: str) -> tuple[Happened, ...]:
        """Who did what to a request, oldest first: started, each decision (approved, rejected, returned), each
        resubmission with its changes, its withdrawal."""
        ...

    def due_timers(self, conn: Connection, *, limit: int = 100) -> list[int]:
        """The waiting timers due now (the engine's clock), longest due first: their ids, for `fire_timer`."""
        ...

    def fire_timer(self, conn: Connection, timer_id: int, *, by: str) -> TimerFired | None:
        """Fire a due timer (a task's reminder, escalation or due date) exactly once, in the caller's transaction with
        its e-mails: compare-and-set on the timer, so of several services only one fires it (the others get None, as
        does a timer whose task is no longer waiting). `by` names the service, for the record."""
        ...

    def preview_start(
        self, conn: Connection, key: str, *, requester: str, data: dict[str, Any], today: date | None = None
    ) -> tuple[tuple[NextStep, ...], ...]:
        """The steps a request would go through if every step approved it, stage by stage, worked out on a copy
        (nothing is stored): what a start card tells the requester happens next. Invalid values raise `FormError`."""
        ...

    def preview(self, conn: Connection, task_id: str, *, approved: bool) -> Preview:
        """What deciding a ready task would do (the gateways evaluated on a copy of the instance data with the
        decision set): the steps it makes ready, or the end. Nothing is stored; `task_not_pending` when the task
        is no longer ready. An engine that cannot tell may raise `EngineError("preview_unavailable", ...)`."""
        ...
