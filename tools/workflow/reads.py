"""The workflow's read tools: workflows, users, and a user's pending to-do tasks."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, bindparam, select

from tools.spec import CallContext, Verdict
from tools.workflow.args import NoArgs, QueryTodoTaskArgs
from tools.workflow.lookup import display_name, format_request_id, format_task_id
from tools.workflow.store import processes, requests, tasks, users

TODO_LIST_LIMIT = 50


def get_all_workflows(conn: Connection, ctx: CallContext, args: NoArgs, verdict: Verdict) -> dict[str, Any]:
    rows = conn.execute(select(processes).order_by(processes.c.key)).mappings().all()
    return {
        "workflows": [
            {"processKey": r["key"], "name": r["name"], "description": r["description"], "startable": r["startable"]}
            for r in rows
        ]
    }


def get_all_users(conn: Connection, ctx: CallContext, args: NoArgs, verdict: Verdict) -> dict[str, Any]:
    rows = conn.execute(select(users).order_by(users.c.id)).mappings().all()
    return {"users": [{"userId": r["id"], "name": display_name(r, ctx.lang), "email": r["email"]} for r in rows]}


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
        _requester.c.alias.label("requester_alias"),
    )
    .join(requests, requests.c.id == tasks.c.request_id)
    .join(_requester, _requester.c.id == requests.c.requester_id)
    .where(tasks.c.assignee_id == bindparam("owner"), tasks.c.status == "pending")
    .order_by(tasks.c.id)
)
"""A user's pending tasks with their requests, built once (building it cost more than running it)."""


def query_todo_tasks(conn: Connection, ctx: CallContext, args: QueryTodoTaskArgs, verdict: Verdict) -> dict[str, Any]:
    owner = verdict.found["userId"]
    rows = conn.execute(TODO_QUERY, {"owner": owner["id"]}).mappings().all()
    items = [
        {
            "taskId": format_task_id(r["id"]),
            "requestId": format_request_id(r["request_id"]),
            "processKey": r["process_key"],
            "requester": r["requester_id"],
            "requesterName": r["requester_alias"] if ctx.lang == "en" and r["requester_alias"] else r["requester_name"],
            "days": r["days"],
            "reason": r["reason"],
            "createdAt": r["created_at"],
        }
        for r in rows
    ]
    return {"userId": owner["id"], "name": display_name(owner, ctx.lang), "total": len(items),
            "tasks": items[:TODO_LIST_LIMIT]}
