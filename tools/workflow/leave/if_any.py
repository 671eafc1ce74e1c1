"""Guard: a leave type asked for on the condition of its balance, with another if there is none ("有的话下周五调休一天，
没有就请一天年假", "a comp day if I still have one, otherwise annual leave") is the first where its balance covers the
days, else the other. The person said what they want in either case; the store's balance decides which case it is,
and the card shows the type filed beside the words it was read from. Before, two types named were asked "which type?"
(the forty-third round's writer)."""

from __future__ import annotations

import re
from datetime import date

from tools.guards.call import Call
from tools.hooks import Source
from tools.patterns import compiled
from tools.person_values import set_param
from tools.request import latest_message
from tools.workflow.leave.balances import balance
from tools.workflow.leave.rules import starts_a_leave

_PARAM = "fields.leaveType"
_IF_ANY = (r"(?:(?:如果|要是)?还?有[^，,。；;？?]{0,6}?的话|够的话|如果有|要是有|有就|"
           r"\bif\s+(?:I\s+)?(?:still\s+)?(?:have|got)\s+(?:one|any|some|enough)"
           r"(?:\s+left)?\b|\bif\s+there(?:'s|\s+is|\s+are)\s+(?:one|any|some|enough)(?:\s+left)?\b)")
_ELSE = (r"(?:(?:没有|没了|不够|不行)(?:的话)?(?:就|那就|则)?|否则|不然|要不然|\b(?:otherwise|else|if\s+not|failing\s+that)\b)")


class LeaveTypeIfAny:
    """Fills a leave's type from a condition on its balance: the one said first where its balance covers the days."""

    name = "leave_type_if_any"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        assert call.request is not None
        if not starts_a_leave(call):
            return
        value = next((v for v in call.person_values if v.param == _PARAM), None)
        days = call.values.get("days")
        if value is None or not isinstance(days, int | float):
            return
        words = {w: option for option, *said in (*value.choices, *value.hints) for w in said if w}
        names = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
        latest = latest_message(call.request)
        said = compiled(rf"(?P<first>{names})[^。.;；!?？]*?{_IF_ANY}[^。;；!?？]*?{_ELSE}[^。;；!?？]*?(?P<second>{names})|"
                        rf"{_IF_ANY}[^。;；!?？]*?(?P<first2>{names})[^。;；!?？]*?{_ELSE}[^。;；!?？]*?(?P<second2>{names})",
                        re.IGNORECASE).search(latest)
        if not said:
            return
        first_word, second_word = said.group("first") or said.group("first2"), said.group("second") or said.group("second2")
        first, second = words[first_word], words.get(second_word)
        if first == second or second is None:
            return
        today = call.ctx.today or date.today()
        left = balance(call.handle, call.ctx.actor_id, first, today.year).left
        chosen, word = (first, first_word) if left >= float(days) else (second, second_word)
        call.values = set_param(call.values, _PARAM, chosen)
        call.kept[_PARAM] = chosen
        call.sources[_PARAM] = Source(how="stated", said=word)
        call.notes.append(f"[leave] type {chosen}: the user asked for {first} if its balance ({left:g} days) covers "
                          f"{days:g} days, else {second}")
