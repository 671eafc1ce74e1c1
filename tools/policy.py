"""The workflow policy, in one place: called by the validator before approval and by the executor.

Every function reads the store through the caller's connection and raises a `DomainError` subclass
with a stable code and a message that says what to do next. None of them writes.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Connection, bindparam, func, select

from tools import words
from tools.errors import NeedsPersonError, NotFoundError, PolicyError
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


ALL_USERS = select(users).order_by(users.c.id)
MAX_CHOICES = 8
"""Users offered by name when the person is asked who approves."""
RECENT_MESSAGES = 6
"""How many of the person's latest messages count as what they said (days, reasons, e-mail texts)."""


def describe_user(user: dict[str, Any]) -> str:
    return f"{user['name']}（{user['id']}，{user['email']}）"


def _mention_strength(text: str, user: dict[str, Any]) -> int:
    """How the text names the user: 2 by id or e-mail (unique), 1 by display name or alias, 0 not at all."""
    if re.search(rf"(?<![a-z0-9_]){re.escape(user['id'])}(?![a-z0-9_])", text, re.IGNORECASE):
        return 2
    if user.get("email") and user["email"].casefold() in text.casefold():
        return 2
    return 1 if _name_spans(text, user) else 0


def _name_pattern(name: str) -> str:
    """A name as written: Chinese names anywhere (spaces allowed between characters), Latin ones as words."""
    parts = [re.escape(p) for p in re.split(r"\s+", name.strip()) if p]
    if all(p.isascii() for p in parts):
        return r"(?<![a-z0-9_])" + r"\s*".join(parts) + r"(?![a-z0-9_])"
    return r"\s*".join(re.escape(ch) for ch in re.sub(r"\s+", "", name))


def _name_spans(text: str, user: dict[str, Any]) -> list[tuple[int, int]]:
    spans = []
    for name in (user["name"], user.get("alias") or ""):
        if name.strip():
            spans += [m.span() for m in re.finditer(_name_pattern(name), text, re.IGNORECASE)]
    return spans


def _mention_spans(text: str, user: dict[str, Any]) -> list[tuple[int, int]]:
    """Where the text names the user (id, e-mail, name or alias as written)."""
    spans = _name_spans(text, user)
    for key in (user["id"], user.get("email") or ""):
        if key:
            spans += [m.span() for m in re.finditer(re.escape(key), text, re.IGNORECASE)]
    return spans


