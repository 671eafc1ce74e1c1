"""Leave balances: allocations per person, type and year, and the days pending and approved requests take from them.

The model, kept simple and exact: one row per person, type and year (`leave_balances`: allocated, held, used; left =
allocated - held - used) and a ledger of every change (`leave_ledger`, never rewritten):

- **allocate**: an admin sets a year's allocation (`flowagent leave allocate`, CSV import, the seed); the ledger keeps
  the change. It never goes below what is already held and used, so nothing is ever overdrawn.
- **hold**: a request's days are held when it starts, in the transaction that starts it.
- **release**: a rejected or withdrawn request gives its held days back (`release_for_instance`).
- **use**: the final approval turns the held days into used ones, in the decision's transaction (a request that
  held nothing, one started before balances, takes them from what is left, or the approval is refused).

Every change is one conditional `UPDATE` of the balance's row (`... WHERE allocated - held - used >= :days`): two
requests started at once against the same balance, on SQLite or PostgreSQL, cannot both take the last days; the
second finds the row changed and is refused, naming the balance. Functions here write in the caller's transaction.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, and_, func, insert, select, update

from tools.errors import CannotError
from tools.workflow.leave.types import LeaveType, leave_types
from tools.workflow.leave.words import short_words
from tools.workflow.tables import leave_balances, leave_ledger


@dataclass(frozen=True)
class Balance:
    """One person's leave of one type in one year."""

    user_id: str
    leave_type: str
    year: int
    allocated: float = 0.0
    held: float = 0.0
    used: float = 0.0

    @property
    def left(self) -> float:
        """What is left to take: allocated - held - used."""
        return self.allocated - self.held - self.used


def _row(user_id: str, type_id: str, year: int) -> Any:
    return and_(leave_balances.c.user_id == user_id, leave_balances.c.leave_type == type_id,
                leave_balances.c.year == year)


def balance(conn: Connection, user_id: str, type_id: str, year: int) -> Balance:
    """A person's balance of a type in a year (all zero when nothing was ever allocated)."""
    row = conn.execute(select(leave_balances).where(_row(user_id, type_id, year))).mappings().first()
    if row is None:
        return Balance(user_id, type_id, year)
    return Balance(user_id, type_id, year, float(row["allocated"]), float(row["held"]), float(row["used"]))


def balances_of(conn: Connection, user_id: str, year: int | None = None) -> list[Balance]:
    """A person's balances, by year and type (in the types' order)."""
    query = select(leave_balances).where(leave_balances.c.user_id == user_id)
    if year is not None:
        query = query.where(leave_balances.c.year == year)
    order = {t.id: n for n, t in enumerate(leave_types().types)}
    rows = [Balance(r["user_id"], r["leave_type"], int(r["year"]), float(r["allocated"]), float(r["held"]),
                    float(r["used"])) for r in conn.execute(query).mappings()]
    return sorted(rows, key=lambda b: (b.year, order.get(b.leave_type, len(order))))


def ledger_of(conn: Connection, user_id: str) -> list[dict[str, Any]]:
    """A person's balance history, oldest first."""
    query = select(leave_ledger).where(leave_ledger.c.user_id == user_id).order_by(leave_ledger.c.id)
    return [dict(row) for row in conn.execute(query).mappings()]


def _entry(conn: Connection, user_id: str, type_id: str, year: int, kind: str, days: float, *,
           instance_id: str | None = None, actor_id: str | None = None, note: str = "") -> None:
    conn.execute(insert(leave_ledger).values(
        at=datetime.now(UTC).isoformat(timespec="microseconds"), user_id=user_id, leave_type=type_id, year=year,
        kind=kind, days=days, instance_id=instance_id, actor_id=actor_id, note=note,
    ))


def allocate(conn: Connection, user_id: str, leave_type: LeaveType, year: int, days: float, *,
             actor_id: str | None = None, note: str = "") -> Balance:
    """Set a person's allocation of a type for a year (the ledger keeps the change); `ValueError` saying what to do
    when the days are no allocation or the type has no balance, or when less would be left than is held and used."""
    if not leave_type.balance:
        raise ValueError(f"{leave_type.id} ({leave_type.code}) is not counted against a balance: nothing to allocate")
    if days < 0 or days * 2 != int(days * 2) or days > 366:
        raise ValueError(f"the days must be between 0 and 366, in half-day steps, not {days:g}")
    current = balance(conn, user_id, leave_type.id, year)
    if days < current.held + current.used:
        raise ValueError(
            f"{user_id} already has {current.held + current.used:g} days of {leave_type.id} {year} held or used; "
            f"allocate at least that many"
        )
    exists = conn.execute(select(leave_balances.c.year).where(_row(user_id, leave_type.id, year))).first()
    if exists is not None and days == current.allocated:
        return current
    if exists is None:
        conn.execute(insert(leave_balances).values(user_id=user_id, leave_type=leave_type.id, year=year,
                                                   allocated=days, held=0.0, used=0.0))
    elif not conn.execute(update(leave_balances).where(
            _row(user_id, leave_type.id, year), leave_balances.c.held + leave_balances.c.used <= days)
            .values(allocated=days)).rowcount:
        raise ValueError(f"{user_id}'s {leave_type.id} {year} changed meanwhile; allocate again")
    _entry(conn, user_id, leave_type.id, year, "allocate", days - current.allocated, actor_id=actor_id, note=note)
    return balance(conn, user_id, leave_type.id, year)


