"""What a message still asks once the person's requests were looked up: the reminder it asks for beside its question
("我那笔报销现在到哪一步了？要是还卡在王五那儿，帮我催一下", "where's my trip request at? if Li Si still has it, nudge
him"). Read after the forty-second round's run: the request was looked up and told, and no reminder was proposed.
Where the run looked up the person's own requests and wrote nothing, and their latest message asks to remind its
approver, the reminder of the one request still waiting that their words fit is proposed, to its card; none when
several fit, or when the person they name as its holder holds it no longer (the answer then says who does)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection

from tools.request import Request, latest_message
from tools.workflow.lookup import engine_of
from tools.workflow.request_lookup import processes_named
from tools.workflow.words import URGE_WORDS


def urge_asked(conn: Connection, request: Request, actor_id: str,
               done: Sequence[tuple[str, dict[str, Any]]]) -> dict[str, Any] | None:
    """The reminder the person's latest message asks for beside its look-up of their requests; None otherwise."""
    looked = [result for tool, result in done if tool == "queryMyRequests"]
    if request["kind"] != "action" or not looked or any(tool != "queryMyRequests" for tool, _ in done):
        return None
    latest = latest_message(request)
    if not URGE_WORDS.search(latest):
        return None
    keys, engine = processes_named(conn, latest), engine_of(conn)
    holders = [name for person_id, person in request["names"].items() if person_id != actor_id
               for name in (person.get("name"), person.get("alias")) if name and name in latest]
    fit = [item for item in looked[-1].get("requests", []) if item.get("heldBy")
           and (not keys or engine.instance(conn, item["requestId"]).process_key in keys)]
    if len(fit) != 1 or (holders and not any(name in fit[0]["heldBy"] for name in holders)):
        return None
    return {"name": "urgeTask", "args": {"requestId": fit[0]["requestId"]}}
