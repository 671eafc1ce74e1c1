"""The reviewer's cards of the workflow's writes: read from the store, never from the model's words.

Each builder takes the call's validated arguments and returns the card's `summary` and fields; a record
that cannot be found raises a `DomainError`, and the reviewer then sees the general card with the error.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection

from tools.lookup import REQUEST_BY_ID, format_request_id, format_task_id, require_process, require_task, require_user


def _person(user: dict[str, Any]) -> str:
    return f"{user['name']} ({user['id']})"


def decision_card(conn: Connection, args: dict[str, Any]) -> dict[str, Any]:
    """handleTodoTask: the request being decided, who asked, for how long and why, and the decision."""
    task = require_task(conn, args["taskId"])
    request = conn.execute(REQUEST_BY_ID, {"key": task["request_id"]}).mappings().one()
    requester = require_user(conn, request["requester_id"])
    assignee = require_user(conn, task["assignee_id"])
    return {
        "summary": f"{'Approve' if args.get('isOK') else 'Reject'} {requester['name']}'s "
        f"{request['days']:g}-day request {format_request_id(request['id'])}",
        "task": format_task_id(task["id"]),
        "task_status": task["status"],
        "request": format_request_id(request["id"]),
        "requester": _person(requester),
        "days": request["days"],
        "reason": request["reason"],
        "assignee": _person(assignee),
        "decision": "approve" if args.get("isOK") else "reject",
        "comment": args.get("result", ""),
        "flagged": bool(request["flagged"]),
    }


def email_card(conn: Connection, args: dict[str, Any]) -> dict[str, Any]:
    """sendEmail: the recipient (a reminder's goes to its task's assignee) and the full text."""
    card: dict[str, Any] = {}
    if args.get("taskId"):
        task = require_task(conn, args["taskId"])
        recipient = require_user(conn, task["assignee_id"])
        card["task"] = format_task_id(task["id"])
    else:
        recipient = require_user(conn, args["userId"])
    return card | {
        "summary": f"Send an e-mail to {recipient['name']} <{recipient['email']}>",
        "recipient": _person(recipient),
        "recipient_email": recipient["email"],
        "text": args.get("emailContent", ""),
    }


def leave_card(conn: Connection, args: dict[str, Any]) -> dict[str, Any]:
    """runWorkFlow (when a run makes it need approval): the process, requester, days, reason and approver."""
    process = require_process(conn, args["processKey"])
    approver = require_user(conn, args["nextUserId"])
    requester = require_user(conn, args["userId"])
    return {
        "summary": f"Start {process['name']} for {requester['name']}: {args['days']:g} days",
        "process": f"{process['name']} ({process['key']})",
        "requester": _person(requester),
        "days": args["days"],
        "reason": args["reason"],
        "approver": _person(approver),
    }
