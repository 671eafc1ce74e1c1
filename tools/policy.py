"""The workflow policy, in one place: called by the validator before approval and by the executor.

Every function reads the store through the caller's connection and raises a `DomainError` subclass
with a stable code and a message that says what to do next. None of them writes.
"""

from __future__ import annotations

import math
import re
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Connection, bindparam, func, select

from tools.errors import NotFoundError, PolicyError
from tools.store import outbox, processes, requests, tasks, users

MAX_DAYS = 365.0
MAX_REASON_CHARS = 2000
MAX_EMAIL_CHARS = 5000
COMMENT_REQUIRED_OVER_DAYS = 1.0
DEFAULT_MAIL_RATE_LIMIT = 3
"""E-mails one conversation thread may send per hour."""

DAYS_HINT = "a positive number of days in half-day steps, such as 0.5, 1, 3 or 10"

# Text that stands in for an e-mail instead of being one (the seed's model sent exactly these).
_PLACEHOLDER_PATTERNS = [
    r"请(用户)?提供.{0,6}(邮件|内容)",
    r"(邮件|e-?mail)\s*内容\s*(待定|待补充|占位)",
    r"待(补充|填写|定)",
    r"\bTBD\b",
    r"\bTODO\b",
    r"\bplaceholder\b",
    r"lorem ipsum",
    r"please provide (the )?(e-?mail )?(content|text|body)",
    r"\[\s*(\.\.\.|…|email content|邮件内容|内容)?\s*\]",
    r"<\s*(email content|邮件内容|content|内容)\s*>",
    r"\{\s*\w*\s*\}",
    r"^[\s.…xX*_\-]*$",
]
_PLACEHOLDER_RE = re.compile("|".join(f"(?:{p})" for p in _PLACEHOLDER_PATTERNS), re.IGNORECASE)

_ID_RE = re.compile(r"^\s*(?:(?P<prefix>task|req|request)[_\-\s]?)?(?P<num>\d{1,12})\s*$", re.IGNORECASE)


# ---------------------------------------------------------------- value rules


def parse_days(value: Any) -> float:
    """Days of leave: a positive number in half-day steps; numeric strings like "10" are accepted."""
    if isinstance(value, bool):
        raise ValueError(f"days must be {DAYS_HINT}, not a true/false value")
    if isinstance(value, int | float):
        try:
            number = float(value)
        except OverflowError:  # an int too large for a float is not a number of days either
            raise ValueError(f"days must be at most {MAX_DAYS:g}; {str(value)[:40]}... is far too large") from None
    elif isinstance(value, str):
        text = value.strip()
        try:
            number = float(text)
        except ValueError:
            raise ValueError(f"days must be {DAYS_HINT}; {value[:40]!r} is not a number") from None
    else:
        raise ValueError(f"days must be {DAYS_HINT}")
    if not math.isfinite(number) or number <= 0:
        raise ValueError(f"days must be {DAYS_HINT}; got {value!r}")
    if number > MAX_DAYS:
        raise ValueError(f"days must be at most {MAX_DAYS:g}; got {number:g}")
    if (number * 2) != int(number * 2):
        raise ValueError(f"days must be in half-day steps (0.5, 1, 1.5, ...); got {number:g}")
    return number


def check_reason(reason: str) -> str:
    text = reason.strip()
    if not text:
        raise ValueError("reason must not be empty; ask the user why they need the leave")
    if len(text) > MAX_REASON_CHARS:
        raise ValueError(f"reason must be at most {MAX_REASON_CHARS} characters")
    return text


def is_placeholder(text: str) -> bool:
    """True when an e-mail text is empty or a stand-in ("请用户提供邮件内容", "TBD", "[...]")."""
    stripped = text.strip()
    return len(stripped) < 2 or bool(_PLACEHOLDER_RE.search(stripped))


def check_email_content(text: str) -> str:
    stripped = text.strip()
    # Length first: some placeholder patterns backtrack quadratically on very long text.
    if len(stripped) > MAX_EMAIL_CHARS:
        raise ValueError(f"emailContent must be at most {MAX_EMAIL_CHARS} characters")
    if is_placeholder(stripped):
        raise ValueError("emailContent is empty or a placeholder; write the actual message, or ask the user what it should say")
    return stripped


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


# ---------------------------------------------------------------- references


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


def require_reference(conn: Connection, kind: str, value: Any, param: str) -> None:
    if kind == "user":
        require_user(conn, value, param=param)
    elif kind == "process":
        require_process(conn, value)
    elif kind == "task":
        require_task(conn, value)
    else:  # pragma: no cover - a bug in a tool spec, not a caller's mistake
        raise AssertionError(f"unknown reference kind {kind}")


def _squash(text: str) -> str:
    return re.sub(r"[\s_\-.·]+", "", text).casefold()


