"""Who is who: users, processes and tasks looked up by id, or by the name a person uses for them.

Every function reads the store through the caller's connection and raises a `DomainError` subclass
(`NotFoundError`; `NeedsPersonError` when a name fits several records) with a message that says what to do
next. None of them writes, and none of them decides whether an action is allowed: that is `tools.workflow.policy`.
"""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import Connection, bindparam, select

from tools.errors import NeedsPersonError, NotFoundError, PolicyError
from tools.people import named_in
from tools.words import squash
from tools.workflow.store import processes, requests, tasks, users

_ID_RE = re.compile(r"^\s*(?:(?P<prefix>task|req|request)[_\-\s]?)?(?P<num>\d{1,12})\s*$", re.IGNORECASE)


# ---------------------------------------------------------------- ids


def parse_task_id(value: str) -> int:
    match = _ID_RE.match(str(value))
    if not match or (match.group("prefix") or "task").lower() != "task":
        raise NotFoundError(
            "unknown_task", f"taskId {str(value)[:40]!r} is not a task id (they look like task_1); call queryTodoTask"
        )
    return int(match.group("num"))


def format_task_id(number: int) -> str:
    return f"task_{number}"


def format_request_id(number: int) -> str:
    return f"req_{number}"



# ---------------------------------------------------------------- by id


# Look-ups by key, built once: building a statement costs SQLAlchemy more than running it on SQLite.
USER_BY_ID = select(users).where(users.c.id == bindparam("key"))
PROCESS_BY_KEY = select(processes).where(processes.c.key == bindparam("key"))
TASK_BY_ID = select(tasks).where(tasks.c.id == bindparam("key"))
REQUEST_BY_ID = select(requests).where(requests.c.id == bindparam("key"))


def require_user(conn: Connection, user_id: str, *, param: str = "userId") -> dict[str, Any]:
    row = conn.execute(USER_BY_ID, {"key": str(user_id)}).mappings().first()
    if row is None:
        raise NotFoundError("unknown_user", f"{param} {str(user_id)[:64]} does not exist; call getAllUser")
    return dict(row)


def require_process(conn: Connection, key: str) -> dict[str, Any]:
    row = conn.execute(PROCESS_BY_KEY, {"key": str(key)}).mappings().first()
    if row is None:
        raise NotFoundError("unknown_process", f"processKey {str(key)[:64]} does not exist; call getAllWorkFlow")
    return dict(row)


def require_task(conn: Connection, task_id: str) -> dict[str, Any]:
    number = parse_task_id(task_id)
    row = conn.execute(TASK_BY_ID, {"key": number}).mappings().first()
    if row is None:
        raise NotFoundError("unknown_task", f"taskId {format_task_id(number)} does not exist; call queryTodoTask to list tasks")
    return dict(row)


def require_actor(conn: Connection, actor_id: str) -> dict[str, Any]:
    row = conn.execute(USER_BY_ID, {"key": str(actor_id)}).mappings().first()
    if row is None:
        raise PolicyError("unknown_actor", f"the session user {actor_id!r} is not a known user; sign in as one")
    return dict(row)


def require_reference(conn: Connection, kind: str, value: Any, param: str) -> dict[str, Any]:
    """The record an argument references (a user, a process or a task by id)."""
    if kind == "user":
        return require_user(conn, value, param=param)
    if kind == "process":
        return require_process(conn, value)
    if kind == "task":
        return require_task(conn, value)
    raise AssertionError(f"unknown reference kind {kind}")  # a bug in a tool spec, not a caller's mistake


ALL_USERS = select(users).order_by(users.c.id)
MAX_CHOICES = 8
"""Users offered by name when the person is asked who approves."""



# ---------------------------------------------------------------- by name


def display_name(user: Any, lang: str) -> str:
    """A user's name as the person reading writes it: 张三 in Chinese, Zhang San (their alias) in English."""
    return str(user["alias"]) if lang == "en" and user.get("alias") else str(user["name"])


def describe_user(user: dict[str, Any]) -> str:
    return f"{user['name']}（{user['id']}，{user['email']}）"


def users_named(conn: Connection, text: str, actor_id: str) -> list[dict[str, Any]]:
    """The users (other than the actor) a text names by id, e-mail, name or alias (exact naming first)."""
    return named_in(text, [dict(u) for u in conn.execute(ALL_USERS).mappings() if u["id"] != actor_id])


