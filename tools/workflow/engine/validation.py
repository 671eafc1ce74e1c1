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
   instance data (`bad_assignee`).
5. Flows and conditions: flows join existing nodes (`dangling_flow`); conditions only on an exclusive gateway's
   flows (`condition_outside_gateway`) that parse as safe Python on known names (`bad_condition`,
   `unsafe_condition`, `unknown_name`); each flow out of an exclusive gateway with a condition or the default
   (`missing_condition`, `bad_default_flow`).
6. The graph: one none start event (`no_start_event`, `several_start_events`), an end event (`no_end_event`),
   flows in and out where needed (`no_incoming_flow`, `no_outgoing_flow`, `several_outgoing_flows`), every node
   reachable from the start and able to reach an end (`unreachable`, `no_path_to_end`).
7. The BPMN 2.0 XML schema (`schema_invalid`), then SpiffWorkflow's Camunda parser (`invalid_bpmn`).
"""

from __future__ import annotations

import keyword
import re
from dataclasses import dataclass
from typing import Any

from lxml import etree

from tools.workflow.engine.errors import DeployError, FormError
from tools.workflow.engine.expressions import FUNCTIONS, ExpressionError, check, is_wrapped, split_entries, unwrap
from tools.workflow.engine.forms import normalize
from tools.workflow.engine.model import BPMN_NS, CAMUNDA_NS, GATEWAYS, NS, RESERVED_NAMES, Flow, ProcessModel
from tools.workflow.engine.records import Choice, FieldType, FormField, StepDef
from tools.workflow.engine.spiff import ASSIGNMENT_ATTRIBUTES, parse_specs, schema_validator

FIELD_TYPES: tuple[FieldType, ...] = ("string", "long", "double", "decimal", "boolean", "date", "enum")
NUMBER_TYPES = frozenset({"long", "double", "decimal"})
CONSTRAINTS = {
    "required": None, "readonly": None,  # Camunda's; readonly is accepted and ignored
    "min": NUMBER_TYPES, "max": NUMBER_TYPES, "minExclusive": NUMBER_TYPES, "maxExclusive": NUMBER_TYPES,
    "step": NUMBER_TYPES, "minlength": {"string"}, "maxlength": {"string"}, "notBefore": {"date"}, "notPast": {"date"},
}
"""Constraint name → the field types it applies to (None: any). Camunda's, plus minExclusive, maxExclusive,
step, notBefore and notPast, which the seed processes need (days > 0 in half days; dates in order, not past)."""

FLOW_NODES = frozenset({"startEvent", "endEvent", "userTask", "exclusiveGateway", "parallelGateway"})
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
FIELD_ID = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,63}$")
USER_ID = re.compile(r"^[\w.@-]{1,64}$")


def _tag(element: Any) -> str:
    """The local name of a BPMN element, "" for comments and other namespaces."""
    if not isinstance(element.tag, str):
        return ""
    qname = etree.QName(element)
    return qname.localname if qname.namespace == BPMN_NS else ""


def _describe(element: Any) -> str:
    name = element.get("name")
    return f"{_tag(element) or etree.QName(element).localname} `{element.get('id')}`" + (f" ({name})" if name else "")


def _clean(text: str | None) -> str:
    return " ".join((text or "").split())


def parse_xml(xml: str | bytes) -> Any:
    """The document's root element, parsed without network access or entity expansion."""
    parser = etree.XMLParser(resolve_entities=False, no_network=True, remove_comments=True, huge_tree=False)
    data = xml.encode("utf-8") if isinstance(xml, str) else xml
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        raise DeployError("not_xml", f"The file is not well-formed XML: {exc}. Save it from a BPMN modeler again.") from None
    if root is None:
        raise DeployError("not_xml", "The file is empty; deploy a BPMN 2.0 XML document.")
    if etree.QName(root).namespace != BPMN_NS or etree.QName(root).localname != "definitions":
        raise DeployError(
            "not_bpmn",
            f"The root element is <{etree.QName(root).localname}>, not BPMN 2.0's <bpmn:definitions> in namespace "
            f"{BPMN_NS}; export the diagram as BPMN 2.0 XML.",
        )
    return root


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


def _property(element: Any, name: str) -> str:
    """A `camunda:property` of the element's own extension elements (by `name`, or by `id` as form fields write it)."""
    for prop in element.findall("bpmn:extensionElements/camunda:properties/camunda:property", NS) + element.findall(
        "camunda:properties/camunda:property", NS
    ):
        if prop.get("name") == name or prop.get("id") == name:
            return _clean(prop.get("value"))
    return ""