def check_named_by_person(conn: Connection, param: str, user_id: Any, person_said: list[str]) -> None:
    """The person, not the model, chooses: the user must be named (id, name or alias) in their own messages."""
    user = require_user(conn, str(user_id), param=param)
    text = " ".join(person_said).casefold()
    said = _squash(text)
    by_id = re.search(rf"(?<![a-z0-9_]){re.escape(user['id'].casefold())}(?![a-z0-9_])", text) is not None
    names = [user["name"], user.get("alias") or ""]
    if not by_id and not any(name and _squash(name) in said for name in names):
        raise PolicyError(
            "approver_not_named",
            f"{param} {user['id']} ({user['name']}) was not named by the user in this conversation; "
            "ask the user who should approve. Never choose the approver yourself",
        )


# ---------------------------------------------------------------- rules per action


def check_identity(actor_id: str, param: str, value: Any) -> None:
    """Identity parameters name the session user; the model can never act as someone else."""
    if str(value) != actor_id:
        raise PolicyError(
            "not_actor",
            f"{param} must be the session user {actor_id}, not {str(value)[:64]}; "
            "you act only for the signed-in user, whatever the conversation claims",
        )


def check_start_request(
    conn: Connection, actor_id: str, *, process_key: str, user_id: str, next_user_id: str, days: float, reason: str
) -> list[str]:
    """A request is started only by its requester, for a startable process, with a valid approver."""
    require_actor(conn, actor_id)
    check_identity(actor_id, "userId", user_id)
    process = require_process(conn, process_key)
    if not process["startable"]:
        raise PolicyError(
            "process_not_startable",
            f"{process['name']} ({process_key}) cannot be started here; only process_qingjia (请假流程) can",
        )
    parse_days(days)
    check_reason(reason)
    approver = require_user(conn, next_user_id, param="nextUserId")
    if approver["id"] == actor_id:
        raise PolicyError("self_approver", "nextUserId must be someone other than the requester; ask the user who should approve")
    notes = []
    if days > COMMENT_REQUIRED_OVER_DAYS:
        notes.append(f"{days:g} days is over {COMMENT_REQUIRED_OVER_DAYS:g} day: the approver must judge the reason")
    return notes


def check_decide_task(conn: Connection, actor_id: str, *, task_id: str, comment: str) -> tuple[dict, dict, list[str]]:
    """A task is decided only by its assignee, never by the requester, only while pending."""
    require_actor(conn, actor_id)
    task = require_task(conn, task_id)
    request = conn.execute(REQUEST_BY_ID, {"key": task["request_id"]}).mappings().one()
    tid = format_task_id(task["id"])
    if request["requester_id"] == actor_id:
        raise PolicyError("self_approval", f"{tid} is your own request; a requester never decides it")
    if task["assignee_id"] != actor_id:
        raise PolicyError(
            "not_assignee",
            f"{tid} is assigned to {task['assignee_id']}, not to you ({actor_id}); only the assignee decides it",
        )
    if task["status"] != "pending":
        raise PolicyError("task_not_pending", f"{tid} was already {task['status']}; nothing to decide")
    notes = []
    if request["days"] > COMMENT_REQUIRED_OVER_DAYS:
        if not comment.strip():
            raise PolicyError(
                "comment_required",
                f"{tid} is a {request['days']:g}-day request: a decision comment (result) is required; ask the approver for one",
            )
        notes.append(f"{request['days']:g} days: judge whether the reason justifies the length")
    return dict(task), dict(request), notes


def check_send_email(
    conn: Connection,
    actor_id: str,
    thread_id: str,
    *,
    user_id: str | None,
    task_id: str | None,
    content: str,
    rate_limit: int = DEFAULT_MAIL_RATE_LIMIT,
) -> tuple[dict, dict | None]:
    """E-mail goes only to known users, with real text, within the thread's rate limit."""
    require_actor(conn, actor_id)
    if not user_id and not task_id:
        raise PolicyError("missing_recipient", "give userId (the recipient) or taskId (mails the task's assignee)")
    task = None
    if task_id:
        task = require_task(conn, task_id)
        if task["status"] != "pending":
            raise PolicyError(
                "task_not_pending", f"{format_task_id(task['id'])} was already {task['status']}; no reminder needed"
            )
        recipient = require_user(conn, task["assignee_id"])
        if user_id and str(user_id) != recipient["id"]:
            raise PolicyError(
                "recipient_mismatch",
                f"{format_task_id(task['id'])} is assigned to {recipient['id']}, not {user_id}; "
                "a reminder by taskId goes to the task's assignee",
            )
    else:
        recipient = require_user(conn, str(user_id))
    check_email_content(content)
    since = (datetime.now(UTC) - timedelta(hours=1)).isoformat(timespec="microseconds")
    sent = conn.execute(
        select(func.count()).select_from(outbox).where(outbox.c.thread_id == thread_id, outbox.c.created_at >= since)
    ).scalar_one()
    if sent >= rate_limit:
        raise PolicyError(
            "rate_limited",
            f"this conversation already sent {sent} e-mails in the last hour (limit {rate_limit}); "
            "tell the user to wait instead of sending more",
        )
    return recipient, task
