"""The run's budget: the step's spending, the run's counters, and the decision to wrap up.

Every node that spends something records it on the step under way (a model call, a proposal, an approval asked for
and answered); `close_step` adds a finished step, with its executed calls, to the run's counters, once a step (in
budget_check, or in the node that ends the run). Only `budget_check` calls `limit_reached`. Time comes from an
injected clock (`time.time` by default), so tests move it instead of sleeping.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from graph import prompts
from state.context import Context
from state.records import Plan, RunBudget, Step, ToolCallRecord, WrapUp, WrapUpCode

Clock = Callable[[], float]
"""Seconds since the epoch, as `time.time` gives them."""

SYSTEM_CLOCK: Clock = time.time


def new_budget(human_index: int, clock: Clock = SYSTEM_CLOCK) -> RunBudget:
    """Fresh counters for the run started by the person's message at `human_index`."""
    return RunBudget(
        human_index=human_index,
        started_at=clock(),
        waited_s=0.0,
        model_calls=0,
        tokens=0,
        tool_calls={},
        consecutive_failures=0,
        proposals={},
    )


def open_step(step: Step | None, calls: list[ToolCallRecord] | None = None) -> Step:
    """The step under way (a new one when none is), with `calls` as its calls when given."""
    if step is None:
        step = Step(calls=[], outcomes=[], model_calls=0, tokens=0, proposals=[], review_requested_at=0.0, waited_s=0.0)
    return step if calls is None else Step(**{**step, "calls": calls})


def charge_model_call(step: Step, tokens: int) -> Step:
    """One model call and the tokens it read and wrote."""
    return Step(**{**step, "model_calls": step["model_calls"] + 1, "tokens": step["tokens"] + tokens})


def count_proposals(step: Step, digests: list[str]) -> Step:
    """Proposals of the exact actions `digests` (a tool and its arguments), to recognise repeats."""
    return Step(**{**step, "proposals": [*step["proposals"], *digests]}) if digests else step


def review_requested(step: Step, clock: Clock = SYSTEM_CLOCK) -> Step:
    """A person was asked to approve: their wait starts now and is not charged to the time budget."""
    return Step(**{**step, "review_requested_at": clock()})


def review_answered(step: Step, clock: Clock = SYSTEM_CLOCK) -> Step:
    """The person answered: the wait since the request is added to the time not charged.

    The wait runs from the validator's request, because the review node restarts from its beginning when
    the run resumes (a time taken there would be the moment of the answer)."""
    now = clock()
    requested = step["review_requested_at"] or now
    return Step(**{**step, "waited_s": step["waited_s"] + (now - requested), "review_requested_at": 0.0})


def close_step(budget: RunBudget, step: Step | None, failed: bool | None = None) -> RunBudget:
    """The run's counters with a finished step added: its model calls and tokens, proposals, executed calls per tool
    and wait. `failed`: a failed step lengthens the failure streak, a successful one ends it (None: a step with nothing
    to judge, such as a person's rejection, leaves it)."""
    streak = budget["consecutive_failures"] if failed is None else (budget["consecutive_failures"] + 1 if failed else 0)
    if step is None:
        return budget if streak == budget["consecutive_failures"] else RunBudget(**{**budget, "consecutive_failures": streak})
    proposals = dict(budget["proposals"])
    for digest in step["proposals"]:
        proposals[digest] = proposals.get(digest, 0) + 1
    tool_calls = dict(budget["tool_calls"])
    for outcome in step["outcomes"]:
        tool_calls[outcome["name"]] = tool_calls.get(outcome["name"], 0) + 1
    return RunBudget(
        human_index=budget["human_index"],
        started_at=budget["started_at"],
        waited_s=budget["waited_s"] + step["waited_s"],
        model_calls=budget["model_calls"] + step["model_calls"],
        tokens=budget["tokens"] + step["tokens"],
        tool_calls=tool_calls,
        consecutive_failures=streak,
        proposals=proposals,
    )


def end_step(state: Mapping[str, Any], step: Step | None) -> dict[str, Any]:
    """What a node that ends the run writes of the step under way: the step added to the run's counters, and closed."""
    return {"budget": close_step(state["budget"], step), "step": None}


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
