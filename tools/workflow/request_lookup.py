"""A person's request, looked up by its id (req_3) or by what the person calls it ("my leave", 报销申请, "the trip"):
by name only among their own pending requests, so nothing another person wrote (a reason, a name) can point a
requester's action at someone else's request; by id any request, for the policy to refuse what is not theirs."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, select

from tools import words
from tools.errors import NeedsPersonError, NotFoundError, PolicyError
from tools.workflow.engine import Definition, EngineError, InstanceView, format_instance_id
from tools.workflow.engine import tables as t
from tools.workflow.lookup import engine_of
from tools.workflow.shown import form_words
from tools.workflow.store import users

_REQUEST_ID = re.compile(r"^\s*(?:req|request)[_\-\s]?(?P<num>\d{1,12})\s*$", re.IGNORECASE)
PENDING = ("running", "returned")
"""The statuses of a request its requester may still act on (withdraw; resubmit when returned)."""


def request_record(view: InstanceView, definition: Definition) -> dict[str, Any]:
    """A request as the requester's tools use it: the engine's view, its definition, and the plain values policy reads."""
    return {"id": view.id, "requester": view.requester, "status": view.status, "process_key": view.process_key,
            "version": view.version, "form": {f.id: view.data.get(f.id) for f in definition.fields}, "view": view,
            "definition": definition}


def require_request(conn: Connection, request_id: str, *, param: str = "requestId") -> dict[str, Any]:
    """A request by its id (`unknown_request` when there is none)."""
    engine = engine_of(conn)
    try:
        view = engine.instance(conn, request_id)
    except EngineError:
        raise NotFoundError("unknown_request", f"{param} {str(request_id)[:40]} is no request; call queryMyRequests "
                            "to list the user's own") from None
    return request_record(view, engine.definition(conn, view.process_key, view.version))


def requester_name(conn: Connection, request_id: str, *, but: str) -> str | None:
    """The name of the requester of the request an id names, unless it is `but` (the actor); None when the id names no
    request."""
    try:
        request = require_request(conn, request_id.strip())
    except NotFoundError:
        return None
    if request["requester"] == but:
        return None
    person = conn.execute(select(users.c.name).where(users.c.id == request["requester"])).scalar()
    return str(person) if person else None


def naming_words(definition: Definition) -> tuple[str, ...]:
    """The words a person names a process by: its BPMN `words`, its name with and without 流程, its English name."""
    return (*definition.words, definition.name, definition.name.removesuffix("流程"), definition.name_en)


def _choice(request: dict[str, Any], lang: str) -> str:
    """A request to choose among several, in the reader's words: req_3（请假流程：请假天数：2 天；…）."""
    definition: Definition = request["definition"]
    what = form_words(request["form"], definition, lang)
    if lang == "en":
        return f"{request['id']} ({definition.name_en or definition.name}: {what})"
    return f"{request['id']}（{definition.name}：{what}）"


def _named(definition: Definition, text: str) -> bool:
    return any(words.names_term(w, text) for w in naming_words(definition) if w)


def _head_named(request: dict[str, Any], text: str) -> bool:
    """Whether the words name the request's process by the last word of its English name ("my trip" of a Business
    trip, "the claim" of an Expense claim; never "request")."""
    head = ((request["definition"].name_en or "").split() or [""])[-1].casefold()
    return head not in ("", "request") and re.search(rf"\b{re.escape(head)}s?\b", text.casefold()) is not None


def value_named(request: dict[str, Any], text: str) -> bool:
    """Whether the words name one of the request's written values (its destination "Beijing", its type 事假), not a
    number (a day count or an amount is no name)."""
    return any(isinstance(value, str) and len(value.strip()) >= 2 and not re.fullmatch(r"[\d\s.,:-]+", value)
               and words.names(value.strip(), text) for value in request["form"].values())


def processes_named(conn: Connection, text: str) -> set[str]:
    """The keys of the processes the text names (请假, "expense claim")."""
    return processes_named_in(engine_of(conn).definitions(conn), text)


def processes_named_in(definitions: Sequence[Definition], text: str) -> set[str]:
    """The keys of those of `definitions` the text names (for several texts read against one reading of them)."""
    return {d.key for d in definitions if _named(d, text)}