def resolve_user(conn: Connection, value: Any, *, param: str = "userId") -> dict[str, Any]:
    """The user a parameter means: a userId, or a display name, alias or e-mail that fits exactly one user.

    A name shared by several users is never resolved by choice: the person is asked which one they mean.
    """
    text = str(value).strip()
    row = conn.execute(USER_BY_ID, {"key": text}).mappings().first()
    if row is not None:
        return dict(row)
    flat = squash(text)
    matches = [
        dict(u) for u in conn.execute(ALL_USERS).mappings()
        if flat and flat in {squash(u["name"]), squash(u.get("alias") or ""), squash(u["email"] or "")}
    ]
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        choices = tuple(describe_user(u) for u in matches)
        raise NeedsPersonError(
            "ambiguous_user",
            f"{param} {text[:64]} fits {len(matches)} users ({', '.join(choices)}); ask the user which one they mean",
            ask="which_user", param=param, choices=choices, name=text[:64],
        )
    raise NotFoundError("unknown_user", f"{param} {text[:64]} does not exist; call getAllUser")


_PENDING_OF_ASSIGNEE = select(tasks, requests.c.requester_id, requests.c.days, requests.c.reason).join(
    requests, requests.c.id == tasks.c.request_id
).where(tasks.c.assignee_id == bindparam("actor"), tasks.c.status == "pending").order_by(tasks.c.id)


def resolve_task(conn: Connection, value: Any, actor_id: str, *, param: str = "taskId") -> dict[str, Any]:
    """A task by id, or by its requester's name among the actor's pending tasks ("张三" → task_1).

    Several pending tasks from that requester are never resolved by choice: the person is asked which one.
    """
    text = str(value).strip()
    if _ID_RE.match(text):
        return require_task(conn, text)
    pending = [dict(r) for r in conn.execute(_PENDING_OF_ASSIGNEE, {"actor": actor_id}).mappings()]
    requesters = {u["id"]: dict(u) for u in conn.execute(ALL_USERS).mappings()}
    named = {u["id"] for u in named_in(text, [requesters[t["requester_id"]] for t in pending])}
    found = [t for t in pending if t["requester_id"] in named]
    if len(found) == 1:
        return require_task(conn, format_task_id(found[0]["id"]))
    if len(found) > 1:
        choices = tuple(
            f"{format_task_id(t['id'])}（{requesters[t['requester_id']]['name']}，{t['days']:g} 天，{t['reason']}）"
            for t in found
        )
        raise NeedsPersonError(
            "ambiguous_task", f"{param} {text[:40]} fits {len(found)} of your tasks; ask the user which one",
            ask="which_task", param=param, choices=choices, name=text[:40],
        )
    raise NotFoundError(
        "unknown_task", f"{param} {text[:40]!r} is no pending task of yours; use the requester's name or call queryTodoTask"
    )


_PENDING_OWN = select(tasks, requests.c.requester_id, requests.c.days, requests.c.reason).join(
    requests, requests.c.id == tasks.c.request_id
).where(requests.c.requester_id == bindparam("actor"), tasks.c.status == "pending").order_by(tasks.c.id)
_REQ_RE = re.compile(r"^\s*(?:req|request)[_\-\s]?(?P<num>\d{1,12})\s*$", re.IGNORECASE)


def resolve_own_task(conn: Connection, value: Any, actor_id: str, *, param: str = "taskId") -> dict[str, Any] | None:
    """A task by id; or the task of the actor's own pending request, named by its request id (req_1) or by
    anything else that is no task id ("my leave", the actor's id) when the actor has exactly one; None when
    such a value names no task because the actor has no pending request (a plain message, not a reminder)."""
    text = str(value).strip()
    match = _ID_RE.match(text)
    if match and (match.group("prefix") or "task").lower() == "task":
        return require_task(conn, text)
    own = [dict(r) for r in conn.execute(_PENDING_OWN, {"actor": actor_id}).mappings()]
    by_request = _REQ_RE.match(text)
    if by_request:
        own = [t for t in own if t["request_id"] == int(by_request.group("num"))]
    if len(own) == 1:
        return require_task(conn, format_task_id(own[0]["id"]))
    if len(own) > 1:
        choices = tuple(f"{format_task_id(t['id'])}（{t['days']:g} 天，{t['reason']}）" for t in own)
        raise NeedsPersonError(
            "ambiguous_task", f"{param} {text[:40]} fits {len(own)} of your pending requests; ask the user which one",
            ask="which_task", param=param, choices=choices, name=text[:40],
        )
    if not match and not by_request:
        return None  # no task meant: the actor has no pending request, and this is no task id
    raise NotFoundError("unknown_task", f"{param} {text[:40]!r} is not a task id (they look like task_1); call queryTodoTask")


def approver_choices(conn: Connection, actor_id: str) -> tuple[str, ...]:
    names = [u["name"] for u in conn.execute(ALL_USERS).mappings() if u["id"] != actor_id]
    return tuple(names[:MAX_CHOICES]) + (("…",) if len(names) > MAX_CHOICES else ())
