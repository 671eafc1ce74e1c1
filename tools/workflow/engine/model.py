"""A deployed process as the engine reads it from its BPMN: form, steps, names and the graph for diagram marks."""

from __future__ import annotations

from dataclasses import dataclass

from tools.workflow.engine.records import Definition, FormField, StepDef

BPMN_NS = "http://www.omg.org/spec/BPMN/20100524/MODEL"
CAMUNDA_NS = "http://camunda.org/schema/1.0/bpmn"
NS = {"bpmn": BPMN_NS, "camunda": CAMUNDA_NS}

RESERVED_NAMES = frozenset({"requester", "nextUserId", "approved", "comment", "history"})
"""Instance data the engine sets (the data contract); no form field may take these ids."""

GATEWAYS = frozenset({"exclusiveGateway", "parallelGateway"})


@dataclass(frozen=True)
class Flow:
    """A sequence flow."""

    id: str
    source: str
    target: str
    condition: str
    """The condition as Python (the `${...}` wrapper stripped), or ""."""
    name: str = ""
    """The flow's label as modelled (同意且超过 5000 元), or ""."""
    name_en: str = ""
    """Its English label (`camunda:property name="label_en"`), or ""."""


@dataclass(frozen=True)
class ProcessModel:
    """What the engine needs from one BPMN document besides SpiffWorkflow's spec."""

    key: str
    name: str
    name_en: str
    fields: tuple[FormField, ...]
    steps: tuple[StepDef, ...]
    nodes: dict[str, str]
    """Flow node id → its BPMN tag without namespace (userTask, exclusiveGateway, ...)."""
    flows: tuple[Flow, ...]
    words: tuple[str, ...] = ()
    """Words a person names the process by, in either language (`camunda:property name="words"`, comma-separated)."""

    def field(self, field_id: str) -> FormField | None:
        return next((f for f in self.fields if f.id == field_id), None)

    def step(self, element_id: str) -> StepDef | None:
        return next((s for s in self.steps if s.element_id == element_id), None)

    def data_names(self) -> set[str]:
        """Every name an expression may read: the form's fields and the engine's data contract."""
        return {f.id for f in self.fields} | set(RESERVED_NAMES)

    def outgoing(self, node_id: str) -> list[Flow]:
        return [flow for flow in self.flows if flow.source == node_id]

    def next_nodes(self, node_ids: set[str]) -> set[str]:
        """Flow nodes reachable from `node_ids` in one step, looking through gateways (every branch)."""
        found: set[str] = set()
        seen: set[str] = set()
        stack = [flow.target for node in node_ids for flow in self.outgoing(node)]
        while stack:
            node = stack.pop()
            if node in seen:
                continue
            seen.add(node)
            if self.nodes.get(node) in GATEWAYS:
                stack.extend(flow.target for flow in self.outgoing(node))
            else:
                found.add(node)
        return found

    def definition(self, version: int) -> Definition:
        return Definition(
            key=self.key, name=self.name, name_en=self.name_en, version=version, fields=self.fields, steps=self.steps,
            words=self.words,
        )
