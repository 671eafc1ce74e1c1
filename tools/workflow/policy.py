"""The workflow policy, in one place: the rules a value or an action must meet.

The runtime runs them on both paths, the validator's (read-only, before approval) and the executor's (in
the write's own transaction, right before the effect). Who is who (users, tasks by id or by name) is
`tools.workflow.lookup`; whether a value is the person's own is `tools.grounding`; a process's start form is
`tools.workflow.forms`. Every function raises a
`DomainError` subclass with a stable code and a message that says what to do next. None of them writes.
"""

from __future__ import annotations

import math
import re
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Connection, func, select

from tools.errors import CannotError, NeedsPersonError, PolicyError
from tools.workflow.engine.records import Definition
from tools.workflow.lookup import approver_choices, display_name, engine_of, group_label, require_user
from tools.workflow.store import SYSTEM_SENDER, outbox
from tools.workflow.views import COMMENT_REQUIRED_OVER_DAYS, duration_days

MAX_DAYS = 365.0
MAX_REASON_CHARS = 2000
MAX_EMAIL_CHARS = 5000
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



# ---------------------------------------------------------------- value rules


def parse_days(value: Any, *, bounded: bool = True) -> float:
    """A number of days as the model may send it (3, 1.5, "10"): a finite number up to `MAX_DAYS` (any, not
    `bounded`). Whether the process takes days at all, and which (more than 0, in half-day steps, at most a year for a
    leave), is its form's rule: a trip or an expense claim leaves them out whatever they are (a model that put the
    claim's 1200 yuan in `days`), and a leave's form refuses 1.2 or -1 in the person's words."""
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
    if not math.isfinite(number):
        raise ValueError(f"days must be {DAYS_HINT}; got {value!r}")
    if bounded and abs(number) > MAX_DAYS:
        raise ValueError(f"days must be at most {MAX_DAYS:g}; got {number:g}")
    return number


def check_reason(reason: str) -> str:
    text = reason.strip()
    if not text:
        raise ValueError("reason must not be empty; ask the user for the reason")
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


# ---------------------------------------------------------------- rules per action
# The runtime has already checked the actor, turned names into ids, checked identity parameters and looked
# up every referenced record; each rule gets those records and checks only what is its own.


NOTES = {
    "zh": {
        "long_start": "{what} {days:g} 天，超过 {limit:g} 天：审批人需要判断{reason}是否充分",
        "long_decide": "{days:g} 天：请判断理由是否足以支持这个时长",
        "group_task": "这一步交给 {group}：组内第一个决定的人处理它",
        "email_to": "发给 {name} <{email}>",
    },
    "en": {
        "long_start": "{what} of {days:g} days, over {limit:g} day: the approver must judge whether its reason is enough",
        "long_decide": "{days:g} days: judge whether the reason justifies the length",
        "group_task": "this step is offered to {group}: the first member to decide takes it",
        "email_to": "to {name} <{email}>",
    },
}
"""Policy notes shown on cards and results, in the person's language."""


def policy_note(key: str, lang: str, **values: Any) -> str:
    return NOTES["en" if lang == "en" else "zh"][key].format(**values)


def check_start_request(
    conn: Connection, actor_id: str, *, process: dict[str, Any], approver: dict[str, Any], days: float | None,
    lang: str = "zh",
) -> list[str]:
    """A request is started only with an approver who is not the requester (its form is checked by
    `tools.workflow.forms`, where the process is looked up)."""
    if approver["id"] == actor_id:
        raise NeedsPersonError(
            "self_approver", "nextUserId must be someone other than the requester; ask the user who should approve",
            ask="approver", param="nextUserId", choices=approver_choices(conn, actor_id, lang),
        )
    notes = []
    if days is not None and days > COMMENT_REQUIRED_OVER_DAYS:
        notes.append(policy_note("long_start", lang, days=days, limit=COMMENT_REQUIRED_OVER_DAYS,
                                 **_long_words(process["definition"], lang)))
    return notes


