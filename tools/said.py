"""Whether a value is the person's: the approver, the days and the texts of a write must come from what the
person said, never from the model alone; else the person is asked (`NeedsPersonError`).

`tools.words` reads the words; this module holds the checks the runtime runs on the validator's path, where
the conversation is known (the executor runs a call the person already approved).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection

from tools.errors import NeedsPersonError, PolicyError
from tools.lookup import ALL_USERS, approver_choices, describe_user, mention_spans, name_pattern, named_in, require_user
from tools.words import content_tokens, has_cjk, is_reason_said, is_text_said, numbers_said

RECENT_MESSAGES = 6
"""How many of the person's latest messages count as what they said (days, reasons, e-mail texts)."""

_APPROVER_CUE = re.compile(r"审批|批准|审核|approv", re.IGNORECASE)
CUE_WINDOW = 14
"""Characters around a name searched for an approver cue ("李四审批", "approver Wang Wu")."""


def _cued_as_approver(text: str, user: dict[str, Any]) -> bool:
    for start, end in mention_spans(text, user):
        if _APPROVER_CUE.search(text[max(0, start - CUE_WINDOW) : end + CUE_WINDOW]):
            return True
    return False


def named_as_approver(conn: Connection, person_said: list[str], actor_id: str | None) -> list[dict[str, Any]]:
    """The users the person's latest message naming anybody (but the actor) names; of several, the one named
    as approver ("Li Si rejected it; Wang Wu approves") when exactly one is."""
    others = [dict(u) for u in conn.execute(ALL_USERS).mappings() if u["id"] != actor_id]
    for text in reversed(person_said):
        named = named_in(text, others)
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
        text = re.sub(name_pattern(user["name"]), " ", text)
    return text


def check_days_said(conn: Connection, param: str, days: float, person_said: list[str]) -> None:
    """The number of days must be one the person stated (10, 十, 两, 半天 …); else they are asked."""
    said: set[float] = set()
    for text in person_said[-RECENT_MESSAGES:]:
        said |= numbers_said(without_names(conn, text))
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
        ok = is_reason_said(text, said) or (
            has_cjk(text) != has_cjk(person_said[-1] if person_said else "") and bool(content_tokens(text))
        )
    else:
        ok = is_text_said(text, said, share=0.6)
    if not ok:
        what = "the reason" if ask == "reason" else "what the e-mail should say"
        raise NeedsPersonError(
            f"{ask}_not_given", f"{param} was not given by the user; ask the user {what}", ask=ask, param=param
        )
