"""What a requester's message still asks for once one of its writes was made: a new request in place of the one it
withdrew ("金额填错了，撤回，重新报一笔 580 元的", "pull it back and file a new one for next Wednesday instead").

Read after the thirty-first round's run: the withdrawal was made, and the new request the same message asked for was
dropped (a small model's run ends after a write). The rule, as a person would state it: a message that withdraws a
request and asks for a new one in its place files the new one after the withdrawal, with the withdrawn request's
values and what the message says differently. The values it says are the person's words (the admission guards read
them and put them in place of the old ones: "580 元" over the old 500); the rest are the old request's, shown on the
start card as every value is, for the person to confirm or change. A new one put off ("I'll file a new one later")
is not proposed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection

from tools.errors import DomainError
from tools.request import Request, latest_message
from tools.workflow.decision_asked import decision_asked
from tools.workflow.deputy_asked import deputy_asked
from tools.workflow.each_own import next_asked as next_decided
from tools.workflow.each_own_request import next_start
from tools.workflow.own_approval import own_approval_asked
from tools.workflow.request_lookup import require_request
from tools.workflow.resend_asked import resend_asked
from tools.workflow.start_asked import start_asked
from tools.workflow.urge_asked import urge_asked

_NEW_ONE = re.compile(
    r"重新(?:报|提|申请|发起?|提交|请|开|填|走|弄|做)|再(?:报|提|申请|发起?|提交|请|开|填)(?:一|个|份|笔|张|条)|"
    r"另(?:外)?(?:报|提|起|开|请|申请)|"
    r"\b(?:re-?file|re-?submit|re-?apply|re-?do)\b|"
    r"\b(?:file|submit|put\s+in|raise|start|make|send|open|lodge|create|enter|do)\b[^.;!?]{0,30}"
    r"\b(?:new|another|fresh|corrected|correct|right)\b|\b(?:new|corrected|fresh)\s+one\b",
    re.IGNORECASE,
)
"""Words that ask for a new request in place of the one withdrawn; not what changed alone ("搬家改到月底了" moves the
move, and files nothing)."""
_PUT_OFF = re.compile(
    r"回头|以后|晚点|过两天|改天|我自己|先不|到时候|再说|\blater\b|\bI'?ll\b|\bI\s+will\b|\bmyself\b|\bnot\s+yet\b",
    re.IGNORECASE)
"""Words that leave the new one to the person ("撤回，回头我自己重新提", "withdraw it, I'll file a new one later")."""
_OWN = ("reason", "days")
"""The values of a start that are parameters of their own; the form's others go in `fields`."""


def withdrawn_in_run(done: Sequence[tuple[str, dict[str, Any]]]) -> str | None:
    """The request the run withdrew last, unless a request was started after it (the new one was filed); None when
    the run withdrew none."""
    withdrawn: str | None = None
    for tool, result in done:
        if tool == "withdrawRequest" and result.get("requestId"):
            withdrawn = str(result["requestId"])
        elif tool == "runWorkFlow":
            withdrawn = None
    return withdrawn


def asks_new_one(text: str) -> bool:
    """Whether the message asks for a new request (in place of one withdrawn), not put off."""
    return bool(_NEW_ONE.search(text)) and not _PUT_OFF.search(text)


def refile_asked(conn: Connection, request: Request, done: Sequence[tuple[str, dict[str, Any]]]) -> dict[str, Any] | None:
    """The start the latest message asks for in place of the request the run withdrew (`runWorkFlow` with the
    withdrawn request's process and values), or None."""
    withdrawn = withdrawn_in_run(done)
    if withdrawn is None or not asks_new_one(latest_message(request)):
        return None
    try:
        old = require_request(conn, withdrawn)
    except DomainError:
        return None
    data = old["view"].data
    fields = {k: v for k, v in old["form"].items() if k not in _OWN and v is not None}
    own = {k: data[k] for k in _OWN if data.get(k) is not None}
    # who decides is named anew (the approver guard asks, or reads "还是李四审批"); the rest are the old request's
    kept = {**own, **{f"fields.{k}": v for k, v in fields.items()}}
    return {"name": "runWorkFlow", "args": {"processKey": old["process_key"], **own, "fields": fields}, "kept": kept}


def next_asked(conn: Connection, request: Request, actor_id: str,
               done: Sequence[tuple[str, dict[str, Any]]]) -> dict[str, Any] | None:
    """The workflow's next asked write (`Toolset.asked_next`): the new request in place of one withdrawn, else the other
    process's request of a message that asks for two (`each_own_request.next_start`), else the next to-do the message
    decides (`tools.workflow.each_own.next_asked`), else their own request's approval asked beside (refused:
    `own_approval`), else the start asked beside look-ups (`start_asked`), else the reminder asked beside a look-up of
    their requests (`urge_asked`), else the decision asked beside a look-up of their to-dos (`decision_asked`), else
    the deputy named beside a write (`deputy_asked`), else the resend of their returned request (`resend_asked`)."""
    return (refile_asked(conn, request, done) or next_start(conn, request, done)
            or next_decided(conn, request, actor_id, done) or own_approval_asked(conn, request, actor_id, done)
            or start_asked(conn, request, done) or urge_asked(conn, request, actor_id, done)
            or decision_asked(conn, request, actor_id, done) or deputy_asked(conn, request, actor_id, done)
            or resend_asked(conn, request, actor_id, done))
