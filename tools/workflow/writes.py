"""The workflow's write tools: each one's policy check, its effect, and what follows its commit.

The runtime runs a check on the validator's path (read-only) and again in the write's transaction right
before the effect; the effect acts on the records its check found and checks nothing itself. Requests and decisions
go through the process engine in that same transaction: the instance's new state (compare-and-set), the tool
execution's idempotency key and the e-mails it causes (`tools.workflow.notify`) commit together.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from sqlalchemy import Connection, insert

from tools.errors import NeedsPersonError, PolicyError
from tools.spec import CallContext, Found, Verdict
from tools.workflow.args import HandleTodoTaskArgs, RunWorkFlowArgs, SendEmailArgs
from tools.workflow.cc import check_cc, copy_request
from tools.workflow.deputies import held_for
from tools.workflow.engine import Definition, EngineError, TaskView, groups_of, parse_task_id
from tools.workflow.forms import check_form, form_data, param_of, person_values, unused_params
from tools.workflow.leave.requests import hold_started, settle
from tools.workflow.leave.rules import END, START, check_leave, is_leave, leave_notes, needs_document
from tools.workflow.leave.types import leave_types
from tools.workflow.leave.words import document_line
from tools.workflow.lookup import ALL_USERS, USER_BY_ID, display_name, engine_of, group_label, offered_to
from tools.workflow.mailer import Mailer
from tools.workflow.notify import deliver_all, form_summary, notify, noun_of
from tools.workflow.policy import check_decide_task, check_send_email, check_start_request, policy_note
from tools.workflow.shown import form_words
from tools.workflow.store import WorkflowStore, outbox, utcnow
from tools.workflow.views import duration_days, is_flagged


def _refusal(exc: EngineError) -> PolicyError:
    """The engine's refusal as the policy's: a task decided meanwhile is `task_not_pending`, as before."""
    code = {"task_not_offered": "not_assignee"}.get(exc.code, exc.code)
    return PolicyError(code, exc.message)


def _step(task: TaskView, lang: str) -> str:
    return task.step_en or task.step if lang == "en" else task.step


def _waiting(conn: Connection, tasks: tuple[TaskView, ...], lang: str) -> list[dict[str, Any]]:
    """The steps now waiting: each task with its step and who decides it."""
    return [
        {"taskId": t.id, "step": _step(t, lang), "assignee": t.assignee, "groups": list(t.candidate_groups),
         "groupNames": [group_label(conn, g, lang) for g in t.candidate_groups], "offeredTo": offered_to(conn, t)}
        for t in tasks
    ]


# ---------------------------------------------------------------- runWorkFlow


def check_run_workflow(conn: Connection, ctx: CallContext, args: RunWorkFlowArgs, found: Found) -> Verdict:
    definition = found["processKey"]["definition"]
    form = check_form(definition, args.model_dump(), ctx.today)
    notes = check_start_request(
        conn, ctx.actor_id, process=found["processKey"], approver=found["nextUserId"],
        days=duration_days(form, definition.fields), lang=ctx.lang,
    )
    check_cc(conn, ctx.actor_id, args.cc)
    unused = unused_params(args.model_dump(), definition)
    notes += [f"[form] {key} is not a field of {definition.key}: left out" for key in unused]
    _half_asked(definition, form, ctx.lang)
    leave = check_leave(conn, ctx.actor_id, definition, form, ctx.today or date.today())
    if leave is None:
        return Verdict(notes=notes, found={"form": form})
    return Verdict(notes=notes + leave_notes(leave), found={"form": form, "leave": leave.record()})


def _half_asked(definition: Definition, form: dict[str, Any], lang: str) -> None:
    """Half a day on one day with neither half named ("half a day off next Friday", 下周五请半天): which half is the
    person's to say (docs/leave.md), not a mismatch of half a day with the day's whole one."""
    start, end = form.get(START), form.get(END)
    if not is_leave(definition) or form.get("days") != 0.5 or not (start or end) or (start and end and start != end):
        return
    if form.get("startHalf") or form.get("endHalf"):
        return
    value = next(v for v in person_values(definition) if v.param == param_of("startHalf"))
    raise NeedsPersonError("half_not_given", f"{value.param}: half a day on one day, neither half said; ask which",
                           ask=value.ask, param=value.param, value=value, choices=value.option_names(lang))


def run_workflow(conn: Connection, ctx: CallContext, args: RunWorkFlowArgs, verdict: Verdict) -> dict[str, Any]:
    approver = verdict.found["nextUserId"]
    definition = verdict.found["processKey"]["definition"]
    engine = engine_of(conn)
    try:
        started = engine.start(
            conn, args.processKey, requester=ctx.actor_id,
            data={**form_data(args.model_dump(), definition), "nextUserId": approver["id"]}, today=ctx.today,
        )
    except EngineError as exc:
        raise _refusal(exc) from None
    hold_started(conn, started.instance_id, ctx.actor_id, verdict.found.get("leave"))
    notified = notify(conn, ctx, started.events)
    form = {f.id: started.data.get(f.id) for f in definition.fields}
    copied, told = copy_request(conn, ctx, started.instance_id, definition, form, args.cc or [])
    waiting = _waiting(conn, started.tasks, ctx.lang)
    result: dict[str, Any] = {
        "requestId": started.instance_id,
        "processKey": started.process_key,
        "process": definition.name_en or definition.name if ctx.lang == "en" else definition.name,
        "version": started.version,
        "taskId": started.tasks[0].id if started.tasks else None,
        "status": "pending" if started.status == "running" else started.status,
        "step": waiting[0]["step"] if waiting else None,
        "assignee": approver["id"],
        "assigneeName": display_name(approver, ctx.lang),
        "form": form,
        "summary": form_words(form, definition, ctx.lang),
        "flagged": is_flagged(form, definition.fields),
        "notes": verdict.notes,
        "notified": notified + told,
    }
    result.update(held_for(conn, result["taskId"], ctx.lang))  # its approver is away: who holds it instead
    if copied:
        result["cc"] = copied
        people = {u["id"]: u for u in conn.execute(ALL_USERS).mappings()}
        result["copiedTo"] = [display_name(people[u], ctx.lang) for u in copied if u in people]
    if form.get("days") is not None:
        result["days"] = form["days"]
    if verdict.found.get("leave"):
        result["leave"] = verdict.found["leave"]
        kind = leave_types().get(str(result["leave"]["type"]))
        if kind is not None:
            result["leaveType"] = kind.name(ctx.lang)  # the answer names what was filed: 病假申请, "sick leave request"
        if kind is not None and needs_document(kind, float(result["leave"]["days"])):
            result["document"] = document_line(kind, ctx.lang)  # "病假超过 2 天需要提供医院证明…": said when filed too
    return result


# ---------------------------------------------------------------- handleTodoTask


def check_handle_task(conn: Connection, ctx: CallContext, args: HandleTodoTaskArgs, found: Found) -> Verdict:
    notes = check_decide_task(conn, ctx.actor_id, task=found["taskId"], comment=args.result, lang=ctx.lang)
    return Verdict(notes=notes)


def handle_todo_task(conn: Connection, ctx: CallContext, args: HandleTodoTaskArgs, verdict: Verdict) -> dict[str, Any]:
    task = verdict.found["taskId"]
    try:
        # Compare-and-set in the engine: a task decided meanwhile (even concurrently) is refused, nothing written.
        completed = engine_of(conn).complete(
            conn, task["id"], user_id=ctx.actor_id, approved=args.isOK, comment=args.result,
            groups=groups_of(conn, ctx.actor_id),
        )
    except EngineError as exc:
        raise _refusal(exc) from None
    settle(conn, completed.instance_id, completed.status)  # a leave's days: used when approved, else given back
    notified = notify(conn, ctx, completed.events)
    # The decision comment lives on the task and in the instance's history; the request's reason is never touched.
    view: TaskView = task["view"]
    requester = conn.execute(USER_BY_ID, {"key": view.requester}).mappings().first()
    return {
        "taskId": task["id"],
        "requestId": completed.instance_id,
        "requester": display_name(requester, ctx.lang) if requester else view.requester,
        "what": noun_of(view.process_name, view.process_name_en, ctx.lang),
        "summary": form_summary(task["form"], engine_of(conn).definition(conn, task["process_key"],
                                                                         task["process_version"]), ctx.lang),
        "step": _step(completed.task, ctx.lang),
        "status": "approved" if args.isOK else "rejected",
        "comment": args.result,
        "request": "pending" if completed.status == "running" else completed.status,
        "next": _waiting(conn, completed.tasks, ctx.lang),
        "notified": notified,
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
        f"[flowagent] 待办提醒 / Reminder: {task['id']}"
        if task
        else f"[flowagent] 来自{sender['name']}的消息 / Message from {sender['name']}"
    )
    result = conn.execute(
        insert(outbox).values(
            idempotency_key=ctx.idempotency_key,
            thread_id=ctx.thread_id,
            sender_id=ctx.actor_id,
            recipient_id=recipient["id"],
            recipient_email=recipient["email"],
            subject=subject,
            body=args.emailContent,
            task_id=parse_task_id(task["id"]) if task else None,
            status="queued",
            attempts=0,
            created_at=utcnow(),
        )
    )
    return {
        "emailId": int(result.inserted_primary_key[0]),  # type: ignore[index]
        "to": recipient["id"],
        "toName": display_name(recipient, ctx.lang),
        "email": recipient["email"],
        "taskId": task["id"] if task else None,
        "status": "queued",
    }


def deliver_email(ctx: CallContext, result: dict[str, Any]) -> dict[str, Any]:
    """Once the outbox row is committed, deliver it when a mailer is configured (else it stays queued)."""
    mailer: Mailer | None = ctx.deps
    if mailer is None:
        return result
    assert isinstance(ctx.backend, WorkflowStore)  # the workflow's tools run on its store
    return dict(result, status=mailer.deliver(ctx.backend, int(result["emailId"])))


__all__ = [
    "check_email", "check_handle_task", "check_run_workflow", "deliver_all", "deliver_email", "handle_todo_task",
    "run_workflow", "send_email",
]
