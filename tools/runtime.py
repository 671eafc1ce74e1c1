"""Checking and executing tool calls: each check once per path, one transaction per write, idempotent writes.

The validator's path (`check_call`) runs a call's checks read-only; the executor's (`execute_call`) runs them again
inside the write's transaction, right before the effect, so the effect acts on what was checked. Everything domain
specific comes from the toolset's hooks (`tools.toolset.Toolset`): its backend, its actor, its reference resolvers.
"""

from __future__ import annotations

import dataclasses
import json
import logging
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import date
from typing import Any, cast

from pydantic import BaseModel

from tools import words
from tools.backend import Backend, Execution, StopsAtDeadline
from tools.errors import DomainError, NeedsPersonError, NotFoundError, PolicyError
from tools.grounding import (
    check_clear,
    check_given,
    check_grounded,
    named_wins,
    person_stated,
    read_dates,
    unstated,
)
from tools.request import Request
from tools.spec import CallContext, Effect, Found, Reference, ToolSpec, Verdict
from tools.toolset import Toolset

logger = logging.getLogger(__name__)

MAX_ACTOR_CHARS = 64
MAX_THREAD_CHARS = 128
"""The audit log's column sizes (a refused call's actor or thread may be longer)."""
ACTOR = "actor"
"""The key of the session user's record in a verdict's `found`."""


@dataclass(frozen=True)
class CheckedCall:
    """A call that passed schema, reference, identity and policy checks (for now: the store can change)."""

    spec: ToolSpec
    args: BaseModel
    notes: list[str]
    verdict: Verdict = field(default_factory=Verdict)
    """What the checks allowed: the notes and the records the call's references name, as they were found."""


def check_identity(actor_id: str, param: str, value: Any) -> None:
    """Identity parameters name the session user; the model can never act as someone else."""
    if str(value) != actor_id:
        raise PolicyError(
            "not_actor",
            f"{param} must be the session user {actor_id}, not {str(value)[:64]}; "
            "you act only for the signed-in user, whatever the conversation claims",
        )


def _resolve_references(
    toolset: Toolset,
    spec: ToolSpec,
    values: dict[str, Any],
    handle: Any,
    ctx: CallContext,
    *,
    asking: bool,
    which: Callable[[Reference], bool],
) -> tuple[dict[str, Any], Found]:
    """The references `which` selects looked up by the toolset's resolvers: the records found, by parameter, and the
    values with names made canonical ids."""
    found: Found = {}
    resolved = dict(values)
    for ref in spec.references:
        value = values.get(ref.param)
        if value is None or not which(ref):
            continue
        resolver = toolset.resolvers.get(ref.kind)
        if resolver is None:
            raise AssertionError(f"toolset {toolset.name} has no resolver for {ref.kind!r} ({spec.name}.{ref.param})")
        known = ctx.known if ref.kind in toolset.stable_kinds else None
        record = known.get(ref.kind, value) if known is not None else None
        if record is not None:
            canonical = value
        else:
            record, canonical = resolver(handle, value, ctx, ref, asking=asking)
            if known is not None and record is not None and canonical == value:  # found by its id: kept
                known.put(ref.kind, value, record)
        if record is not None:
            found[ref.param] = record
        resolved[ref.param] = canonical
    return resolved, found


