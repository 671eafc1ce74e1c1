"""Checking and executing tool calls: each check once per path, one transaction per write, idempotent writes.

The validator's path (`check_call`) runs a call's checks read-only; the executor's (`execute_call`) runs them again
inside the write's transaction, right before the effect, so the effect acts on what was checked. Everything domain
specific comes from the toolset's hooks (`tools.toolset.Toolset`): its backend, its actor, its reference resolvers.
"""

from __future__ import annotations

import dataclasses
import json
import logging
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, cast

from pydantic import BaseModel

from tools.backend import Backend, Execution, StopsAtDeadline
from tools.errors import DomainError, NeedsPersonError, NotFoundError, PolicyError
from tools.guards import ACTOR, STANDARD, Call, Guard, admit
from tools.request import Request
from tools.spec import CallContext, Effect, ToolSpec, Verdict
from tools.toolset import Toolset

logger = logging.getLogger(__name__)

MAX_ACTOR_CHARS = 64
MAX_THREAD_CHARS = 128
"""The audit log's column sizes (a refused call's actor or thread may be longer)."""


@dataclass(frozen=True)
class CheckedCall:
    """A call that passed schema, reference, identity and policy checks (for now: the store can change)."""

    spec: ToolSpec
    args: BaseModel
    notes: list[str]
    verdict: Verdict = field(default_factory=Verdict)
    """What the checks allowed: the notes, the records the call's references name as they were found, and where
    each of the person's values came from (`Verdict.sources`)."""


def _guards(toolset: Toolset) -> Sequence[Guard]:
    """The toolset's admission pipeline: its own (`Toolset.guards`), else the standard one."""
    return cast("Sequence[Guard]", toolset.guards) if toolset.guards is not None else STANDARD


def _through_guards(
    toolset: Toolset, spec: ToolSpec, raw: dict[str, Any], handle: Any, ctx: CallContext, *, request: Request | None,
    fresh_actor: bool = False, kept: Mapping[str, Any] | None = None,
) -> tuple[BaseModel, Verdict]:
    """The call through the toolset's guards (`tools.guards`): its validated arguments and what they allowed."""
    call = Call(toolset=toolset, spec=spec, handle=handle, ctx=ctx, values=dict(raw), request=request,
                fresh_actor=fresh_actor, kept=dict(kept or {}))
    verdict = admit(call, _guards(toolset))
    assert call.args is not None, "the schema guard is part of every pipeline"
    return call.args, verdict


def check_call(
    toolset: Toolset, name: str, raw_args: Any, ctx: CallContext, *, request: Request | None = None,
    kept: Mapping[str, Any] | None = None,
) -> CheckedCall:
    """Everything that can be known before running a call, without side effects (the validator's path).

    Parameters that must equal the actor are filled in; references may name records by name. `request` is what the
    person's request says; when given (the graph's path), every value only the person can give must be stated there
    (missing or not theirs: `NeedsPersonError`, so the graph asks the person), and values the person spelled out
    replace the model's; `kept` are values the code took from the person's own record (`Call.kept`). Raises
    `DomainError` (unknown tool, bad arguments, unknown records, wrong identity, policy).
    """
    spec = toolset.registry.get(name)
    raw = spec.with_actor(spec.decode(raw_args), ctx.actor_id)
    ctx = _with_limits(toolset, ctx)
    with ctx.backend.read() as handle:
        args, verdict = _through_guards(toolset, spec, raw, handle, ctx, request=request, kept=kept)
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
            args, verdict = _through_guards(toolset, spec, raw, handle, ctx, request=None)
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
            admitted, verdict = _through_guards(toolset, spec, raw, handle, ctx, request=None, fresh_actor=True)
            result = spec.handler(handle, ctx, admitted, verdict)
            backend.record(handle, Execution(key=ctx.idempotency_key, thread_id=ctx.thread_id, actor_id=ctx.actor_id,
                                             tool=spec.name, args=admitted.model_dump(), result=result,
                                             lang=ctx.lang))
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


__all__ = [
    "ACTOR", "CallContext", "CheckedCall", "NeedsPersonError", "NotFoundError", "PolicyError", "check_call", "execute_call",
]
