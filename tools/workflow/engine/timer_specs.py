"""Timers in the BPMN: a user task's due date (`camunda:dueDate`) and its timer boundary events, as SpiffWorkflow's
Camunda parser reads them, checked at deploy time and planned when the task gets ready.

What a BPMN author writes (Camunda Modeler: a timer boundary event on the task, "Non-interrupting"):

    <bpmn:boundaryEvent id="Timer_remind" name="提醒审批人" attachedToRef="Task_approve" cancelActivity="false">
      <bpmn:extensionElements><camunda:properties>
        <camunda:property name="action" value="remind" />        <!-- remind (default) | escalate -->
        <camunda:property name="escalateTo" value="hr" />        <!-- escalate: the groups the task moves to, or
                                                                      "${manager}, hr": to the holder's manager, else hr -->
        <camunda:property name="workingTime" value="true" />     <!-- count working days only (or on the process) -->
      </camunda:properties></bpmn:extensionElements>
      <bpmn:outgoing>Flow_reminded</bpmn:outgoing>             <!-- to an end event -->
      <bpmn:timerEventDefinition><bpmn:timeDuration>P1D</bpmn:timeDuration></bpmn:timerEventDefinition>
    </bpmn:boundaryEvent>

A timer counts from the moment its task became ready. SpiffWorkflow would fire a duration timer itself, on the wall
clock, the next time the workflow runs; here it never does (`HeldTimer`): the engine's timer service fires it at
its due time, once, with the engine's clock (`tools.workflow.engine.timers`). The boundary event waits in the
serialized workflow and is cancelled with its task when the task is decided; its flow, to an end event, runs nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from SpiffWorkflow.bpmn.specs.event_definitions.timer import DurationTimerEventDefinition
from SpiffWorkflow.bpmn.specs.mixins.events.intermediate_event import BoundaryEvent
from SpiffWorkflow.camunda.parser.event_parsers import CamundaBoundaryEventParser

from tools.workflow.engine.bpmn_xml import describe, listed, property_of, tag_of
from tools.workflow.engine.errors import DeployError
from tools.workflow.engine.model import CAMUNDA_NS, NS
from tools.workflow.engine.working_time import DurationError, WorkingDay, due_after, parse_duration

TimerAction = Literal["remind", "escalate", "due"]
"""remind: the task's holders are e-mailed; escalate: the task moves to other groups; due: the task's due date."""
ACTIONS: tuple[str, ...] = ("remind", "escalate")
"""What a timer boundary event may do (`camunda:property name="action"`)."""
DURATION_KEY, ACTION_KEY, ESCALATE_KEY, WORKING_KEY = "timer:duration", "timer:action", "timer:escalateTo", "timer:workingTime"
DUE_KEY = "camunda:dueDate"
MANAGER = "${manager}"
"""In `escalateTo`: the step's assignee's manager (the caller's reporting line, `SpiffEngine(manager_of=...)`), when
they have one who is not the requester; else the step moves to the groups listed beside it."""


class HeldTimer(DurationTimerEventDefinition):
    """A duration timer SpiffWorkflow never fires on its own (it would on the wall clock, evaluating `P1D` as Python):
    the engine's timer service fires it. It is told so by `event_fired` in the task's internal data."""

    def has_fired(self, my_task: Any) -> bool:
        return bool(my_task._get_internal_data("event_fired", False))


class TimerBoundaryParser(CamundaBoundaryEventParser):
    """Camunda's boundary event parser; a duration timer becomes a `HeldTimer`, and the timer's settings are kept in
    the spec's `extensions` (serialized with each instance, so a running request keeps its version's timers)."""

    def parse_timer_event(self, event: Any) -> Any:
        duration = event.find("bpmn:timeDuration", NS)
        name = self.node.get("name", self.node.get("id"))
        return HeldTimer(name, (duration.text or "").strip() if duration is not None else "",
                         description=self.get_event_description(event))

    def parse_extensions(self, node: Any = None) -> dict[str, Any]:
        element = self.node if node is None else node
        duration = element.find("bpmn:timerEventDefinition/bpmn:timeDuration", NS)
        return {
            DURATION_KEY: (duration.text or "").strip() if duration is not None else "",
            ACTION_KEY: property_of(element, "action") or "remind",
            ESCALATE_KEY: property_of(element, "escalateTo"),
            WORKING_KEY: working_time_of(element),
        }


def working_time_of(element: Any) -> str:
    """"true" when the element, else its process, says its durations count working time (`workingTime`)."""
    own = property_of(element, "workingTime")
    if own:
        return own.lower()
    process = element.getparent()
    return (property_of(process, "workingTime") if process is not None else "").lower()


# ---------------------------------------------------------------- planned when a task gets ready


@dataclass(frozen=True)
class PlannedTimer:
    """A timer of a ready user task, with its due time worked out."""

    element_id: str
    """The boundary event's BPMN id (the user task's own for its due date)."""
    name: str
    """The timer's name as modelled (提醒审批人), or its id."""
    action: TimerAction
    """remind, escalate or due."""
    due_at: datetime
    """When it fires (timezone-aware)."""
    escalate_to: tuple[str, ...] = ()
    """The groups an escalation moves the task to."""


