"""Checking and executing tool calls: one transaction per call, idempotent writes, policy on every path."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel
from sqlalchemy import Connection, insert, select
from sqlalchemy.exc import IntegrityError

from tools import policy
from tools.errors import DomainError, NeedsPersonError, NotFoundError, PolicyError
from tools.spec import Effect, PersonWords, ToolRegistry, ToolSpec
from tools.store import WorkflowStore, tool_executions, utcnow

if TYPE_CHECKING:
    from tools.mailer import Mailer


@dataclass(frozen=True)
class CallContext:
    """Who makes a call, in which conversation, under which call id (never taken from tool arguments)."""

    store: WorkflowStore
    actor_id: str
    thread_id: str = "default"
    call_id: str = "call"
    mail_rate_limit: int = policy.DEFAULT_MAIL_RATE_LIMIT
    mailer: Mailer | None = None
    today: date | None = None
    """The run's date in its time zone (the graph's clock and `Context.timezone`): what "明天" or "next Friday"
    counts from. None outside a run (a script's call): the tool uses the system's date."""

    @property
    def idempotency_key(self) -> str:
        return f"{self.thread_id}:{self.call_id}"


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
            choices = policy.approver_choices(conn, actor_id) if value.kind == "user" else ()
            raise NeedsPersonError(
                f"missing_{value.ask}", f"{value.param} is missing; ask the user", ask=value.ask, param=value.param,
                choices=choices,
            )
        try:
            if value.kind == "days":
                policy.parse_days(given)
            elif value.ask == "email_text" and isinstance(given, str):
                policy.check_email_content(given)
        except ValueError as exc:
            raise NeedsPersonError(
                f"unclear_{value.ask}", f"{value.param}: {exc}; ask the user", ask=value.ask, param=value.param
            ) from None


def _resolve_users(spec: ToolSpec, args: BaseModel, conn: Connection, ctx: CallContext, asking: bool) -> BaseModel:
    """User arguments given by name become ids, and so do tasks named by their requester; with `asking`, a
    person's unknown approver makes the graph ask."""
    values = args.model_dump()
    person_users = {v.param for v in spec.person_values if v.kind == "user"}
    changed = False
    for ref in spec.references:
        value = values.get(ref.param)
        if ref.kind == "task" and ref.resolve != "id" and value is not None:
            if ref.resolve == "requester":
                task: dict[str, Any] | None = policy.resolve_task(conn, value, ctx.actor_id, param=ref.param)
            else:
                task = policy.resolve_own_task(conn, value, ctx.actor_id, param=ref.param)
            resolved = policy.format_task_id(task["id"]) if task is not None else None
            if resolved != value:
                values[ref.param] = resolved
                changed = True
            continue
        if ref.kind != "user" or value is None:
            continue
        try:
            user = policy.resolve_user(conn, value, param=ref.param)
        except NotFoundError:
            if asking and ref.param in person_users:
                raise NeedsPersonError(
                    "unknown_user", f"{ref.param} {str(value)[:64]} is not a user; ask the user who should approve",
                    ask="approver", param=ref.param, choices=policy.approver_choices(conn, ctx.actor_id),
                    name=str(value)[:64],
                ) from None
            raise
        if user["id"] != value:
            values[ref.param] = user["id"]
            changed = True
    return spec.args_model.model_validate(values) if changed else args


def check_call(
    registry: ToolRegistry,
    name: str,
    raw_args: Any,
    ctx: CallContext,
    *,
    person: PersonWords | None = None,
) -> CheckedCall:
    """Everything that can be known before running a call, without side effects.

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
        policy.require_actor(conn, ctx.actor_id)
        if person is not None:
            policy.check_requested(spec.name, spec.intent, person.request)
            raw, stated_notes = _person_stated(spec, raw, person)
            for wanted in spec.person_values:
                if wanted.kind != "user" or raw.get(wanted.param) in (None, ""):
                    continue
                # The one person the user named is the approver, however the model spelled (or chose) it.
                named = policy.approver_named(conn, person.said, ctx.actor_id)
                if named is not None and named != raw[wanted.param]:
                    try:
                        chosen = policy.resolve_user(conn, raw[wanted.param], param=wanted.param)["id"]
                    except DomainError:
                        chosen = None
                    if chosen != named:
                        stated_notes.append(f"[person_stated] {wanted.param}: the user named {named}, not {raw[wanted.param]!r}")
                        raw[wanted.param] = named
            _ask_for_missing(spec, raw, conn, ctx.actor_id)
        args = spec.parse(raw)
        args = _resolve_users(spec, args, conn, ctx, asking=person is not None)
        values = args.model_dump()
        for param in spec.identity_params:
            policy.check_identity(ctx.actor_id, param, values.get(param))
        for ref in spec.references:
            value = values.get(ref.param)
            if value is not None and ref.kind != "user":
                policy.require_reference(conn, ref.kind, value, ref.param)
        notes = spec.precheck(conn, ctx, args) if spec.precheck else []
        notes += stated_notes
        if person is not None:
            for wanted in spec.person_values:
                value = values.get(wanted.param)
                if wanted.optional or wanted.kind == "decision":
                    continue  # shown on the card for the person's own decision
                if wanted.kind == "user":
                    policy.check_named_by_person(conn, wanted.param, value, person.said, actor_id=ctx.actor_id)
                elif wanted.kind == "days":
                    policy.check_days_said(conn, wanted.param, float(value or 0), person.said)
                else:
                    policy.check_text_said(wanted.param, str(value), person.said, ask=wanted.ask, shown=person.shown)
    return CheckedCall(spec=spec, args=args, notes=notes)


def execute_call(registry: ToolRegistry, name: str, raw_args: Any, ctx: CallContext) -> dict[str, Any]:
    """Run one tool call. Writes are atomic and idempotent on `ctx.idempotency_key`.

    A write whose key was already executed returns the recorded result and changes nothing. The
    handler re-checks the policy inside the same transaction as the effect, so a call approved
    earlier can still be refused if the store changed meanwhile.
    """
    spec = registry.get(name)
    args = spec.parse(spec.with_actor(spec.decode(raw_args), ctx.actor_id))
    if spec.effect is Effect.READ:
        with ctx.store.read() as conn:
            policy.require_actor(conn, ctx.actor_id)
            args = _resolve_users(spec, args, conn, ctx, asking=False)
            return spec.handler(conn, ctx, args)

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
            policy.require_actor(conn, ctx.actor_id)
            args = _resolve_users(spec, args, conn, ctx, asking=False)
            for param in spec.identity_params:
                policy.check_identity(ctx.actor_id, param, getattr(args, param))
            result = spec.handler(conn, ctx, args)
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
    if spec.name == "sendEmail" and ctx.mailer is not None:
        result = dict(result, status=ctx.mailer.deliver(ctx.store, int(result["emailId"])))
    return result


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
