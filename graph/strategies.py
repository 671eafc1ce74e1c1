"""The three strategies' edges on the same guarded nodes: react (the model decides each step), plan (a planner
writes the steps, re-plans on surprise) and chain (a fixed sequence per kind of task, the model fills arguments).

Every strategy reaches the tools only through tool_validator → (human_review) → executor, so every guard applies.

Each node is added once, with its way out: an edge, or a router (`graph/routers.py`) that decides on the state the
node's update leaves. A routed node returns its update with the router's decision (`Command(goto=...)`, declared as
its destinations), rather than being followed by a conditional edge: LangGraph gives a conditional edge a fresh copy
of every channel, and the two of a ReAct iteration cost a twentieth of it (`scripts/step_instructions.py`: 16.7
against 15.8 million instructions). The router is the same function of the same state, so it raises on the same
impossible states, and the drawing (Studio's, and the snapshots the tests pin) is the same.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Annotated, Any, Literal, get_origin, get_type_hints

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from langgraph.types import Command

from graph.routers import (
    route_after_chain_step,
    route_after_planner,
    route_after_read_request,
    route_after_reasoner,
    route_after_review,
    route_after_validation,
    route_chain_after_budget,
    route_plan_after_budget,
)
from state.agent import AgentState
from state.context import Context

Strategy = Literal["react", "plan", "chain"]
STRATEGIES: tuple[Strategy, ...] = ("react", "plan", "chain")


APPENDED = frozenset(name for name, hint in get_type_hints(AgentState, include_extras=True).items()
                     if get_origin(hint) is Annotated)
"""The state's fields whose writes are appended (messages, summary, audit); the others' writes replace them."""

Node = Callable[..., Any]
Router = Callable[[AgentState], str]


def after(state: AgentState, update: Mapping[str, Any]) -> AgentState:
    """The state as a node's `update` leaves it, for its router: fields replaced, new entries appended (a node's
    messages are new ones: none replaces an earlier message)."""
    view: dict[str, Any] = dict(state)
    for field, value in update.items():
        view[field] = [*(view.get(field) or []), *value] if field in APPENDED else value
    return view  # type: ignore[return-value]


class Routed:
    """A node that returns its router's decision with its update."""

    def __init__(self, node: Node, router: Router, path_map: Mapping[str, str]) -> None:
        self._node = node
        self._router = router
        self._path_map = dict(path_map)

    def __call__(self, state: AgentState, runtime: Runtime[Context]) -> Command[Any]:
        update = self._node(state, runtime)
        return Command(update=update, goto=self._path_map[self._router(after(state, update))])


class Wiring:
    """Each node of `nodes` with its way out; `add_to` adds them to a builder, in the order of `nodes`."""

    def __init__(self, nodes: Mapping[str, Node]) -> None:
        self._nodes = nodes
        self._first: str | None = None
        self._edges: dict[str, str] = {}
        self._routes: dict[str, tuple[Router, Mapping[str, str]]] = {}

    def start(self, first: str) -> None:
        """Every run begins at `first`."""
        self._first = first

    def edge(self, source: str, target: str) -> None:
        """`source`, always followed by `target`."""
        self._way_out(source)
        self._edges[source] = target

    def route(self, source: str, router: Router, path_map: Mapping[str, str]) -> None:
        """`source`, followed by the node `path_map` names for `router`'s decision."""
        self._way_out(source)
        self._routes[source] = (router, path_map)

    def _way_out(self, source: str) -> None:
        if source not in self._nodes:
            raise ValueError(f"no node {source!r} to wire")
        if source in self._edges or source in self._routes:
            raise ValueError(f"{source} is given two ways out")

    def add_to(self, builder: StateGraph[Any, Any, Any, Any], **add_options: Any) -> None:
        """Add every node with its way out (`add_options` go to every `add_node`)."""
        if self._first is None:
            raise ValueError("the wiring has no first node")
        for name, node in self._nodes.items():
            if name in self._routes:
                router, path_map = self._routes[name]
                destinations = {target: decision for decision, target in path_map.items()}  # a label where they differ
                builder.add_node(name, Routed(node, router, path_map), destinations=destinations, **add_options)
            elif name in self._edges:
                builder.add_node(name, node, **add_options)
                builder.add_edge(name, self._edges[name])
            else:
                raise ValueError(f"{name} has no way out")
        builder.add_edge(START, self._first)


def wire_start(wiring: Wiring, model_step: str) -> None:
    """Every run starts by reading the request; what needs no model is answered there, the rest goes to `model_step`."""
    wiring.start("read_request")
    wiring.route(
        "read_request",
        route_after_read_request,
        {"tool_validator": "tool_validator", "model": model_step, "__end__": END},
    )


def wire_guarded_steps(wiring: Wiring) -> None:
    """The path every proposed call takes: validation, the person asked or a review when needed, execution,
    observation, budget."""
    wiring.route(
        "tool_validator",
        route_after_validation,
        {"ask_person": "ask_person", "human_review": "human_review", "executor": "executor", "budget_check": "budget_check"},
    )
    wiring.edge("ask_person", END)
    wiring.route(
        "human_review",
        route_after_review,
        {"tool_validator": "tool_validator", "executor": "executor", "budget_check": "budget_check"},
    )
    wiring.edge("executor", "observation_summarizer")
    wiring.edge("observation_summarizer", "budget_check")


def wire_react(wiring: Wiring) -> None:
    """read_request → reasoner → guarded steps → budget_check → reasoner, until a final answer."""
    wire_start(wiring, "reasoner")
    wiring.route("reasoner", route_after_reasoner, {"tool_validator": "tool_validator", "__end__": END})
    wire_guarded_steps(wiring)
    wiring.edge("budget_check", "reasoner")


def wire_plan(wiring: Wiring) -> None:
    """read_request → planner → plan_step → guarded steps → budget_check → next step, re-plan on surprise, reasoner
    answers."""
    wire_start(wiring, "planner")
    wiring.route(
        "planner",
        route_after_planner,
        {"plan_step": "plan_step", "tool_validator": "tool_validator", "reasoner": "reasoner"},
    )
    wiring.edge("plan_step", "tool_validator")
    wiring.route("reasoner", route_after_reasoner, {"tool_validator": "tool_validator", "__end__": END})
    wire_guarded_steps(wiring)
    wiring.route(
        "budget_check",
        route_plan_after_budget,
        {"reasoner": "reasoner", "planner": "planner", "plan_step": "plan_step"},
    )


def wire_chain(wiring: Wiring) -> None:
    """read_request → chain_step (chosen chain, filled step) → guarded steps → budget_check → next step; the reasoner
    answers."""
    wire_start(wiring, "chain_step")
    wiring.route("chain_step", route_after_chain_step, {"tool_validator": "tool_validator", "__end__": END})
    wire_guarded_steps(wiring)
    wiring.route("budget_check", route_chain_after_budget, {"reasoner": "reasoner", "chain_step": "chain_step"})
    wiring.edge("reasoner", END)


WIRES: dict[str, Callable[[Wiring], None]] = {"react": wire_react, "plan": wire_plan, "chain": wire_chain}
"""Each strategy's wiring."""
