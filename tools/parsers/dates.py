"""Dates and date ranges as people write them, in Chinese or English, resolved against the run's today.

Finding a date phrase is done here (single phrases in `date_phrases`, the ranges and lists they make here); reading it
is done by libraries where one reads it well: `dateutil` reads English and numeric dates ("Dec 7", "11th of December",
"December 11th, 2026", "12/7"), `pycnnum` the Chinese numerals of Chinese dates (十二月三日), `chinese_calendar` counts
working days. Relative phrases follow this project's rules, which no library tried follows (docs/parsers.md):

- Weeks start on Monday. "下周五" and "next Friday" are the Friday of next week; "周五", "Friday" and "this
  Friday" the coming Friday (today if it is one); "这周五"/"本周五" the Friday of this calendar week.
  (`dateparser` reads "next Wednesday", said on a Tuesday, as tomorrow.)
- A month and day without a year already past this year means next year's ("1月3号" in December).
  (`jionlp` reads it as this year's, in the past.)
- A range's end that names only a weekday, a day or a month-day belongs to the start's week, month or year, and
  moves on by one week, month or year when it would fall before the start: "下周三到周五" is next week's
  Wednesday to Friday, three days. (`dateparser`-like readers, `jionlp` and Microsoft's recognizers all read the
  end on its own, the coming Friday, before the start.)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import date, timedelta
from typing import Literal

from tools.parsers.calendar import working_days
from tools.parsers.date_phrases import NUM, Phrase, add_months, number, phrases, safe_date
from tools.parsers.text import fold_width


@dataclass(frozen=True)
class DateSpan:
    """A date (start == end) or a range of dates the person wrote, with its working and calendar day counts."""

    start: date
    end: date
    text: str
    at: tuple[int, int]
    working_days: int
    calendar_days: int


class DateReadError(ValueError):
    """A date phrase that cannot be read (`reason` "unreadable") or names no day on the calendar ("not_on_calendar")."""

    def __init__(self, reason: Literal["unreadable", "not_on_calendar"], text: str) -> None:
        super().__init__(f"{reason}: {text!r}")
        self.reason = reason
        self.text = text


_CONNECTOR_RE = re.compile(r"\s*(?:到|至|~|～|-|–|—|to|until|till|through|thru|and)\s*", re.I)
_RANGE_LEAD_RE = re.compile(r"(?:从|自|\bfrom|\bbetween)\s*$", re.I)
_DAY_END_RE = re.compile(
    rf"\s*(?:到|至|~|～|-|–|—|to|until|till|through|thru)\s*(?P<d>{NUM})(?:st|nd|rd|th|日|号)?(?![\d:/]|\.\d)"
    r"(?!\s*(?:days?|hours?|weeks?|months?|天|小时|个|周|星期|月|元|块))",
    re.I,
)
_FILLER_BEFORE_RE = re.compile(r"[\s,.;:!?，。！？、]*(?:(?:on|by|at|for)\s+)?", re.I)
_FILLER_AFTER_RE = re.compile(r"[\s,.;:!?，。！？、]*")


def _end_after(start: date, end: Phrase) -> date | None:
    """A range's end read against its start: a bare weekday in the start's week, a month-day in its year."""
    if end.weekday is not None:
        in_week = start - timedelta(days=start.weekday()) + timedelta(days=end.weekday)
        return in_week if in_week >= start else in_week + timedelta(weeks=1)
    if end.month_day is not None:
        in_year = safe_date(start.year, *end.month_day)
        return in_year if in_year is None or in_year >= start else safe_date(start.year + 1, *end.month_day)
    if end.day_of_month is not None:
        in_month = safe_date(start.year, start.month, end.day_of_month)
        return in_month if in_month is None or in_month >= start else add_months(start, 1, end.day_of_month)
    return end.day


def _span(original: str, start: date, end: date, at: tuple[int, int]) -> DateSpan:
    return DateSpan(
        start=start,
        end=end,
        text=original[at[0] : at[1]],
        at=at,
        working_days=working_days(start, end),
        calendar_days=(end - start).days + 1,
    )


def _weeks_of_lists(text: str, singles: list[Phrase]) -> list[Phrase]:
    """A list of weekdays whose week is said once ("下周一、周三和周五", "next Thu and Fri", "Thursday and Friday next
    week"): its bare weekdays are in that week, not the coming one (one listed after the dated day and falling
    before it is in the week after, as a range's end is)."""
    out = list(singles)
    run: list[int] = []
    for i in range(len(out) + 1):
        joined = (
            i < len(out) and run and out[i].kind.startswith("week_") and out[run[-1]].kind.startswith("week_")
            and _LIST_JOIN_RE.fullmatch(text[out[run[-1]].end : out[i].start]) is not None
        )
        if joined:
            run.append(i)
            continue
        dated = [j for j in run if out[j].weekday is None and out[j].day is not None]
        if len(run) > 1 and len(dated) == 1:
            anchor = out[dated[0]].day
            assert anchor is not None
            monday = anchor - timedelta(days=anchor.weekday())
            for j in run:
                weekday = out[j].weekday
                if weekday is None:
                    continue
                # before the dated one: in its week ("Thursday and Friday next week"); after it: in its week or,
                # falling before it, the week after ("this Friday and Monday")
                day = monday + timedelta(days=weekday) if j < dated[0] else _end_after(anchor, out[j])
                out[j] = replace(out[j], day=day, weekday=None)
        run = [i] if i < len(out) and out[i].kind.startswith("week_") else []
    return out


def find_dates(text: str, today: date, original: str | None = None) -> list[DateSpan]:
    """Every date and date range in `text` (folded and masked), with spans and texts from `original`."""
    original = text if original is None else original
    singles = _weeks_of_lists(text, phrases(text, today))
    spans: list[DateSpan] = []
    i = 0
    while i < len(singles):
        first = singles[i]
        if first.day is None:
            i += 1
            continue
        lead = _RANGE_LEAD_RE.search(text[: first.start])
        begin = lead.start() if lead else first.start
        if first.until is not None:
            spans.append(_span(original, first.day, first.until, (begin, first.end)))
            i += 1
            continue
        if i + 1 < len(singles):
            second = singles[i + 1]
            between = text[first.end : second.start]
            connector = _CONNECTOR_RE.fullmatch(between)
            if (
                connector
                and second.day is not None
                and (connector.group().strip().lower() != "and" or (lead and "between" in lead.group().lower()))
            ):
                begin_day = first.day
                if first.weekday is not None and second.scopes_range and second.day is not None:
                    # "Tuesday to Thursday next week": both ends are in next week
                    begin_day = second.day - timedelta(days=second.day.weekday() - first.weekday)
                end = _end_after(begin_day, second)
                if end is not None and end >= begin_day:
                    spans.append(_span(original, begin_day, end, (begin, second.end)))
                    i += 2
                    continue
        if first.kind in ("iso", "ymd_zh", "md_en", "dm_en", "numeric", "month_rel", "day_zh", "day_en"):
            tail = _DAY_END_RE.match(text, first.end)
            if tail:
                try:
                    end = add_months(first.day, 0, number(tail["d"]))
                except ValueError:
                    end = None
                if end is not None and end < first.day:
                    end = add_months(first.day, 1, end.day)
                if end is not None:
                    spans.append(_span(original, first.day, end, (begin, tail.end())))
                    i += 1
                    continue
        spans.append(_span(original, first.day, first.day, (first.start, first.end)))
        i += 1
    return spans


_LIST_JOIN_RE = re.compile(r"\s*(?:,|，|、|/|&)?\s*(?:\band\b|\bplus\b|和|及|与|跟|还有)?\s*(?:on\s+)?", re.I)


def listed_days(text: str, spans: list[DateSpan]) -> list[tuple[int, tuple[int, int]]]:
    """How many days each list of single dates states ("Thursday and Friday", "周四周五", "周一、周三和周五"), with the
    list's span: a list of two or more dates joined only by commas, "and" or 和 (or nothing, as Chinese writes 周四周五)
    states as many days as it names."""
    counts: list[tuple[int, tuple[int, int]]] = []
    run: list[DateSpan] = []
    for span in [*spans, None]:
        joined = (
            span is not None and run and span.start == span.end
            and _LIST_JOIN_RE.fullmatch(text[run[-1].at[1] : span.at[0]]) is not None
        )
        if joined and span is not None:
            run.append(span)
            continue
        if len(run) > 1:
            counts.append((len({s.start for s in run}), (run[0].at[0], run[-1].at[1])))
        run = [span] if span is not None and span.start == span.end else []
    return counts


def read_date(text: str, today: date) -> date:
    """The one date a phrase names ("下周五", "明天", "next Friday", "2027-01-22", "12月3日"), counted from `today`.

    Raises DateReadError: "unreadable" when the phrase is not one date, "not_on_calendar" when it names a day that
    does not exist (2025-02-30).
    """
    folded = fold_width(text).strip()
    singles = phrases(folded, today)
    if len(singles) == 1:
        found = singles[0]
        before = _FILLER_BEFORE_RE.fullmatch(folded[: found.start])
        after = _FILLER_AFTER_RE.fullmatch(folded[found.end :])
        if before and after:
            if found.day is None:
                raise DateReadError("not_on_calendar", text)
            return found.day
    raise DateReadError("unreadable", text)
