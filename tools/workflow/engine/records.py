"""The records a `ProcessEngine` returns (`tools.workflow.engine.interface`): definitions with their start forms,
task and instance views, decisions, events, and what a start or a decision would do.

Each is a frozen dataclass with a docstring under every field; `to_dict()` gives JSON-ready values.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

FieldType = Literal["string", "long", "double", "decimal", "boolean", "date", "enum"]
InstanceStatus = Literal["running", "approved", "rejected", "ended", "returned", "withdrawn"]
"""returned: sent back to its requester to change and resubmit; withdrawn: cancelled by its requester."""
TaskStatus = Literal["ready", "completed", "cancelled", "returned"]
Outcome = Literal["approved", "rejected", "ended", "withdrawn"]


class Record:
    """A plain record: `to_dict()` gives JSON-ready values (tuples become lists)."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)  # type: ignore[call-overload]


@dataclass(frozen=True)
class Deployed(Record):
    """A stored deployment of a BPMN process."""

    key: str
    """The process key: the `id` of the BPMN `process` element (`process_qingjia`)."""
    version: int
    """1 for the first deployment of a key, n + 1 for each later one."""
    name: str = ""
    """The process's `name` (请假流程)."""
    created: bool = True
    """False when `deploy(..., only_if_changed=True)` found the same XML already deployed as the latest version."""


@dataclass(frozen=True)
class Choice(Record):
    """One value of an enum field (`camunda:value`)."""

    id: str
    """The value stored in the instance data (差旅)."""
    name: str
    """The label shown for it (差旅)."""
    name_en: str = ""
    """An English label, from the field's `camunda:property id="label_en:<id>"`, or ""."""
    words: tuple[str, ...] = ()
    """Words that imply this value without naming it, in either language (打车, taxi for 差旅): the field's
    `camunda:property id="words:<id>"`, comma-separated."""


@dataclass(frozen=True)
class FormField(Record):
    """One start-form field (`camunda:formField` on the start event)."""

    id: str
    """The field's id: the name of its value in the instance data and in gateway conditions (`days`)."""
    label: str
    """The label as the BPMN writes it (请假天数)."""
    label_en: str
    """The English label (`camunda:property id="label_en"`), or "" when the BPMN has none."""
    type: FieldType
    """string, long (an integer), double or decimal (a number), boolean, date (YYYY-MM-DD) or enum."""
    required: bool
    """Constraint `required`: the value must be given and not empty."""
    min: float | None = None
    """Lower bound of a number, or minimum length of a string (`min`/`minlength`; `minExclusive`); None: none."""
    max: float | None = None
    """Upper bound of a number, or maximum length of a string (`max`/`maxlength`; `maxExclusive`); None: none."""
    min_exclusive: bool = False
    """True when the value must be strictly greater than `min` (`minExclusive`)."""
    max_exclusive: bool = False
    """True when the value must be strictly less than `max` (`maxExclusive`)."""
    step: float | None = None
    """A number must be a multiple of it (`step`, e.g. 0.5 for half days); None: any number."""
    choices: tuple[Choice, ...] = ()
    """The allowed values of an enum field."""
    not_before: str = ""
    """A date field whose value this date may not precede (`notBefore`, e.g. endDate after startDate), or ""."""
    not_past: bool = False
    """A date that may not be before the `today` given to `start` (`notPast`)."""
    default: str | None = None
    """`defaultValue`, used when the value is not given; None: no default."""
    unit: str = ""
    """What a number counts (`camunda:property id="unit"`): "day" (days of leave), "yuan" (an amount), or ""."""
    cues: tuple[str, ...] = ()
    """For a string: words a person writes right before its value (去, 到, "to" before a destination), from
    `camunda:property id="cues"`, comma-separated."""


