"""Guard: a value only the person can give that its tool refuses as written (a placeholder e-mail, "十" days, a
category that is none of the form's and implies none) is asked for, with the options, instead of the model guessing
again."""

from __future__ import annotations

from tools.grounding import check_clear
from tools.guards.call import Call


class Usable:
    """Asks for the first value of the person's the tool cannot take as written."""

    name = "usable"
    needs_request = True
    asks_together = True

    def __call__(self, call: Call) -> None:
        assert call.request is not None
        check_clear(call.spec, call.values, call.person_values, call.request["lang"])