def _listed(value: str) -> tuple[str, ...]:
    """A property's comma-separated words (",", "，" or "、")."""
    return tuple(w.strip() for w in re.split(r"[,，、]", value) if w.strip())


def _number(config: str | None, field_id: str, constraint: str) -> float:
    try:
        value = float(config or "")
    except ValueError:
        value = float("nan")
    if value != value or value in (float("inf"), float("-inf")):
        raise DeployError(
            "bad_constraint",
            f"Form field `{field_id}`: constraint {constraint} needs a number as config, not {config!r}.",
            element_id=field_id,
        )
    return value


def _form_field(element: Any, seen: set[str]) -> FormField:
    field_id = element.get("id") or ""
    if not FIELD_ID.match(field_id) or keyword.iskeyword(field_id) or field_id in FUNCTIONS:
        raise DeployError(
            "bad_field_id",
            f"Form field id {field_id!r} cannot be used in conditions: start with a letter, then letters, digits or _ "
            f"(and not a Python keyword or one of {', '.join(FUNCTIONS)}).",
            element_id=field_id,
        )
    if field_id in RESERVED_NAMES:
        raise DeployError(
            "reserved_field",
            f"Form field `{field_id}`: the engine sets {', '.join(sorted(RESERVED_NAMES))} itself; rename the field.",
            element_id=field_id,
        )
    if field_id in seen:
        raise DeployError("duplicate_field", f"Form field `{field_id}` is defined twice; remove one.", element_id=field_id)
    seen.add(field_id)
    kind = element.get("type") or ""
    if kind not in FIELD_TYPES:
        raise DeployError(
            "unknown_field_type",
            f"Form field `{field_id}` has type {kind!r}; use one of {', '.join(FIELD_TYPES)}.",
            element_id=field_id,
        )
    label = _clean(element.get("label")) or field_id
    values: dict[str, Any] = {"required": False}
    choices: list[Choice] = []
    if kind == "enum":
        for value in element.findall("camunda:value", NS):
            choice_id = _clean(value.get("id"))
            if not choice_id:
                raise DeployError(
                    "enum_without_values", f"Enum field `{field_id}` has a <camunda:value> without id.", element_id=field_id
                )
            name_en = _property(element, f"label_en:{choice_id}")
            choices.append(Choice(id=choice_id, name=_clean(value.get("name")) or choice_id, name_en=name_en,
                                  words=_listed(_property(element, f"words:{choice_id}"))))
        if not choices:
            raise DeployError(
                "enum_without_values",
                f"Enum field `{field_id}` has no values: add <camunda:value id=\"...\" name=\"...\"/> for each choice.",
                element_id=field_id,
            )
    for constraint in element.findall("camunda:validation/camunda:constraint", NS):
        name, config = constraint.get("name") or "", constraint.get("config")
        if name not in CONSTRAINTS:
            raise DeployError(
                "unknown_constraint",
                f"Form field `{field_id}` has constraint {name!r}; known: {', '.join(CONSTRAINTS)}.",
                element_id=field_id,
            )
        applies = CONSTRAINTS[name]
        if applies is not None and kind not in applies:
            raise DeployError(
                "bad_constraint",
                f"Form field `{field_id}` ({kind}) cannot have constraint {name}; it applies to {', '.join(sorted(applies))}.",
                element_id=field_id,
            )
        if name == "required":
            values["required"] = (config or "true").strip().lower() != "false"
        elif name in ("min", "minlength", "minExclusive"):
            values["min"] = _number(config, field_id, name)
            values["min_exclusive"] = name == "minExclusive"
        elif name in ("max", "maxlength", "maxExclusive"):
            values["max"] = _number(config, field_id, name)
            values["max_exclusive"] = name == "maxExclusive"
        elif name == "step":
            values["step"] = _number(config, field_id, name)
            if values["step"] <= 0:
                raise DeployError("bad_constraint", f"Form field `{field_id}`: step must be > 0.", element_id=field_id)
        elif name == "notBefore":
            values["not_before"] = (config or "").strip()
        elif name == "notPast":
            values["not_past"] = True
    default = element.get("defaultValue")
    return FormField(
        id=field_id, label=label, label_en=_property(element, "label_en"), type=kind, choices=tuple(choices),
        default=default if default not in (None, "") else None, unit=_property(element, "unit"),
        cues=_listed(_property(element, "cues")), **values,
    )


