"""`transferTask` (转交): one who holds a waiting step passes it to a colleague, with a comment. Its check (the holder
rules of a decision; never to the request's requester; a group's step stays in its groups unless its process says
`transferOutsideGroup`), its card (who from, who to, the request, the comment, what follows), and its effect: the
engine moves the step (compare-and-set on its holders, recorded for the timeline) and the new holder is e-mailed, in
one transaction."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator
from sqlalchemy import Connection, insert

from tools.errors import NeedsPersonError, PolicyError
from tools.spec import CallContext, Found, Verdict
from tools.workflow.engine import EngineError, members_of
from tools.workflow.engine.moves import outside_group_allowed
from tools.workflow.languages import Letter, languages_of
from tools.workflow.lookup import ALL_USERS, MAX_CHOICES, display_name, engine_of, group_label, require_task
from tools.workflow.notify import form_summary, process_noun
from tools.workflow.policy import MAX_REASON_CHARS, check_task_holder
from tools.workflow.store import SYSTEM_SENDER, outbox, utcnow
from tools.workflow.timeline import name_of

LABELS = {
    "zh": {"process": "流程", "request": "申请", "requester": "申请人", "step": "当前步骤", "from": "转交人",
           "to": "转给", "comment": "附言", "next": "接下来"},
    "en": {"process": "process", "request": "request", "requester": "requester", "step": "step", "from": "from",
           "to": "to", "comment": "comment", "next": "what happens next"},
}
"""The transfer card's fields a person reads, in display order."""


class TransferTaskArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")
    taskId: str = Field(description="The task: its requester's name (张三), or a taskId from queryTodoTask (task_1).")
    nextUserId: str = Field(description="Who takes the task over: the name or userId the user gave.")
    comment: str = Field(default="", description="A note for the new holder, in the user's words (may be empty).")

    @field_validator("comment")
    @classmethod
    def _comment(cls, value: str) -> str:
        if len(value) > MAX_REASON_CHARS:
            raise ValueError(f"comment must be at most {MAX_REASON_CHARS} characters")
        return value.strip()


def check_transfer(conn: Connection, ctx: CallContext, task: dict[str, Any], target: dict[str, Any]) -> None:
    """A step is passed on only by one who may decide it, while it waits; never to its request's requester; a group's
    step only to a member of its groups unless its process allows more. One who names nobody to take it (the model
    put the approver themself: "帮我转出去") is asked who, among those who may."""
    groups = _groups(conn, task)
    outside_allowed = bool(groups) and task["status"] == "ready" and outside_group_allowed(conn, task["id"])
    check_task_holder(ctx.actor_id, task, conn)
    tid, to = task["id"], target["id"]
    if to == task["requester"]:  # said so, or the model's pick where the person said "someone else": asked who
        raise NeedsPersonError(
            "transfer_to_requester", f"{tid} belongs to {to}'s own request; a requester never decides any step of it, "
            "so it cannot be passed to them; the user is asked who should take it instead",
            ask="transfer_to_requester", param="nextUserId", name=display_name(target, ctx.lang),
            choices=_takers(conn, ctx, task, groups, outside_allowed),
        )
    if to == ctx.actor_id:
        raise NeedsPersonError(
            "transfer_to_self", f"{tid} is already the user's; ask them which colleague should take it over",
            ask="transfer_to", param="nextUserId", choices=_takers(conn, ctx, task, groups, outside_allowed),
        )
    if groups and not outside_allowed and not any(to in members for members in groups.values()):
        raise PolicyError("transfer_outside_group", f"{tid} is a task of group {', '.join(groups)}; its process passes it "
                          "only to a member of that group; ask the user for a member")


def _groups(conn: Connection, task: dict[str, Any]) -> dict[str, list[str]]:
    return {g: members_of(conn, g) for g in task["candidate_groups"]}


def check_transfer_task(conn: Connection, ctx: CallContext, args: TransferTaskArgs, found: Found) -> Verdict:
    check_transfer(conn, ctx, found["taskId"], found["nextUserId"])
    return Verdict()


def _takers(conn: Connection, ctx: CallContext, task: dict[str, Any], groups: dict[str, list[str]],
            outside_allowed: bool) -> tuple[str, ...]:
    """Who may take the task over, as the reader writes names (at most `MAX_CHOICES`): not its requester nor the one
    passing it; a group's task only a member of its groups, unless its process allows more."""
    members = {m for group in groups.values() for m in group}
    names = [
        display_name(u, ctx.lang) for u in conn.execute(ALL_USERS).mappings()
        if u["id"] not in (ctx.actor_id, task["requester"]) and (not members or outside_allowed or u["id"] in members)
    ]
    return tuple(names[:MAX_CHOICES]) + (("…",) if len(names) > MAX_CHOICES else ())


