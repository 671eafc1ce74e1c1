"""Checking and executing tool calls: each check once per path, one transaction per write, idempotent writes.

The validator's path (`check_call`) runs a call's checks read-only; the executor's (`execute_call`) runs
them again inside the write's transaction, right before the effect, so the effect acts on what was checked.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel
from sqlalchemy import Connection, insert, select
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from tools.errors import DomainError, NeedsPersonError, NotFoundError, PolicyError
from tools.lookup import (
    approver_choices,
    format_task_id,
    require_actor,
    require_reference,
    resolve_own_task,
    resolve_task,
    resolve_user,
)
from tools.policy import check_email_content, check_identity, parse_days
from tools.said import approver_named, check_days_said, check_named_by_person, check_requested, check_text_said
from tools.spec import CallContext, Effect, Found, PersonWords, ToolRegistry, ToolSpec, Verdict
from tools.store import tool_executions, utcnow

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


def _person_stated(spec: ToolSpec, raw: dict[str, Any], person: PersonWords) -> tuple[dict[str, Any], list[str]]:
    """The arguments with every value the person spelled out in their request put in (their words win), and
    a note for the reviewer's card for each value of the model's that they replaced."""
    request = "\n".join(person.request)
    filled, notes = dict(raw), []
    for value in spec.person_values:
        stated = value.stated(request) if value.stated is not None else None
        if stated is None:
            continue
        if value.param in raw and raw[value.param] != stated:
            notes.append(f"[person_stated] {value.param}: the user's own words {stated!r} replaced {raw[value.param]!r}")
        filled[value.param] = stated
    return filled, notes


def _ask_for_missing(spec: ToolSpec, raw: dict[str, Any], conn: Connection, actor_id: str) -> None:
    """A value only the person can give that the model left out or cannot spell: the person is asked."""
    for value in spec.person_values:
        if value.optional:
            continue
        given = raw.get(value.param)
        if given is None or (isinstance(given, str) and not given.strip()):
            choices = approver_choices(conn, actor_id) if value.kind == "user" else ()
            raise NeedsPersonError(
                f"missing_{value.ask}", f"{value.param} is missing; ask the user", ask=value.ask, param=value.param,
                choices=choices,
            )
        try:
            if value.kind == "days":
                parse_days(given)
            elif value.ask == "email_text" and isinstance(given, str):
                check_email_content(given)
        except ValueError as exc:
            raise NeedsPersonError(
                f"unclear_{value.ask}", f"{value.param}: {exc}; ask the user", ask=value.ask, param=value.param
            ) from None


def _resolve(
    spec: ToolSpec, args: BaseModel, conn: Connection, ctx: CallContext, asking: bool
) -> tuple[BaseModel, Found]:
    """User arguments given by name become ids, and so do tasks named by their requester; returns the arguments
    and the records found. With `asking`, a person's unknown approver makes the graph ask."""
    values = args.model_dump()
    found: Found = {}
    person_users = {v.param for v in spec.person_values if v.kind == "user"}
    changed = False
    for ref in spec.references:
        value = values.get(ref.param)
        if ref.kind == "task" and ref.resolve != "id" and value is not None:
            if ref.resolve == "requester":
                task: dict[str, Any] | None = resolve_task(conn, value, ctx.actor_id, param=ref.param)
            else:
                task = resolve_own_task(conn, value, ctx.actor_id, param=ref.param)
            if task is not None:
                found[ref.param] = task
            resolved = format_task_id(task["id"]) if task is not None else None
            if resolved != value:
                values[ref.param] = resolved
                changed = True
            continue
        if ref.kind != "user" or value is None:
            continue
        try:
            user = resolve_user(conn, value, param=ref.param)
        except NotFoundError:
            if asking and ref.param in person_users:
                raise NeedsPersonError(
                    "unknown_user", f"{ref.param} {str(value)[:64]} is not a user; ask the user who should approve",
                    ask="approver", param=ref.param, choices=approver_choices(conn, ctx.actor_id),
                    name=str(value)[:64],
                ) from None
            raise
        found[ref.param] = user
        if user["id"] != value:
            values[ref.param] = user["id"]
            changed = True
    return (spec.args_model.model_validate(values) if changed else args), found


