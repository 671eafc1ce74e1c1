"""The page's panels of the workflow: a user's to-do tasks and requests, and their e-mails (`GET /flowagent/api/…`)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, or_, select

from tools.workflow import lookup
from tools.workflow.store import outbox, processes, requests, tasks, users


def _user(row: Any) -> dict[str, str]:
    return {"id": row["id"], "name": row["name"]}


def _names(conn: Connection) -> dict[str, dict[str, str]]:
    return {row["id"]: _user(row) for row in conn.execute(select(users)).mappings()}


def tasks_of(conn: Connection, user_id: str) -> dict[str, list[dict[str, Any]]]:
    """The tasks assigned to the user (newest first) and the requests they started, with their approver's task."""
    people = _names(conn)
    process_names = {row["key"]: row["name"] for row in conn.execute(select(processes)).mappings()}
    assigned = conn.execute(
        select(tasks, requests.c.requester_id, requests.c.reason, requests.c.days, requests.c.process_key,
               requests.c.flagged)
        .join(requests, requests.c.id == tasks.c.request_id)
        .where(tasks.c.assignee_id == user_id)
        .order_by(tasks.c.id.desc())
    ).mappings().all()
    mine = conn.execute(
        select(requests, tasks.c.id.label("task_id"), tasks.c.assignee_id, tasks.c.comment)
        .outerjoin(tasks, tasks.c.request_id == requests.c.id)
        .where(requests.c.requester_id == user_id)
        .order_by(requests.c.id.desc())
    ).mappings().all()
    todo = [
        {
            "id": lookup.format_task_id(row["id"]),
            "request": lookup.format_request_id(row["request_id"]),
            "process": process_names.get(row["process_key"], row["process_key"]),
            "requester": people[row["requester_id"]],
            "days": row["days"],
            "reason": row["reason"],
            "flagged": bool(row["flagged"]),
            "status": row["status"],
            "comment": row["comment"],
            "created_at": row["created_at"],
            "decided_at": row["decided_at"],
        }
        for row in assigned
    ]
    requested = [
        {
            "id": lookup.format_request_id(row["id"]),
            "process": process_names.get(row["process_key"], row["process_key"]),
            "days": row["days"],
            "reason": row["reason"],
            "status": row["status"],
            "task": lookup.format_task_id(row["task_id"]) if row["task_id"] is not None else None,
            "approver": people.get(row["assignee_id"]) if row["assignee_id"] else None,
            "comment": row["comment"],
            "created_at": row["created_at"],
            "decided_at": row["decided_at"],
        }
        for row in mine
    ]
    return {"todo": todo, "requests": requested}


def outbox_of(conn: Connection, user_id: str) -> dict[str, list[dict[str, Any]]]:
    """The e-mails the user sent or was sent, newest first."""
    people = _names(conn)
    rows = conn.execute(
        select(outbox).where(or_(outbox.c.sender_id == user_id, outbox.c.recipient_id == user_id))
        .order_by(outbox.c.id.desc())
    ).mappings().all()
    return {"emails": [
        {
            "id": row["id"],
            "from": people.get(row["sender_id"], {"id": row["sender_id"], "name": row["sender_id"]}),
            "to": {**people[row["recipient_id"]], "email": row["recipient_email"]},
            "subject": row["subject"],
            "body": row["body"],
            "task": lookup.format_task_id(row["task_id"]) if row["task_id"] is not None else None,
            "status": row["status"],
            "created_at": row["created_at"],
            "sent_at": row["sent_at"],
        }
        for row in rows
    ]}