def _what(conn: Connection, task: dict[str, Any], people: dict[str, dict[str, Any]], lang: str) -> tuple[str, str]:
    """The request in a few words (张三的请假申请 req_1（2 天）) and the process's name."""
    definition = engine_of(conn).definition(conn, task["process_key"], task["process_version"])
    summary = form_summary(task["form"], definition, lang)
    who = name_of(people, task["requester"], lang)
    if lang == "en":
        what = f"{who}'s {process_noun(definition, lang)} {task['request_id']}" + (f" ({summary})" if summary else "")
        return what, definition.name_en or definition.name
    return f"{who}的{process_noun(definition, lang)} {task['request_id']}" + (f"（{summary}）" if summary else ""), \
        definition.name


def _held_by(conn: Connection, task: dict[str, Any], people: dict[str, dict[str, Any]], lang: str) -> str:
    names = [name_of(people, u, lang) for u in ([task["assignee"]] if task["assignee"] else [])
             + list(task["candidate_users"])]
    names += [group_label(conn, g, lang) for g in task["candidate_groups"]]
    return ("、" if lang == "zh" else ", ").join(names)


def transfer_card(
    conn: Connection, args: dict[str, Any], lang: str = "zh", sources: Mapping[str, Mapping[str, Any]] | None = None
) -> dict[str, Any]:
    """Who passes which request on, to whom, with what comment, and what follows; from the store."""
    task = require_task(conn, args["taskId"])
    people = {u["id"]: dict(u) for u in conn.execute(ALL_USERS).mappings()}
    what, process = _what(conn, task, people, lang)
    to = name_of(people, str(args.get("nextUserId", "")), lang)
    step = (task["step_en"] or task["step"]) if lang == "en" else task["step"]
    card: dict[str, Any] = {"task": task["id"], "request": what, "process": process,
                            "requester": name_of(people, task["requester"], lang), "step": step,
                            "from": _held_by(conn, task, people, lang), "to": to,
                            "comment": args.get("comment", "")}
    if lang == "en":
        card.update(summary=f"Pass {what} on to {to}",
                    next=f"{to} decides it from now on and is told by e-mail; it leaves your to-do list, and the "
                    "request's timeline shows who passed it on")
    else:
        card.update(summary=f"把{what}转交给{to}审批",
                    next=f"转交后由{to}审批，{to}会收到邮件通知；这个待办从你的列表中移走，申请的进度里会记下转交")
    names = LABELS["en" if lang == "en" else "zh"]
    return card | {"labels": {k: v for k, v in names.items() if card.get(k)}}


def _tell(conn: Connection, ctx: CallContext, task: dict[str, Any], to: str, people: dict[str, dict[str, Any]],
          comment: str) -> list[dict[str, Any]]:
    """The e-mail to the new holder, in their language (both when it is not known: `tools.workflow.languages`)."""
    if to not in people:
        return []
    zh, _ = _what(conn, task, people, "zh")
    en, _ = _what(conn, task, people, "en")
    by_zh, by_en = name_of(people, ctx.actor_id, "zh"), name_of(people, ctx.actor_id, "en")
    letter = Letter(("转交给您", "Passed on to you", f": {task['id']}"), (
        f"{by_zh}把{zh}转交给您审批（{task['id']}，步骤：{task['step']}）" + (f"，附言：{comment}" if comment else "") + "。",
        f"{by_en} passed {en} on to you to decide ({task['id']}, step: {task['step_en'] or task['step']})"
        + (f": {comment}" if comment else "") + "."))
    subject, body = letter.written(languages_of(conn, [to]).get(to))
    result = conn.execute(insert(outbox).values(
        idempotency_key=f"{ctx.idempotency_key}#1", thread_id=ctx.thread_id, sender_id=SYSTEM_SENDER, recipient_id=to,
        recipient_email=people[to]["email"], subject=subject,
        body=body, task_id=int(task["id"].removeprefix("task_")), status="queued", attempts=0, created_at=utcnow(),
    ))
    return [{"emailId": int(result.inserted_primary_key[0]), "to": to, "kind": "task_transferred"}]  # type: ignore[index]


def transfer_task(conn: Connection, ctx: CallContext, args: TransferTaskArgs, verdict: Verdict) -> dict[str, Any]:
    task, target = verdict.found["taskId"], verdict.found["nextUserId"]
    try:
        engine_of(conn).move_task(conn, task["id"], to_users=[target["id"]], kind="transferred",
                                  from_user=ctx.actor_id, by=ctx.actor_id, comment=args.comment)
    except EngineError as exc:
        raise PolicyError(exc.code, exc.message) from None
    people = {u["id"]: dict(u) for u in conn.execute(ALL_USERS).mappings()}
    return {
        "taskId": task["id"], "requestId": task["request_id"],
        "requester": name_of(people, task["requester"], ctx.lang), "to": name_of(people, target["id"], ctx.lang),
        "status": "transferred", "comment": args.comment,
        "notified": _tell(conn, ctx, task, target["id"], people, args.comment),
    }


def transferred_line(result: dict[str, Any], lang: str) -> str:
    if lang == "en":
        return (f"Passed {result['requester']}'s request {result['requestId']} on to {result['to']}, who is told by "
                "e-mail.")
    return f"已把{result['requester']}的申请 {result['requestId']} 转交给{result['to']}审批，{result['to']}已收到通知。"
