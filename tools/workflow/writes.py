"""The workflow's write tools: each one's policy check, its effect, and what follows its commit.

The runtime runs a check on the validator's path (read-only) and again in the write's transaction right
before the effect; the effect acts on the records its check found and checks nothing itself.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, CursorResult, insert, update

from tools.errors import PolicyError
from tools.spec import CallContext, Found, Verdict
from tools.workflow.args import HandleTodoTaskArgs, RunWorkFlowArgs, SendEmailArgs
from tools.workflow.lookup import display_name, format_request_id, format_task_id
from tools.workflow.mailer import Mailer
from tools.workflow.policy import (
    COMMENT_REQUIRED_OVER_DAYS,
    check_decide_task,
    check_send_email,
    check_start_request,
    policy_note,
)
from tools.workflow.store import WorkflowStore, outbox, requests, tasks, utcnow


def _new_id(result: CursorResult[Any]) -> int:
    """The primary key of the row an INSERT just created."""
    key = result.inserted_primary_key
    if key is None:  # pragma: no cover - every table here has an integer primary key
        raise RuntimeError("INSERT returned no primary key")
    return int(key[0])


# ---------------------------------------------------------------- runWorkFlow


def check_run_workflow(conn: Connection, ctx: CallContext, args: RunWorkFlowArgs, found: Found) -> Verdict:
    notes = check_start_request(
        conn, ctx.actor_id, process=found["processKey"], approver=found["nextUserId"], days=args.days, lang=ctx.lang
    )
    return Verdict(notes=notes)


def run_workflow(conn: Connection, ctx: CallContext, args: RunWorkFlowArgs, verdict: Verdict) -> dict[str, Any]:
    now = utcnow()
    flagged = args.days > COMMENT_REQUIRED_OVER_DAYS
    approver = verdict.found["nextUserId"]
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
        conn.execute(insert(tasks).values(request_id=request_id, assignee_id=approver["id"], status="pending", created_at=now))
    )
    return {
        "requestId": format_request_id(request_id),
        "taskId": format_task_id(task_id),
        "status": "pending",
        "assignee": approver["id"],
        "assigneeName": display_name(approver, ctx.lang),
        "days": args.days,
        "flagged": flagged,
        "notes": verdict.notes,
    }


# ---------------------------------------------------------------- handleTodoTask


def check_handle_task(conn: Connection, ctx: CallContext, args: HandleTodoTaskArgs, found: Found) -> Verdict:
    request, notes = check_decide_task(conn, ctx.actor_id, task=found["taskId"], comment=args.result, lang=ctx.lang)
    return Verdict(notes=notes, found={"request": request})


def handle_todo_task(conn: Connection, ctx: CallContext, args: HandleTodoTaskArgs, verdict: Verdict) -> dict[str, Any]:
    task, request = verdict.found["taskId"], verdict.found["request"]
    status = "approved" if args.isOK else "rejected"
    now = utcnow()
    # Compare-and-set: only a still-pending task changes; a concurrent decision makes this a no-op.
    changed = conn.execute(
        update(tasks)
        .where(tasks.c.id == task["id"], tasks.c.status == "pending")
        .values(status=status, comment=args.result, decided_by=ctx.actor_id, decided_at=now)
    ).rowcount
    if changed != 1:
        raise PolicyError("task_not_pending", f"{format_task_id(task['id'])} was decided meanwhile; nothing to decide")
    # The decision comment lives on the task; the request's reason is never touched.
    conn.execute(update(requests).where(requests.c.id == request["id"]).values(status=status, decided_at=now))
    return {
        "taskId": format_task_id(task["id"]),
        "requestId": format_request_id(request["id"]),
        "status": status,
        "comment": args.result,
    }


# ---------------------------------------------------------------- sendEmail


def check_email(conn: Connection, ctx: CallContext, args: SendEmailArgs, found: Found) -> Verdict:
    recipient = check_send_email(
        conn, ctx.thread_id, user=found.get("userId"), task=found.get("taskId"), rate_limit=ctx.limit("mail_rate_limit")
    )
    name = recipient["alias"] if ctx.lang == "en" and recipient.get("alias") else recipient["name"]
    return Verdict(notes=[policy_note("email_to", ctx.lang, name=name, email=recipient["email"])],
                   found={"recipient": recipient})


def send_email(conn: Connection, ctx: CallContext, args: SendEmailArgs, verdict: Verdict) -> dict[str, Any]:
    """Writes the e-mail to the outbox (delivery follows the commit: `deliver_email`)."""
    recipient, task = verdict.found["recipient"], verdict.found.get("taskId")
    sender = verdict.found["actor"]
    subject = (
        f"[flowagent] 待办提醒 / Reminder: {format_task_id(task['id'])}"
        if task
        else f"[flowagent] 来自{sender['name']}的消息 / Message from {sender['name']}"
    )
    email_id = _new_id(
        conn.execute(
            insert(outbox).values(
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
        "toName": display_name(recipient, ctx.lang),
        "email": recipient["email"],
        "taskId": format_task_id(task["id"]) if task else None,
        "status": "queued",
    }


def deliver_email(ctx: CallContext, result: dict[str, Any]) -> dict[str, Any]:
    """Once the outbox row is committed, deliver it when a mailer is configured (else it stays queued)."""
    mailer: Mailer | None = ctx.deps
    if mailer is None:
        return result
    assert isinstance(ctx.backend, WorkflowStore)  # the workflow's tools run on its store
    return dict(result, status=mailer.deliver(ctx.backend, int(result["emailId"])))