def _named_in(text: str, candidates: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The candidates a text names; naming by id or e-mail is exact, so it outranks naming by name."""
    strength = {u["id"]: _mention_strength(text, u) for u in candidates}
    best = max(strength.values(), default=0)
    return [u for u in candidates if best and strength[u["id"]] == best]


_APPROVER_CUE = re.compile(r"审批|批准|审核|approv", re.IGNORECASE)
CUE_WINDOW = 14
"""Characters around a name searched for an approver cue ("李四审批", "approver Wang Wu")."""


def _cued_as_approver(text: str, user: dict[str, Any]) -> bool:
    for start, end in _mention_spans(text, user):
        if _APPROVER_CUE.search(text[max(0, start - CUE_WINDOW) : end + CUE_WINDOW]):
            return True
    return False


def users_named(conn: Connection, text: str, actor_id: str) -> list[dict[str, Any]]:
    """The users (other than the actor) a text names by id, e-mail, name or alias (exact naming first)."""
    return _named_in(text, [dict(u) for u in conn.execute(ALL_USERS).mappings() if u["id"] != actor_id])


def resolve_user(conn: Connection, value: Any, *, param: str = "userId") -> dict[str, Any]:
    """The user a parameter means: a userId, or a display name, alias or e-mail that fits exactly one user.

    A name shared by several users is never resolved by choice: the person is asked which one they mean.
    """
    text = str(value).strip()
    row = conn.execute(USER_BY_ID, {"key": text}).mappings().first()
    if row is not None:
        return dict(row)
    flat = words.squash(text)
    matches = [
        dict(u) for u in conn.execute(ALL_USERS).mappings()
        if flat and flat in {words.squash(u["name"]), words.squash(u.get("alias") or ""), words.squash(u["email"] or "")}
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
    named = {u["id"] for u in _named_in(text, [requesters[t["requester_id"]] for t in pending])}
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


def named_as_approver(conn: Connection, person_said: list[str], actor_id: str | None) -> list[dict[str, Any]]:
    """The users the person's latest message naming anybody (but the actor) names; of several, the one named
    as approver ("Li Si rejected it; Wang Wu approves") when exactly one is."""
    others = [dict(u) for u in conn.execute(ALL_USERS).mappings() if u["id"] != actor_id]
    for text in reversed(person_said):
        named = _named_in(text, others)
        if len(named) > 1:
            cued = [u for u in named if _cued_as_approver(text, u)]
            named = cued if len(cued) == 1 else named
        if named:
            return named
    return []


def approver_named(conn: Connection, person_said: list[str], actor_id: str) -> str | None:
    """The one user the person named as approver, if they named exactly one."""
    named = named_as_approver(conn, person_said, actor_id)
    return str(named[0]["id"]) if len(named) == 1 else None


def check_named_by_person(
    conn: Connection, param: str, user_id: Any, person_said: list[str], *, actor_id: str | None = None
) -> None:
    """The person, not the model, chooses: the user must be the one named in the person's latest message
    that names anybody (by id, e-mail, name or alias). If that message names several, the person is asked."""
    user = require_user(conn, str(user_id), param=param)
    named = named_as_approver(conn, person_said, actor_id)
    if [u["id"] for u in named] == [user["id"]]:
        return
    if any(u["id"] == user["id"] for u in named):
        choices = tuple(describe_user(u) for u in named)
        shared = {u["name"] for u in named}
        raise NeedsPersonError(
            "approver_not_named",
            f"the user named {len(named)} people ({', '.join(choices)}); ask the user which one should approve",
            ask="which_user" if len(shared) == 1 else "which_of", param=param, choices=choices, name=user["name"],
        )
    raise NeedsPersonError(
        "approver_not_named",
        f"{param} {user['id']} ({user['name']}) was not named by the user in this conversation; "
        "ask the user who should approve. Never choose the approver yourself",
        ask="approver",
        param=param,
        choices=tuple(describe_user(u) for u in named) if len(named) > 1 else approver_choices(conn, actor_id or ""),
    )


def asks_for(intent: Sequence[str], text: str) -> bool:
    """Whether the text matches one of a write's intent patterns."""
    return any(re.search(pattern, text, re.IGNORECASE) for pattern in intent)


def check_requested(tool: str, intent: Sequence[str], request: list[str]) -> None:
    """A write is proposed only when the person's request asks for that kind of thing."""
    if intent and not asks_for(intent, " ".join(request)):
        raise PolicyError(
            "not_requested",
            f"the user did not ask for {tool}; do only what the user asked: answer their question instead",
        )


def without_names(conn: Connection, text: str) -> str:
    """The text without the users' names (张三's 三 is no number of days)."""
    for user in conn.execute(ALL_USERS).mappings():
        text = re.sub(_name_pattern(user["name"]), " ", text)
    return text


def check_days_said(conn: Connection, param: str, days: float, person_said: list[str]) -> None:
    """The number of days must be one the person stated (10, 十, 两, 半天 …); else they are asked."""
    said: set[float] = set()
    for text in person_said[-RECENT_MESSAGES:]:
        said |= words.numbers_said(without_names(conn, text))
    if days not in said:
        raise NeedsPersonError(
            "days_not_given", f"{param} {days:g} was not said by the user; ask the user how many days", ask="days",
            param=param,
        )


def check_text_said(
    param: str, text: str, person_said: list[str], *, ask: str, shown: Sequence[str] = ()
) -> None:
    """A reason or an e-mail's text must be the person's own words, or words the person was shown and
    answered (a draft they confirmed), never the model's alone; else they are asked."""
    said = "\n".join([*person_said[-RECENT_MESSAGES:], *shown[-RECENT_MESSAGES:]])
    if ask == "reason":
        # A reason translated from the person's language cannot be matched word for word; it still has to
        # say something (not just "leave").
        ok = words.is_reason_said(text, said) or (
            words.has_cjk(text) != words.has_cjk(person_said[-1] if person_said else "") and bool(words.content_tokens(text))
        )
    else:
        ok = words.is_text_said(text, said, share=0.6)
    if not ok:
        what = "the reason" if ask == "reason" else "what the e-mail should say"
        raise NeedsPersonError(
            f"{ask}_not_given", f"{param} was not given by the user; ask the user {what}", ask=ask, param=param
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
        raise NeedsPersonError(
            "self_approver", "nextUserId must be someone other than the requester; ask the user who should approve",
            ask="approver", param="nextUserId", choices=approver_choices(conn, actor_id),
        )
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
            raise NeedsPersonError(
                "comment_required",
                f"{tid} is a {request['days']:g}-day request: a decision comment (result) is required; ask the approver for one",
                ask="comment", param="result",
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