@dataclass(frozen=True)
class StepDef(Record):
    """One user task of a process definition, as modelled."""

    element_id: str
    """The BPMN id of the user task (`Task_approve`)."""
    name: str
    """The step's name (审批人审批)."""
    name_en: str
    """The English name (`camunda:property name="label_en"`), or ""."""
    assignee: str
    """`camunda:assignee` as written (`${nextUserId}`), or ""."""
    candidate_users: tuple[str, ...]
    """`camunda:candidateUsers` entries as written (ids or `${...}` expressions)."""
    candidate_groups: tuple[str, ...]
    """`camunda:candidateGroups` entries as written (`hr`)."""
    when: str = ""
    """When a request comes to this step, as the labels of the conditional flows into it say (同意且超过 5000 元), or ""
    where every request does."""
    when_en: str = ""
    """The same in English (the flows' `label_en`), or ""."""
    conditions: tuple[str, ...] = ()
    """The conditions of the conditional flows into it, as Python (`approved and amount > 5000`), or () where every
    request comes to it."""


@dataclass(frozen=True)
class Definition(Record):
    """A deployed process: the latest version of its key unless asked for another."""

    key: str
    """The process key (`process_qingjia`)."""
    name: str
    """The process name (请假流程)."""
    name_en: str
    """The English name (`camunda:property name="label_en"` on the process), or ""."""
    version: int
    """The deployment's version."""
    fields: tuple[FormField, ...]
    """The start form, in the order the BPMN lists it."""
    steps: tuple[StepDef, ...]
    """The user tasks, in document order."""
    words: tuple[str, ...] = ()
    """Words a person names the process by, in either language ("请假", "time off"; the BPMN's `words` property)."""


@dataclass(frozen=True)
class Decision(Record):
    """One decided user task, as kept in the instance's history (and in its data, under `history`)."""

    task_id: str
    """The decided task (`task_3`)."""
    element_id: str
    """The user task's BPMN id."""
    step: str
    """The step's name (人事审批)."""
    step_en: str
    """The step's English name, or ""."""
    user: str
    """The user who decided."""
    approved: bool
    """The decision."""
    comment: str
    """The decision's comment."""
    at: str
    """When, ISO 8601 UTC."""
    returned: bool = False
    """True when the step sent the request back to its requester instead of deciding it (`approved` is False)."""


@dataclass(frozen=True)
class TaskView(Record):
    """A user task as the engine exposes it."""

    id: str
    """The task id (`task_7`)."""
    instance_id: str
    """Its instance (`req_3`)."""
    process_key: str
    """The process key."""
    process_name: str
    """The process name (请假流程)."""
    process_name_en: str
    """The process's English name, or ""."""
    process_version: int
    """The version the instance runs on."""
    element_id: str
    """The user task's BPMN id."""
    step: str
    """The step's name (审批人审批)."""
    step_en: str
    """The step's English name, or ""."""
    requester: str
    """Who started the instance (the policy never lets them decide)."""
    assignee: str | None
    """The resolved `camunda:assignee`, or None."""
    candidate_users: tuple[str, ...]
    """The resolved `camunda:candidateUsers`."""
    candidate_groups: tuple[str, ...]
    """`camunda:candidateGroups`: every member of these groups is offered the task."""
    status: TaskStatus
    """ready, completed, cancelled, or returned (sent back to the requester)."""
    form: dict[str, Any]
    """The instance's start-form values (field id → value)."""
    history: tuple[Decision, ...]
    """The instance's decisions before this task was decided, oldest first."""
    created_at: str
    """When the task became ready, ISO 8601 UTC."""
    decided_by: str | None = None
    """Who decided it (completed tasks)."""
    approved: bool | None = None
    """The decision (completed tasks)."""
    comment: str | None = None
    """The decision's comment (completed tasks)."""
    decided_at: str | None = None
    """When it was decided (completed tasks)."""


@dataclass(frozen=True)
class TaskReady(Record):
    """Event: a user task became ready; the caller e-mails `assignees` (and the members of `candidate_groups`)."""

    task_id: str
    """The new task (`task_8`)."""
    instance_id: str
    """Its instance."""
    process_key: str
    """The process key."""
    process_name: str
    """The process name (请假流程)."""
    step: str
    """The step's name (人事审批)."""
    step_en: str
    """The step's English name, or ""."""
    requester: str
    """Who started the instance."""
    assignees: tuple[str, ...]
    """User ids it is offered to by name: the assignee, then the candidate users."""
    candidate_groups: tuple[str, ...]
    """Groups it is offered to."""
    form: dict[str, Any] = field(default_factory=dict)
    """The instance's start-form values, for the e-mail's text ("请假申请（10 天）")."""
    kind: Literal["task_ready"] = "task_ready"
    """The event's kind."""


