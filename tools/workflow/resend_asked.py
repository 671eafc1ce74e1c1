"""What a message asks when it says to send the person's returned request again ("ugh ok, make it 2 days and send it
back in", "金额改成1050再提交") and the model answered without proposing it: the resend of their one returned
request, proposed as they said, its changes read from their words, to the same guards and card. Read after the
seventy-sixth round's run: the answer said "now 2 days and sent back" with nothing done."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection

from tools.request import Request, latest_message
from tools.workflow.request_lookup import own_pending
from tools.workflow.request_words import RESEND


def resend_asked(conn: Connection, request: Request, actor_id: str,
                 done: Sequence[tuple[str, dict[str, Any]]]) -> dict[str, Any] | None:
    """The resend of the person's one returned request their latest message asks for, where the run sent nothing
    again; None otherwise."""
    if any(tool == "resubmitRequest" for tool, _ in done) or not RESEND.search(latest_message(request)):
        return None
    returned = own_pending(conn, actor_id, ("returned",))
    return {"name": "resubmitRequest", "args": {"requestId": returned[0]["id"]}} if len(returned) == 1 else None