def _open_holds(conn: Connection, instance_id: str) -> list[tuple[str, str, int, float]]:
    """The days a request still holds: (user, type, year, days) for each balance it holds days of."""
    sign = {"hold": 1.0, "release": -1.0, "use": -1.0}
    rows = conn.execute(
        select(leave_ledger.c.user_id, leave_ledger.c.leave_type, leave_ledger.c.year, leave_ledger.c.kind,
               func.sum(leave_ledger.c.days))
        .where(leave_ledger.c.instance_id == instance_id)
        .group_by(leave_ledger.c.user_id, leave_ledger.c.leave_type, leave_ledger.c.year, leave_ledger.c.kind)
    ).all()
    totals: dict[tuple[str, str, int], float] = {}
    for user_id, type_id, year, kind, days in rows:
        key = (str(user_id), str(type_id), int(year))
        totals[key] = totals.get(key, 0.0) + sign.get(str(kind), 0.0) * float(days)
    return [(*key, days) for key, days in totals.items() if days > 0]


def held_by(conn: Connection, instance_id: str, type_id: str, year: int) -> float:
    """The days of one balance a request holds now (a returned leave keeps its hold until it is sent again)."""
    return sum(days for _user, held_type, held_year, days in _open_holds(conn, instance_id)
               if held_type == type_id and held_year == year)


def _take(conn: Connection, user_id: str, leave_type: LeaveType, year: int, days: float, column: str) -> None:
    """Move `days` of what is left into held or used, in one conditional update; `CannotError` naming the balance when
    less is left."""
    left = leave_balances.c.allocated - leave_balances.c.held - leave_balances.c.used
    target = leave_balances.c[column]
    changed = conn.execute(
        update(leave_balances).where(_row(user_id, leave_type.id, year), left >= days).values({column: target + days})
    ).rowcount
    if not changed:
        now = balance(conn, user_id, leave_type.id, year)
        say = short_words(leave_type, year, now.left, days)
        raise CannotError("leave_balance_short", say["en"], say=say)


def hold_for_instance(conn: Connection, instance_id: str, user_id: str, leave_type: LeaveType, year: int,
                      days: float) -> None:
    """Hold a request's days of its balance (what it held before, when it is sent again, is given back first)."""
    release_for_instance(conn, instance_id, note="sent again")
    _take(conn, user_id, leave_type, year, days, "held")
    _entry(conn, user_id, leave_type.id, year, "hold", days, instance_id=instance_id, actor_id=user_id)


def release_for_instance(conn: Connection, instance_id: str, *, note: str = "") -> float:
    """Give back what a request holds (it was rejected or withdrawn), in the caller's transaction; the days given
    back (0 when it held none: calling it twice gives nothing back twice)."""
    given = 0.0
    for user_id, type_id, year, days in _open_holds(conn, instance_id):
        conn.execute(update(leave_balances).where(_row(user_id, type_id, year))
                     .values(held=leave_balances.c.held - days))
        _entry(conn, user_id, type_id, year, "release", days, instance_id=instance_id, note=note)
        given += days
    return given


def use_for_instance(conn: Connection, instance_id: str, *, user_id: str, leave_type: LeaveType, year: int,
                     days: float) -> None:
    """A request's final approval: its held days become used (in the decision's transaction); a request that held
    none takes them from what is left, or `CannotError` names the balance and the approval is not made."""
    holds = _open_holds(conn, instance_id)
    for held_user, type_id, held_year, held in holds:
        conn.execute(update(leave_balances).where(_row(held_user, type_id, held_year))
                     .values(held=leave_balances.c.held - held, used=leave_balances.c.used + held))
        _entry(conn, held_user, type_id, held_year, "use", held, instance_id=instance_id)
    if not holds:
        _take(conn, user_id, leave_type, year, days, "used")
        _entry(conn, user_id, leave_type.id, year, "use", days, instance_id=instance_id)