def _form(start: Any) -> tuple[FormField, ...]:
    seen: set[str] = set()
    fields = tuple(
        _form_field(element, seen)
        for element in start.findall("bpmn:extensionElements/camunda:formData/camunda:formField", NS)
    )
    by_id = {f.id: f for f in fields}
    for form_field in fields:
        other = by_id.get(form_field.not_before) if form_field.not_before else None
        if form_field.not_before and (other is None or other.type != "date" or other.id == form_field.id):
            raise DeployError(
                "bad_constraint",
                f"Form field `{form_field.id}`: notBefore must name another date field of the form, not "
                f"{form_field.not_before!r}.",
                element_id=form_field.id,
            )
        if form_field.default is not None:
            try:
                normalize(form_field, form_field.default)
            except FormError as exc:
                raise DeployError(
                    "bad_constraint", f"Form field `{form_field.id}`: defaultValue {exc.message}", element_id=form_field.id
                ) from None
    return fields


def _step(task: Any, names: set[str]) -> StepDef:
    task_id = task.get("id")
    rules = {attr: (task.get(f"{{{CAMUNDA_NS}}}{attr}") or "").strip() for attr in ASSIGNMENT_ATTRIBUTES}
    if not any(rules.values()):
        raise DeployError(
            "no_assignee_rule",
            f"{_describe(task)} has no one to decide it: set camunda:assignee (e.g. \"${{nextUserId}}\"), "
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
                        "bad_assignee", f"{_describe(task)}: camunda:{attr} {exc}", element_id=task_id
                    ) from None
            elif not USER_ID.match(entry):
                raise DeployError(
                    "bad_assignee",
                    f"{_describe(task)}: camunda:{attr} entry {entry!r} is neither an id nor a ${{...}} "
                    f"expression on the instance data.",
                    element_id=task_id,
                )
    return StepDef(
        element_id=task_id, name=_clean(task.get("name")) or task_id, name_en=_property(task, "label_en"),
        assignee=rules["assignee"], candidate_users=tuple(entries["candidateUsers"]),
        candidate_groups=tuple(entries["candidateGroups"]),
    )


