"""The seed users' leave allocations (`tools.workflow.seed.ALLOCATIONS`), written once, when no balance was ever
changed: for the current year and the next, so a leave over New Year has a balance too."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date

from sqlalchemy import Connection, func, select

from tools.workflow.leave.balances import allocate
from tools.workflow.leave.types import leave_types
from tools.workflow.tables import leave_ledger, users


def seed_balances(conn: Connection, allocations: Mapping[str, Mapping[str, float]], today: date | None = None) -> None:
    """Allocate the seed's leave to the seed users this store has, when its ledger is empty (in the caller's
    transaction)."""
    if conn.execute(select(func.count()).select_from(leave_ledger)).scalar_one():
        return
    present = {row[0] for row in conn.execute(select(users.c.id))}
    year = (today or date.today()).year
    types = leave_types()
    for user_id, by_type in allocations.items():
        if user_id not in present:
            continue
        for type_id, days in by_type.items():
            for each in (year, year + 1):
                allocate(conn, user_id, types.require(type_id), each, float(days), actor_id="seed", note="seed")
