"""The budget_check node: per-run limits, the circuit breaker and repeated-action detection.

When a limit is reached it sets `wrap_up`, and the reasoner then writes a final answer without tools.
LangGraph's recursion limit stays a last resort, never the budget.
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, ToolMessage
from langgraph.runtime import Runtime

from graph.budget import SYSTEM_CLOCK, Clock, limit_reached, plan_ended, record_step, wrap_up
from graph.calls import action_hash
from graph.history import current_request
from graph.plans import last_step_surprised
from state.agent import AgentState
from state.context import Context
from state.records import RunBudget, WrapUp
from tools import said
from tools.spec import Effect, ToolRegistry


def last_step_failed(state: AgentState) -> bool | None:
    """Whether every observation since the last model reply is an error (None: no observation)."""
    statuses = []
    for msg in reversed(state["messages"]):
        if isinstance(msg, AIMessage):
            break
        if isinstance(msg, ToolMessage):
            if msg.response_metadata.get("rejected"):
                return None  # a person's rejection is a decision, not a failure of the agent
            statuses.append(msg.status)
    if not statuses:
        return None
    return all(s == "error" for s in statuses)


def last_step_wrote(state: AgentState) -> bool:
    """Whether a write executed in the last step (its observation is a success that is no repeat)."""
    for msg in reversed(state["messages"]):
        if isinstance(msg, AIMessage):
            return False
        if isinstance(msg, ToolMessage) and msg.status == "success" and msg.response_metadata.get("wrote"):
            return True
    return False


def exhausted(state: AgentState, budget: RunBudget, context: Context, clock: Clock = SYSTEM_CLOCK) -> WrapUp | None:
    """Why the run must end now, or None: a question for the person first, then a write that answers the
    request (for a model whose summary is not trusted), then the end of a chain's steps, then the first
    limit reached."""
    if state.get("ask"):
        return wrap_up("ask")
    if context.fixed_answers and last_step_wrote(state):
        return wrap_up("done")
    ended = plan_ended(state.get("plan"), last_step_surprised(state, empty=False))
    if ended is not None:
        return ended
    return limit_reached(budget, context, lambda digest: _tool_of(state, digest), clock)


def _tool_of(state: AgentState, digest: str) -> str:
    for msg in reversed(state["messages"]):
        if isinstance(msg, AIMessage):
            for call in msg.tool_calls:
                if action_hash(call["name"], call["args"]) == digest:
                    return call["name"]
    return "an action"


def looked_up_for_a_question(state: AgentState, registry: ToolRegistry) -> bool:
    """Whether the last step's look-ups all succeeded and the person's request asks for no write at all: the
    answer is then what the tools found, and a small model need not be asked to restate it."""
    found = False
    for msg in reversed(state["messages"]):
        if isinstance(msg, AIMessage):
            break
        if isinstance(msg, ToolMessage):
            if msg.status != "success" or msg.response_metadata.get("wrote"):
                return False
            found = True
    if not found:
        return False
    request = " ".join(current_request(list(state["messages"])))
    return not any(said.asks_for(spec.intent, request) for spec in registry if spec.effect is Effect.WRITE)


class BudgetCheck:
    """Update the failure streak, then decide whether the run must wrap up (the only node that does).

    `lookup_answers` is the toolset's: whether one successful look-up answers a question asking for no write
    (`Toolset.lookup_answers`); only then does a model whose answers are not trusted stop after it.
    """

    def __init__(self, registry: ToolRegistry, clock: Clock = SYSTEM_CLOCK, *, lookup_answers: bool = True) -> None:
        self._registry = registry
        self._clock = clock
        self._lookup_answers = lookup_answers

    def __call__(self, state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
        budget = record_step(state["budget"], last_step_failed(state))
        reason = exhausted(state, budget, runtime.context, self._clock)
        answered = self._lookup_answers and looked_up_for_a_question(state, self._registry)
        if reason is None and runtime.context.fixed_answers and answered:
            reason = wrap_up("answered")
        return {"budget": budget, "wrap_up": reason}
