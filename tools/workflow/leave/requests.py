"""Where a leave meets the workflow's writes: checked when a request starts (and shown on its card), its days held in the
start's transaction, used at its final approval in the decision's, given back when it is rejected or withdrawn."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from sqlalchemy import Connection

from tools.errors import DomainError
from tools.workflow.engine import Definition
from tools.workflow.leave.balances import hold_for_instance, release_for_instance, use_for_instance
from tools.workflow.leave.rules import Leave, check_leave, is_leave, read_leave
from tools.workflow.leave.types import LEAVE_TYPE_FIELD, leave_types
from tools.workflow.lookup import engine_of

TYPE_PARAM = f"fields.{LEAVE_TYPE_FIELD}"

GIVES_BACK = frozenset({"rejected", "withdrawn"})
"""The ends of a request that give its held days back."""


def hold_started(conn: Connection, instance_id: str, requester: str, leave: Mapping[str, Any] | None) -> None:
    """Hold a started leave's days of its balance, in the start's transaction (`CannotError` naming the balance when
    another request took them first: the start is then rolled back)."""
    if not leave or leave.get("left_before") is None:
        return  # no leave, or a type counted against no balance
    leave_type = leave_types().require(str(leave["type"]))
    hold_for_instance(conn, instance_id, requester, leave_type, int(leave["year"]), float(leave["days"]))


def hold_again(conn: Connection, instance_id: str, requester: str, definition: Definition,
               form: Mapping[str, Any], today: date) -> Leave | None:
    """A returned request sent again on a changed form: what it held is given back and its new days are checked and
    held, in the resubmit's transaction (`CannotError` naming the balance when they no longer fit: the caller's
    transaction then rolls back, the old hold with it). None for a process that is no leave."""
    if not is_leave(definition):
        return None
    release_for_instance(conn, instance_id, note="sent again")
    leave = check_leave(conn, requester, definition, form, today)
    if leave is not None and leave.balance is not None:
        hold_for_instance(conn, instance_id, requester, leave.type, leave.year, leave.days)
    return leave


def settle(conn: Connection, instance_id: str, outcome: str) -> None:
    """A request ended: approved, its held days are used (or taken from what is left, else the approval is refused,
    naming the balance); rejected or withdrawn, they are given back. In the transaction that ended it; at most once
    (a second call finds nothing held)."""
    if outcome in GIVES_BACK:
        release_for_instance(conn, instance_id, note=outcome)
        return
    if outcome != "approved":
        return
    engine = engine_of(conn)
    view = engine.instance(conn, instance_id)
    definition = engine.definition(conn, view.process_key, view.version)
    if not is_leave(definition):
        return
    leave = read_leave(view.data, date.today())
    if leave.type.balance:
        use_for_instance(conn, instance_id, user_id=view.requester, leave_type=leave.type, year=leave.year,
                         days=leave.days)


def card_lines(conn: Connection, requester: str, definition: Definition, form: Mapping[str, Any],
               sources: Mapping[str, Mapping[str, Any]], lang: str) -> list[str]:
    """The start card's leave lines (none for a process that is no leave, or a form the check refuses: the refusal
    says why): the type (named as the default when the person said none), what the dates count, the balance."""
    if not is_leave(definition):
        return []
    try:
        leave: Leave | None = check_leave(conn, requester, definition, form, date.today())
    except DomainError:
        return []
    source = sources.get(TYPE_PARAM) or {}
    defaulted = form.get(LEAVE_TYPE_FIELD) in (None, "") or (source.get("how") == "inferred" and not source.get("said"))
    return leave.lines(lang, defaulted=defaulted) if leave is not None else []
