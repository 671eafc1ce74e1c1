"""The people concerned are told: the engine's events (`TaskReady`, `InstanceEnded`) as outbox e-mails.

Written in the transaction that caused them (a request started, a step decided), so the e-mails exist exactly when the
instance's new state does; delivered after the commit when SMTP is configured (`deliver_all`), else they wait in the
outbox. They come from the system (`SYSTEM_SENDER`) and count toward no conversation's rate limit. The text is in
both languages (a recipient's language is not known): "张三的请假申请（10 天）等待您审批（task_2）".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, insert

from tools.spec import CallContext
from tools.workflow.engine import Definition, Event, InstanceEnded, TaskReady, members_of, parse_task_id
from tools.workflow.lookup import ALL_USERS, engine_of
from tools.workflow.store import SYSTEM_SENDER, outbox, utcnow


def _number(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def form_summary(form: dict[str, Any], definition: Definition, lang: str) -> str:
    """A request's form in a few words: its days, its amount, its dates (10 天; 6000 元; 2026-12-07 至 2026-12-09),
    else its first value."""
    parts = []
    for field in definition.fields:
        value = form.get(field.id)
        if value in (None, ""):
            continue
        if field.unit == "day":
            parts.append(f"{_number(value)} 天" if lang == "zh" else f"{_number(value)} day{'s' if value != 1 else ''}")
        elif field.unit == "yuan":
            parts.append(f"{_number(value)} 元" if lang == "zh" else f"{_number(value)} yuan")
        elif field.type == "date" and field.not_before and form.get(field.not_before):
            parts.append(f"{form[field.not_before]} 至 {value}" if lang == "zh" else f"{form[field.not_before]} to {value}")
        elif field.type == "string" and field.id != "reason" and not parts and field.required:
            parts.append(str(value)[:40])
    if not parts:
        first = next((form[f.id] for f in definition.fields if form.get(f.id) not in (None, "")), None)
        return "" if first is None else _number(first)[:40]
    return "，".join(parts) if lang == "zh" else ", ".join(parts)


def process_noun(definition: Definition, lang: str) -> str:
    """What a request of the process is called: 请假申请 (请假流程), "leave request" (Leave request)."""
    if lang == "en":
        name = definition.name_en or definition.name
        return name[:1].lower() + name[1:] if name[:2] != name[:2].upper() else name
    return definition.name.removesuffix("流程").removesuffix("申请") + "申请"


def _users(conn: Connection) -> dict[str, dict[str, Any]]:
    return {u["id"]: dict(u) for u in conn.execute(ALL_USERS).mappings()}


def notify(conn: Connection, ctx: CallContext, events: Sequence[Event]) -> list[dict[str, Any]]:
    """Outbox rows for the events, in the caller's transaction: each new task's assignees (the members of its groups
    too, never the requester), and the requester of an ended request. Returns `{"emailId", "to", "kind"}` each."""
    people = _users(conn)
    engine = engine_of(conn)
    written: list[dict[str, Any]] = []
    for event in events:
        definition = engine.definition(conn, event.process_key)
        requester = people.get(event.requester, {"id": event.requester, "name": event.requester, "alias": ""})
        zh_what = f"{process_noun(definition, 'zh')}（{form_summary(event.form, definition, 'zh')}）"
        en_what = f"{process_noun(definition, 'en')} ({form_summary(event.form, definition, 'en')})"
        if isinstance(event, TaskReady):
            recipients = list(event.assignees)
            for group in event.candidate_groups:
                recipients += members_of(conn, group)
            en_name = requester.get("alias") or requester["name"]
            subject = f"[flowagent] 待审批 / Waiting for your decision: {event.task_id}"
            body = (
                f"{requester['name']}的{zh_what}等待您审批（{event.task_id}）。步骤：{event.step}。\n"
                f"{en_name}'s {en_what} is waiting for your decision ({event.task_id}). Step: {event.step_en or event.step}."
            )
            task_id: int | None = parse_task_id(event.task_id)
            kind = "task_ready"
            to = [r for r in dict.fromkeys(recipients) if r != event.requester and r in people]
        elif isinstance(event, InstanceEnded):
            zh_outcome = {"approved": "已批准", "rejected": "已驳回"}.get(event.outcome, "已结束")
            en_outcome = {"approved": "was approved", "rejected": "was rejected"}.get(event.outcome, "has ended")
            subject = f"[flowagent] {zh_outcome} / Your request {en_outcome.split()[-1]}: {event.instance_id}"
            body = (
                f"您的{zh_what}{zh_outcome}（{event.instance_id}）。\n"
                f"Your {en_what} {en_outcome} ({event.instance_id})."
            )
            task_id, kind = None, "instance_ended"
            to = [event.requester] if event.requester in people else []
        else:  # pragma: no cover - the engine's events are these two
            continue
        for recipient in to:
            key = f"{ctx.idempotency_key}#{len(written) + 1}"
            result = conn.execute(
                insert(outbox).values(
                    idempotency_key=key, thread_id=ctx.thread_id, sender_id=SYSTEM_SENDER, recipient_id=recipient,
                    recipient_email=people[recipient]["email"], subject=subject, body=body, task_id=task_id,
                    status="queued", attempts=0, created_at=utcnow(),
                )
            )
            written.append({"emailId": int(result.inserted_primary_key[0]), "to": recipient, "kind": kind})  # type: ignore[index]
    return written


def deliver_all(ctx: CallContext, result: dict[str, Any]) -> dict[str, Any]:
    """After the commit: deliver the notifications a write queued, when a mailer is configured."""
    from tools.workflow.mailer import Mailer
    from tools.workflow.store import WorkflowStore

    mailer: Mailer | None = ctx.deps
    emails = result.get("notified") or []
    if mailer is None or not emails:
        return result
    assert isinstance(ctx.backend, WorkflowStore)
    delivered = [dict(e, status=mailer.deliver(ctx.backend, int(e["emailId"]))) for e in emails]
    return dict(result, notified=delivered)
