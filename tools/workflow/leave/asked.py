"""Guard: the leave balance answers a question about leave. "我们组今年的团建经费还剩多少钱？" asks what is left of
something, and no tool here knows it; the balance look-up answered it with days of annual leave, figures about
something else. A look-up of the balance where the person's words speak of no leave is refused to the model, which
then says what it knows (and `graph.known` keeps it from making a figure up)."""

from __future__ import annotations

import re

from tools.errors import PolicyError
from tools.guards.call import Call
from tools.request import latest_message, named_in_latest
from tools.workflow.leave.specs import LEAVE_BALANCE

LEAVE_WORD = re.compile(
    r"假|休|\b(?:leave|vacation|holidays?|pto|time\s+off|days?\s+off|off\s+days?|annual|comp(?:ensatory)?|"
    r"allowance|allocation|nian\s?jia|tiao\s?xiu|qing\s?jia)\b",
    re.IGNORECASE,
)
"""Words that speak of leave: 假 (年假, 调休, 假期), 休, "leave", "vacation", "PTO", "time off", "days off"."""


_OTHER_THING = re.compile(
    r"钱|元|块|经费|预算|报销|出差|费|\b(?:money|budget|yuan|rmb|cash|expenses?|claims?|trips?|funds?)\b", re.IGNORECASE)
"""Words of something other than leave a follow-up may ask what is left of ("团建经费还剩多少", "how much budget")."""


_POLICY = re.compile(
    r"结转|顺延|清零|作废|过期|折现|换成钱|(?:留|带|挪)到明年|明年(?:还|也)?(?:能|可以)(?:接着|继续)?用|\b(?:roll(?:s|ed)?\s+over|carr(?:y|ies|ied)\s+(?:it\s+|them\s+)?over|carry-?over|"
    r"expir\w*|lapse[sd]?|pa(?:y|ys|id)\s+(?:it\s+|them\s+)?out|cash(?:ed)?\s+(?:it\s+|them\s+)?out|payout)\b",
    re.IGNORECASE,
)
"""Words of what becomes of unused leave: the company's policy, not a balance (结转, 清零, "roll over", "paid out")."""
_HOW_MANY = re.compile(r"还剩|还有几|还有多少|剩(?:下|余)?(?:几|多少)|\bleft\b|"
                       r"\bhow\s+(?:many|much)\b[^?]{0,40}\b(?:have|got|remain\w*)\b", re.IGNORECASE)
"""Words that ask how much is left (还剩几天, "how many days", "left"): the balance answers them."""


def _OF_THEIRS(name: str) -> re.Pattern[str]:  # noqa: N802 - a pattern's maker, named as the pattern it makes
    """Words that ask about `name`'s leave: 李四的年假, 李四还剩, "Li Si's vacation", "has Li Si got left"."""
    who = re.escape(name)
    return re.compile(
        rf"{who}\s*(?:的|还|今年|这年|'s|’s|\s+(?:has|have|got|still))|(?:has|does|did|is)\s+{who}\b", re.IGNORECASE)


class BalanceAsked:
    """Refuses the leave balance for a request whose words speak of no leave, or of another person's leave (only the
    person's own balance is shown: "How much vacation has Li Si got left?" was answered with their own 10 days)."""

    name = "balance_asked"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        assert call.request is not None
        if call.spec.name != LEAVE_BALANCE.name:
            return
        latest = latest_message(call.request)
        others = [call.request["names"].get(p, {}) for p in named_in_latest(call.request) if p != call.ctx.actor_id]
        whose = [n for person in others for n in (person.get("name"), person.get("alias")) if n and _OF_THEIRS(n).search(
            latest)]
        if whose:
            raise PolicyError(
                "balance_of_another",
                f"The user asks about {whose[0]}'s leave; the leave balance shows only the user's own, and no tool "
                f"shows another person's: say plainly that you cannot see {whose[0]}'s balance; give no figures.",
            )
        if _POLICY.search(latest) and not _HOW_MANY.search(latest):
            raise PolicyError(
                "balance_not_asked",
                "The user asks what becomes of unused leave (carried over, lapsing, paid out): the company's leave "
                "policy, which no tool knows, not their balance. Say plainly that you do not know it; give no figures.",
            )
        if any(LEAVE_WORD.search(text) for text in call.request["texts"]):
            return
        recent = call.request["recent"]
        if len(recent) > 1 and LEAVE_WORD.search(recent[-2]) and not _OTHER_THING.search(latest):
            return  # "…does Zhang San have left?" then "And how many do I have left?": of the leave just spoken of
        raise PolicyError(
            "balance_not_asked",
            "The user's question speaks of no leave, so the leave balance does not answer it. If no tool answers "
            "what they asked, say plainly that you do not know it; do not give figures about something else.",
        )
