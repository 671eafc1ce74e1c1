"""`returnTask` (退回): an approver sends a step's request back to its requester with a comment saying what to change,
instead of approving or rejecting it. Its check (the same holder rules as a decision), its card (the decision's card,
reused: the step, who asked, the values, the earlier decisions, then what sending it back does), and its effect: the
engine ends the step as returned and the request waits on its requester, who is told, in one transaction."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator
from sqlalchemy import Connection

from tools.errors import PolicyError
from tools.spec import CallContext, Found, Verdict
from tools.workflow.cards import decision_card, labels_for
from tools.workflow.engine import EngineError, groups_of
from tools.workflow.lookup import ALL_USERS, engine_of, require_task
from tools.workflow.notify import notify, process_noun
from tools.workflow.policy import MAX_REASON_CHARS, check_task_holder
from tools.workflow.timeline import name_of


class ReturnTaskArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")
    taskId: str = Field(description="The task: its requester's name (张三), or a taskId from queryTodoTask (task_1).")
    comment: str = Field(description="What the requester should change, in the user's words.")

    @field_validator("comment")
    @classmethod
    def _comment(cls, value: str) -> str:
        if len(value) > MAX_REASON_CHARS:
            raise ValueError(f"comment must be at most {MAX_REASON_CHARS} characters")
        if not value.strip():
            raise ValueError("comment must say what the requester should change; ask the user")
        return value.strip()


def check_return_task(conn: Connection, ctx: CallContext, args: ReturnTaskArgs, found: Found) -> Verdict:
    check_task_holder(ctx.actor_id, found["taskId"], conn)
    return Verdict()


def return_card(
    conn: Connection, args: dict[str, Any], lang: str = "zh", sources: Mapping[str, Mapping[str, Any]] | None = None
) -> dict[str, Any]:
    """The decision's card for the same step, saying what sending it back does instead of what approving does."""
    card = decision_card(conn, {"taskId": args["taskId"], "isOK": False, "result": args.get("comment", "")}, lang)
    task = require_task(conn, args["taskId"])
    people = {u["id"]: dict(u) for u in conn.execute(ALL_USERS).mappings()}
    who = name_of(people, task["requester"], lang)
    definition = engine_of(conn).definition(conn, task["process_key"], task["process_version"])
    noun = process_noun(definition, lang)
    for key in ("on_approve", "notes", "flagged"):
        card.pop(key, None)
    if lang == "en":
        card.update(summary=f"Send {who}'s {noun} {task['request_id']} back to them", verdict="send it back",
                    next=f"it goes back to {who}, who is told with your comment and can change it and send it again, "
                    "or withdraw it; this step is then gone from your list")
    else:
        card.update(summary=f"退回{who}的{noun} {task['request_id']}", verdict="退回",
                    next=f"退回后申请回到{who}手中，{who}会收到你的意见，可修改后重新提交或撤回；这个待办随之结束")
    card.update(decision="return", comment=args.get("comment", ""))
    return card | {"labels": labels_for(card, lang)}


def return_task(conn: Connection, ctx: CallContext, args: ReturnTaskArgs, verdict: Verdict) -> dict[str, Any]:
    task = verdict.found["taskId"]
    try:
        returned = engine_of(conn).return_task(conn, task["id"], user_id=ctx.actor_id, comment=args.comment,
                                               groups=groups_of(conn, ctx.actor_id))
    except EngineError as exc:
        code = {"task_not_offered": "not_assignee"}.get(exc.code, exc.code)
        raise PolicyError(code, exc.message) from None
    notified = notify(conn, ctx, returned.events)
    people = {u["id"]: dict(u) for u in conn.execute(ALL_USERS).mappings()}
    return {
        "taskId": task["id"],
        "requestId": returned.instance_id,
        "step": (returned.task.step_en or returned.task.step) if ctx.lang == "en" else returned.task.step,
        "status": "returned",
        "requester": name_of(people, task["requester"], ctx.lang),
        "comment": args.comment,
        "notified": notified,
    }


def returned_line(result: dict[str, Any], lang: str) -> str:
    if lang == "en":
        return (f"Sent {result['taskId']} ({result['requestId']}) back to {result['requester']} with your comment: "
                f"{result['comment']}. They are told and can change it and send it again.")
    return (f"已把 {result['taskId']}（{result['requestId']}）退回给{result['requester']}，意见：{result['comment']}。"
            f"{result['requester']}已收到通知，可修改后重新提交。")