def _long_words(definition: Definition, lang: str) -> dict[str, str]:
    """What is long and what the approver judges, in the process's own words: a trip's card says 出差 and 出差事由, not
    the leave's words (the eighty-fifth round's writer read a trip's note as a rule of leave)."""
    reason = next((f for f in definition.fields if f.id == "reason"), None)
    if lang == "en":
        return {"what": definition.name_en or definition.name}
    return {"what": definition.name.removesuffix("流程"), "reason": reason.label if reason else "理由"}


def decided(task: dict[str, Any]) -> str:
    """What became of a task that is no longer pending: approved, rejected, or cancelled."""
    if task["status"] == "completed":
        return "approved" if task.get("approved") else "rejected"
    return str(task["status"])


def task_days(conn: Connection, task: dict[str, Any]) -> float | None:
    """How long the task's request lasts (its days, or its dates' calendar days), from its process's form."""
    definition = engine_of(conn).definition(conn, task["process_key"], task["process_version"])
    return duration_days(task["form"], definition.fields)


def may_decide(task: dict[str, Any], actor_id: str) -> bool:
    """Whether the actor may decide the task at all (`check_decide_task` says why not)."""
    return task["requester"] != actor_id and actor_id in task["offered"] and task["status"] == "ready"


def check_task_holder(actor_id: str, task: dict[str, Any], conn: Connection | None = None) -> None:
    """A step is decided or sent back only by a user it is offered to, never by the requester of its request (not even
    as a group member: said to them, with who holds it when `conn` is given), only while it waits: once sent back to
    the requester it is gone (`task_returned`), and the request is decided again only on the new step its resubmission
    makes."""
    tid = task["id"]
    if task["requester"] == actor_id:
        holder = {lang: _holder(conn, task, lang) for lang in ("zh", "en")}
        raise CannotError("self_approval", f"{tid} belongs to your own request; a requester never decides any of its "
                          "steps", say={
                              "zh": f"这是你自己的申请，不能自己审批：它在等{holder['zh'] or '审批人'}审批。如果着急，"
                                    f"可以催办提醒{holder['zh'] or '审批人'}。",
                              "en": f"This is your own request, so you cannot approve it: it is waiting for "
                                    f"{holder['en'] or 'its approver'}. If it is urgent, you can send "
                                    f"{holder['en'] or 'them'} a reminder."})
    if actor_id not in task["offered"]:
        to = task["assignee"] or ", ".join([*task["candidate_users"], *(f"group {g}" for g in task["candidate_groups"])])
        raise PolicyError(
            "not_assignee", f"{tid} ({task['step']}) is offered to {to}, not to you ({actor_id}); only they decide it",
        )
    if task["status"] == "returned":
        raise PolicyError(
            "task_returned", f"{tid} was sent back to its requester and is gone; the request is decided again only "
            "after they resubmit it (a new task then waits); tell the user so",
        )
    if task["status"] != "ready":
        raise PolicyError("task_not_pending", f"{tid} was already {decided(task)}; nothing to decide")


def check_withdraw(actor_id: str, request: dict[str, Any]) -> None:
    """A request is withdrawn only by its requester (whatever the conversation or a request's text says), only while
    it is pending: running, or sent back to them."""
    rid = request["id"]
    if request["requester"] != actor_id:
        raise PolicyError("not_requester", f"{rid} is someone else's request; only its requester withdraws it")
    if request["status"] not in ("running", "returned"):
        raise PolicyError("request_not_pending", f"{rid} already ended ({request['status']}); nothing to withdraw")


def check_resubmit(actor_id: str, request: dict[str, Any]) -> None:
    """A request is resubmitted only by its requester, only after a step sent it back to them."""
    rid = request["id"]
    if request["requester"] != actor_id:
        raise PolicyError("not_requester", f"{rid} is someone else's request; only its requester resubmits it")
    if request["status"] != "returned":
        key = request.get("process_key")  # withdrawn or rejected: filed again as a new request of its process
        again = request["status"] in ("withdrawn", "rejected", "cancelled") and key
        raise PolicyError("request_not_returned", f"{rid} is {request['status']}, not sent back: only a request an "
                          "approver returned is changed and sent again" + (
                              f"; to file it anew, call runWorkFlow with processKey {key}" if again else ""),
                          instead={"name": "runWorkFlow", "args": {"processKey": key}} if again else None)


