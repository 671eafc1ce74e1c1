"""The reviewer's cards of the workflow's writes: read from the store, never from the model's words.

Each builder takes the call's validated arguments and returns the card's `summary` and fields; a record
that cannot be found raises a `DomainError`, and the reviewer then sees the general card with the error.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection

from tools.workflow.lookup import REQUEST_BY_ID, format_request_id, format_task_id, require_process, require_task, require_user


def _name(user: dict[str, Any], lang: str) -> str:
    """A user's name as the reader writes it: 张三 in Chinese, Zhang San in English."""
    return str(user["alias"]) if lang == "en" and user.get("alias") else str(user["name"])


def _person(user: dict[str, Any], lang: str = "zh") -> str:
    return f"{_name(user, lang)} ({user['id']})"


def decision_card(conn: Connection, args: dict[str, Any], lang: str = "zh") -> dict[str, Any]:
    """handleTodoTask: the request being decided, who asked, for how long and why, and the decision."""
    task = require_task(conn, args["taskId"])
    request = conn.execute(REQUEST_BY_ID, {"key": task["request_id"]}).mappings().one()
    requester = require_user(conn, request["requester_id"])
    assignee = require_user(conn, task["assignee_id"])
    req = format_request_id(request["id"])
    if lang == "en":
        verb = "Approve" if args.get("isOK") else "Reject"
        summary = f"{verb} {_name(requester, lang)}'s {request['days']:g}-day request {req}"
    else:
        summary = f"{'批准' if args.get('isOK') else '驳回'}{_name(requester, lang)}的 {request['days']:g} 天申请 {req}"
    return {
        "summary": summary,
        "task": format_task_id(task["id"]),
        "task_status": task["status"],
        "request": req,
        "requester": _person(requester, lang),
        "days": request["days"],
        "reason": request["reason"],
        "assignee": _person(assignee, lang),
        "decision": "approve" if args.get("isOK") else "reject",
        "comment": args.get("result", ""),
        "flagged": bool(request["flagged"]),
    }


def email_card(conn: Connection, args: dict[str, Any], lang: str = "zh") -> dict[str, Any]:
    """sendEmail: the recipient (a reminder's goes to its task's assignee) and the full text."""
    card: dict[str, Any] = {}
    if args.get("taskId"):
        task = require_task(conn, args["taskId"])
        recipient = require_user(conn, task["assignee_id"])
        card["task"] = format_task_id(task["id"])
    else:
        recipient = require_user(conn, args["userId"])
    to = f"{_name(recipient, lang)} <{recipient['email']}>"
    return card | {
        "summary": f"Send an e-mail to {to}" if lang == "en" else f"发邮件给 {to}",
        "recipient": _person(recipient, lang),
        "recipient_email": recipient["email"],
        "text": args.get("emailContent", ""),
    }


def leave_card(conn: Connection, args: dict[str, Any], lang: str = "zh") -> dict[str, Any]:
    """runWorkFlow (when a run makes it need approval): the process, requester, days, reason and approver."""
    process = require_process(conn, args["processKey"])
    approver = require_user(conn, args["nextUserId"])
    requester = require_user(conn, args["userId"])
    if lang == "en":
        summary = f"Start {process['description'] or process['name']} for {_name(requester, lang)}: {args['days']:g} days"
    else:
        summary = f"为{_name(requester, lang)}发起{process['name']}：{args['days']:g} 天"
    return {
        "summary": summary,
        "process": f"{process['name']} ({process['key']})",
        "requester": _person(requester, lang),
        "days": args["days"],
        "reason": args["reason"],
        "approver": _person(approver, lang),
    }
