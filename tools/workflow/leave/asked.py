"""Guard: the leave balance answers a question about leave. "我们组今年的团建经费还剩多少钱？" asks what is left of
something, and no tool here knows it; the balance look-up answered it with days of annual leave, figures about
something else. A look-up of the balance where the person's words speak of no leave is refused to the model, which
then says what it knows (and `graph.known` keeps it from making a figure up)."""

from __future__ import annotations

import re

from tools.errors import PolicyError
from tools.guards.call import Call
from tools.workflow.leave.specs import LEAVE_BALANCE

LEAVE_WORD = re.compile(
    r"假|休|\b(?:leave|vacation|holidays?|pto|time\s+off|days?\s+off|off\s+days?|annual|comp(?:ensatory)?|"
    r"allowance|allocation)\b",
    re.IGNORECASE,
)
"""Words that speak of leave: 假 (年假, 调休, 假期), 休, "leave", "vacation", "PTO", "time off", "days off"."""


class BalanceAsked:
    """Refuses the leave balance for a request whose words speak of no leave."""

    name = "balance_asked"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        assert call.request is not None
        if call.spec.name != LEAVE_BALANCE.name or any(LEAVE_WORD.search(text) for text in call.request["texts"]):
            return
        raise PolicyError(
            "balance_not_asked",
            "The user's question speaks of no leave, so the leave balance does not answer it. If no tool answers "
            "what they asked, say plainly that you do not know it; do not give figures about something else.",
        )