def planned_timers(task: Any, start: datetime, working_day: WorkingDay) -> tuple[PlannedTimer, ...]:
    """The timers of a ready SpiffWorkflow user task: its due date and the timer boundary events attached to it, each
    due its duration after `start` (the moment it became ready)."""
    found: list[PlannedTimer] = []
    spec = task.task_spec
    due = str(spec.extensions.get(DUE_KEY, "") or "")
    if due:
        at = due_after(start, parse_duration(due), working_time=spec.extensions.get(WORKING_KEY) == "true",
                       working_day=working_day)
        found.append(PlannedTimer(spec.bpmn_id, spec.bpmn_name or spec.bpmn_id, "due", at))
    parent = task.parent
    for sibling in parent.children if parent is not None else []:
        event = sibling.task_spec
        if not isinstance(event, BoundaryEvent) or not isinstance(event.event_definition, HeldTimer):
            continue
        ext = event.extensions
        at = due_after(start, parse_duration(ext[DURATION_KEY]), working_time=ext.get(WORKING_KEY) == "true",
                       working_day=working_day)
        action: TimerAction = "escalate" if ext.get(ACTION_KEY) == "escalate" else "remind"
        found.append(PlannedTimer(event.bpmn_id, event.bpmn_name or event.bpmn_id, action, at,
                                  tuple(listed(ext.get(ESCALATE_KEY, "")))))
    return tuple(found)


# ---------------------------------------------------------------- checked at deploy time


def _refuse(element: Any, what: str) -> DeployError:
    return DeployError("bad_timer", f"{describe(element)}: {what}.", element_id=str(element.get("id") or ""))


def check_due_date(task: Any) -> None:
    """A user task's `camunda:dueDate`, when it has one, is a duration this engine counts."""
    due = (task.get(f"{{{CAMUNDA_NS}}}dueDate") or "").strip()
    if due:
        try:
            parse_duration(due)
        except DurationError as exc:
            raise _refuse(task, f"camunda:dueDate {exc}") from None


def check_boundary(event: Any, nodes: dict[str, Any], targets: list[str]) -> str:
    """A boundary event this engine runs: a non-interrupting duration timer on a user task that reminds or escalates,
    its flows only to end events (`targets`: where they lead). Returns the task it is attached to."""
    attached = event.get("attachedToRef") or ""
    if attached not in nodes or tag_of(nodes[attached]) != "userTask":
        raise _refuse(event, f"attachedToRef={attached!r} is no user task of the process; attach the timer to one")
    definitions = [child for child in event if (tag_of(child) or "").endswith("EventDefinition")]
    if len(definitions) != 1 or tag_of(definitions[0]) != "timerEventDefinition":
        raise _refuse(event, "only a timer boundary event runs here; give it one timerEventDefinition")
    duration = definitions[0].find("bpmn:timeDuration", NS)
    if duration is None:
        raise _refuse(event, "write the timer as a duration (timeDuration, e.g. P1D or PT1H), not a date or a cycle")
    try:
        parse_duration(duration.text or "")
    except DurationError as exc:
        raise _refuse(event, f"timeDuration {exc}") from None
    if (event.get("cancelActivity") or "true").lower() != "false":
        raise _refuse(event, "an interrupting timer would cancel the step; make it non-interrupting "
                             "(cancelActivity=\"false\") and say what it does: action remind, or escalate with escalateTo")
    action = property_of(event, "action") or "remind"
    if action not in ACTIONS:
        raise _refuse(event, f"action {action!r} is not one of {', '.join(ACTIONS)}")
    escalate_to = listed(property_of(event, "escalateTo"))
    if action == "escalate" and not [t for t in escalate_to if t != MANAGER]:
        raise _refuse(event, "an escalation needs escalateTo, the groups the step moves to (e.g. hr, or "
                             f"\"{MANAGER}, hr\": the holder's manager, else hr)")
    if property_of(event, "workingTime").lower() not in ("", "true", "false"):
        raise _refuse(event, "workingTime is true or false")
    for target in targets:
        if target not in nodes or tag_of(nodes[target]) != "endEvent":
            raise _refuse(event, f"its flow leads to `{target}`: a timer's flow may only lead to an end event here "
                                 f"(what it does is its action)")
    return attached
