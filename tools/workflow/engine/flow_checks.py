"""The process as a graph, checked at deploy time: its sequence flows and their conditions, one start event and an end,
flows in and out where needed, and every node reachable from the start and able to reach an end."""

from __future__ import annotations

from typing import Any

from tools.workflow.engine.bpmn_xml import clean, describe, property_of, tag_of
from tools.workflow.engine.errors import DeployError
from tools.workflow.engine.expressions import ExpressionError, check, unwrap
from tools.workflow.engine.model import GATEWAYS, NS, Flow


def sequence_flows(process: Any, nodes: dict[str, Any], names: set[str]) -> tuple[Flow, ...]:
    """The sequence flows, each joining existing nodes, with its condition checked (only out of an exclusive gateway)."""
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
            if tag_of(nodes[source]) != "exclusiveGateway":
                raise DeployError(
                    "condition_outside_gateway",
                    f"Sequence flow `{flow_id}` has a condition but leaves {describe(nodes[source])}: put the decision in "
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
                    exc.code, f"Sequence flow `{flow_id}` out of {describe(nodes[source])}: condition {exc}",
                    element_id=flow_id,
                ) from None
        flows.append(Flow(
            id=flow_id, source=source, target=target, condition=condition, name=clean(element.get("name")),
            name_en=property_of(element, "label_en"),
        ))
    return tuple(flows)


def start_event(nodes: dict[str, Any], key: str) -> Any:
    """The one start event (and there is an end event), or the refusal."""
    starts = [node_id for node_id, element in nodes.items() if tag_of(element) == "startEvent"]
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
    if not any(tag_of(element) == "endEvent" for element in nodes.values()):
        raise DeployError(
            "no_end_event", f"Process `{key}` has no end event; add one and connect the last step to it.", element_id=key
        )
    return nodes[starts[0]]


def check_graph(
    nodes: dict[str, Any], flows: tuple[Flow, ...], key: str, attached: dict[str, str] | None = None
) -> None:
    """Flows in and out where needed, a condition or the default on each way out of a decision, and every node
    reachable from the start and able to reach an end. `attached`: boundary event → the task it is on (it has no
    incoming flow, and is reached with its task)."""
    attached = attached or {}
    starts = [start_event(nodes, key).get("id")]
    outgoing: dict[str, list[Flow]] = {node_id: [] for node_id in nodes}
    incoming: dict[str, list[Flow]] = {node_id: [] for node_id in nodes}
    for flow in flows:
        outgoing[flow.source].append(flow)
        incoming[flow.target].append(flow)
    for node_id, element in nodes.items():
        tag = tag_of(element)
        if node_id in attached and incoming[node_id]:
            raise DeployError("bad_flow", f"{describe(element)} is a boundary event with an incoming flow.",
                              element_id=node_id)
        if tag != "startEvent" and not incoming[node_id] and node_id not in attached:
            raise DeployError(
                "no_incoming_flow", f"{describe(element)} has no incoming sequence flow; connect it.", element_id=node_id
            )
        if tag == "startEvent" and incoming[node_id]:
            raise DeployError("bad_flow", f"{describe(element)} is a start event with an incoming flow.", element_id=node_id)
        if tag != "endEvent" and not outgoing[node_id]:
            raise DeployError(
                "no_outgoing_flow", f"{describe(element)} has no outgoing sequence flow; connect it to the next step or an "
                f"end event.", element_id=node_id,
            )
        if tag == "endEvent" and outgoing[node_id]:
            raise DeployError("bad_flow", f"{describe(element)} is an end event with an outgoing flow.", element_id=node_id)
        if tag not in GATEWAYS and len(outgoing[node_id]) > 1:
            raise DeployError(
                "several_outgoing_flows",
                f"{describe(element)} has {len(outgoing[node_id])} outgoing flows; branch with an exclusive gateway "
                f"(a decision) or a parallel gateway.",
                element_id=node_id,
            )
        if tag == "exclusiveGateway" and len(outgoing[node_id]) > 1:
            default = element.get("default")
            flow_ids = [flow.id for flow in outgoing[node_id]]
            if default and default not in flow_ids:
                raise DeployError(
                    "bad_default_flow",
                    f"{describe(element)} names default flow {default!r}, which is not one of its outgoing flows "
                    f"({', '.join(flow_ids)}).",
                    element_id=node_id,
                )
            for flow in outgoing[node_id]:
                if not flow.condition and flow.id != default:
                    raise DeployError(
                        "missing_condition",
                        f"Sequence flow `{flow.id}` out of {describe(element)} has no condition and is not the gateway's "
                        f"default: add a conditionExpression (e.g. `approved and days > 3`) or make it the default flow.",
                        element_id=flow.id,
                    )
    on_task = {node_id: [*outgoing[node_id], *(Flow(f"{b}#on", node_id, b, "") for b, t in attached.items()
                                              if t == node_id)] for node_id in nodes}
    reached = _reach(starts[0], on_task, lambda flow: flow.target)
    for node_id, element in nodes.items():
        if node_id not in reached:
            raise DeployError(
                "unreachable", f"{describe(element)} cannot be reached from the start event; connect it or remove it.",
                element_id=node_id,
            )
    ends = [node_id for node_id, element in nodes.items() if tag_of(element) == "endEvent"]
    finishing: set[str] = set()
    for end in ends:
        finishing |= _reach(end, incoming, lambda flow: flow.source)
    for node_id, element in nodes.items():
        if node_id not in finishing:
            raise DeployError(
                "no_path_to_end", f"From {describe(element)} no path leads to an end event; connect it to one.",
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
