"""Deploy-time validation: a BPMN document is read, checked and parsed, or refused naming the element and the fix.

The checks run in this order, each refusal a `DeployError(code, message, element_id=...)`:

1. XML and BPMN: well-formed XML (`not_xml`), a `bpmn:definitions` root (`not_bpmn`), exactly one `bpmn:process`
   (`no_process`, `several_processes`) with an id (`process_without_id`, `bad_process_id`) and
   `isExecutable="true"` (`not_executable`).
2. Elements: only what this engine runs (start and end events without event definitions, user tasks, exclusive
   and parallel gateways, sequence flows; `unsupported_element` otherwise), every one with a unique id
   (`element_without_id`, `duplicate_id`) that is not one SpiffWorkflow uses itself (`reserved_id`: Start, End).
3. The start form (`camunda:formData` on the start event): field ids usable as Python names and not the
   engine's own (`bad_field_id`, `duplicate_field`, `reserved_field`), known types (`unknown_field_type`), enum
   values (`enum_without_values`), known constraints with valid configs (`unknown_constraint`, `bad_constraint`).
4. User tasks: an assignee rule (`no_assignee_rule`) whose entries are ids or `${...}` expressions on the
   instance data (`bad_assignee`); a due date and timer boundary events this engine runs (`bad_timer`:
   `timer_specs.check_boundary`).
5. Flows and conditions: flows join existing nodes (`dangling_flow`); conditions only on an exclusive gateway's
   flows (`condition_outside_gateway`) that parse as safe Python on known names (`bad_condition`,
   `unsafe_condition`, `unknown_name`); each flow out of an exclusive gateway with a condition or the default
   (`missing_condition`, `bad_default_flow`).
6. The graph: one none start event (`no_start_event`, `several_start_events`), an end event (`no_end_event`),
   flows in and out where needed (`no_incoming_flow`, `no_outgoing_flow`, `several_outgoing_flows`), every node
   reachable from the start and able to reach an end (`unreachable`, `no_path_to_end`).
7. The BPMN 2.0 XML schema (`schema_invalid`), then SpiffWorkflow's Camunda parser (`invalid_bpmn`).

Reading the XML is `bpmn_xml`'s, the start form's checks (3) are `start_form`'s and the flows' and the graph's (5, 6)
`flow_checks`'; the process, its elements and its user tasks are checked here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from tools.workflow.engine.bpmn_xml import clean, describe, listed, parse_xml, property_of, tag_of
from tools.workflow.engine.errors import DeployError
from tools.workflow.engine.expressions import ExpressionError, check, is_wrapped, split_entries, unwrap
from tools.workflow.engine.flow_checks import check_graph, sequence_flows, start_event
from tools.workflow.engine.model import CAMUNDA_NS, NS, RESERVED_NAMES, Flow, ProcessModel
from tools.workflow.engine.records import StepDef
from tools.workflow.engine.spiff import ASSIGNMENT_ATTRIBUTES, parse_specs, schema_validator
from tools.workflow.engine.start_form import form_fields
from tools.workflow.engine.timer_specs import check_boundary, check_due_date

FLOW_NODES = frozenset({"startEvent", "endEvent", "userTask", "exclusiveGateway", "parallelGateway", "boundaryEvent"})
IGNORED = frozenset({
    "sequenceFlow", "extensionElements", "documentation", "laneSet", "textAnnotation", "association", "group",
    "dataObject", "dataObjectReference", "property", "ioSpecification",
})
UNSUPPORTED_HINTS = {
    "scriptTask": "script tasks would run code; decide with an exclusive gateway's conditions instead",
    "serviceTask": "service tasks call code; the assistant's tools do that",
    "task": "a task without a type does nothing here; make it a user task with an assignee",
    "manualTask": "make it a user task with an assignee",
}
SPIFF_NAMES = frozenset({"Start", "End", "Root"})
SPIFF_SUFFIXES = (".EndJoin", ".BoundaryEventSplit", ".BoundaryEventJoin", "[child]")
"""Task spec names SpiffWorkflow makes itself; a BPMN element with one of them breaks the workflow it builds."""
PROCESS_ID = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]{0,63}$")
USER_ID = re.compile(r"^[\w.@-]{1,64}$")


def _process(root: Any) -> Any:
    processes = root.findall("bpmn:process", NS)
    if not processes:
        raise DeployError("no_process", "The document has no <bpmn:process>; model the process (start event, tasks, end).")
    if len(processes) > 1:
        ids = ", ".join(str(p.get("id")) for p in processes)
        raise DeployError(
            "several_processes", f"The document has {len(processes)} processes ({ids}); deploy one process per file.",
            element_id=str(processes[1].get("id") or ""),
        )
    process = processes[0]
    key = process.get("id")
    if not key:
        raise DeployError("process_without_id", "The <bpmn:process> has no id; give it one, e.g. id=\"process_baoxiao\".")
    if not PROCESS_ID.match(key):
        raise DeployError(
            "bad_process_id", f"The process id `{key}` is not a usable key: use letters, digits, _ . - (at most 64).",
            element_id=key,
        )
    if process.get("isExecutable") != "true":
        raise DeployError(
            "not_executable",
            f"Process `{key}` is not executable: set isExecutable=\"true\" on it (Camunda Modeler: \"Executable\").",
            element_id=key,
        )
    return process


def _step(task: Any, names: set[str]) -> StepDef:
    task_id = task.get("id")
    rules = {attr: (task.get(f"{{{CAMUNDA_NS}}}{attr}") or "").strip() for attr in ASSIGNMENT_ATTRIBUTES}
    if not any(rules.values()):
        raise DeployError(
            "no_assignee_rule",
            f"{describe(task)} has no one to decide it: set camunda:assignee (e.g. \"${{nextUserId}}\"), "
            f"camunda:candidateUsers or camunda:candidateGroups.",
            element_id=task_id,
        )
    entries: dict[str, list[str]] = {}
    for attr, text in rules.items():
        entries[attr] = [text] if attr == "assignee" and text else split_entries(text)
        for entry in entries[attr]:
            if is_wrapped(entry):
                try:
                    check(unwrap(entry), names)
                except ExpressionError as exc:
                    raise DeployError(
                        "bad_assignee", f"{describe(task)}: camunda:{attr} {exc}", element_id=task_id
                    ) from None
            elif not USER_ID.match(entry):
                raise DeployError(
                    "bad_assignee",
                    f"{describe(task)}: camunda:{attr} entry {entry!r} is neither an id nor a ${{...}} "
                    f"expression on the instance data.",
                    element_id=task_id,
                )
    return StepDef(
        element_id=task_id, name=clean(task.get("name")) or task_id, name_en=property_of(task, "label_en"),
        assignee=rules["assignee"], candidate_users=tuple(entries["candidateUsers"]),
        candidate_groups=tuple(entries["candidateGroups"]),
    )


def _when(step: StepDef, flows: tuple[Flow, ...]) -> StepDef:
    """`step` with when a request comes to it, as the labels of the conditional flows into it say."""
    into = [f for f in flows if f.target == step.element_id and f.condition and f.name]
    return replace(
        step, when="；".join(f.name for f in into), when_en="; ".join(f.name_en or f.name for f in into),
        conditions=tuple(f.condition for f in into),
    ) if into else step


def _elements(process: Any) -> dict[str, Any]:
    """Flow node id → element, refusing what this engine does not run and elements without (unique) ids."""
    nodes: dict[str, Any] = {}
    ids: set[str] = set()
    for element in process.iter():
        tag = tag_of(element)
        if element is process or not tag:
            continue
        parent = element.getparent()
        if parent is not process:
            # Children of flow nodes (incoming/outgoing refs, conditions, event definitions) are looked at with
            # their node; lanes and extension elements are not executed.
            if tag.endswith("EventDefinition") and tag_of(parent) in ("startEvent", "endEvent", "boundaryEvent") and not (
                tag == "timerEventDefinition" and tag_of(parent) == "boundaryEvent"
            ):
                raise DeployError(
                    "unsupported_element",
                    f"{describe(parent)} has a {tag}: only none start and end events, and timer boundary events, run "
                    f"here; remove the event definition.",
                    element_id=str(parent.get("id") or ""),
                )
            continue
        element_id = element.get("id")
        if tag in IGNORED and tag != "sequenceFlow":
            continue
        if tag not in FLOW_NODES and tag != "sequenceFlow":
            hint = UNSUPPORTED_HINTS.get(tag, "this engine runs start and end events, user tasks, exclusive and "
                                              "parallel gateways and sequence flows")
            raise DeployError(
                "unsupported_element", f"<bpmn:{tag}> `{element_id}` is not supported: {hint}.", element_id=element_id or ""
            )
        if not element_id:
            raise DeployError(
                "element_without_id", f"A <bpmn:{tag}> ({clean(element.get('name'))}) has no id; give it one.",
            )
        if element_id in SPIFF_NAMES or element_id.endswith(SPIFF_SUFFIXES):
            raise DeployError(
                "reserved_id",
                f"Id `{element_id}` is a name SpiffWorkflow gives its own tasks (Start, End, Root, *.EndJoin, ...); "
                f"rename the element, e.g. `{element_id.replace('.', '_')}_1`.",
                element_id=element_id,
            )
        if element_id in ids:
            raise DeployError("duplicate_id", f"Id `{element_id}` is used twice; ids must be unique.", element_id=element_id)
        ids.add(element_id)
        if tag in FLOW_NODES:
            nodes[element_id] = element
    return nodes


def _timers(nodes: dict[str, Any], flows: tuple[Flow, ...]) -> dict[str, str]:
    """Each user task's due date and each timer boundary event checked; boundary event id → the task it is on."""
    attached: dict[str, str] = {}
    for node_id, element in nodes.items():
        if tag_of(element) == "userTask":
            check_due_date(element)
        elif tag_of(element) == "boundaryEvent":
            attached[node_id] = check_boundary(element, nodes, [f.target for f in flows if f.source == node_id])
    return attached