def _admit(
    spec: ToolSpec, args: BaseModel, conn: Connection, ctx: CallContext, actor: dict[str, Any], *, asking: bool
) -> tuple[BaseModel, Verdict]:
    """Every check of one call after the actor's, each once: names resolved to ids, identity parameters, the
    referenced records, then the tool's own rules. Returns the arguments with ids and the verdict (whose
    `found` holds the records by parameter, and the actor's under "actor")."""
    args, found = _resolve(spec, args, conn, ctx, asking)
    found[ACTOR] = actor
    values = args.model_dump()
    for param in spec.identity_params:
        check_identity(ctx.actor_id, param, values.get(param))
    for ref in spec.references:
        value = values.get(ref.param)
        if value is not None and ref.param not in found:
            found[ref.param] = require_reference(conn, ref.kind, value, ref.param)
    if spec.check is None:
        return args, Verdict(found=found)
    verdict = spec.check(conn, ctx, args, found)
    return args, Verdict(notes=list(verdict.notes), found={**found, **verdict.found})


def check_call(
    registry: ToolRegistry,
    name: str,
    raw_args: Any,
    ctx: CallContext,
    *,
    person: PersonWords | None = None,
) -> CheckedCall:
    """Everything that can be known before running a call, without side effects (the validator's path).

    Parameters that must equal the actor are filled in; users may be named by id or by name. `person` is what
    the person said; when given (the graph's path), a write their request does not ask for is refused, and a
    value only the person can give (approver, days, reason, an e-mail's text) that is missing or not found in
    their words raises `NeedsPersonError`, so the graph asks the person. Raises `DomainError` (unknown tool, bad arguments,
    unknown ids, wrong identity, policy refusal).
    """
    spec = registry.get(name)
    raw = spec.with_actor(spec.decode(raw_args), ctx.actor_id)
    stated_notes: list[str] = []
    with ctx.store.read() as conn:
        actor = require_actor(conn, ctx.actor_id)
        if person is not None:
            check_requested(spec.name, spec.intent, person.request)
            raw, stated_notes = _person_stated(spec, raw, person)
            for wanted in spec.person_values:
                if wanted.kind != "user" or raw.get(wanted.param) in (None, ""):
                    continue
                # The one person the user named is the approver, however the model spelled (or chose) it.
                named = approver_named(conn, person.said, ctx.actor_id)
                if named is not None and named != raw[wanted.param]:
                    try:
                        chosen = resolve_user(conn, raw[wanted.param], param=wanted.param)["id"]
                    except DomainError:
                        chosen = None
                    if chosen != named:
                        stated_notes.append(f"[person_stated] {wanted.param}: the user named {named}, not {raw[wanted.param]!r}")
                        raw[wanted.param] = named
            _ask_for_missing(spec, raw, conn, ctx.actor_id)
        args, verdict = _admit(spec, spec.parse(raw), conn, ctx, actor, asking=person is not None)
        if person is not None:
            _check_said(spec, args, conn, ctx, person)
    return CheckedCall(spec=spec, args=args, notes=verdict.notes + stated_notes)


def _check_said(spec: ToolSpec, args: BaseModel, conn: Connection, ctx: CallContext, person: PersonWords) -> None:
    """The values only the person can give are found in what they said (else the person is asked)."""
    values = args.model_dump()
    for wanted in spec.person_values:
        value = values.get(wanted.param)
        if wanted.optional or wanted.kind == "decision":
            continue  # shown on the card for the person's own decision
        if wanted.kind == "user":
            check_named_by_person(conn, wanted.param, value, person.said, actor_id=ctx.actor_id)
        elif wanted.kind == "days":
            check_days_said(conn, wanted.param, float(value or 0), person.said)
        else:
            check_text_said(wanted.param, str(value), person.said, ask=wanted.ask, shown=person.shown)