def own_pending(conn: Connection, actor_id: str, statuses: tuple[str, ...] = PENDING) -> list[dict[str, Any]]:
    """The actor's own requests in `statuses`, oldest first."""
    i = t.instances
    ids = conn.execute(
        select(i.c.id).where(i.c.requester == actor_id, i.c.status.in_(statuses)).order_by(i.c.id)
    ).scalars().all()
    return [require_request(conn, format_instance_id(number)) for number in ids]


def _ended(conn: Connection, actor_id: str, text: str, statuses: tuple[str, ...]) -> str:
    """The actor's latest requests that have ended, those the words name first ("their leave req_1 (请假流程) was
    approved"), three at most; empty when they have none."""
    i = t.instances
    ids = conn.execute(
        select(i.c.id).where(i.c.requester == actor_id, i.c.status.not_in(statuses)).order_by(i.c.id.desc()).limit(20)
    ).scalars().all()
    ended = [require_request(conn, format_instance_id(number)) for number in ids]
    named = [r for r in ended if _named(r["definition"], text)]
    shown = (named or ended)[:3]
    return "; ".join(f"their request {r['id']} ({r['definition'].name_en or r['definition'].name}) was {r['status']}"
                     for r in shown)


def resolve_request(
    conn: Connection, value: Any, actor_id: str, *, param: str = "requestId", statuses: tuple[str, ...] = PENDING,
    lang: str = "zh",
) -> dict[str, Any]:
    """The request a parameter means: a request id; or, among the actor's own requests in `statuses`, the one its
    words name (请假, "my expense claim"), or their only one whatever the words. Several fit: the person is asked."""
    text = str(value).strip()
    match = _REQUEST_ID.match(text) or re.fullmatch(r"\d{1,12}", text)
    if match:
        return require_request(conn, format_instance_id(int(re.sub(r"\D", "", text))), param=param)
    own = own_pending(conn, actor_id, statuses)
    named = [r for r in own if _named(r["definition"], text)]
    names_a_process = any(_named(d, text) for d in engine_of(conn).definitions(conn))
    found = named if names_a_process else own  # "my expense claim" is never the leave that happens to be pending
    if len(found) > 1:  # "my Beijing trip", 我那个事假: the one whose values the words name, when one is
        found = [r for r in found if value_named(r, text)] or [r for r in found if _head_named(r, text)] or found
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        choices = tuple(_choice(r, lang) for r in found)
        raise NeedsPersonError(
            "ambiguous_request", f"{param} {text[:40]} fits {len(found)} of the user's requests; ask which one",
            ask="which_request", param=param, choices=choices,
        )
    if not own and statuses == ("returned",):
        waiting = own_pending(conn, actor_id)
        meant = [r for r in waiting if _named(r["definition"], text)] if names_a_process else waiting
        if len(meant) == 1:  # "我那个请假改成1天，重新提交": it still waits on its approver, and was never sent back
            raise PolicyError("request_still_pending", f"{meant[0]['id']} still waits on its approver: it was not sent "
                              "back, so it cannot be resubmitted; to change it, the user may withdraw it and file it "
                              "again: tell the user so")
        keys = sorted(processes_named(conn, text))
        raise NotFoundError("unknown_request", "the user has no request that an approver sent back to them, so there "
                            "is nothing to resend: to file a new request, call runWorkFlow",
                            # the start of the process named, its values the person's words (or asked) on its card
                            instead={"name": "runWorkFlow", "args": {"processKey": keys[0]}} if len(keys) == 1 else None)
    if not own:
        ended = _ended(conn, actor_id, text, statuses)
        if ended:  # "之前请的那天假，帮我撤回": it was approved; telling them so is the answer, not filing a new one
            raise NotFoundError("request_not_pending", f"the user has no pending request of their own; {ended}, which "
                                "ended and can no longer be changed: tell the user so")
        raise NotFoundError("unknown_request", "the user has no pending request of their own: to file a new request, "
                            "call runWorkFlow; to see their requests, call queryMyRequests")
    raise NotFoundError("unknown_request", f"{param} {text[:40]!r} names no pending request of the user's; call "
                        "queryMyRequests")
