"""A value said and then taken back within one message ("请4天年假……啊不对，要6天", "1.5 days — no wait, just 1 day",
"next Tuesday? Actually, make it next Wednesday", "把3天改成2天"): the rule, as a person would state it, is that the
value said after the words that take the earlier one back is the one meant, for each kind of value said again there
(a day count, an amount, dates); what is said only before them stands. Domain-free: `tools.request` reads each
message's facts through `corrected_facts`."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from tools.parsers.facts import TextFacts
from tools.parsers.quantities import Quantity
from tools.taken_back import TAKEN_BACK

_DAYS = ("day", "week")


def corrected_facts(text: str, facts: TextFacts, read: Callable[[str], TextFacts]) -> TextFacts:
    """`facts` of `text` with each kind of value that the text says again after its last take-back ("啊不对",
    "no wait", "actually, make it", 改成) replaced by what it says there (`read` reads a part of the text)."""
    cues = list(TAKEN_BACK.finditer(text))
    if not cues:
        return facts
    at = cues[-1].end()
    after = read(text[at:])
    moved = tuple(replace(q, start=q.start + at, end=q.end + at) for q in after.quantities)
    quantities = facts.quantities
    if after.days_stated() and any(q.unit in _DAYS for q in after.quantities):
        quantities = tuple(q for q in quantities if q.unit not in _DAYS) + tuple(q for q in moved if q.unit in _DAYS)
    if after.amounts_stated():
        quantities = tuple(q for q in quantities if q.unit != "yuan") + tuple(q for q in moved if q.unit == "yuan")
    if not after.dates:
        return replace(facts, quantities=quantities)
    dates = tuple(replace(d, at=(d.at[0] + at, d.at[1] + at)) for d in after.dates)
    return replace(facts, quantities=quantities, dates=dates, one_date=after.one_date, listed=after.listed,
                   listed_at=tuple((s + at, e + at) for s, e in after.listed_at), dates_unread=after.dates_unread)


_OR = re.compile(r"\s*(?:or|to|-|–|~|到|至|或|或者)\s*", re.IGNORECASE)
"""What joins two counts said as either ("one or two days", "2-3 days", 三到五天)."""
_EITHER_BEFORE = re.compile(
    r"(?:\d+(?:\.\d+)?|[一二两三四五六七八九十]|\b(?:one|two|three|four|five|six|seven|eight|nine|ten))"
    r"\s*(?:or|to|-|–|~|到|至|或|或者)\s*$", re.IGNORECASE)
"""A count left unread right before a length, joined to it as either ("maybe one or [two days]")."""


def without_alternatives(text: str, facts: TextFacts) -> TextFacts:
    """`facts` without the lengths said as one of two ("两三天", "一两天", "two or three days", "2-3 days", 三到五天):
    neither is the length the person gives, so it is asked, never picked (a leave "想请两三天假" was filed as 2 days).
    Amounts so said are read as none already (八九百, 两到三千元)."""
    days = [q for q in facts.quantities if q.unit in _DAYS]
    either = {id(q) for q in days for other in days if other is not q and other.value != q.value and (
        (other.start, other.end) == (q.start, q.end) or _joined(text, q, other))}
    either |= {id(q) for q in days if _EITHER_BEFORE.search(text, 0, q.start)}  # "maybe one or [two days]"
    if not either:
        return facts
    return replace(facts, quantities=tuple(q for q in facts.quantities if id(q) not in either))


def _joined(text: str, first: Quantity, second: Quantity) -> bool:
    a, b = (first, second) if first.start <= second.start else (second, first)
    return a.end <= b.start and _OR.fullmatch(text, a.end, b.start) is not None

