"""Guard: what cannot be done at all is said before anything is asked: a value of the person's that no answer could
make possible (a trip in the past, an end before its start, a length of zero) is refused in their language
(`PersonValue.refuse` raises `CannotError`), so they are not asked for a destination first."""

from __future__ import annotations

from datetime import date
from typing import Any

from tools.guards.call import Call
from tools.request import Request, stated_numbers
from tools.spec import PersonValue, get_param


def _number(given: Any) -> float | None:
    try:
        return float(str(given))
    except ValueError:
        return None


def is_theirs(value: PersonValue, given: Any, request: Request) -> bool:
    """Whether a value is one the person stated: a date or a number their request states."""
    if value.kind == "date":
        return str(given) in request["dates"]
    if value.kind == "number":
        return _number(given) in stated_numbers(request, value.unit)
    return False


class Refused:
    """Refuses the first of the person's values that cannot be."""

    name = "refused"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        assert call.request is not None
        today = call.ctx.today or date.today()
        for value in call.person_values:
            given = get_param(call.values, value.param)
            if value.refuse is None or given is None or given == "":
                continue
            if value.param in call.sources or is_theirs(value, given, call.request):
                value.refuse(given, call.values, today)