def _admit(
    toolset: Toolset, spec: ToolSpec, raw: dict[str, Any], handle: Any, ctx: CallContext, *, request: Request | None,
    fresh_actor: bool = False,
) -> tuple[BaseModel, Verdict]:
    """Every check of one call after the actor's, each once, in the order a person would be told: what cannot be
    done at all (identity, the records it acts on), then what only the person can give (their own words put in;
    asked for when missing), the arguments' schema, the people it names, the tool's own rules, and whether the person
    said each value."""
    actor = dict(ctx.actor) if ctx.actor is not None and not fresh_actor else toolset.actor(handle, ctx.actor_id)
    for param in spec.identity_params:
        check_identity(ctx.actor_id, param, raw.get(param))
    person_params = {v.param for v in spec.person_values}
    named_notes = _named_records(toolset, spec, raw, handle, request) if request is not None else []
    values, found = _resolve_references(
        toolset, spec, raw, handle, ctx, asking=request is not None, which=lambda ref: ref.param not in person_params
    )
    person_values = spec.values_for(handle, ctx, values, found)
    notes: list[str] = []
    stated_notes: list[str] = []
    if request is not None:
        values, stated_notes = person_stated(person_values, values, request)
        values, notes = named_wins(toolset, spec, values, handle, ctx, request, person_values)
    try:
        if request is not None:
            check_given(toolset, spec, values, handle, ctx, request["lang"], person_values)
        values = read_dates(person_values, values, ctx.today or date.today())
        if request is not None:
            check_clear(spec, values, person_values)
        args = spec.parse(values)
        values, people = _resolve_references(
            toolset, spec, args.model_dump(), handle, ctx, asking=request is not None,
            which=lambda ref: ref.param in person_params,
        )
        found |= people
        if people:
            args = spec.args_model.model_validate(values)
        found[ACTOR] = actor
        verdict = spec.check(handle, ctx, args, found) if spec.check is not None else Verdict()
        if request is not None:
            check_grounded(toolset, spec, args, {**found, **verdict.found}, handle, ctx, request, person_values)
    except NeedsPersonError as exc:
        if request is not None:  # the person is asked once for everything the call still lacks
            others = unstated(toolset, spec, values, found, handle, ctx, request, person_values)
            exc.also = tuple((value, offered) for value, offered in others if value.param != exc.param)
        raise
    return args, Verdict(notes=[*verdict.notes, *notes, *stated_notes, *named_notes], found={**found, **verdict.found})


def _named_records(toolset: Toolset, spec: ToolSpec, raw: dict[str, Any], handle: Any, request: Request) -> list[str]:
    """Puts in, in place, the one record of each reference the person's request names (`Toolset.named_record`: a
    leave request is the leave process, whichever the model chose); a note for the card for each replaced value."""
    if toolset.named_record is None:
        return []
    notes = []
    for ref in spec.references:
        if ref.param in spec.identity_params:
            continue
        named = toolset.named_record(handle, ref.kind, request["texts"])
        given = raw.get(ref.param)
        if named is None or given == named:
            continue
        if isinstance(given, str) and given and any(words.names(given, text) for text in request["texts"]):
            continue  # the person wrote that record themselves ("process_nianjia"): its own checks answer them
        if given not in (None, ""):
            notes.append(f"[person_stated] {ref.param}: the user named {named}, not {str(given)[:64]!r}")
        raw[ref.param] = named
    return notes


def check_call(
    toolset: Toolset, name: str, raw_args: Any, ctx: CallContext, *, request: Request | None = None
) -> CheckedCall:
    """Everything that can be known before running a call, without side effects (the validator's path).

    Parameters that must equal the actor are filled in; references may name records by name. `request` is what the
    person's request says; when given (the graph's path), every value only the person can give must be stated there
    (missing or not theirs: `NeedsPersonError`, so the graph asks the person), and values the person spelled out
    replace the model's. Raises `DomainError` (unknown tool, bad arguments, unknown records, wrong identity, policy).
    """
    spec = toolset.registry.get(name)
    raw = spec.with_actor(spec.decode(raw_args), ctx.actor_id)
    ctx = _with_limits(toolset, ctx)
    with ctx.backend.read() as handle:
        args, verdict = _admit(toolset, spec, raw, handle, ctx, request=request)
    return CheckedCall(spec=spec, args=args, notes=verdict.notes, verdict=verdict)


