"""What a message still asks once its other write is made: a deputy named in the same breath ("Approve every leave
waiting on me … and have Wang Wu handle my approvals while I'm away"; "待办的请假都批了，这几天的审批让王五帮我顶一下").
Read after the seventy-fifth round's run: the batch was decided and the deputy never proposed. Where the run made a
write and named no deputy, and the person's latest message names one colleague as taking over their approvals, that
deputy is proposed as they said it, its days read from their words, to the same guards and card."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection

from tools.request import Request, latest_message, persons_in_latest
from tools.workflow.approver_words import named_as_taker
from tools.workflow.words import APPROVALS, DEPUTY

_WRITES = frozenset({"decideTasks", "handleTodoTask", "returnTask", "transferTask", "runWorkFlow", "urgeTask",
                     "withdrawRequest", "resubmitRequest"})


def deputy_asked(conn: Connection, request: Request, actor_id: str,
                 done: Sequence[tuple[str, dict[str, Any]]]) -> dict[str, Any] | None:
    """The deputy the latest message names beside the write the run made; None otherwise."""
    del conn  # the taker is read from the words and the directory the request holds
    tools = {tool for tool, _ in done}
    if not tools & _WRITES or "setDeputy" in tools:
        return None
    latest = latest_message(request)
    if not DEPUTY.search(latest) or not APPROVALS.search(latest):
        return None
    takers = named_as_taker(latest, persons_in_latest(request, but=actor_id))
    return {"name": "setDeputy", "args": {"deputyUserId": takers[0]["id"]}} if len(takers) == 1 else None
