"""What a message states, read once: its language, quantities, dates and ranges, and spelled-out texts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from tools.parsers.dates import DateSpan, find_dates, listed_days
from tools.parsers.language import Lang, language_of
from tools.parsers.quantities import Quantity, find_quantities
from tools.parsers.quoted import find_quoted
from tools.parsers.text import fold_width, mask_identifiers, mask_spans, mask_words

WORKING_DAYS_PER_WEEK = 5
CALENDAR_DAYS_PER_WEEK = 7


@dataclass(frozen=True)
class TextFacts:
    """The values a text states: its language, quantities, dates and ranges, and the texts the person spelled out."""

    lang: Lang
    quantities: tuple[Quantity, ...]
    dates: tuple[DateSpan, ...]
    quoted: tuple[str, ...]
    listed: tuple[int, ...] = ()
    """How many days each list of dates names ("Thursday and Friday": 2)."""

    def days_stated(self) -> frozenset[float]:
        """Every day count stated: durations in days (half days too), a week as 5 working or 7 calendar days,
        each date range's working and calendar day counts, and how many dates a list names (a single date states
        no count)."""
        days: set[float] = set()
        for quantity in self.quantities:
            if quantity.unit == "day":
                days.add(quantity.value)
            elif quantity.unit == "week":
                days.update((quantity.value * WORKING_DAYS_PER_WEEK, quantity.value * CALENDAR_DAYS_PER_WEEK))
        for span in self.dates:
            if span.end > span.start:
                days.update(float(n) for n in (span.working_days, span.calendar_days) if n > 0)
        days.update(float(n) for n in self.listed)
        return frozenset(d for d in days if d > 0)

    def amounts_stated(self) -> frozenset[float]:
        """Every amount of money stated (yuan, 元, 块, RMB, ¥, CNY)."""
        return frozenset(q.value for q in self.quantities if q.unit == "yuan")

    def numbers_stated(self) -> frozenset[float]:
        """Every number stated, in any numeral system, bare or with a unit ("a"/"an" alone is none; dates are dates)."""
        return frozenset(q.value for q in self.quantities)


def read_text(text: str, *, today: date, ignore: Sequence[str] = (), default_lang: Lang = "zh") -> TextFacts:
    """Read what `text` states. `ignore`: words masked first (names: 张三's 三 is no number); `today`: the run's
    date, from which relative dates count (the system clock is never read)."""
    folded = fold_width(text)
    masked = mask_identifiers(mask_words(folded, ignore))
    dates = find_dates(masked, today, original=text)
    quantities = find_quantities(mask_spans(masked, [d.at for d in dates]), original=text)
    return TextFacts(
        lang=language_of(masked, default_lang),
        quantities=tuple(quantities),
        dates=tuple(dates),
        quoted=tuple(find_quoted(folded)),
        listed=tuple(listed_days(masked, dates)),
    )