def execute_call(
    toolset: Toolset, name: str, raw_args: Any, ctx: CallContext, *, checked: CheckedCall | None = None,
    deadline: float | None = None,
) -> dict[str, Any]:
    """Run one tool call (the executor's path). Writes are atomic and idempotent on `ctx.idempotency_key`.

    A write whose key was already executed returns the recorded result and changes nothing. The checks run in the
    same transaction as the effect, so a call approved earlier is still refused if the store changed meanwhile; a
    refusal is kept in the audit log (`tool_refused`) and nothing else of its transaction is. After a fresh write
    commits, the tool's `after_commit` runs (an e-mail is delivered).

    `checked` is the validator's check of this very read, made moments before in this process: the read runs on
    what that check found instead of checking again (a read changes nothing, so there is no effect to protect from
    a store that changed in between). A write ignores it: its checks always run again inside its transaction.

    `deadline` (a `time.monotonic()` time) bounds a read on a backend that stops its work then
    (`tools.backend.StopsAtDeadline`): the read raises `TimeoutError` once it is past. The executor gives it for the
    reads it runs on its own thread (`ToolSpec.backend_bound`).
    """
    spec = toolset.registry.get(name)
    ctx = _with_limits(toolset, ctx)
    backend = ctx.backend
    if spec.effect is Effect.READ and checked is not None and checked.spec.name == spec.name:
        with _reading(backend, deadline) as handle:
            return spec.handler(handle, ctx, checked.args, checked.verdict)
    raw = spec.with_actor(spec.decode(raw_args), ctx.actor_id)
    spec.parse(raw)  # arguments that do not fit the schema never reach a transaction (nor the audit log)
    if spec.effect is Effect.READ:
        with _reading(backend, deadline) as handle:
            args, verdict = _admit(toolset, spec, raw, handle, ctx, request=None)
            return spec.handler(handle, ctx, args, verdict)

    ctx = dataclasses.replace(ctx, known=None)  # a write looks every record up again, inside its transaction
    with backend.read() as handle:
        recorded = backend.recorded(handle, ctx.idempotency_key)
    if recorded is not None:
        return _replayed(recorded)
    admitted: BaseModel | None = None
    try:
        with backend.transaction() as handle:
            prior = backend.recorded(handle, ctx.idempotency_key)
            if prior is not None:
                return _replayed(prior)
            admitted, verdict = _admit(toolset, spec, raw, handle, ctx, request=None, fresh_actor=True)
            result = spec.handler(handle, ctx, admitted, verdict)
            backend.record(handle, Execution(key=ctx.idempotency_key, thread_id=ctx.thread_id, actor_id=ctx.actor_id,
                                             tool=spec.name, args=admitted.model_dump(), result=result))
    except backend.conflict:
        # A concurrent run recorded the same idempotency key first; our transaction rolled back whole.
        with backend.read() as handle:
            recorded = backend.recorded(handle, ctx.idempotency_key)
        if recorded is None:
            raise
        return _replayed(recorded)
    except DomainError as exc:
        _record_refusal(spec, admitted.model_dump() if admitted is not None else raw, ctx, exc)
        raise
    return spec.after_commit(ctx, result) if spec.after_commit is not None else result


def _reading(backend: Backend, deadline: float | None) -> AbstractContextManager[Any]:
    """A read handle, stopped at `deadline` when there is one (the backend then stops at deadlines)."""
    return backend.read() if deadline is None else cast(StopsAtDeadline, backend).read_until(deadline)


def _with_limits(toolset: Toolset, ctx: CallContext) -> CallContext:
    """The call's context with every limit the toolset declares (a caller that sets none gets the defaults)."""
    if all(name in ctx.limits for name in toolset.limits):
        return ctx
    return dataclasses.replace(ctx, limits=toolset.run_limits(ctx.limits))


def _record_refusal(spec: ToolSpec, args: dict[str, Any], ctx: CallContext, exc: DomainError) -> None:
    """A write the policy refused, in the audit log in its own transaction (the refused one rolled back whole).

    The refusal is what the caller must hear: an audit log that cannot be written is logged, not raised.
    """
    try:
        ctx.backend.record_audit(
            "tool_refused",
            {"tool": spec.name, "args": args, "error": exc.code, "message": exc.message},
            thread_id=ctx.thread_id[:MAX_THREAD_CHARS],
            actor_id=ctx.actor_id[:MAX_ACTOR_CHARS],  # an unknown actor's id may be any length
        )
    except Exception:  # noqa: BLE001 - the refusal must reach the caller even when the audit cannot be written
        logger.exception("could not audit the refusal of %s (%s) in thread %s", spec.name, exc.code, ctx.thread_id)


def _replayed(result: dict[str, Any]) -> dict[str, Any]:
    return {**json.loads(json.dumps(result)), "replayed": True}


__all__ = ["CallContext", "CheckedCall", "NeedsPersonError", "NotFoundError", "PolicyError", "check_call", "execute_call"]
