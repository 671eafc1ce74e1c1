"""The budget_check node: per-run limits, the circuit breaker and repeated-action detection.

When a limit is reached it sets `wrap_up`, and the reasoner then writes a final answer without tools.
LangGraph's recursion limit stays a last resort, never the budget.
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, ToolMessage
from langgraph.runtime import Runtime

from graph.answers import REFUSED_STEPS_BEFORE_INSTEAD, instead_call
from graph.asked import AskedNext, after_asked_write
from graph.budget import SYSTEM_CLOCK, Clock, close_step, limit_reached, plan_ended, wrap_up
from graph.calls import action_hash
from graph.history import note_of, open_lookups
from graph.plans import last_step_surprised
from state.agent import AgentState
from state.context import Context
from state.records import RunBudget, WrapUp
from tools.spec import ToolRegistry


def last_step_failed(state: AgentState) -> bool | None:
    """Whether every observation since the last model reply is an error (None: no observation)."""
    statuses = []
    for msg in reversed(state["messages"]):
        if isinstance(msg, AIMessage):
            break
        if isinstance(msg, ToolMessage):
            if note_of(msg).get("rejected"):
                return None  # a person's rejection is a decision, not a failure of the agent
            statuses.append(msg.status)
    if not statuses:
        return None
    return all(s == "error" for s in statuses)


def last_step_declined(state: AgentState) -> list[str]:
    """The writes the person declined at their cards in the last step (none: the step had no card declined)."""
    declined: list[str] = []
    for msg in reversed(state["messages"]):
        if isinstance(msg, AIMessage):
            break
        if isinstance(msg, ToolMessage) and note_of(msg).get("rejected") and msg.name:
            declined.insert(0, msg.name)
    return declined


def exhausted(state: AgentState, budget: RunBudget, context: Context, clock: Clock = SYSTEM_CLOCK, *,
              more_asked: bool = False) -> WrapUp | None:
    """Why the run must end now, or None: a write that answers the request (unless the person's message asks for
    `more_asked`) or one the person declined (for a model whose summary is not trusted), then the end of a chain's
    steps, then the first limit reached."""
    if context.fixed_answers and after_asked_write(state) and not more_asked:
        return wrap_up("done")
    declined = last_step_declined(state) if context.fixed_answers else []
    if declined:
        return wrap_up("declined", tool=", ".join(dict.fromkeys(declined)))
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


def looked_up_for_a_question(state: AgentState, registry: ToolRegistry | None = None) -> bool:
    """Whether the last step's look-ups all succeeded and the person's request asks for information only (a question
    that asks for no action): the answer is then what the tools found, and a small model need not restate it. Not
    while the question asks for a look-up the run has not made (the registry's `answers`): the deputies list found
    for "李四那边压着几个待审批的" answers nothing asked."""
    request = state.get("request")
    if request is None or request["kind"] != "information":
        return False
    if registry is not None and open_lookups(list(state["messages"]), registry, request):
        return False
    found = False
    for msg in reversed(state["messages"]):
        if isinstance(msg, AIMessage):
            break
        if isinstance(msg, ToolMessage):
            if msg.status != "success" or note_of(msg).get("wrote"):
                return False
            found = True
    return found


class BudgetCheck:
    """Close the step (its spending and failure streak added to the run's counters), then decide whether the run must
    wrap up (the only node that does).

    `asked` reads what the person's message still asks for after a write (`graph.asked`): such a write does not
    end the run. `lookup_answers` is the toolset's: whether one successful look-up answers a question asking for no write
    (`Toolset.lookup_answers`); only then does a model whose answers are not trusted stop after it.
    """

    def __init__(self, clock: Clock = SYSTEM_CLOCK, *, lookup_answers: bool = True,
                 registry: ToolRegistry | None = None, asked: AskedNext | None = None) -> None:
        self._clock = clock
        self._lookup_answers = lookup_answers
        self._registry = registry
        self._asked = asked

    def __call__(self, state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
        budget = close_step(state["budget"], state.get("step"), last_step_failed(state))
        more = self._asked is not None and self._asked.call(state, runtime.context) is not None
        reason = exhausted(state, budget, runtime.context, self._clock, more_asked=more)
        if reason is not None and reason["code"] == "repeated_action" and instead_call(
                list(state["messages"]), "en", after_refused_steps=REFUSED_STEPS_BEFORE_INSTEAD) is not None:
            reason = None  # a refused call made again, where a refusal named the call asked for: the reasoner proposes it
        answered = self._lookup_answers and looked_up_for_a_question(state, self._registry)
        if reason is None and runtime.context.fixed_answers and answered:
            reason = wrap_up("answered")
        update: dict[str, Any] = {"budget": budget, "step": None}
        if reason is not None or state.get("wrap_up") is not None:  # an unchanged channel is not written (nor stored)
            update["wrap_up"] = reason
        return update
