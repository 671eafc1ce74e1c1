"""The records of a request's life after its start besides decisions: sent back to its requester (`Returned`),
resubmitted (`Resubmitted`), withdrawn (`Withdrawn`); the events they cause; and its timeline (`Happened`).

Like `records`, each is a frozen dataclass with a docstring under every field; `to_dict()` gives JSON-ready values.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from tools.workflow.engine.records import Event, InstanceStatus, Record, TaskView

HappenedKind = Literal[
    "started", "approved", "rejected", "returned", "resubmitted", "withdrawn", "reminded", "escalated", "overdue",
    "transferred", "deputy", "deputy_own", "group_own", "urged",
]
"""reminded, escalated, overdue: a step's timer fired (`tools.workflow.engine.timers`); transferred, deputy,
deputy_own: a waiting step passed on (`tools.workflow.engine.moves`); urged: its requester reminded the step's holders
(kept by the workflow, `tools.workflow.urge`, not by the engine)."""


@dataclass(frozen=True)
class RequestReturned(Record):
    """Event: a step sent its request back to the requester; the caller tells the requester, with the comment."""

    instance_id: str
    """The instance (`req_3`)."""
    process_key: str
    """The process key."""
    requester: str
    """Who started it (the one told)."""
    task_id: str
    """The step that sent it back."""
    step: str
    """That step's name."""
    step_en: str
    """Its English name, or ""."""
    user: str
    """Who sent it back."""
    comment: str
    """What they ask to change."""
    form: dict[str, Any] = field(default_factory=dict)
    """The instance's start-form values."""
    kind: Literal["request_returned"] = "request_returned"
    """The event's kind."""


@dataclass(frozen=True)
class TaskWithdrawn(Record):
    """Event: a step that waited for someone is gone because its request was withdrawn (or sent back); the caller
    tells the people it was offered to."""

    task_id: str
    """The step (`task_4`)."""
    instance_id: str
    """Its instance."""
    process_key: str
    """The process key."""
    step: str
    """The step's name."""
    step_en: str
    """Its English name, or ""."""
    requester: str
    """Who started the instance."""
    assignees: tuple[str, ...]
    """User ids it was offered to by name."""
    candidate_groups: tuple[str, ...]
    """Groups it was offered to."""
    form: dict[str, Any] = field(default_factory=dict)
    """The instance's start-form values."""
    kind: Literal["task_withdrawn"] = "task_withdrawn"
    """The event's kind."""


AnyEvent = Event | RequestReturned | TaskWithdrawn
"""Every event the engine returns: a step ready, a request ended, sent back, or a step gone."""


@dataclass(frozen=True)
class Returned(Record):
    """The result of `return_task`."""

    task: TaskView
    """The step that sent the request back (status returned, with the comment)."""
    instance_id: str
    """Its instance."""
    status: InstanceStatus
    """returned."""
    cancelled: tuple[TaskView, ...]
    """Other steps of the request that were waiting and are gone (parallel branches)."""
    events: tuple[AnyEvent, ...]
    """What the caller should tell people about."""


@dataclass(frozen=True)
class Resubmitted(Record):
    """The result of `resubmit`: the same request, its form changed, through its steps again from the start."""

    instance_id: str
    """The instance."""
    status: InstanceStatus
    """running (or ended when the process has no step on its way)."""
    data: dict[str, Any]
    """The instance data after the change."""
    changes: dict[str, tuple[Any, Any]]
    """The changed form values: field id → (before, after)."""
    tasks: tuple[TaskView, ...]
    """The steps ready now."""
    events: tuple[AnyEvent, ...]
    """What the caller should tell people about."""


@dataclass(frozen=True)
class Withdrawn(Record):
    """The result of `cancel`: the request withdrawn, the steps that waited gone."""

    instance_id: str
    """The instance."""
    previous: InstanceStatus
    """Its status before: running or returned."""
    cancelled: tuple[TaskView, ...]
    """The steps that were waiting (now cancelled)."""
    events: tuple[AnyEvent, ...]
    """What the caller should tell people about: each step's holders, and the request's end."""


@dataclass(frozen=True)
class Happened(Record):
    """One entry of a request's timeline: who did what, when, with what comment."""

    kind: HappenedKind
    """started, approved, rejected, returned, resubmitted, withdrawn; a step's timer: reminded, escalated, overdue."""
    user: str
    """Who did it ("" for a timer: the system)."""
    at: str
    """When, ISO 8601 UTC."""
    comment: str = ""
    """Their comment ("" when none)."""
    step: str = ""
    """The step decided (decisions only)."""
    step_en: str = ""
    """Its English name, or ""."""
    task_id: str = ""
    """The step's task (decisions only)."""
    changes: dict[str, tuple[Any, Any]] = field(default_factory=dict)
    """A resubmission's changed form values: field id → (before, after)."""
    to: tuple[str, ...] = ()
    """A timer's people: who was reminded, or whom an escalated step moved to (user ids)."""
