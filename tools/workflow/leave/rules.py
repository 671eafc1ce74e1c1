"""The leave rules of a request to start: its type's (half days, most days, a document), its dates counted in working
days against the days it states, and its balance. A process is a leave when its start form has a `leaveType` field;
the engine knows nothing of it. Every refusal is said to the person in their language (`CannotError`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlalchemy import Connection

from tools.errors import CannotError, PolicyError
from tools.workflow.engine import Definition
from tools.workflow.leave import words
from tools.workflow.leave.balances import Balance, balance, held_by
from tools.workflow.leave.calendar import Count, CountError, Half, count_leave
from tools.workflow.leave.types import LEAVE_TYPE_FIELD, LeaveType, leave_types

HALVES = {"上午": "am", "下午": "pm", "am": "am", "pm": "pm"}
"""A half-day marker's value on the form (上午, 下午) as the calendar's."""
START, END = "startDate", "endDate"
"""The leave form's first and last days: a range, whose end is read after its start ("the following Monday")."""
HALF_OF = {"startHalf": "start", "endHalf": "end"}
"""The leave form's half-day fields, by the end of the range each is the half of."""


@dataclass(frozen=True)
class Leave:
    """A leave as it will be filed: its type, days, the year its balance is of, what its dates count, its balance."""

    type: LeaveType
    days: float
    year: int
    count: Count | None = None
    """Its dates counted, when it states dates."""
    balance: Balance | None = None
    """Its type's balance before this request (types counted against one)."""

    def lines(self, lang: str, *, defaulted: bool = False) -> list[str]:
        """What the card says of it: the type (named as the default when the person said none), what the dates count,
        the balance before and after, the document it needs."""
        lines = [words.type_line(self.type, defaulted, lang)]
        if self.count is not None:
            lines.append(self.count.line(lang))
        if self.balance is not None:
            lines.append(words.balance_line(self.type, self.year, self.balance.left, self.days, lang))
        if needs_document(self.type, self.days):
            lines.append(words.document_line(self.type, lang))
        return lines

    def record(self) -> dict[str, Any]:
        """The leave as data, for the effect, the model's observation and the audit."""
        record: dict[str, Any] = {"type": self.type.id, "days": self.days, "year": self.year}
        if self.count is not None:
            record["counted"] = self.count.record()
        if self.balance is not None:
            record["left_before"] = self.balance.left
            record["left_after"] = self.balance.left - self.days
        return record


def is_leave(definition: Definition) -> bool:
    """Whether a process's start form makes it a leave (it has a `leaveType` field)."""
    return any(f.id == LEAVE_TYPE_FIELD for f in definition.fields)


def needs_document(leave_type: LeaveType, days: float) -> bool:
    """Whether a leave of this type and length needs a supporting document (`document_over` in types.toml)."""
    return leave_type.document_over is not None and days > leave_type.document_over


def form_halves(start: date, end: date, start_half: Any, end_half: Any) -> tuple[Half | None, Half | None]:
    """The form's markers as the calendar's: a leave from the afternoon, to the morning; one day's morning or
    afternoon alone is that half (上午 at both ends, or at either)."""
    first: Half | None = "pm" if HALVES.get(str(start_half)) == "pm" else None
    last: Half | None = "am" if HALVES.get(str(end_half)) == "am" else None
    if start == end and (first is None) != (last is None):
        return (first, first) if first else (last, last)
    return first, last


def starts_a_leave(call: Any) -> bool:
    """Whether a call (`tools.guards.call.Call`) starts a leave: runWorkFlow of a process whose form is a leave's."""
    found = call.found.get("processKey") or {}
    return bool(call.spec.name == "runWorkFlow" and found and is_leave(found["definition"]))


def iso_date(value: Any) -> date | None:
    """The date an ISO value (a form's) states, or None for none or another value."""
    try:
        return date.fromisoformat(str(value)) if value not in (None, "") else None
    except ValueError:
        return None


def read_leave(form: Mapping[str, Any], today: date) -> Leave:
    """The leave a form's values state, checked against its type's rules and its dates (not its balance);
    `CannotError` with the words for the person when it cannot be filed."""
    types = leave_types()
    leave_type = types.get(str(form.get(LEAVE_TYPE_FIELD) or types.default))
    if leave_type is None:
        raise PolicyError("unknown_leave_type", f"{form.get(LEAVE_TYPE_FIELD)!r} is no leave type; the types are "
                          f"{', '.join(t.id for t in types.types)}")
    days = float(form["days"]) if form.get("days") is not None else None
    start, end = iso_date(form.get(START)), iso_date(form.get(END))
    count = None
    if start is not None or end is not None:
        first, last = start or end, end or start
        assert first is not None and last is not None
        try:
            count = count_leave(first, last, **dict(zip(("start_half", "end_half"),
                                                         form_halves(first, last, form.get("startHalf"), form.get("endHalf")),
                                                         strict=True)))
        except CountError as exc:
            raise CannotError(exc.code, exc.say["en"], say=exc.say) from None
        if days is not None and days != count.days:
            say = words.mismatch_words(days, count.line("zh"), count.line("en"))
            raise CannotError("leave_days_mismatch", say["en"], say=say)
        days = count.days
    if days is None:
        raise PolicyError("missing_days", "a leave needs its days or its dates; ask the user")
    if not leave_type.half_days and days != int(days):
        say = words.whole_days_words(leave_type, days)
        raise CannotError("leave_whole_days", say["en"], say=say)
    if leave_type.max_days and days > leave_type.max_days:
        say = words.too_long_words(leave_type, days)
        raise CannotError("leave_too_long", say["en"], say=say)
    return Leave(type=leave_type, days=days, year=(count.start if count else today).year, count=count)


def check_leave(conn: Connection, requester: str, definition: Definition, form: Mapping[str, Any],
                today: date, *, sent_again: str | None = None) -> Leave | None:
    """The leave rules of a request to start (None for a process that is no leave): its type's, its dates', and its
    balance, which must hold its days (`CannotError` naming the balance); for a returned request `sent_again` (its id),
    with what it holds now counted as given back ("把调休改成4天重新提交" with 3 days of 调休 is refused before its card)."""
    if not is_leave(definition):
        return None
    leave = read_leave(form, today)
    if not leave.type.balance:
        return leave
    now = balance(conn, requester, leave.type.id, leave.year)
    left = now.left + (held_by(conn, sent_again, leave.type.id, leave.year) if sent_again else 0.0)
    if leave.days > left:
        say = words.short_words(leave.type, leave.year, left, leave.days)
        raise CannotError("leave_balance_short", say["en"], say=say)
    return Leave(type=leave.type, days=leave.days, year=leave.year, count=leave.count, balance=now)


def leave_notes(leave: Leave) -> list[str]:
    """What the model and the audit read of a leave, in English: what its dates count, its balance (its type is on
    the form)."""
    notes = []
    if leave.count is not None:
        notes.append(f"[leave] counted: {leave.count.line('en')}")
    if leave.balance is not None:
        notes.append(f"[leave] balance {leave.year}: {leave.balance.left:g} days left, "
                     f"{leave.balance.left - leave.days:g} after this request")
    return notes
