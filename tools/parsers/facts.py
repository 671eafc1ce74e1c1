"""What a message states, read once: its language, quantities, dates and ranges, and spelled-out texts."""

from __future__ import annotations

import re
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
    listed_at: tuple[tuple[int, int], ...] = ()
    """Where each list of `listed` is in the text (start, end)."""
    dates_unread: bool = False
    """Whether the text says of a day what is not read ("the day after", 第二天, "two days before the 20th"): the dates
    read are then not all the days it names, and no from-to pair is read from them alone."""
    one_date: float | None = None
    """The length a single date gives when it is the text's only date and nothing else states a count: one day
    ("明天请假", "Friday off"), half a day when a morning or an afternoon goes with it (明天下午, "Friday
    afternoon"); None for a deadline (周五前, "by Friday") or any other text. See `days_implied`."""

    def days_stated(self) -> frozenset[float]:
        """Every day count stated: durations in days (half days too), a week as 5 working or 7 calendar days,
        each date range's working and calendar day counts, and how many dates a list names (a single date states
        no count). A negative count ("-1天", 负一天) is kept as said, for a form to refuse; none is 0."""
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
        return frozenset(d for d in days if d != 0)  # a negative count is kept, for the form to refuse it

    def days_implied(self) -> frozenset[float]:
        """The day counts stated, or when there are none, the one a single date gives (`one_date`): asked for time
        on one day, a person means that day ("请明天一天"), not a length left open."""
        stated = self.days_stated()
        if stated or self.one_date is None:
            return stated
        return frozenset({self.one_date})

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
    unread: list[tuple[int, int]] = []
    dates = find_dates(masked, today, original=text, unread=unread)
    quantities = find_quantities(mask_spans(masked, [*(d.at for d in dates), *unread]), original=text)
    listed = listed_days(masked, dates)
    return TextFacts(
        lang=language_of(masked, default_lang),
        quantities=tuple(quantities),
        dates=tuple(dates),
        quoted=tuple(find_quoted(folded)),
        listed=tuple(count for count, _ in listed),
        listed_at=tuple(at for _, at in listed),
        one_date=_one_date(masked, dates, quantities),
        dates_unread=bool(unread),
    )


_DEADLINE_BEFORE = re.compile(r"(?:\bby|\bbefore|\buntil|\btill|\bdue|\bno later than|截止|截至|最晚|之前)\s*(?:on\s+|the\s+)?$",
                              re.I)
_DEADLINE_AFTER = re.compile(r"^\s*(?:前|之前|以前|截止|为止|到期|'s\b|的会|的会议)", re.I)
FROM_BEFORE = re.compile(r"(?:从|自|\bfrom|\bstarting(?:\s+on|\s+from)?|\bbeginning(?:\s+on)?)\s*$", re.IGNORECASE)
FROM_AFTER = re.compile(r"^\s*(?:起|开始|\bon(?:wards?)?\b)", re.IGNORECASE)
"""Words that make a date the first of several: 从下周一, 下周二起, "starting next Monday", "from the 8th on"."""
_DUE_BEFORE = re.compile(r"(?:\bby|\bbefore|\bdue|\bno later than|截止|截至|最晚)\s*(?:on\s+|the\s+)?$", re.I)
_DUE_AFTER = re.compile(r"^\s*(?:前(?!后)|之前|以前|截止|为止|到期)")


def due_by(text: str, span: DateSpan) -> bool:
    """Whether a single day is said as when something is due ("具体行程我周五前发给他", "send it by Friday"): no date
    of the request's own (its trip's return had been asked again beside one). "until Friday" ends a range, and is
    not this."""
    start, end = span.at
    return span.start == span.end and bool(_DUE_BEFORE.search(text[:start]) or _DUE_AFTER.match(text[end:]))


_HALF_OF_DAY = re.compile(r"(?:上午|下午|早上|中午|晚上)(?!好)|(?<!good )\b(?:morning|afternoon|evening)\b", re.I)
"""A half of the day said near a date; a greeting (早上好, "good morning") is none."""
_VAGUE_COUNT = re.compile(
    r"(?:[几多来些数余\d〇零一二两三四五六七八九十百千]|\+|\b(?:few|several|couple(?:\s+of)?|some|many|more|over|least|most|"
    r"than|to|or)\b)\s*(?:个)?(?:工作|整|全)?(?:天|日|days?\b)",
    re.IGNORECASE,
)
"""A count of days said but not read (十几天, 几天, "2+ days", "over 9 days"): a date with it gives no length."""
_NEAR = 12
"""Characters around a date searched for a morning or an afternoon (明天下午, "Friday afternoon")."""


def _one_date(text: str, dates: Sequence[DateSpan], quantities: Sequence[Quantity]) -> float | None:
    """`TextFacts.one_date`: 1.0 or 0.5 for a text's only date (said once or more) when it is a single day and no
    deadline, and no count of days is said that could not be read ("明天起休几天" is no day)."""
    if not dates or any(d.start != d.end or d.start != dates[0].start for d in dates):
        return None  # "明天上午才能来修…明天上午请个假": the same one day said twice is one
    if _VAGUE_COUNT.search(mask_spans(text, [*(d.at for d in dates), *((q.start, q.end) for q in quantities)])):
        return None
    start, end = dates[-1].at
    if _DEADLINE_BEFORE.search(text[:start]) or _DEADLINE_AFTER.match(text[end:]):
        return None
    if FROM_BEFORE.search(text[:start]) or FROM_AFTER.match(text[end:]):
        return None  # "从下周一开始请假": the first day, of a length not said
    # searched in place, not in a slice: a greeting's "good" before the window still says what "morning" is
    return 0.5 if _HALF_OF_DAY.search(text, max(0, start - _NEAR), end + _NEAR) else 1.0
