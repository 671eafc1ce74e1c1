"""`urgeTask` (催办): a requester's reminder about their own pending request, written by the system, not by the model.

The e-mail names the requester, the request and how long its step has waited, so an approver never reads it as a
request of their own ("请尽快审批您的请假申请 req_3" was the model's). One urge per task and company day, enforced in
the write's transaction by a unique row per (task, day) in `urges`: a second the same day is refused, saying that the
next is possible tomorrow. `sendEmail` stays for free text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, date, datetime, timedelta
from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Connection, insert, select
from sqlalchemy.exc import IntegrityError

from tools.errors import CannotError, PolicyError
from tools.spec import CallContext, Found, Verdict
from tools.workflow.engine import Happened, TaskView, parse_task_id
from tools.workflow.languages import Letter, languages_of
from tools.workflow.lookup import ALL_USERS, engine_of, offered_to, require_task
from tools.workflow.notify import form_summary, mid_sentence, process_noun
from tools.workflow.request_lookup import require_request, resolve_request
from tools.workflow.request_words import CARD_LABELS
from tools.workflow.tables import SYSTEM_SENDER, outbox, urges
from tools.workflow.timeline import SHOWN_TIMEZONE, name_of

_TASK_ID = re.compile(r"^\s*task[_\-\s]?\d{1,12}\s*$", re.IGNORECASE)

LABELS = {
    "zh": {**{k: CARD_LABELS["zh"][k] for k in ("request", "process", "form", "step", "held_by")},
           "waited": "已等待", "recipient": "收件人", "text": "催办内容", "next": "接下来"},
    "en": {**{k: CARD_LABELS["en"][k] for k in ("request", "process", "form", "step", "held_by")},
           "waited": "waiting for", "recipient": "to", "text": "reminder", "next": "what happens next"},
}
"""The urge card's fields a person reads, in display order."""

REFUSALS = {
    "zh": {"urge_not_requester": "只有申请人本人可以催办自己的申请",
           "urge_too_soon": "今天已经催办过这个待办了，每个待办每天只能催办一次，明天可以再催",
           "urge_not_waiting": "这个申请现在没有在等审批人处理，无需催办"},
    "en": {"urge_not_requester": "only the requester can send a reminder about their own request",
           "urge_too_soon": "that task was already reminded today: one reminder per task a day, the next one tomorrow",
           "urge_not_waiting": "that request is not waiting for an approver, so there is nobody to remind"},
}
"""Why an urge was not sent, by refusal code."""


class UrgeTaskArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")
    requestId: str = Field(description="The request to urge: its id (req_3), a task id of it (task_2), or what the "
                           "user calls it (请假, my expense claim).")


def resolve_urged(conn: Connection, value: Any, actor_id: str, *, param: str, lang: str) -> dict[str, Any]:
    """The request an urge means: by a task id, that task's request; otherwise as every requester's tool reads it."""
    if _TASK_ID.match(str(value)):
        return require_request(conn, require_task(conn, str(value))["request_id"], param=param)
    return resolve_request(conn, value, actor_id, param=param, statuses=("running",), lang=lang)


def _now(conn: Connection) -> datetime:
    """Now, by the process engine's clock (a trial's clock in the evals)."""
    clock = getattr(engine_of(conn), "clock", None)
    return clock() if clock is not None else datetime.now(UTC)


def company_day(moment: datetime) -> str:
    """The company's date of a moment (Asia/Shanghai): the day an urge counts toward."""
    return moment.astimezone(SHOWN_TIMEZONE).date().isoformat()


def _day_after(day: str) -> str:
    return (datetime.fromisoformat(day) + timedelta(days=1)).date().isoformat()


def waited_words(since: str, now: datetime, lang: str) -> str:
    """How long a step has waited: 1 天 3 小时, 5 小时, 不到 1 小时; 1 day 3 hours, 5 hours, less than an hour."""
    try:
        span = now - datetime.fromisoformat(since)
    except ValueError:
        return ""
    days, hours = span.days, span.seconds // 3600
    parts = []
    if lang == "en":
        if days:
            parts.append(f"{days} day{'s' if days != 1 else ''}")
        if hours:
            parts.append(f"{hours} hour{'s' if hours != 1 else ''}")
        return " ".join(parts) or "less than an hour"
    if days:
        parts.append(f"{days} 天")
    if hours:
        parts.append(f"{hours} 小时")
    return " ".join(parts) or "不到 1 小时"


