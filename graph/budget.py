"""The run's budget: its counters, the named operations that change them, and the decision to wrap up.

Every node that spends something calls one operation here (a model call, a proposal, an approval asked
for and answered, executed calls, a finished step); only `budget_check` calls `wrap_up_reason`. Time comes
from an injected clock (`time.time` by default), so tests move it instead of sleeping.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from graph import prompts
from state.context import Context
from state.records import Plan, RunBudget, WrapUp, WrapUpCode

Clock = Callable[[], float]
"""Seconds since the epoch, as `time.time` gives them."""

SYSTEM_CLOCK: Clock = time.time


def new_budget(human_index: int, clock: Clock = SYSTEM_CLOCK) -> RunBudget:
    """Fresh counters for the run started by the person's message at `human_index`."""
    return RunBudget(
        human_index=human_index,
        started_at=clock(),
        waited_s=0.0,
        review_requested_at=0.0,
        model_calls=0,
        tokens=0,
        tool_calls={},
        consecutive_failures=0,
        proposals={},
    )


def for_run(budget: RunBudget | None, human_index: int, clock: Clock = SYSTEM_CLOCK) -> tuple[RunBudget, bool]:
    """The counters of the run of the person's message at `human_index`, and whether they are new (a new
    message starts a new run; a step of the same run keeps counting)."""
    if budget is None or budget["human_index"] != human_index:
        return new_budget(human_index, clock), True
    return RunBudget(**budget), False


def charge_model_call(budget: RunBudget, tokens: int) -> RunBudget:
    """One model call and the tokens it read and wrote."""
    return RunBudget(**{**budget, "model_calls": budget["model_calls"] + 1, "tokens": budget["tokens"] + tokens})


def count_proposal(budget: RunBudget, digest: str) -> RunBudget:
    """One proposal of the exact action `digest` (a tool and its arguments), to recognise repeats."""
    proposals = {**budget["proposals"], digest: budget["proposals"].get(digest, 0) + 1}
    return RunBudget(**{**budget, "proposals": proposals})


def review_requested(budget: RunBudget, clock: Clock = SYSTEM_CLOCK) -> RunBudget:
    """A person was asked to approve: their wait starts now and is not charged to the time budget."""
    return RunBudget(**{**budget, "review_requested_at": clock()})


def review_answered(budget: RunBudget, clock: Clock = SYSTEM_CLOCK) -> RunBudget:
    """The person answered: the wait since the request is added to the time not charged.

    The wait runs from the validator's request, because the review node restarts from its beginning when
    the run resumes (a time taken there would be the moment of the answer)."""
    now = clock()
    requested = budget.get("review_requested_at") or now
    return RunBudget(**{**budget, "waited_s": budget["waited_s"] + (now - requested), "review_requested_at": 0.0})


def count_executions(budget: RunBudget, tools: Iterable[str]) -> RunBudget:
    """Executed calls, counted per tool."""
    counts = dict(budget["tool_calls"])
    for tool in tools:
        counts[tool] = counts.get(tool, 0) + 1
    return RunBudget(**{**budget, "tool_calls": counts})


def record_step(budget: RunBudget, failed: bool | None) -> RunBudget:
    """A finished step: a failed one lengthens the failure streak, a successful one ends it (None: a step
    with nothing to judge, such as a person's rejection, leaves it)."""
    if failed is None:
        return budget
    streak = budget["consecutive_failures"] + 1 if failed else 0
    return RunBudget(**{**budget, "consecutive_failures": streak})


def wrap_up(code: WrapUpCode, **values: Any) -> WrapUp:
    """The record of why a run ends now, with its readable text (for the model) and the values it names."""
    return WrapUp(code=code, text=prompts.WRAP_UP_REASONS["en"][code].format(**values), values=values)


def limit_reached(
    budget: RunBudget,
    context: Context,
    tool_of: Callable[[str], str],
    clock: Clock = SYSTEM_CLOCK,
) -> WrapUp | None:
    """The first limit of `context` the counters reached, or None while the run may go on.

    `tool_of(digest)` names the tool of a repeated action."""
    if budget["consecutive_failures"] >= context.max_consecutive_failures:
        return wrap_up("consecutive_failures", limit=context.max_consecutive_failures)
    for digest, count in budget["proposals"].items():
        if count > context.max_repeated_actions:
            return wrap_up("repeated_action", tool=tool_of(digest))
    for tool, count in budget["tool_calls"].items():
        if count >= context.max_tool_calls_per_tool:
            return wrap_up("tool_calls", tool=tool, limit=context.max_tool_calls_per_tool)
    if budget["model_calls"] >= context.max_model_calls:
        return wrap_up("model_calls", limit=context.max_model_calls)
    if budget["tokens"] >= context.max_tokens:
        return wrap_up("tokens", limit=context.max_tokens)
    if clock() - budget["started_at"] - budget.get("waited_s", 0.0) >= context.max_seconds:
        return wrap_up("seconds", limit=context.max_seconds)
    return None


def plan_ended(plan: Plan | None, failed: bool) -> WrapUp | None:
    """Whether a chain's run ends now: all its steps ran, or one `failed` (an error, a refusal, a rejection: a
    chain never adapts). A planner's run is never ended here: the planner itself says when no step is left, and
    its surprises are planned again, within the limits below."""
    if plan is None or plan["source"] != "chain":
        return None
    if failed:
        return wrap_up("off_plan", chain=plan["name"])
    if not plan["steps"]:
        return wrap_up("finished", steps=plan["done"])
    return None


PLANNED_ENDS: tuple[WrapUpCode, ...] = ("done", "declined", "answered", "finished")
"""Wrap-ups that end a run as planned (a write or a look-up that answers, a write the person declined, a chain's last
step); the others stop it early, and the person is told so."""


def stopped_early(reason: WrapUp | Mapping[str, Any] | None) -> bool:
    """Whether a wrap-up cut the run short (a limit was reached), rather than ending it as planned."""
    return bool(reason) and isinstance(reason, Mapping) and reason.get("code") not in PLANNED_ENDS


def describe(reason: WrapUp | Mapping[str, Any] | str | None, lang: str = "en") -> str:
    """A wrap-up as one readable line: `code: text` for the model and the log, the reason alone in the person's
    language when they are told (also for a thread checkpointed before the record)."""
    if not reason:
        return ""
    if isinstance(reason, str):
        return reason
    if lang != "en" and reason.get("code") in prompts.WRAP_UP_REASONS[lang]:
        try:
            return str(prompts.WRAP_UP_REASONS[lang][reason["code"]].format(**(reason.get("values") or {})))
        except (KeyError, ValueError):
            pass  # a record checkpointed without its values: its English text below
    return f"{reason['code']}: {reason['text']}"
