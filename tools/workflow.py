"""The six tools of the seed's leave-approval system: argument models, policy prechecks and handlers."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator
from sqlalchemy import Connection, CursorResult, bindparam, insert, select, update

from tools import policy, readable, words
from tools.errors import PolicyError
from tools.runtime import CallContext
from tools.spec import Effect, PersonValue, Reference, ToolExample, ToolRegistry, ToolSpec
from tools.store import outbox as outbox_table
from tools.store import processes, requests, tasks, users, utcnow

TODO_LIST_LIMIT = 50


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NoArgs(_Args):
    """No parameters."""


class RunWorkFlowArgs(_Args):
    processKey: str = Field(description="The process: process_qingjia (请假, leave).")
    userId: str = Field(description="The requester: always the signed-in user (filled in by the system).")
    reason: str = Field(description="Why, in the user's own words.")
    days: float = Field(description="Days of leave as the user said them, e.g. 0.5, 1, 3.")
    nextUserId: str = Field(description="The approver the user named: a name (李四) or a userId.")

    @field_validator("days", mode="before")
    @classmethod
    def _days(cls, value: Any) -> float:
        return policy.parse_days(value)

    @field_validator("reason")
    @classmethod
    def _reason(cls, value: str) -> str:
        return policy.check_reason(value)


class QueryTodoTaskArgs(_Args):
    userId: str = Field(description="Whose tasks: a name or userId (default: the signed-in user).")


class HandleTodoTaskArgs(_Args):
    taskId: str = Field(description="The task: its requester's name (张三), or a taskId from queryTodoTask (task_1).")
    result: str = Field(default="", description="The user's comment, in their words.")
    isOK: bool = Field(description="true to approve, false to reject.")

    @field_validator("result")
    @classmethod
    def _result(cls, value: str) -> str:
        if len(value) > policy.MAX_REASON_CHARS:
            raise ValueError(f"result must be at most {policy.MAX_REASON_CHARS} characters")
        return value.strip()


class SendEmailArgs(_Args):
    userId: str | None = Field(default=None, description="The recipient: a name (李四) or a userId.")
    taskId: str | None = Field(default=None, description="A task to remind its assignee about (e.g. task_1).")
    emailContent: str = Field(description="The e-mail's text, as the user gave it.")

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
        describe=readable.workflows,
        model_description="List the workflows: processKey, name, whether it can be started.",
    ),
    ToolSpec(
        name="getAllUser",
        description="List every user with userId, name and e-mail. Use it to turn a name (李四) into a userId.",
        args_model=NoArgs,
        effect=Effect.READ,
        handler=get_all_users,
        describe=readable.users,
        model_description="List the users: userId and name.",
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
        person_values=(
            PersonValue("nextUserId", "user", "approver"),
            PersonValue("days", "days", "days", stated=words.answered_days),
            PersonValue("reason", "text", "reason"),
        ),
        precheck=precheck_run_workflow,
        intent=(r"请.{0,6}假", "休假", "假期", r"[年病事婚产]假", r"\bleave\b", r"days? off", "time off", r"\bdays?\b",
                r"\bfile\b"),
        describe=readable.started,
        example=ToolExample(
            question="我下周要回老家，请3天假，王五审批",
            args={"processKey": "process_qingjia", "reason": "回老家", "days": 3, "nextUserId": "王五"},
            observation='{"requestId":"req_7","taskId":"task_7","status":"pending","assignee":"user_3",'
            '"assigneeName":"王五","days":3.0}',
            answer="已为你发起3天的请假申请（req_7），等待王五审批（task_7）。",
        ),
        model_description=(
            "Start a leave request for the signed-in user. processKey: process_qingjia. reason: why, in the "
            "user's words. days: a number (0.5, 1, 3). nextUserId: the approver the user named (李四, or a userId)."
        ),
    ),
    ToolSpec(
        name="queryTodoTask",
        description="List a user's pending to-do tasks (taskId, requester, days, reason). userId comes from getAllUser.",
        args_model=QueryTodoTaskArgs,
        effect=Effect.READ,
        handler=query_todo_tasks,
        references=(Reference("userId", "user"),),
        actor_defaults=("userId",),
        describe=readable.todo,
        example=ToolExample(
            question="王五有几个待办？",
            args={"userId": "王五"},
            observation='{"userId":"user_3","name":"王五","total":0,"tasks":[]}',
            answer="王五目前没有待办任务。",
        ),
        model_description="List a user's pending to-do tasks. userId: a name or userId; leave it out for the signed-in user.",
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
        references=(Reference("taskId", "task", resolve="requester"),),
        person_values=(
            PersonValue("isOK", "decision", "decision", stated=words.stated_decision),
            PersonValue("result", "text", "comment", optional=True, stated=words.stated_comment),
        ),
        precheck=precheck_handle_task,
        example=ToolExample(
            question="同意赵六的请假，意见：注意休息",
            args={"taskId": "赵六", "isOK": True, "result": "注意休息"},
            observation='{"taskId":"task_5","requestId":"req_5","status":"approved","comment":"注意休息"}',
            answer="已批准赵六的请假（task_5），意见：注意休息。",
        ),
        intent=("批", "同意", "驳回", "拒绝", "通过", "不行", "approve", "reject", "declin", "accept", "deny"),
        describe=readable.decided,
        model_description=(
            "Approve (isOK true) or reject (isOK false) a to-do task of the signed-in user. taskId: the "
            "requester's name (张三) or a taskId from queryTodoTask. result: the user's comment, in their words."
        ),
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
        references=(Reference("userId", "user"), Reference("taskId", "task", resolve="own")),
        person_values=(PersonValue("emailContent", "text", "email_text"),),
        precheck=precheck_send_email,
        intent=("邮件", "邮箱", "提醒", "催", "通知", "告诉", "发", "mail", "remind", "nudge", "tell", "notify", "message"),
        describe=readable.emailed,
        model_description=(
            "Send an e-mail: a reminder about a task to its assignee (taskId), or a message to a user (userId: "
            "a name or userId). emailContent: the text the user gave."
        ),
    ),
)

REGISTRY = ToolRegistry(
    SPECS,
    intro=(
        r"(能|可以)(帮我|为我|替我)?(做|干)(些)?什么|有什么功能|你是谁|what can you do|what do you do|help me with",
        "我可以帮你：查看有哪些流程和用户、发起请假申请、查看和审批待办任务、发送提醒邮件。"
        "(I can list workflows and users, start leave requests, show your to-do tasks, approve or reject them, "
        "and send reminder e-mails.)",
    ),
)
"""The default tool registry: the seed's six tools."""
