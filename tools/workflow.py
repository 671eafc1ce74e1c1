"""The six tools of the seed's leave-approval system: argument models, policy prechecks and handlers."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator
from sqlalchemy import Connection, CursorResult, bindparam, insert, select, update

from tools import policy
from tools.errors import PolicyError
from tools.runtime import CallContext
from tools.spec import Effect, Reference, ToolRegistry, ToolSpec
from tools.store import outbox as outbox_table
from tools.store import processes, requests, tasks, users, utcnow

TODO_LIST_LIMIT = 50


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NoArgs(_Args):
    """No parameters."""


class RunWorkFlowArgs(_Args):
    processKey: str = Field(description="The process to start; get it from getAllWorkFlow (e.g. process_qingjia).")
    userId: str = Field(description="The requester: always the signed-in user's id, never anyone else's.")
    reason: str = Field(description="Why, in the user's own words; ask the user if they did not say.")
    days: float = Field(description=f"Days of leave: {policy.DAYS_HINT}. Ask the user if unclear.")
    nextUserId: str = Field(
        description="The approver's userId, from getAllUser. The user must name the approver; never choose one."
    )

    @field_validator("days", mode="before")
    @classmethod
    def _days(cls, value: Any) -> float:
        return policy.parse_days(value)

    @field_validator("reason")
    @classmethod
    def _reason(cls, value: str) -> str:
        return policy.check_reason(value)


class QueryTodoTaskArgs(_Args):
    userId: str = Field(description="Whose to-do list to read: a userId from getAllUser (the user's own by default).")


class HandleTodoTaskArgs(_Args):
    taskId: str = Field(description="The task to decide; get it from queryTodoTask (e.g. task_1).")
    result: str = Field(
        default="",
        description="The approver's decision comment, in their words; required for requests over 1 day.",
    )
    isOK: bool = Field(description="true to approve, false to reject, as the approver said.")

    @field_validator("result")
    @classmethod
    def _result(cls, value: str) -> str:
        if len(value) > policy.MAX_REASON_CHARS:
            raise ValueError(f"result must be at most {policy.MAX_REASON_CHARS} characters")
        return value.strip()


class SendEmailArgs(_Args):
    userId: str | None = Field(default=None, description="The recipient's userId, from getAllUser.")
    taskId: str | None = Field(
        default=None,
        description="A task to remind about, from queryTodoTask; the e-mail goes to that task's assignee.",
    )
    emailContent: str = Field(
        description="The full text of the e-mail, written out; never a placeholder. Ask the user if unsure."
    )

    @field_validator("emailContent")
    @classmethod
    def _content(cls, value: str) -> str:
        return policy.check_email_content(value)


def _new_id(result: CursorResult[Any]) -> int:
    """The primary key of the row an INSERT just created."""
    key = result.inserted_primary_key
    if key is None:  # pragma: no cover - every table here has an integer primary key
        raise RuntimeError("INSERT returned no primary key")
    return int(key[0])


# ---------------------------------------------------------------- reads


def get_all_workflows(conn: Connection, ctx: CallContext, args: NoArgs) -> dict[str, Any]:
    rows = conn.execute(select(processes).order_by(processes.c.key)).mappings().all()
    return {
        "workflows": [
            {"processKey": r["key"], "name": r["name"], "description": r["description"], "startable": r["startable"]}
            for r in rows
        ]
    }


def get_all_users(conn: Connection, ctx: CallContext, args: NoArgs) -> dict[str, Any]:
    rows = conn.execute(select(users).order_by(users.c.id)).mappings().all()
    return {"users": [{"userId": r["id"], "name": r["name"], "email": r["email"]} for r in rows]}


_requester = users.alias("requester")
TODO_QUERY = (
    select(
        tasks.c.id,
        tasks.c.created_at,
        requests.c.id.label("request_id"),
        requests.c.process_key,
        requests.c.days,
        requests.c.reason,
        requests.c.requester_id,
        _requester.c.name.label("requester_name"),
    )
    .join(requests, requests.c.id == tasks.c.request_id)
    .join(_requester, _requester.c.id == requests.c.requester_id)
    .where(tasks.c.assignee_id == bindparam("owner"), tasks.c.status == "pending")
    .order_by(tasks.c.id)
)
"""A user's pending tasks with their requests, built once (building it cost more than running it)."""


