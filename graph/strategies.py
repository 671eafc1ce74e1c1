"""The three strategies' edges on the same guarded nodes: react (the model decides each step), plan (a planner
writes the steps, re-plans on surprise) and chain (a fixed sequence per kind of task, the model fills arguments).

Every strategy reaches the tools only through tool_validator → (human_review) → executor, so every guard applies.
"""

from __future__ import annotations

from typing import Any, Literal

from langgraph.graph import END, START, StateGraph

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

Strategy = Literal["react", "plan", "chain"]
STRATEGIES: tuple[Strategy, ...] = ("react", "plan", "chain")


def wire_start(builder: StateGraph[Any, Any, Any, Any], model_step: str) -> None:
    """Every run starts by reading the request; what needs no model is answered there, the rest goes to `model_step`."""
    builder.add_edge(START, "read_request")
    builder.add_conditional_edges(
        "read_request",
        route_after_read_request,
        {"tool_validator": "tool_validator", "model": model_step, "__end__": END},
    )


def wire_guarded_steps(builder: StateGraph[Any, Any, Any, Any]) -> None:
    """The path every proposed call takes: validation, the person asked or a review when needed, execution,
    observation, budget."""
    builder.add_conditional_edges(
        "tool_validator",
        route_after_validation,
        {"ask_person": "ask_person", "human_review": "human_review", "executor": "executor", "budget_check": "budget_check"},
    )
    builder.add_edge("ask_person", END)
    builder.add_conditional_edges(
        "human_review",
        route_after_review,
        {"tool_validator": "tool_validator", "executor": "executor", "budget_check": "budget_check"},
    )
    builder.add_edge("executor", "observation_summarizer")
    builder.add_edge("observation_summarizer", "budget_check")


def wire_react(builder: StateGraph[Any, Any, Any, Any]) -> None:
    """read_request → reasoner → guarded steps → budget_check → reasoner, until a final answer."""
    wire_start(builder, "reasoner")
    builder.add_conditional_edges(
        "reasoner", route_after_reasoner, {"tool_validator": "tool_validator", "__end__": END}
    )
    wire_guarded_steps(builder)
    builder.add_edge("budget_check", "reasoner")


def wire_plan(builder: StateGraph[Any, Any, Any, Any]) -> None:
    """read_request → planner → plan_step → guarded steps → budget_check → next step, re-plan on surprise, reasoner
    answers."""
    wire_start(builder, "planner")
    builder.add_conditional_edges(
        "planner",
        route_after_planner,
        {"plan_step": "plan_step", "tool_validator": "tool_validator", "reasoner": "reasoner"},
    )
    builder.add_edge("plan_step", "tool_validator")
    builder.add_conditional_edges(
        "reasoner", route_after_reasoner, {"tool_validator": "tool_validator", "__end__": END}
    )
    wire_guarded_steps(builder)
    builder.add_conditional_edges(
        "budget_check",
        route_plan_after_budget,
        {"reasoner": "reasoner", "planner": "planner", "plan_step": "plan_step"},
    )


def wire_chain(builder: StateGraph[Any, Any, Any, Any]) -> None:
    """read_request → chain_step (chosen chain, filled step) → guarded steps → budget_check → next step; the reasoner
    answers."""
    wire_start(builder, "chain_step")
    builder.add_conditional_edges(
        "chain_step", route_after_chain_step, {"tool_validator": "tool_validator", "__end__": END}
    )
    wire_guarded_steps(builder)
    builder.add_conditional_edges(
        "budget_check", route_chain_after_budget, {"reasoner": "reasoner", "chain_step": "chain_step"}
    )
    builder.add_edge("reasoner", END)
