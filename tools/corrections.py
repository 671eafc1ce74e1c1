"""A value said and then taken back within one message ("请4天年假……啊不对，要6天", "1.5 days — no wait, just 1 day",
"next Tuesday? Actually, make it next Wednesday", "把3天改成2天"): the rule, as a person would state it, is that the
value said after the words that take the earlier one back is the one meant, for each kind of value said again there
(a day count, an amount, dates); what is said only before them stands. Domain-free: `tools.request` reads each
message's facts through `corrected_facts`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from tools.parsers.facts import TextFacts
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
