"""Checking and executing tool calls: one transaction per call, idempotent writes, policy on every path."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel
from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError

from tools import policy
from tools.errors import PolicyError
from tools.spec import Effect, ToolRegistry, ToolSpec
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

    @property
    def idempotency_key(self) -> str:
        return f"{self.thread_id}:{self.call_id}"


@dataclass(frozen=True)
class CheckedCall:
    """A call that passed schema, reference, identity and policy checks (for now: the store can change)."""

    spec: ToolSpec
    args: BaseModel
    notes: list[str]


def check_call(
    registry: ToolRegistry, name: str, raw_args: Any, ctx: CallContext, *, person_said: list[str] | None = None
) -> CheckedCall:
    """Everything that can be known before running a call, without side effects.

    `person_said` is what the person wrote in the conversation; when given, the users a tool requires the
    person to name (the approver) must appear in it. Raises `DomainError` (unknown tool, bad arguments,
    unknown ids, wrong identity, an approver the person never named, policy refusal).
    """
    spec = registry.get(name)
    args = spec.parse(raw_args)
    values = args.model_dump()
    with ctx.store.read() as conn:
        policy.require_actor(conn, ctx.actor_id)
        for param in spec.identity_params:
            policy.check_identity(ctx.actor_id, param, values.get(param))
        for ref in spec.references:
            value = values.get(ref.param)
            if value is not None:
                policy.require_reference(conn, ref.kind, value, ref.param)
        notes = spec.precheck(conn, ctx, args) if spec.precheck else []
        if person_said is not None:
            for param in spec.person_named:
                if values.get(param) is not None:
                    policy.check_named_by_person(conn, param, values[param], person_said)
    return CheckedCall(spec=spec, args=args, notes=notes)


def execute_call(registry: ToolRegistry, name: str, raw_args: Any, ctx: CallContext) -> dict[str, Any]:
    """Run one tool call. Writes are atomic and idempotent on `ctx.idempotency_key`.

    A write whose key was already executed returns the recorded result and changes nothing. The
    handler re-checks the policy inside the same transaction as the effect, so a call approved
    earlier can still be refused if the store changed meanwhile.
    """
    spec = registry.get(name)
    args = spec.parse(raw_args)
    if spec.effect is Effect.READ:
        with ctx.store.read() as conn:
            policy.require_actor(conn, ctx.actor_id)
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
