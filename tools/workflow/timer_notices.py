"""The people concerned by a step's timer are told: a reminder e-mails the step's holders, an escalation the people it
moved to and those who held it. Written in the timer's transaction (`TimerService`), so an e-mail exists exactly when
the firing does; its idempotency key is the timer's (`timer:<id>#n`), so a timer's e-mails are written once.

Like every notification (`tools.workflow.notify`), the text is in the recipient's language, or in both when it is not
known (`tools.workflow.languages`).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, insert

from tools.workflow.engine import Definition
from tools.workflow.engine.timers import TimerFired
from tools.workflow.languages import Letter, languages_of
from tools.workflow.lookup import ALL_USERS, engine_of
from tools.workflow.notify import form_summary, process_noun
from tools.workflow.store import SYSTEM_SENDER, outbox, utcnow
from tools.workflow.timeline import when

TIMER_THREAD = "timers"
"""The outbox's thread id for the timers' e-mails (they belong to no conversation)."""


def _what(fired: TimerFired, definition: Definition, people: dict[str, dict[str, Any]]) -> tuple[str, str]:
    requester = people.get(fired.requester, {"name": fired.requester, "alias": ""})
    zh = f"{requester['name']}的{process_noun(definition, 'zh')}（{form_summary(fired.form, definition, 'zh')}）"
    en = (f"{requester.get('alias') or requester['name']}'s {process_noun(definition, 'en')} "
          f"({form_summary(fired.form, definition, 'en')})")
    return zh, en


def _names(people: dict[str, dict[str, Any]], ids: tuple[str, ...], lang: str) -> str:
    found = [people.get(i, {"name": i, "alias": ""}) for i in ids]
    if lang == "en":
        return ", ".join(str(p.get("alias") or p["name"]) for p in found)
    return "、".join(str(p["name"]) for p in found)


def timer_mails(
    fired: TimerFired, definition: Definition, people: dict[str, dict[str, Any]]
) -> list[tuple[tuple[str, ...], Letter]]:
    """The e-mails a fired timer causes: (recipients, the letter) each; none for a due date."""
    moved_to = fired.moved_to
    zh, en = _what(fired, definition, people)
    step_en = fired.step_en or fired.step
    since_zh, since_en = when(fired.created_at, "zh"), when(fired.created_at, "en")
    tail = f": {fired.task_id}"
    if fired.action == "remind" or (fired.action == "escalate" and not fired.moved_to):
        return [(fired.holders, Letter(
            ("催办提醒", "Reminder", tail),
            (f"提醒：{zh}自 {since_zh} 起等待您审批，尚未处理（{fired.task_id}，步骤：{fired.step}）。请尽快处理。",
             f"Reminder: {en} has been waiting for your decision since {since_en} ({fired.task_id}, step: "
             f"{step_en}). Please decide it soon.")))]
    if fired.action != "escalate":
        return []
    held_zh, held_en = _names(people, fired.holders, "zh") or "审批人", _names(people, fired.holders, "en") or "the approver"
    mails = [(moved_to, Letter(
        ("超时转交", "Moved to you", tail),
        (f"{zh}在{held_zh}处自 {since_zh} 起未处理，已转给您审批（{fired.task_id}，步骤：{fired.step}）。",
         f"{en} waited for {held_en} since {since_en} and was not decided: it is now yours to decide "
         f"({fired.task_id}, step: {step_en}).")))]
    left = tuple(h for h in fired.holders if h not in moved_to)
    if left:
        to_zh, to_en = _names(people, moved_to, "zh") or "上级", _names(people, moved_to, "en") or "the next level"
        mails.append((left, Letter(
            ("已转交", "Moved on", tail),
            (f"您的待办 {fired.task_id}（{zh}）超时未处理，已转给{to_zh}审批，您无需再处理。",
             f"Your task {fired.task_id} ({en}) was not decided in time and moved to {to_en}; "
             "nothing more to do for you."))))
    return mails


def notify_fired(conn: Connection, fired: TimerFired) -> list[dict[str, Any]]:
    """Outbox rows for a fired timer, in its transaction (never to the requester): `{"emailId", "to", "kind"}` each."""
    people = {u["id"]: dict(u) for u in conn.execute(ALL_USERS).mappings()}
    definition = engine_of(conn).definition(conn, fired.process_key)
    written: list[dict[str, Any]] = []
    for recipients, letter in timer_mails(fired, definition, people):
        kept = languages_of(conn, recipients)
        for recipient in dict.fromkeys(recipients):
            if recipient == fired.requester or recipient not in people:
                continue
            subject, body = letter.written(kept.get(recipient))
            result = conn.execute(insert(outbox).values(
                idempotency_key=f"timer:{fired.timer_id}#{len(written) + 1}", thread_id=TIMER_THREAD,
                sender_id=SYSTEM_SENDER, recipient_id=recipient, recipient_email=people[recipient]["email"],
                subject=subject, body=body, task_id=int(fired.task_id.removeprefix("task_")), status="queued",
                attempts=0, created_at=utcnow(),
            ))
            written.append({"emailId": int(result.inserted_primary_key[0]),  # type: ignore[index]
                            "to": recipient, "kind": f"timer_{fired.action}"})
    return written