def _elements(process: Any) -> dict[str, Any]:
    """Flow node id → element, refusing what this engine does not run and elements without (unique) ids."""
    nodes: dict[str, Any] = {}
    ids: set[str] = set()
    for element in process.iter():
        tag = _tag(element)
        if element is process or not tag:
            continue
        parent = element.getparent()
        if parent is not process:
            # Children of flow nodes (incoming/outgoing refs, conditions, event definitions) are looked at with
            # their node; lanes and extension elements are not executed.
            if tag.endswith("EventDefinition") and _tag(parent) in ("startEvent", "endEvent"):
                raise DeployError(
                    "unsupported_element",
                    f"{_describe(parent)} has a {tag}: only none start and end events run here; remove the event "
                    f"definition.",
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
                "element_without_id", f"A <bpmn:{tag}> ({_clean(element.get('name'))}) has no id; give it one.",
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


def _flows(process: Any, nodes: dict[str, Any], names: set[str]) -> tuple[Flow, ...]:
    flows: list[Flow] = []
    for element in process.findall("bpmn:sequenceFlow", NS):
        flow_id = element.get("id")
        source, target = element.get("sourceRef"), element.get("targetRef")
        for end, ref in (("sourceRef", source), ("targetRef", target)):
            if ref not in nodes:
                raise DeployError(
                    "dangling_flow",
                    f"Sequence flow `{flow_id}` has {end}={ref!r}, which is no start/end event, user task or gateway of "
                    f"the process; connect it to an existing element.",
                    element_id=flow_id,
                )
        condition_element = element.find("bpmn:conditionExpression", NS)
        condition = unwrap(condition_element.text) if condition_element is not None else ""
        if condition_element is not None:
            if _tag(nodes[source]) != "exclusiveGateway":
                raise DeployError(
                    "condition_outside_gateway",
                    f"Sequence flow `{flow_id}` has a condition but leaves {_describe(nodes[source])}: put the decision in "
                    f"an exclusive gateway.",
                    element_id=flow_id,
                )
            if not condition:
                raise DeployError(
                    "bad_condition", f"Sequence flow `{flow_id}` has an empty condition; write one or remove it.",
                    element_id=flow_id,
                )
            try:
                check(condition, names)
            except ExpressionError as exc:
                raise DeployError(
                    exc.code, f"Sequence flow `{flow_id}` out of {_describe(nodes[source])}: condition {exc}",
                    element_id=flow_id,
                ) from None
        flows.append(Flow(id=flow_id, source=source, target=target, condition=condition))
    return tuple(flows)


def _start_event(nodes: dict[str, Any], key: str) -> Any:
    """The one start event (and there is an end event), or the refusal."""
    starts = [node_id for node_id, element in nodes.items() if _tag(element) == "startEvent"]
    if not starts:
        raise DeployError(
            "no_start_event", f"Process `{key}` has no start event; add one (with the start form) and connect it.",
            element_id=key,
        )
    if len(starts) > 1:
        raise DeployError(
            "several_start_events", f"Process `{key}` has {len(starts)} start events ({', '.join(starts)}); keep one.",
            element_id=starts[1],
        )
    if not any(_tag(element) == "endEvent" for element in nodes.values()):
        raise DeployError(
            "no_end_event", f"Process `{key}` has no end event; add one and connect the last step to it.", element_id=key
        )
    return nodes[starts[0]]


def _graph(nodes: dict[str, Any], flows: tuple[Flow, ...], key: str) -> None:
    starts = [_start_event(nodes, key).get("id")]
    outgoing: dict[str, list[Flow]] = {node_id: [] for node_id in nodes}
    incoming: dict[str, list[Flow]] = {node_id: [] for node_id in nodes}
    for flow in flows:
        outgoing[flow.source].append(flow)
        incoming[flow.target].append(flow)
    for node_id, element in nodes.items():
        tag = _tag(element)
        if tag != "startEvent" and not incoming[node_id]:
            raise DeployError(
                "no_incoming_flow", f"{_describe(element)} has no incoming sequence flow; connect it.", element_id=node_id
            )
        if tag == "startEvent" and incoming[node_id]:
            raise DeployError("bad_flow", f"{_describe(element)} is a start event with an incoming flow.", element_id=node_id)
        if tag != "endEvent" and not outgoing[node_id]:
            raise DeployError(
                "no_outgoing_flow", f"{_describe(element)} has no outgoing sequence flow; connect it to the next step or an "
                f"end event.", element_id=node_id,
            )
        if tag == "endEvent" and outgoing[node_id]:
            raise DeployError("bad_flow", f"{_describe(element)} is an end event with an outgoing flow.", element_id=node_id)
        if tag not in GATEWAYS and len(outgoing[node_id]) > 1:
            raise DeployError(
                "several_outgoing_flows",
                f"{_describe(element)} has {len(outgoing[node_id])} outgoing flows; branch with an exclusive gateway "
                f"(a decision) or a parallel gateway.",
                element_id=node_id,
            )
        if tag == "exclusiveGateway" and len(outgoing[node_id]) > 1:
            default = element.get("default")
            flow_ids = [flow.id for flow in outgoing[node_id]]
            if default and default not in flow_ids:
                raise DeployError(
                    "bad_default_flow",
                    f"{_describe(element)} names default flow {default!r}, which is not one of its outgoing flows "
                    f"({', '.join(flow_ids)}).",
                    element_id=node_id,
                )
            for flow in outgoing[node_id]:
                if not flow.condition and flow.id != default:
                    raise DeployError(
                        "missing_condition",
                        f"Sequence flow `{flow.id}` out of {_describe(element)} has no condition and is not the gateway's "
                        f"default: add a conditionExpression (e.g. `approved and days > 3`) or make it the default flow.",
                        element_id=flow.id,
                    )
    reached = _reach(starts[0], outgoing, lambda flow: flow.target)
    for node_id, element in nodes.items():
        if node_id not in reached:
            raise DeployError(
                "unreachable", f"{_describe(element)} cannot be reached from the start event; connect it or remove it.",
                element_id=node_id,
            )
    ends = [node_id for node_id, element in nodes.items() if _tag(element) == "endEvent"]
    finishing: set[str] = set()
    for end in ends:
        finishing |= _reach(end, incoming, lambda flow: flow.source)
    for node_id, element in nodes.items():
        if node_id not in finishing:
            raise DeployError(
                "no_path_to_end", f"From {_describe(element)} no path leads to an end event; connect it to one.",
                element_id=node_id,
            )


def _reach(start: str, edges: dict[str, list[Flow]], step: Any) -> set[str]:
    seen, stack = {start}, [start]
    while stack:
        for flow in edges[stack.pop()]:
            node = step(flow)
            if node not in seen:
                seen.add(node)
                stack.append(node)
    return seen


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
    fields = _form(_start_event(nodes, key))
    names = {f.id for f in fields} | set(RESERVED_NAMES)
    steps = tuple(_step(element, names) for element in nodes.values() if _tag(element) == "userTask")
    flows = _flows(process, nodes, names)
    _graph(nodes, flows, key)
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
        name=_clean(process.get("name")) or key,
        name_en=_property(process, "label_en"),
        fields=fields,
        steps=steps,
        nodes={node_id: _tag(element) for node_id, element in nodes.items()},
        flows=flows,
        words=_listed(_property(process, "words")),
    )
    return Loaded(model=model, spec=spec, subprocess_specs=subprocess_specs)