@dataclass(frozen=True)
class InstanceEnded(Record):
    """Event: an instance reached its end; the caller tells the requester."""

    instance_id: str
    """The instance."""
    process_key: str
    """The process key."""
    process_name: str
    """The process name."""
    requester: str
    """Who started it."""
    outcome: Outcome
    """approved or rejected: the last decision; ended: the process ended without any decision; withdrawn: its
    requester withdrew it."""
    form: dict[str, Any] = field(default_factory=dict)
    """The instance's start-form values."""
    kind: Literal["instance_ended"] = "instance_ended"
    """The event's kind."""


Event = TaskReady | InstanceEnded


@dataclass(frozen=True)
class Started(Record):
    """The result of `start`."""

    instance_id: str
    """The new instance (`req_3`)."""
    process_key: str
    """The process key."""
    version: int
    """The version it runs on (the latest when it started)."""
    status: InstanceStatus
    """running, or approved/rejected/ended when the process had no user task on its way."""
    data: dict[str, Any]
    """The instance data: the normalised form values, `requester`, and `nextUserId` when given."""
    tasks: tuple[TaskView, ...]
    """The user tasks now ready."""
    events: tuple[Event, ...]
    """What the caller should tell people about."""


@dataclass(frozen=True)
class Completed(Record):
    """The result of `complete`."""

    task: TaskView
    """The decided task (status completed, with the decision)."""
    instance_id: str
    """Its instance."""
    status: InstanceStatus
    """The instance's status after the decision."""
    tasks: tuple[TaskView, ...]
    """The user tasks ready after it (the next step), empty when the instance ended."""
    events: tuple[Event, ...]
    """What the caller should tell people about."""


@dataclass(frozen=True)
class NextStep(Record):
    """A user task a decision would lead to, with whom it would be offered to."""

    element_id: str
    """The user task's BPMN id."""
    step: str
    """Its name (人事审批)."""
    step_en: str
    """Its English name, or ""."""
    assignee: str | None
    """The assignee it would have, resolved on the instance data."""
    candidate_users: tuple[str, ...]
    """The candidate users it would have."""
    candidate_groups: tuple[str, ...]
    """The candidate groups it would have."""


@dataclass(frozen=True)
class Preview(Record):
    """What deciding a task would do, worked out on a copy of the instance (nothing is stored)."""

    task_id: str
    """The task."""
    approved: bool
    """The decision previewed."""
    ends: bool
    """True when the decision ends the request."""
    outcome: InstanceStatus
    """The instance's status after it: running, or approved/rejected when it ends."""
    next: tuple[NextStep, ...]
    """The user tasks it would make ready (empty when it ends, or when only other branches are still open)."""


@dataclass(frozen=True)
class DiagramMarks(Record):
    """BPMN element ids for a viewer (bpmn-js markers): what is done, what waits, what may come next."""

    done: tuple[str, ...]
    """Flow nodes completed and the sequence flows taken."""
    current: tuple[str, ...]
    """The user tasks ready now."""
    next: tuple[str, ...]
    """Flow nodes a current task can lead to, through gateways (each branch, as conditions are not yet known)."""


@dataclass(frozen=True)
class InstanceView(Record):
    """An instance: its state, data, history and diagram."""

    id: str
    """The instance id (`req_3`)."""
    process_key: str
    """The process key."""
    process_name: str
    """The process name."""
    process_name_en: str
    """The process's English name, or ""."""
    version: int
    """The version it runs on."""
    requester: str
    """Who started it."""
    status: InstanceStatus
    """running, approved, rejected, ended, returned (to its requester) or withdrawn."""
    data: dict[str, Any]
    """The instance data: form values, `requester`, `nextUserId`, the last `approved`/`comment`, `history`."""
    history: tuple[Decision, ...]
    """Every decision, oldest first."""
    tasks: tuple[TaskView, ...]
    """The user tasks ready now (the current steps)."""
    current_steps: tuple[str, ...]
    """The names of the current steps (审批人审批)."""
    diagram: DiagramMarks
    """Element ids to mark on the diagram."""
    bpmn_xml: str
    """The BPMN XML of the version the instance runs on (for the viewer)."""
    created_at: str
    """When it started."""
    ended_at: str | None
    """When it ended, or None while running."""