def query_todo_tasks(conn: Connection, ctx: CallContext, args: QueryTodoTaskArgs) -> dict[str, Any]:
    owner = policy.require_user(conn, args.userId)
    rows = conn.execute(TODO_QUERY, {"owner": owner["id"]}).mappings().all()
    items = [
        {
            "taskId": policy.format_task_id(r["id"]),
            "requestId": policy.format_request_id(r["request_id"]),
            "processKey": r["process_key"],
            "requester": r["requester_id"],
            "requesterName": r["requester_name"],
            "days": r["days"],
            "reason": r["reason"],
            "createdAt": r["created_at"],
        }
        for r in rows
    ]
    return {"userId": owner["id"], "name": owner["name"], "total": len(items), "tasks": items[:TODO_LIST_LIMIT]}


# ---------------------------------------------------------------- writes


def precheck_run_workflow(conn: Connection, ctx: CallContext, args: RunWorkFlowArgs) -> list[str]:
    return policy.check_start_request(
        conn,
        ctx.actor_id,
        process_key=args.processKey,
        user_id=args.userId,
        next_user_id=args.nextUserId,
        days=args.days,
        reason=args.reason,
    )


def run_workflow(conn: Connection, ctx: CallContext, args: RunWorkFlowArgs) -> dict[str, Any]:
    notes = precheck_run_workflow(conn, ctx, args)
    now = utcnow()
    flagged = args.days > policy.COMMENT_REQUIRED_OVER_DAYS
    request_id = _new_id(
        conn.execute(
            insert(requests).values(
                process_key=args.processKey,
                requester_id=ctx.actor_id,
                reason=args.reason,
                days=args.days,
                status="pending",
                flagged=flagged,
                created_at=now,
            )
        )
    )
    task_id = _new_id(
        conn.execute(insert(tasks).values(request_id=request_id, assignee_id=args.nextUserId, status="pending", created_at=now))
    )
    approver = policy.require_user(conn, args.nextUserId)
    return {
        "requestId": policy.format_request_id(request_id),
        "taskId": policy.format_task_id(task_id),
        "status": "pending",
        "assignee": approver["id"],
        "assigneeName": approver["name"],
        "days": args.days,
        "flagged": flagged,
        "notes": notes,
    }


def precheck_handle_task(conn: Connection, ctx: CallContext, args: HandleTodoTaskArgs) -> list[str]:
    return policy.check_decide_task(conn, ctx.actor_id, task_id=args.taskId, comment=args.result)[2]


def handle_todo_task(conn: Connection, ctx: CallContext, args: HandleTodoTaskArgs) -> dict[str, Any]:
    task, request, _notes = policy.check_decide_task(conn, ctx.actor_id, task_id=args.taskId, comment=args.result)
    status = "approved" if args.isOK else "rejected"
    now = utcnow()
    # Compare-and-set: only a still-pending task changes; a concurrent decision makes this a no-op.
    changed = conn.execute(
        update(tasks)
        .where(tasks.c.id == task["id"], tasks.c.status == "pending")
        .values(status=status, comment=args.result, decided_by=ctx.actor_id, decided_at=now)
    ).rowcount
    if changed != 1:
        raise PolicyError("task_not_pending", f"{policy.format_task_id(task['id'])} was decided meanwhile; nothing to decide")
    # The decision comment lives on the task; the request's reason is never touched.
    conn.execute(update(requests).where(requests.c.id == request["id"]).values(status=status, decided_at=now))
    return {
        "taskId": policy.format_task_id(task["id"]),
        "requestId": policy.format_request_id(request["id"]),
        "status": status,
        "comment": args.result,
    }


def precheck_send_email(conn: Connection, ctx: CallContext, args: SendEmailArgs) -> list[str]:
    recipient, task = policy.check_send_email(
        conn,
        ctx.actor_id,
        ctx.thread_id,
        user_id=args.userId,
        task_id=args.taskId,
        content=args.emailContent,
        rate_limit=ctx.mail_rate_limit,
    )
    return [f"to {recipient['name']} <{recipient['email']}>"]