def _holder(conn: Connection | None, task: dict[str, Any], lang: str) -> str:
    """Who the step waits on, by name in the reader's language ("" when not known)."""
    if conn is None:
        return ""
    ids = [task["assignee"]] if task.get("assignee") else list(task.get("candidate_users") or [])
    names = [display_name(require_user(conn, i), lang) for i in ids[:3]]
    return ("、" if lang == "zh" else ", ").join(names) or ("、" if lang == "zh" else ", ").join(
        group_label(conn, g, lang) for g in task.get("candidate_groups") or [])  # 财务, not the group's id "finance"


def check_decide_task(
    conn: Connection, actor_id: str, *, task: dict[str, Any], comment: str, lang: str = "zh"
) -> list[str]:
    """A task is decided only by a user it is offered to (its assignee, a candidate, a member of a candidate group),
    never by the requester of its request (not even as a group member), only while pending (`check_task_holder`); a
    request over one day needs a comment with every decision. Returns the notes for the card."""
    check_task_holder(actor_id, task, conn)
    tid = task["id"]
    notes = []
    if task["candidate_groups"] and not task["assignee"]:
        groups = ("、" if lang == "zh" else ", ").join(group_label(conn, g, lang) for g in task["candidate_groups"])
        notes.append(policy_note("group_task", lang, group=groups))
    days = task_days(conn, task)
    if days is not None and days > COMMENT_REQUIRED_OVER_DAYS:
        if not comment.strip():
            raise NeedsPersonError(
                "comment_required",
                f"{tid} is a {days:g}-day request: a decision comment (result) is required; ask the approver for one",
                ask="comment", param="result",
            )
        notes.append(policy_note("long_decide", lang, days=days))
    return notes


def check_send_email(
    conn: Connection,
    thread_id: str,
    *,
    user: dict[str, Any] | None,
    task: dict[str, Any] | None,
    rate_limit: int = DEFAULT_MAIL_RATE_LIMIT,
) -> dict[str, Any]:
    """E-mail goes only to known users (a reminder to its task's assignee), within the thread's rate limit;
    returns the recipient. The text itself is checked by the argument model (`check_email_content`)."""
    if user is None and task is None:
        raise PolicyError("missing_recipient", "give userId (the recipient) or taskId (mails the task's assignee)")
    if task is not None:
        if task["status"] != "ready":
            raise PolicyError("task_not_pending", f"{task['id']} was already {decided(task)}; no reminder needed")
        offered = task["offered"]
        if user is not None:
            if user["id"] not in offered:
                raise PolicyError(
                    "recipient_mismatch",
                    f"{task['id']} is offered to {', '.join(offered)}, not {user['id']}; "
                    "a reminder by taskId goes to whoever decides the task",
                )
            recipient = user
        elif len(offered) == 1:
            recipient = require_user(conn, offered[0])
        else:
            names = tuple(require_user(conn, o)["name"] for o in offered)
            raise NeedsPersonError(
                "which_recipient", f"{task['id']} is offered to several people ({', '.join(offered)}); ask the user whom "
                "to remind", ask="recipient", param="userId", choices=names,
            )
    else:
        assert user is not None
        recipient = user
    since = (datetime.now(UTC) - timedelta(hours=1)).isoformat(timespec="microseconds")
    sent = conn.execute(
        select(func.count()).select_from(outbox).where(
            outbox.c.thread_id == thread_id, outbox.c.created_at >= since, outbox.c.sender_id != SYSTEM_SENDER
        )
    ).scalar_one()
    if sent >= rate_limit:
        raise PolicyError(
            "rate_limited",
            f"this conversation already sent {sent} e-mails in the last hour (limit {rate_limit}); "
            "tell the user to wait instead of sending more",
        )
    return recipient
