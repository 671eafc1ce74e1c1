"""The people concerned are told: the engine's events (`TaskReady`, `InstanceEnded`, `RequestReturned`,
`TaskWithdrawn`) as outbox e-mails.

Written in the transaction that caused them (a request started, a step decided), so the e-mails exist exactly when the
instance's new state does; delivered after the commit when SMTP is configured (`deliver_all`), else they wait in the
outbox. They come from the system (`SYSTEM_SENDER`) and count toward no conversation's rate limit. The text is in
the language its recipient last wrote to the assistant in, or in both when they never did (`tools.workflow.languages`):
"张三的请假申请（10 天）等待您审批（task_2）".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import Connection, insert, select

from tools.spec import CallContext
from tools.workflow.deputies import route_to_deputies
from tools.workflow.ended import request_ended
from tools.workflow.engine import (
    AnyEvent,
    Definition,
    InstanceEnded,
    RequestReturned,
    TaskReady,
    TaskWithdrawn,
    members_of,
    parse_task_id,
)
from tools.workflow.engine.moves import on_behalf_of
from tools.workflow.languages import Letter, languages_of
from tools.workflow.lookup import ALL_USERS, engine_of
from tools.workflow.store import SYSTEM_SENDER, outbox, utcnow
from tools.workflow.tables import request_cc
from tools.workflow.timeline import name_of


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


def mid_sentence(name: str) -> str:
    """An English name as it reads inside a sentence: "leave request" for "Leave request", "HR" kept."""
    return name[:1].lower() + name[1:] if name[:2] != name[:2].upper() else name


def process_noun(definition: Definition, lang: str) -> str:
    """What a request of the process is called: 请假申请 (请假流程), "leave request" (Leave request)."""
    return noun_of(definition.name, definition.name_en, lang)


def noun_of(name: str, name_en: str, lang: str) -> str:
    """`process_noun` from the process's names (a task's view carries them, not its definition)."""
    if lang == "en":
        return mid_sentence(name_en or name)
    return name.removesuffix("流程").removesuffix("申请") + "申请"


def _users(conn: Connection) -> dict[str, dict[str, Any]]:
    return {u["id"]: dict(u) for u in conn.execute(ALL_USERS).mappings()}


@dataclass(frozen=True)
class _Mail:
    """One e-mail an event causes: to whom, about what (`Letter`: subject and text by language), and its kind (for
    the result)."""

    to: list[str]
    letter: Letter
    task_id: int | None
    kind: str


def _mail(conn: Connection, event: AnyEvent, definition: Definition, people: dict[str, dict[str, Any]]) -> _Mail | None:
    """The e-mail an event causes (None: nobody is told: a requester who withdrew their own request knows)."""
    requester = people.get(event.requester, {"id": event.requester, "name": event.requester, "alias": ""})
    en_name = requester.get("alias") or requester["name"]
    zh_what = f"{process_noun(definition, 'zh')}（{form_summary(event.form, definition, 'zh')}）"
    en_what = f"{process_noun(definition, 'en')} ({form_summary(event.form, definition, 'en')})"
    if isinstance(event, TaskReady | TaskWithdrawn):
        recipients = list(event.assignees)
        for group in event.candidate_groups:
            recipients += members_of(conn, group)
        to = [r for r in dict.fromkeys(recipients) if r != event.requester and r in people]
        if isinstance(event, TaskWithdrawn):
            return _Mail(to, Letter(("已撤回", "Withdrawn", f": {event.task_id}"),
                         (f"{requester['name']}撤回了{zh_what}，您的待办 {event.task_id}（{event.step}）已取消，无需处理。",
                          f"{en_name} withdrew their {en_what}: your task {event.task_id} "
                          f"({event.step_en or event.step}) is gone, nothing to do.")),
                         parse_task_id(event.task_id), "task_withdrawn")
        return _Mail(to, Letter(("待审批", "Waiting for your decision", f": {event.task_id}"),
                     (f"{requester['name']}的{zh_what}等待您审批（{event.task_id}）。步骤：{event.step}。",
                      f"{en_name}'s {en_what} is waiting for your decision ({event.task_id}). Step: "
                      f"{event.step_en or event.step}.")), parse_task_id(event.task_id), "task_ready")
    to = [event.requester] if event.requester in people else []
    if isinstance(event, RequestReturned):
        by = people.get(event.user, {"name": event.user, "alias": ""})
        return _Mail(to, Letter(("已退回", "Sent back to you", f": {event.instance_id}"),
                     (f"您的{zh_what}被{by['name']}退回（{event.instance_id}），意见：{event.comment}。请修改后重新提交，或撤回。",
                      f"Your {en_what} was sent back to you by {by.get('alias') or by['name']} ({event.instance_id}): "
                      f"{event.comment}. Change it and send it again, or withdraw it.")), None, "request_returned")
    if event.outcome == "withdrawn":
        return None
    zh_outcome = {"approved": "已批准", "rejected": "已驳回"}.get(event.outcome, "已结束")
    en_outcome = {"approved": "was approved", "rejected": "was rejected"}.get(event.outcome, "has ended")
    return _Mail(to, Letter((zh_outcome, f"Your request {en_outcome.split()[-1]}", f": {event.instance_id}"),
                 (f"您的{zh_what}{zh_outcome}（{event.instance_id}）。", f"Your {en_what} {en_outcome} ({event.instance_id}).")),
                 None, "instance_ended")


CC_ENDS = {"approved": ("已批准", "was approved"), "rejected": ("已驳回", "was rejected"),
           "withdrawn": ("已被申请人撤回", "was withdrawn by its requester")}
"""A request's end as the people it is copied to read it."""


