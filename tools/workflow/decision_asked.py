"""What a message still asks once its question about the person's to-dos was looked up: the decision it asks for in
the same breath ("王五那笔报销帮我批了，还有啥待办？", "approve Zhao Liu's taxi claim, and what else is waiting for
me?"). Read after the sixty-fifth round's run: the to-dos were listed and the decision never proposed. Where the run
looked up to-dos only and decided nothing, and a clause of the person's latest message decides the to-do of the one
requester it names, whose one to-do waits on them (of the process it names, if any), that decision is proposed as they
said it, to the same guards and card."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection

from tools.request import Request, latest_message
from tools.workflow import lookup
from tools.workflow.request_lookup import processes_named
from tools.workflow.words import ASKED, CHINESE_SPACE, decision_in

_LOOKS = frozenset({"queryTodoTask", "viewTask"})
"""The look-ups of to-dos a decision may be asked beside."""
_CLAUSE_END = re.compile(rf"[，,;；。!！?？]+|{CHINESE_SPACE}")
"""Where a clause ends: a comma or a stop, or a space between Chinese words (a message typed without commas)."""


def decision_asked(conn: Connection, request: Request, actor_id: str,
                   done: Sequence[tuple[str, dict[str, Any]]]) -> dict[str, Any] | None:
    """The decision the person's latest message asks for beside its look-up of their to-dos; None otherwise."""
    if not done or any(tool not in _LOOKS for tool, _ in done):
        return None
    latest = latest_message(request)
    decided = [c for c in (c.strip() for c in _CLAUSE_END.split(latest)) if c and decision_in(c) is not None
               and not ASKED.search(c)]  # no decision, or one asked about ("王五的报销批了没")
    found = [(clause, named) for clause in decided if (named := _named(request, actor_id, clause))]
    if not found and len({decision_in(c) for c in decided}) == 1 and len(everyone := _named(request, actor_id, latest)) == 1:
        found = [(decided[-1], everyone)]  # "张三的事假我看了，没问题，给他批了吧": one decision, on the one person named
    if len(found) != 1 or len(found[0][1]) != 1:
        return None
    clause, [named_one] = found[0]
    whose = clause if _named(request, actor_id, clause) else latest  # the processes it names, where it names them
    keys = processes_named(conn, whose)
    todos = [t.id for t in lookup.todos_from(conn, actor_id, named_one) if not keys or t.process_key in keys]
    if len(todos) != 1:
        return None
    return {"name": "handleTodoTask", "args": {"taskId": todos[0], "isOK": decision_in(clause)}}


def _named(request: Request, actor_id: str, text: str) -> list[str]:
    """The people other than the one asking whom the text names (by name or alias)."""
    return [person_id for person_id, person in request["names"].items() if person_id != actor_id
            and any(n and n.casefold() in text.casefold() for n in (person.get("name"), person.get("alias")))]