def _urged_today(conn: Connection, tasks: tuple[TaskView, ...], day: str) -> set[str]:
    numbers = [parse_task_id(t.id) for t in tasks]
    rows = conn.execute(select(urges.c.task_id).where(urges.c.task_id.in_(numbers), urges.c.day == day)).scalars()
    return {f"task_{n}" for n in rows}


def urge_entries(conn: Connection, rid: str) -> list[Happened]:
    """A request's urges as timeline entries (the step each reminded, who urged, when)."""
    rows = conn.execute(select(urges).where(urges.c.instance_id == rid).order_by(urges.c.id)).mappings().all()
    engine, entries = engine_of(conn), []
    for row in rows:
        task = engine.task(conn, f"task_{row['task_id']}")
        entries.append(Happened(kind="urged", user=row["requester_id"], at=row["at"], step=task.step,
                                step_en=task.step_en, task_id=task.id))
    return entries


def check_urge(conn: Connection, ctx: CallContext, args: UrgeTaskArgs, found: Found) -> Verdict:
    """Only the requester urges, only a request waiting for an approver, at most once a task and company day."""
    request = found["requestId"]
    rid, view = request["id"], request["view"]
    if request["requester"] != ctx.actor_id:
        raise PolicyError("urge_not_requester", f"{rid} is someone else's request; only its requester urges it")
    if view.status != "running" or not view.tasks:
        raise PolicyError("urge_not_waiting", f"{rid} is {request['status']}: no approver is waiting to be reminded; "
                          "tell the user where it stands (queryMyRequests)")
    day = company_day(_now(conn))
    due = tuple(t for t in view.tasks if t.id not in _urged_today(conn, view.tasks, day))
    if not due:  # told to the person as the code says it: a model had answered "I found nothing and changed nothing"
        after = date.fromisoformat(_day_after(day))
        raise CannotError("urge_too_soon", f"{rid} was already urged today ({day}); one urge per task a day: the next "
                          f"is possible on {after.isoformat()}", say={
                              "zh": f"今天已经催办过 {rid} 了：每个待办每天只能催办一次，"
                                    f"明天（{after.month}月{after.day}日）可以再催。",
                              "en": f"You already sent a reminder about {rid} today: one reminder per task a day, so the "
                                    f"next one can go tomorrow ({after.day} {after:%b})."})
    return Verdict(found={"urged": {"day": day, "tasks": [t.id for t in due]}})


def _mail(conn: Connection, request: dict[str, Any], task: TaskView, now: datetime,
          people: Mapping[str, Mapping[str, Any]], lang: str | None = None) -> tuple[str, str]:
    """The urge's subject and text in the recipient's language (`tools.workflow.languages`; both when it is not
    known): who urges, which request, which step, how long it has waited."""
    definition, rid = request["definition"], request["id"]
    zh_who, en_who = name_of(people, request["requester"], "zh"), name_of(people, request["requester"], "en")
    zh_what, en_what = form_summary(request["form"], definition, "zh"), form_summary(request["form"], definition, "en")
    zh = (f"{zh_who}催办：{zh_who}提交的{process_noun(definition, 'zh')} {rid}" + (f"（{zh_what}）" if zh_what else "")
          + f"在「{task.step}」这一步等待您处理，已等待{waited_words(task.created_at, now, 'zh')}（待办 {task.id}）。")
    en = (f"{en_who} asks you to look at the {process_noun(definition, 'en')} {rid} they filed"
          + (f" ({en_what})" if en_what else "") + f": it has waited {waited_words(task.created_at, now, 'en')} for "
          f"your decision at \"{task.step_en or task.step}\" (task {task.id}).")
    return Letter((f"{zh_who}催办", f"Reminder from {en_who}", f": {task.id}"), (zh, en)).written(lang)