@dataclass(frozen=True)
class Loaded:
    """A valid BPMN document: the engine's model of it, and SpiffWorkflow's specs."""

    model: ProcessModel
    spec: Any
    subprocess_specs: dict[str, Any]


def load(xml: str | bytes, *, schema: bool = True) -> Loaded:
    """Check and parse a BPMN document; raises `DeployError` naming the element and what to fix."""
    root = parse_xml(xml)
    process = _process(root)
    key = process.get("id")
    nodes = _elements(process)
    fields = form_fields(start_event(nodes, key))
    names = {f.id for f in fields} | set(RESERVED_NAMES)
    flows = sequence_flows(process, nodes, names)
    steps = tuple(_when(_step(element, names), flows) for element in nodes.values() if tag_of(element) == "userTask")
    attached = _timers(nodes, flows)
    check_graph(nodes, flows, key, attached)
    if schema:
        try:
            schema_validator().validate(root)
        except Exception as exc:  # SpiffWorkflow's ValidationException, or lxml's when the schema check itself fails
            line = getattr(exc, "line_number", "")
            raise DeployError(
                "schema_invalid", f"The document does not follow the BPMN 2.0 schema{f' (line {line})' if line else ''}: {exc}",
            ) from None
    try:
        spec, subprocess_specs = parse_specs(root, key)
    except Exception as exc:
        element_id = str(getattr(exc, "id", "") or "")
        raise DeployError("invalid_bpmn", f"SpiffWorkflow refused the process: {exc}", element_id=element_id) from None
    model = ProcessModel(
        key=key,
        name=clean(process.get("name")) or key,
        name_en=property_of(process, "label_en"),
        fields=fields,
        steps=steps,
        nodes={node_id: tag_of(element) for node_id, element in nodes.items()},
        flows=flows,
        words=listed(property_of(process, "words")),
    )
    return Loaded(model=model, spec=spec, subprocess_specs=subprocess_specs)