def _tell_copied(conn: Connection, ctx: CallContext, event: InstanceEnded, definition: Definition,
                 people: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """The people a request is copied to (抄送, `tools.workflow.cc`) are told how it ended."""
    rows = conn.execute(select(request_cc.c.user_id).where(request_cc.c.instance_id == event.instance_id))
    copied = [u for u in rows.scalars() if u in people]
    zh, en = CC_ENDS.get(event.outcome, ("已结束", "has ended"))
    rid, who = event.instance_id, people.get(event.requester, {"name": event.requester, "alias": ""})
    summary = {lang: form_summary(event.form, definition, lang) for lang in ("zh", "en")}
    letter = Letter((f"抄送：{rid} {zh}", f"Copied to you: {rid} {en}", ""), (
        f"抄送给您的{who['name']}的{process_noun(definition, 'zh')}（{summary['zh'] + '，' if summary['zh'] else ''}"
        f"{rid}）{zh}。",
        f"{who.get('alias') or who['name']}'s {process_noun(definition, 'en')} "
        f"({summary['en'] + ', ' if summary['en'] else ''}{rid}), copied to you, {en}."))
    written: list[dict[str, Any]] = []
    kept = languages_of(conn, copied)
    for user in copied:
        subject, body = letter.written(kept.get(user))
        row = conn.execute(insert(outbox).values(
            idempotency_key=f"{ctx.idempotency_key}#cc_ended{len(written) + 1}", thread_id=ctx.thread_id,
            sender_id=SYSTEM_SENDER, recipient_id=user, recipient_email=people[user]["email"],
            subject=subject, body=body, task_id=None, status="queued",
            attempts=0, created_at=utcnow()))
        written.append({"emailId": int(row.inserted_primary_key[0]), "to": user, "kind": "cc_ended"})  # type: ignore[index]
    return written


def notify(conn: Connection, ctx: CallContext, events: Sequence[AnyEvent]) -> list[dict[str, Any]]:
    """Outbox rows for the events, in the caller's transaction: each new task's assignees (the members of its groups
    too, never the requester); the people a withdrawn request's steps were offered to; the requester of a request
    sent back to them or ended. Returns `{"emailId", "to", "kind"}` each. A request's end also reaches the toolset's
    other rules here (`tools.workflow.ended.request_ended`), so whatever follows a rejection follows a withdrawal."""
    people = _users(conn)
    engine = engine_of(conn)
    events = route_to_deputies(conn, events, ctx.today)  # a step to someone away goes to their deputy
    behalf = on_behalf_of(conn, [parse_task_id(e.task_id) for e in events if isinstance(e, TaskReady)])
    written: list[dict[str, Any]] = []
    for event in events:
        if isinstance(event, InstanceEnded):
            request_ended(conn, event.instance_id, event.outcome)
            written += _tell_copied(conn, ctx, event, engine.definition(conn, event.process_key), people)
        mail = _mail(conn, event, engine.definition(conn, event.process_key), people)
        away = behalf.get(parse_task_id(event.task_id)) if isinstance(event, TaskReady) else None
        if mail is not None and away is not None:
            zh, en = mail.letter.body
            mail = replace(mail, letter=replace(mail.letter, body=(f"{zh}\n（代{name_of(people, away, 'zh')}审批）",
                                                                   f"{en}\n(on behalf of {name_of(people, away, 'en')})")))
        kept = languages_of(conn, mail.to) if mail is not None else {}
        for recipient in mail.to if mail is not None else []:
            assert mail is not None
            key = f"{ctx.idempotency_key}#{len(written) + 1}"
            subject, body = mail.letter.written(kept.get(recipient))
            result = conn.execute(
                insert(outbox).values(
                    idempotency_key=key, thread_id=ctx.thread_id, sender_id=SYSTEM_SENDER, recipient_id=recipient,
                    recipient_email=people[recipient]["email"], subject=subject, body=body,
                    task_id=mail.task_id, status="queued", attempts=0, created_at=utcnow(),
                )
            )
            written.append({"emailId": int(result.inserted_primary_key[0]), "to": recipient, "kind": mail.kind})  # type: ignore[index]
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