def send_email(conn: Connection, ctx: CallContext, args: SendEmailArgs) -> dict[str, Any]:
    recipient, task = policy.check_send_email(
        conn,
        ctx.actor_id,
        ctx.thread_id,
        user_id=args.userId,
        task_id=args.taskId,
        content=args.emailContent,
        rate_limit=ctx.mail_rate_limit,
    )
    sender = policy.require_actor(conn, ctx.actor_id)
    subject = (
        f"[flowagent] 待办提醒 / Reminder: {policy.format_task_id(task['id'])}"
        if task
        else f"[flowagent] 来自{sender['name']}的消息 / Message from {sender['name']}"
    )
    email_id = _new_id(
        conn.execute(
            insert(outbox_table).values(
                idempotency_key=ctx.idempotency_key,
                thread_id=ctx.thread_id,
                sender_id=ctx.actor_id,
                recipient_id=recipient["id"],
                recipient_email=recipient["email"],
                subject=subject,
                body=args.emailContent,
                task_id=task["id"] if task else None,
                status="queued",
                attempts=0,
                created_at=utcnow(),
            )
        )
    )
    return {
        "emailId": email_id,
        "to": recipient["id"],
        "toName": recipient["name"],
        "email": recipient["email"],
        "taskId": policy.format_task_id(task["id"]) if task else None,
        "status": "queued",
    }


SPECS: tuple[ToolSpec, ...] = (
    ToolSpec(
        name="getAllWorkFlow",
        description="List every workflow (process definition) with its processKey and whether it can be started.",
        args_model=NoArgs,
        effect=Effect.READ,
        handler=get_all_workflows,
    ),
    ToolSpec(
        name="getAllUser",
        description="List every user with userId, name and e-mail. Use it to turn a name (李四) into a userId.",
        args_model=NoArgs,
        effect=Effect.READ,
        handler=get_all_users,
    ),
    ToolSpec(
        name="runWorkFlow",
        description=(
            "Start a leave request for the signed-in user. processKey comes from getAllWorkFlow; userId is the "
            "signed-in user; nextUserId is the approver the user named, looked up with getAllUser. "
            "Ask the user for the approver, the days or the reason when they did not give them."
        ),
        args_model=RunWorkFlowArgs,
        effect=Effect.WRITE,
        handler=run_workflow,
        requires_approval=False,
        references=(
            Reference("processKey", "process"),
            Reference("userId", "user"),
            Reference("nextUserId", "user"),
        ),
        identity_params=("userId",),
        person_named=("nextUserId",),
        precheck=precheck_run_workflow,
    ),
    ToolSpec(
        name="queryTodoTask",
        description="List a user's pending to-do tasks (taskId, requester, days, reason). userId comes from getAllUser.",
        args_model=QueryTodoTaskArgs,
        effect=Effect.READ,
        handler=query_todo_tasks,
        references=(Reference("userId", "user"),),
    ),
    ToolSpec(
        name="handleTodoTask",
        description=(
            "Approve (isOK=true) or reject (isOK=false) a to-do task of the signed-in user. taskId can be "
            "obtained from queryTodoTask (可以通过queryTodoTask工具获取). result is the approver's comment."
        ),
        args_model=HandleTodoTaskArgs,
        effect=Effect.WRITE,
        handler=handle_todo_task,
        requires_approval=True,
        references=(Reference("taskId", "task"),),
        precheck=precheck_handle_task,
    ),
    ToolSpec(
        name="sendEmail",
        description=(
            "Send an e-mail. With taskId (from queryTodoTask) it reminds that task's assignee; otherwise userId "
            "(from getAllUser) is the recipient. emailContent is the complete message, never a placeholder."
        ),
        args_model=SendEmailArgs,
        effect=Effect.WRITE,
        handler=send_email,
        requires_approval=True,
        references=(Reference("userId", "user"), Reference("taskId", "task")),
        precheck=precheck_send_email,
    ),
)

REGISTRY = ToolRegistry(SPECS)
"""The default tool registry: the seed's six tools."""
