"""Routers: each named for the decision it makes; an impossible state raises instead of being hidden."""

from __future__ import annotations

from typing import Literal

from langchain_core.messages import AIMessage

from graph.history import note_of
from graph.plans import last_step_surprised, last_step_wrote
from state.agent import AgentState
from state.records import ToolCallRecord


def route_after_read_request(state: AgentState) -> Literal["tool_validator", "model", "__end__"]:
    """The person's answer to the graph's question, filled in by code, goes to validation; a run answered in code
    (what the assistant can do) ends; anything else goes to the strategy's model step."""
    if calls_of(state):
        return "tool_validator"
    if isinstance(state["messages"][-1], AIMessage):
        return "__end__"
    return "model"


def route_after_reasoner(state: AgentState) -> Literal["tool_validator", "__end__"]:
    """A reply with proposed (or unparseable) actions goes to validation; a final answer ends the run."""
    last = state["messages"][-1]
    if not isinstance(last, AIMessage):
        raise RuntimeError(f"reasoner must end with an AIMessage, got {type(last).__name__}")
    if state.get("wrap_up"):
        return "__end__"
    if last.tool_calls or last.invalid_tool_calls:
        return "tool_validator"
    return "__end__"


VALIDATED_STATUSES = ("needs_approval", "approved", "ready")
REVIEWED_STATUSES = ("edited", "approved", "ready")


def calls_of(state: AgentState) -> list[ToolCallRecord]:
    """The calls of the step under way (none between steps)."""
    step = state.get("step")
    return step["calls"] if step else []


def _check_statuses(calls: list[ToolCallRecord], allowed: tuple[str, ...], after: str) -> None:
    for call in calls:
        if call["status"] not in allowed:
            raise RuntimeError(f"{after} left {call['name']} ({call['id']}) in status {call['status']!r}")


def route_after_validation(state: AgentState) -> Literal["ask_person", "human_review", "executor", "budget_check"]:
    """A value only the person can give (or an action that cannot be done) → the graph tells the person; calls
    needing a person's approval go to review; other valid calls run; nothing valid → the budget step."""
    calls = calls_of(state)
    _check_statuses(calls, VALIDATED_STATUSES, "tool_validator")
    if state.get("ask"):
        if calls:
            raise RuntimeError("tool_validator asks the person but left calls pending")
        return "ask_person"
    if any(c["status"] == "needs_approval" for c in calls):
        return "human_review"
    if calls:
        return "executor"
    return "budget_check"


def route_after_review(state: AgentState) -> Literal["tool_validator", "executor", "budget_check"]:
    """Edited calls are validated again (with the step's approved ones); approved calls run; all rejected → the
    budget step."""
    calls = calls_of(state)
    _check_statuses(calls, REVIEWED_STATUSES, "human_review")
    if any(c["status"] == "edited" for c in calls):
        return "tool_validator"
    if calls:
        return "executor"
    return "budget_check"


def route_after_planner(state: AgentState) -> Literal["plan_step", "tool_validator", "reasoner"]:
    """A plan's first step is proposed; an unusable plan becomes a format-correction observation; no plan (no
    tool needed, or a run the reasoner leads) goes to the reasoner."""
    last = state["messages"][-1]
    if isinstance(last, AIMessage) and last.invalid_tool_calls and note_of(last).get("planner"):
        return "tool_validator"
    plan = state.get("plan")
    return "plan_step" if plan and plan["steps"] else "reasoner"


def route_plan_after_budget(state: AgentState) -> Literal["reasoner", "planner", "plan_step"]:
    """Wrapping up (budget_check decided), or a run the planner left to the reasoner → the reasoner; a surprise,
    or a plan that ran out → the planner (plan again, or say nothing is left); else the plan's next step."""
    plan = state.get("plan")
    if state.get("wrap_up") or plan is None or plan["final"]:
        return "reasoner"
    if plan["steps"] and not last_step_surprised(state):
        return "plan_step"
    return "planner"


def route_after_chain_step(state: AgentState) -> Literal["tool_validator", "__end__"]:
    """A filled step goes to validation; the answer to a request no chain matches ends the run."""
    last = state["messages"][-1]
    if not isinstance(last, AIMessage):
        raise RuntimeError(f"chain_step must end with an AIMessage, got {type(last).__name__}")
    return "tool_validator" if last.tool_calls or last.invalid_tool_calls else "__end__"


def route_chain_after_budget(state: AgentState) -> Literal["reasoner", "chain_step"]:
    """Wrapping up (the chain ran, went off its sequence, or a limit) → the reasoner answers; else the next step.

    A run the graph began itself, with the person's answer filled into the write it had asked about, has no chain
    yet: the write ran → the reasoner answers (the request is done; running its chain again could write twice); it
    did not → chain_step chooses the request's chain and runs it from its first step, the answer now part of the
    request."""
    plan = state.get("plan")
    if state.get("wrap_up"):
        return "reasoner"
    if plan is None:
        return "reasoner" if last_step_wrote(state) else "chain_step"
    if plan["steps"]:
        return "chain_step"
    raise RuntimeError("budget_check let a finished chain go on without wrapping up")