def _recipients(conn: Connection, request: dict[str, Any], task: TaskView,
                people: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Who an urge of the task reaches: the people it is offered to, never the requester."""
    return [u for u in offered_to(conn, task) if u != request["requester"] and u in people]


def _shared_language(conn: Connection, users: list[str]) -> str | None:
    """The language all these people write in, or None (not all known, or not all the same)."""
    kept = languages_of(conn, users)
    found = {kept.get(u) for u in users}
    return found.pop() if len(found) == 1 else None


def urge_card(
    conn: Connection, args: dict[str, Any], lang: str = "zh", sources: Mapping[str, Mapping[str, Any]] | None = None
) -> dict[str, Any]:
    """Which request, where it waits and since when, who is reminded, the reminder's full text, and the daily limit."""
    request = require_request(conn, args["requestId"])
    definition, view = request["definition"], request["view"]
    people = {u["id"]: dict(u) for u in conn.execute(ALL_USERS).mappings()}
    now, sep = _now(conn), "、" if lang == "zh" else ", "
    tasks = view.tasks
    told = [name_of(people, u, lang) for u in dict.fromkeys(u for t in tasks for u in offered_to(conn, t))
            if u != request["requester"]]
    noun, what = process_noun(definition, lang), form_summary(request["form"], definition, lang)
    card: dict[str, Any] = {
        "summary": (f"Send a reminder about your {noun} {view.id}" + (f" ({what})" if what else "")) if lang == "en"
        else f"催办你的{noun} {view.id}" + (f"（{what}）" if what else ""),
        "request": view.id, "process": (definition.name_en or definition.name) if lang == "en" else definition.name,
        "form": what,
        "step": sep.join((t.step_en or t.step) if lang == "en" else t.step for t in tasks),
        "waited": sep.join(waited_words(t.created_at, now, lang) for t in tasks[:1]),
        "held_by": sep.join(told), "recipient": sep.join(told),
        "text": "\n".join(_mail(conn, request, t, now, people,
                                 _shared_language(conn, _recipients(conn, request, t, people)))[1] for t in tasks),
        "next": ("they get this reminder by e-mail; each task can be reminded once a day" if lang == "en"
                 else "对方会收到这封催办邮件；每个待办每天只能催办一次"),
    }
    names = LABELS["en" if lang == "en" else "zh"]
    return card | {"labels": {k: v for k, v in names.items() if card.get(k) not in (None, "") and k != "held_by"}}


def urge_task(conn: Connection, ctx: CallContext, args: UrgeTaskArgs, verdict: Verdict) -> dict[str, Any]:
    """One `urges` row per task (unique per task and day: a concurrent second urge fails its insert) and the e-mails to
    the people each task is offered to, in this transaction."""
    request, urged = verdict.found["requestId"], verdict.found["urged"]
    people = {u["id"]: dict(u) for u in conn.execute(ALL_USERS).mappings()}
    now, at = _now(conn), _now(conn).astimezone(UTC).isoformat(timespec="microseconds")
    notified: list[dict[str, Any]] = []
    for task in (t for t in request["view"].tasks if t.id in urged["tasks"]):
        try:
            conn.execute(insert(urges).values(task_id=parse_task_id(task.id), day=urged["day"],
                                              instance_id=request["id"], requester_id=ctx.actor_id, at=at))
        except IntegrityError:  # another urge of this task committed since the check: this one is the day's second
            raise PolicyError("urge_too_soon", f"{task.id} was urged a moment ago; the next urge is possible on "
                              f"{_day_after(urged['day'])}. Tell the user so") from None
        recipients = _recipients(conn, request, task, people)
        kept = languages_of(conn, recipients)
        for user in recipients:
            subject, body = _mail(conn, request, task, now, people, kept.get(user))
            row = conn.execute(insert(outbox).values(
                idempotency_key=f"{ctx.idempotency_key}#urge{len(notified) + 1}", thread_id=ctx.thread_id,
                sender_id=SYSTEM_SENDER, recipient_id=user, recipient_email=people[user]["email"], subject=subject,
                body=body, task_id=parse_task_id(task.id), status="queued", attempts=0, created_at=at))
            notified.append({"emailId": int(row.inserted_primary_key[0]), "to": user, "kind": "urge"})  # type: ignore[index]
    definition = request["definition"]
    return {
        "requestId": request["id"],
        "process": (definition.name_en or definition.name) if ctx.lang == "en" else definition.name,
        "tasks": urged["tasks"],
        "told": list(dict.fromkeys(name_of(people, n["to"], ctx.lang) for n in notified)),
        "waited": waited_words(min(t.created_at for t in request["view"].tasks), now, ctx.lang),
        "nextPossible": _day_after(urged["day"]),
        "notified": notified,
    }


def urged_line(result: dict[str, Any], lang: str) -> str:
    """What an urge did, in one line."""
    told = ("、" if lang == "zh" else ", ").join(result.get("told") or [])
    if lang == "en":
        return f"Sent {told} a reminder about your {mid_sentence(result['process'])} {result['requestId']} (waiting " \
               f"{result['waited']}); the next is possible tomorrow."
    return f"已催办{told}：你的{result['process'].removesuffix('流程')}申请 {result['requestId']}（已等待{result['waited']}）。" \
           "明天可以再催办。"
