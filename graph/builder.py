"""Assemble the guarded ReAct graph in plain view."""

from __future__ import annotations

from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import StateGraph

from graph.asked import AskedNext
from graph.budget import SYSTEM_CLOCK, Clock
from graph.calls import ModelSource
from graph.deps import NodeDeps
from graph.nodes.ask_person import AskPerson
from graph.nodes.budget_check import BudgetCheck
from graph.nodes.chain_step import ChainStep
from graph.nodes.executor import Executor
from graph.nodes.human_review import HumanReview
from graph.nodes.observation_summarizer import ObservationSummarizer
from graph.nodes.plan_step import propose_next_step
from graph.nodes.planner import Planner
from graph.nodes.read_request import ReadRequest
from graph.nodes.reasoner import Reasoner
from graph.nodes.tool_validator import ToolValidator
from graph.strategies import STRATEGIES, WIRES, Strategy, Wiring
from state.agent import AgentState, InputState, OutputState
from state.context import Context
from tools.backend import Backend
from tools.spec import ToolRegistry
from tools.toolset import Toolset
from tools.toolsets import get_toolset

FROM_ENV: Any = "env"
"""`deps` default: the toolset's own dependencies from the environment (`Toolset.deps`)."""


def build_graph(
    *,
    model: ModelSource,
    store: Backend | None = None,
    checkpointer: BaseCheckpointSaver | None = None,
    toolset: Toolset | str = "workflow",
    registry: ToolRegistry | None = None,
    deps: Any = FROM_ENV,
    name: str | None = None,
    context_schema: type[Context] = Context,
    clock: Clock = SYSTEM_CLOCK,
    strategy: Strategy = "react",
) -> Any:
    """The compiled graph: read_request → reasoner → tool_validator → (ask_person | human_review) → executor →
    observation_summarizer → budget_check → reasoner, until a final answer.

    `model` is a chat model, or a function of the run's `Context` that returns one. `store` is the toolset's backend
    (for the workflow a `WorkflowStore`; default: the toolset's own, for the workflow FLOWAGENT_DB or
    .flowagent/workflow.db). `deps` is what the toolset's handlers need beyond it (default: the toolset's own from the
    environment; for the workflow its mailer, the SMTP server of FLOWAGENT_SMTP_URL if set; `None` keeps every e-mail
    in the outbox). `context_schema` may be `Context.with_defaults(...)` (the server's model decides the protocol);
    `clock` is the budgets' time and the runs' date.

    `toolset` is the domain the graph runs: "workflow" (the seed's approvals, the default), "toy", "travel"
    (`tools.toolsets`), or a `Toolset`; `registry`, when given, replaces its tools (a test's extra tool). The
    graph's `name` defaults to the toolset's (`flowagent`, `flowagent_toy`, `flowagent_travel`).

    `strategy` wires the same guarded nodes three ways (`graph/strategies.py`): "react" (the model decides each
    step), "plan" (a planner writes the steps, re-plans on surprise) or "chain" (a fixed sequence per kind of
    task declared on the registry; the model fills in arguments).
    """
    chosen = get_toolset(toolset) if isinstance(toolset, str) else toolset
    if registry is not None:
        chosen = chosen.with_registry(registry)
    registry = chosen.registry
    backend = store if store is not None else chosen.backend()
    needs = chosen.deps() if deps is FROM_ENV else deps

    if strategy not in WIRES:
        raise ValueError(f"unknown strategy {strategy!r}; choose one of {', '.join(STRATEGIES)}")
    shared = NodeDeps(chosen, backend, needs, clock)
    asked = AskedNext(chosen, backend)  # one for budget_check and the reasoner: the store is read once a step
    nodes: dict[str, Any] = {
        "read_request": ReadRequest(shared),
        "reasoner": Reasoner(model, shared, asked),
        "tool_validator": ToolValidator(shared),
        "ask_person": AskPerson(registry),
        "human_review": HumanReview(backend, registry, clock=clock),
        "executor": Executor(shared),
        "observation_summarizer": ObservationSummarizer(registry),
        "budget_check": BudgetCheck(clock=clock, lookup_answers=chosen.lookup_answers, registry=registry,
                                    asked=asked),
    }
    if strategy == "plan":
        nodes["planner"] = Planner(model, shared)
        nodes["plan_step"] = propose_next_step
    elif strategy == "chain":
        nodes["chain_step"] = ChainStep(model, shared)

    # A run gives back the conversation and its outcome (`OutputState`): LangGraph reads the output's channels after
    # every step that writes one of them, and the graph's own records would be read after every node.
    builder = StateGraph(AgentState, context_schema=context_schema, input_schema=InputState, output_schema=OutputState)
    wiring = Wiring(nodes)
    WIRES[strategy](wiring)
    # Every node reads the whole state. Saying so spares LangGraph working it out from each node's type hints, which
    # took two thirds of a build (a graph is built per test, per eval trial and per served assistant).
    wiring.add_to(builder, input_schema=AgentState)
    return builder.compile(checkpointer=checkpointer, name=name or chosen.graph_name)