def execute_call(registry: ToolRegistry, name: str, raw_args: Any, ctx: CallContext) -> dict[str, Any]:
    """Run one tool call (the executor's path). Writes are atomic and idempotent on `ctx.idempotency_key`.

    A write whose key was already executed returns the recorded result and changes nothing. The checks run
    in the same transaction as the effect, so a call approved earlier is still refused if the store changed
    meanwhile; a refusal is kept in the audit log (`tool_refused`) and nothing else of its transaction is.
    After a fresh write commits, the tool's `after_commit` runs (an e-mail is delivered).
    """
    spec = registry.get(name)
    args = spec.parse(spec.with_actor(spec.decode(raw_args), ctx.actor_id))
    if spec.effect is Effect.READ:
        with ctx.store.read() as conn:
            args, verdict = _admit(spec, args, conn, ctx, require_actor(conn, ctx.actor_id), asking=False)
            return spec.handler(conn, ctx, args, verdict)

    recorded = _recorded_result(ctx)
    if recorded is not None:
        return recorded
    try:
        with ctx.store.transaction() as conn:
            prior = conn.execute(
                select(tool_executions.c.result).where(tool_executions.c.idempotency_key == ctx.idempotency_key)
            ).scalar_one_or_none()
            if prior is not None:
                return _replayed(prior)
            args, verdict = _admit(spec, args, conn, ctx, require_actor(conn, ctx.actor_id), asking=False)
            result = spec.handler(conn, ctx, args, verdict)
            conn.execute(
                insert(tool_executions).values(
                    idempotency_key=ctx.idempotency_key,
                    thread_id=ctx.thread_id,
                    actor_id=ctx.actor_id,
                    tool=spec.name,
                    args=args.model_dump_json(),
                    result=json.dumps(result, ensure_ascii=False, sort_keys=True),
                    created_at=utcnow(),
                )
            )
            ctx.store.audit(
                conn,
                "tool_executed",
                {"tool": spec.name, "args": args.model_dump(), "result": result},
                thread_id=ctx.thread_id,
                actor_id=ctx.actor_id,
            )
    except IntegrityError:
        # A concurrent run recorded the same idempotency key first; our transaction rolled back whole.
        recorded = _recorded_result(ctx)
        if recorded is None:
            raise
        return recorded
    except DomainError as exc:
        _record_refusal(spec, args, ctx, exc)
        raise
    return spec.after_commit(ctx, result) if spec.after_commit is not None else result


def _record_refusal(spec: ToolSpec, args: BaseModel, ctx: CallContext, exc: DomainError) -> None:
    """A write the policy refused, in the audit log in its own transaction (the refused one rolled back whole).

    The refusal is what the caller must hear: an audit log that cannot be written is logged, not raised.
    """
    try:
        ctx.store.record_audit(
            "tool_refused",
            {"tool": spec.name, "args": args.model_dump(), "error": exc.code, "message": exc.message},
            thread_id=ctx.thread_id[:MAX_THREAD_CHARS],
            actor_id=ctx.actor_id[:MAX_ACTOR_CHARS],  # an unknown actor's id may be any length
        )
    except SQLAlchemyError:
        logger.exception("could not audit the refusal of %s (%s) in thread %s", spec.name, exc.code, ctx.thread_id)


def _recorded_result(ctx: CallContext) -> dict[str, Any] | None:
    with ctx.store.read() as conn:
        prior = conn.execute(
            select(tool_executions.c.result).where(tool_executions.c.idempotency_key == ctx.idempotency_key)
        ).scalar_one_or_none()
    return _replayed(prior) if prior is not None else None


def _replayed(raw: str) -> dict[str, Any]:
    result = json.loads(raw)
    result["replayed"] = True
    return result


__all__ = ["CallContext", "CheckedCall", "PolicyError", "check_call", "execute_call"]
