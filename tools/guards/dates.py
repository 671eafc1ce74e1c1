"""Guard: each date value written as people say it ("下周一", "12月8日", "next Monday") is read as its ISO date,
counted from the run's date; one that cannot be read is left as written (a later guard says why)."""

from __future__ import annotations

from datetime import date

from tools.grounding import read_dates
from tools.guards.call import Call


class Dates:
    """Reads the call's date values."""

    name = "dates"
    needs_request = False
    asks_together = False

    def __call__(self, call: Call) -> None:
        call.values = read_dates(call.person_values, call.values, call.ctx.today or date.today())
