"""SpiffWorkflow, configured for this engine: its Camunda parser, conditions without `${...}`, and its serializer.

- `Parser` is SpiffWorkflow's `CamundaParser` with two task parsers replaced: user tasks keep their Camunda
  assignment rules (`camunda:assignee`, `camunda:candidateUsers`, `camunda:candidateGroups`) in the task spec's
  `extensions` (which SpiffWorkflow serializes with the workflow, so a running instance keeps its version's
  rules), and exclusive gateways strip Camunda's `${...}` wrapper from conditions when the BPMN is parsed.
- Timer boundary events are read by `timer_specs.TimerBoundaryParser` (their settings in the spec's `extensions`, a
  duration timer SpiffWorkflow never fires itself) and a user task's `camunda:dueDate` is kept with its assignment.
- Workflows run with `expressions.SCRIPT_ENGINE` (no builtins, expressions re-checked).
- The serializer keeps mutable state on its registry while it encodes (`_encoder_mode`), so each thread gets
  its own (`serializer()`).
"""

from __future__ import annotations

import threading
from typing import Any

from SpiffWorkflow.bpmn.parser.BpmnParser import BpmnValidator, full_tag
from SpiffWorkflow.bpmn.parser.task_parsers import ConditionalGatewayParser
from SpiffWorkflow.bpmn.serializer.default.event_definition import TimerConditionalEventDefinitionConverter
from SpiffWorkflow.bpmn.serializer.workflow import BpmnWorkflowSerializer
from SpiffWorkflow.bpmn.specs.defaults import BoundaryEvent, ExclusiveGateway
from SpiffWorkflow.bpmn.workflow import BpmnWorkflow
from SpiffWorkflow.camunda.parser.CamundaParser import CamundaParser
from SpiffWorkflow.camunda.parser.task_spec import UserTaskParser
from SpiffWorkflow.camunda.serializer import DEFAULT_CONFIG as CAMUNDA_CONFIG
from SpiffWorkflow.camunda.specs.user_task import UserTask

from tools.workflow.engine.expressions import SCRIPT_ENGINE, unwrap
from tools.workflow.engine.timer_specs import DUE_KEY, WORKING_KEY, HeldTimer, TimerBoundaryParser, working_time_of

ASSIGNMENT_ATTRIBUTES = ("assignee", "candidateUsers", "candidateGroups")
"""The Camunda attributes of a user task kept in its spec's `extensions` as `camunda:<name>`."""


class AssignedUserTaskParser(UserTaskParser):
    """Camunda's user task parser, plus the assignment attributes it leaves out."""

    def parse_extensions(self, node: Any = None) -> dict[str, Any]:
        extensions: dict[str, Any] = super().parse_extensions(node)
        for name in ASSIGNMENT_ATTRIBUTES:
            value = self.attribute(name, "camunda")
            if value and value.strip():
                extensions[f"camunda:{name}"] = value.strip()
        due = self.attribute("dueDate", "camunda")
        if due and due.strip():
            extensions[DUE_KEY] = due.strip()
            extensions[WORKING_KEY] = working_time_of(self.node)
        return extensions


class UnwrappingGatewayParser(ConditionalGatewayParser):
    """An exclusive gateway whose conditions may be written `${...}` (Camunda) or bare Python."""

    def parse_condition(self, sequence_flow: Any) -> str | None:
        text = super().parse_condition(sequence_flow)
        return unwrap(text) or None


class Parser(CamundaParser):
    """SpiffWorkflow's Camunda parser with the two replacements above."""

    OVERRIDE_PARSER_CLASSES = {
        **CamundaParser.OVERRIDE_PARSER_CLASSES,
        full_tag("userTask"): (AssignedUserTaskParser, UserTask),
        full_tag("exclusiveGateway"): (UnwrappingGatewayParser, ExclusiveGateway),
        full_tag("boundaryEvent"): (TimerBoundaryParser, BoundaryEvent),
    }


_validator: BpmnValidator | None = None
_validator_lock = threading.Lock()


def schema_validator() -> BpmnValidator:
    """SpiffWorkflow's BPMN 2.0 XSD validator, loaded once (loading the schema takes a while)."""
    global _validator
    with _validator_lock:
        if _validator is None:
            _validator = BpmnValidator()
        return _validator


def parse_specs(root: Any, key: str) -> tuple[Any, dict[str, Any]]:
    """The process spec and its subprocess specs of a parsed (lxml) BPMN document. Raises SpiffWorkflow errors."""
    parser = Parser()
    parser.add_bpmn_xml(root, filename=f"{key}.bpmn")
    return parser.get_spec(key), parser.get_subprocess_specs(key)


def new_workflow(spec: Any, subprocess_specs: dict[str, Any]) -> BpmnWorkflow:
    return BpmnWorkflow(spec, subprocess_specs, script_engine=SCRIPT_ENGINE)


_local = threading.local()
SERIALIZER_CONFIG = {**CAMUNDA_CONFIG, HeldTimer: TimerConditionalEventDefinitionConverter}
"""SpiffWorkflow's Camunda specs, and the engine's held timers."""


def serializer() -> BpmnWorkflowSerializer:
    """This thread's serializer, for SpiffWorkflow's Camunda task specs."""
    found = getattr(_local, "serializer", None)
    if found is None:
        found = BpmnWorkflowSerializer(BpmnWorkflowSerializer.configure(SERIALIZER_CONFIG))
        _local.serializer = found
    return found


def dumps(workflow: BpmnWorkflow) -> str:
    return str(serializer().serialize_json(workflow))


def loads(state: str) -> BpmnWorkflow:
    workflow = serializer().deserialize_json(state)
    workflow.script_engine = SCRIPT_ENGINE
    return workflow
