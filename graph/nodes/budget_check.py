"""The budget_check node: per-run limits, the circuit breaker and repeated-action detection.

When a limit is reached it sets `wrap_up`, and the reasoner then writes a final answer without tools.
LangGraph's recursion limit stays a last resort, never the budget.
"""

from __future__ import annotations

import time
from typing import Any

from langchain_core.messages import AIMessage, ToolMessage
from langgraph.runtime import Runtime

from graph import prompts
from graph.calls import action_hash
from graph.history import current_request
from state.agent import AgentState
from state.context import Context
from tools import policy
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


def exhausted(state: AgentState, context: Context) -> str:
    """The first limit reached, as a reason text; empty if the run may go on."""
    budget = state["budget"]
    if state.get("ask"):
        return "ask: " + prompts.WRAP_UP_REASONS["ask"]
    if context.fixed_answers and last_step_wrote(state):
        return "done: " + prompts.WRAP_UP_REASONS["done"]
    if budget["consecutive_failures"] >= context.max_consecutive_failures:
        return "consecutive_failures: " + prompts.WRAP_UP_REASONS["consecutive_failures"].format(
            limit=context.max_consecutive_failures
        )
    for digest, count in budget["proposals"].items():
        if count > context.max_repeated_actions:
            tool = _tool_of(state, digest)
            return "repeated_action: " + prompts.WRAP_UP_REASONS["repeated_action"].format(tool=tool)
    for tool, count in budget["tool_calls"].items():
        if count >= context.max_tool_calls_per_tool:
            return "tool_calls: " + prompts.WRAP_UP_REASONS["tool_calls"].format(
                tool=tool, limit=context.max_tool_calls_per_tool
            )
    if budget["model_calls"] >= context.max_model_calls:
        return "model_calls: " + prompts.WRAP_UP_REASONS["model_calls"].format(limit=context.max_model_calls)
    if budget["tokens"] >= context.max_tokens:
        return "tokens: " + prompts.WRAP_UP_REASONS["tokens"].format(limit=context.max_tokens)
    elapsed = time.time() - budget["started_at"] - budget.get("waited_s", 0.0)
    if elapsed >= context.max_seconds:
        return "seconds: " + prompts.WRAP_UP_REASONS["seconds"].format(limit=context.max_seconds)
    return ""


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
    return not any(policy.asks_for(spec.intent, request) for spec in registry if spec.effect is Effect.WRITE)


class BudgetCheck:
    """Update the failure streak, then decide whether the run must wrap up."""

    def __init__(self, registry: ToolRegistry) -> None:
        self._registry = registry

    def __call__(self, state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
        budget = state["budget"].copy()
        failed = last_step_failed(state)
        if failed is True:
            budget["consecutive_failures"] = budget["consecutive_failures"] + 1
        elif failed is False:
            budget["consecutive_failures"] = 0
        reason = exhausted({**state, "budget": budget}, runtime.context)  # type: ignore[typeddict-item]
        if not reason and runtime.context.fixed_answers and looked_up_for_a_question(state, self._registry):
            reason = "answered: " + prompts.WRAP_UP_REASONS["answered"]
        return {"budget": budget, "wrap_up": reason}
