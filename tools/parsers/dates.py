"""Dates and date ranges as people write them, in Chinese or English, resolved against the run's today.

Finding a date phrase is done here (single phrases in `date_phrases`, the ranges and lists they make here); reading it
is done by libraries where one reads it well: `dateutil` reads English and numeric dates ("Dec 7", "11th of December",
"December 11th, 2026", "12/7"), `pycnnum` the Chinese numerals of Chinese dates (十二月三日), `chinese_calendar` counts
working days. Relative phrases follow this project's rules, which no library tried follows (docs/parsers.md):

- Weeks start on Monday. "下周五" and "next Friday" are the Friday of next week; "周五", "Friday" and "this
  Friday" the coming Friday (today if it is one); "这周五"/"本周五" the Friday of this calendar week.
  (`dateparser` reads "next Wednesday", said on a Tuesday, as tomorrow.)
- A month and day without a year is the one nearest today: "1月3号" in December is next year's, "11月23号" said on
  7 December this year's, in the past. (`jionlp` reads the first as this year's, in the past; this project read the
  second as next year's until the seventy-first held-out round's writer found a past trip filed for 2027.)
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

from tools.parsers.calendar import is_working_day, working_days
from tools.parsers.date_phrases import NUM, Phrase, add_months, number, phrases, safe_date
from tools.parsers.text import fold_width

Half = Literal["am", "pm"]
"""A half of the day said with a range's end: the morning or the afternoon."""


@dataclass(frozen=True)
class DateSpan:
    """A date (start == end) or a range of dates the person wrote, with its working and calendar day counts; a range
    that starts in an afternoon or ends in a morning ("下周四下午到周五", "Monday afternoon to Wednesday morning")
    counts half of that day."""

    start: date
    end: date
    text: str
    at: tuple[int, int]
    working_days: float
    calendar_days: float
    start_half: Half | None = None
    """A range's first day's half as said: "pm" (from the afternoon: half a day) or "am" (from the morning: whole)."""
    end_half: Half | None = None
    """A range's last day's half as said: "am" (to the morning: half a day) or "pm" (to the afternoon: whole)."""



class DateReadError(ValueError):
    """A date phrase that cannot be read (`reason` "unreadable") or names no day on the calendar ("not_on_calendar")."""

    def __init__(self, reason: Literal["unreadable", "not_on_calendar"], text: str) -> None:
        super().__init__(f"{reason}: {text!r}")
        self.reason = reason
        self.text = text


_CONNECTOR_RE = re.compile(r"\s*(?:起|开始)?\s*(?:一直)?\s*(?:到|至|~|～|-|–|—|to|until|till|through|thru|and)\s*", re.I)
_RANGE_LEAD_RE = re.compile(r"(?:从|自|\bfrom|\bbetween)\s*$", re.I)
_DAY_END_RE = re.compile(
    rf"\s*(?:到|至|~|～|-|–|—|to|until|till|through|thru)\s*(?P<d>{NUM})(?:st|nd|rd|th|日|号)?(?![\d:/]|\.\d)"
    r"(?!\s*(?:days?|hours?|weeks?|months?|天|小时|个|周|星期|月|元|块))",
    re.I,
)
_FILLER_BEFORE_RE = re.compile(r"[\s,.;:!?，。！？、]*(?:(?:on|by|at|for)\s+)?", re.I)
_FILLER_AFTER_RE = re.compile(r"[\s,.;:!?，。！？、]*")


def _end_after(start: date, end: Phrase) -> date | None:
    """A range's end read against its start: a bare weekday in the start's week, a month-day in its year; "the
    following Monday" the first Monday after the start (None when that is later in the start's own week: see
    `_following`)."""
    if end.after_start and end.weekday is not None:
        return _following(start, end.weekday)
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


def _following(start: date, weekday: int) -> date | None:
    """"The following Monday" / "the Monday after" a start: the first such day after it, when that is in a later week
    (Friday to the following Monday, Friday to the following Friday). A day later in the start's own week ("Wednesday
    to the following Friday": this Friday, or next week's?) is not read: the person is asked."""
    if weekday > start.weekday():
        return None
    return start + timedelta(days=(weekday - start.weekday()) % 7 or 7)


def _span(original: str, start: date, end: date, at: tuple[int, int], start_half: Half | None = None,
          end_half: Half | None = None) -> DateSpan:
    halves = [day for day, half, counts_half in ((start, start_half, "pm"), (end, end_half, "am")) if half == counts_half]
    return DateSpan(
        start=start,
        end=end,
        text=original[at[0] : at[1]],
        at=at,
        working_days=_whole(working_days(start, end) - 0.5 * sum(1 for day in halves if is_working_day(day))),
        calendar_days=_whole((end - start).days + 1 - 0.5 * len(halves)),
        start_half=start_half,
        end_half=end_half,
    )


def _whole(days: float) -> float:
    return int(days) if days == int(days) else days


AM_PM = (r"(?-i:(?P<ap>[AaPp])(?:\.[Mm]\.|(?<=[AP])M|(?<=p)m|(?<=a)m(?=\s*(?:$|[,.;!?，。；！？)]|off\b|to\b|-|–))))"
         r"(?![A-Za-z0-9])")
"""AM or PM after a day, as a half of it ("下周五 PM", "Mon PM to Wed AM", "fri a.m.", "fri pm"): "am" alone only where
no word follows it ("next Friday am I right?" is English). Its group `ap` is the letter `am_or_pm` reads."""


def am_or_pm(found: re.Match[str]) -> Half:
    """The half a match of `AM_PM` says."""
    return "am" if found["ap"].lower() == "a" else "pm"


_HALF_AFTER_RE = re.compile(
    r"\s*的?\s*(?P<zh>上午|下午)(?!好|\s*(?:\d|[一二两三四五六七八九十]+\s*点))"
    r"|\s+(?:in\s+the\s+)?(?P<en>morning|afternoon)\b(?!\s*(?:at\s+)?\d)"
    rf"|\s*{AM_PM}",
    re.I,
)
_HALF_BEFORE_RE = re.compile(r"\b(?:the\s+)?(?P<en>morning|afternoon)\s+of\s+$", re.I)
_HALVES: dict[str, Half] = {"上午": "am", "下午": "pm", "morning": "am", "afternoon": "pm"}


def _half_after(text: str, at: int) -> tuple[Half | None, int]:
    """The half of the day said right after a date ("周四下午", "Thursday afternoon"), and where it ends; none before
    a time of day (周四下午3点)."""
    found = _HALF_AFTER_RE.match(text, at)
    if found is None:
        return None, at
    if found["ap"]:
        return am_or_pm(found), found.end()
    return _HALVES[(found["zh"] or found["en"]).lower()], found.end()


def _half_before(text: str, at: int) -> tuple[Half | None, int]:
    """The half of the day said right before a date ("the afternoon of the 8th"), and where it starts."""
    found = _HALF_BEFORE_RE.search(text[:at])
    return (_HALVES[found["en"].lower()], found.start()) if found else (None, at)


_NEXT_WEEK_RE = re.compile(r"下(?:个|一)?(?:周|星期|礼拜)(?![一二三四五六日天1-7末])|\bnext\s+week\b", re.IGNORECASE)
_SENTENCE_END_RE = re.compile(r"[。！？!?\n]|\.\s")


def _week_said_before(text: str, singles: list[Phrase], today: date) -> list[Phrase]:
    """A bare weekday after "next week" said on its own earlier in the sentence, with no date between ("下周陪她回趟娘家，
    周四下午到周五", "next week I'm moving, so Thursday and Friday off") is that week's, not the coming one."""
    out = list(singles)
    for said in _NEXT_WEEK_RE.finditer(text):
        following = [i for i, p in enumerate(out) if p.start >= said.end()]
        if not following or any(p.start <= said.start() < p.end for p in out):
            continue
        first = out[following[0]]
        if first.weekday is None or _SENTENCE_END_RE.search(text, said.end(), first.start):
            continue
        monday = today - timedelta(days=today.weekday()) + timedelta(weeks=1)
        out[following[0]] = replace(first, day=monday + timedelta(days=first.weekday), weekday=None)
    return out


def _weeks_of_lists(text: str, singles: list[Phrase]) -> list[Phrase]:
    """A list of weekdays whose week is said once ("下周一、周三和周五", "next Thu and Fri", "Thursday and Friday next
    week"): its bare weekdays are in that week, not the coming one (one listed after the dated day and falling
    before it is in the week after, as a range's end is)."""
    out = list(singles)
    run: list[int] = []
    for i in range(len(out) + 1):
        joined = (
            i < len(out) and run and out[i].kind.startswith("week_") and out[run[-1]].kind.startswith("week_")
            and _WEEK_LIST_JOIN_RE.fullmatch(text[out[run[-1]].end : out[i].start]) is not None
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


def _in_order(start: date, start_half: Half | None, end: date, end_half: Half | None) -> bool:
    """Whether a range ends after it starts (a day's afternoon to its morning does not: no range)."""
    return end > start or (end == start and not (start_half == "pm" and end_half == "am"))


def find_dates(text: str, today: date, original: str | None = None,
               unread: list[tuple[int, int]] | None = None) -> list[DateSpan]:
    """Every date and date range in `text` (folded and masked), with spans and texts from `original`. A range whose
    end cannot be read ("Wednesday to the following Friday") gives no date at all, not its start alone: where it is
    is added to `unread`."""
    original = text if original is None else original
    singles = _ends_said_apart(text, _weeks_of_lists(text, _week_said_before(text, phrases(text, today), today)))
    spans: list[DateSpan] = []
    i = 0
    while i < len(singles):
        first = singles[i]
        if first.day is None:
            if unread is not None and first.after_start:  # said of a day this package does not read
                unread.append((first.start, first.end))
            i += 1
            continue
        start_half, first_start = _half_before(text, first.start)
        lead = _RANGE_LEAD_RE.search(text[:first_start])
        begin = lead.start() if lead else first_start
        if first.until is not None:
            spans.append(_span(original, first.day, first.until, (begin, first.end)))
            i += 1
            continue
        start_half = start_half or first.half  # "Thursday afternoon next week to …"
        start_half, first_end = _half_after(text, first.end) if start_half is None else (start_half, first.end)
        if i + 1 < len(singles):
            second = singles[i + 1]
            end_half, second_start = _half_before(text, second.start)
            connector = _CONNECTOR_RE.fullmatch(text[first_end:second_start])
            if (
                connector
                and (second.day is not None or second.after_start)
                and (connector.group().strip().lower() != "and" or (lead and "between" in lead.group().lower()))
            ):
                begin_day = first.day
                if first.weekday is not None and second.scopes_range and second.day is not None:
                    # "Tuesday to Thursday next week": both ends are in next week
                    begin_day = second.day - timedelta(days=second.day.weekday() - first.weekday)
                end = _end_after(begin_day, second)
                end_half = end_half or second.half  # "… to Tuesday morning the week after next"
                end_half, last = _half_after(text, second.end) if end_half is None else (end_half, second.end)
                if end is None and second.after_start:
                    if unread is not None:
                        unread.append((begin, last))
                    i += 2
                    continue
                if end is not None and (end != begin_day or _in_order(begin_day, start_half, end, end_half)):
                    # an end before its start is kept as said, for a form to refuse ("this Friday till next
                    # Tuesday" said on a Saturday: the 11th to the 8th), never read as the two dates in order
                    spans.append(_span(original, begin_day, end, (begin, last), start_half, end_half))
                    i += 2
                    continue
        if first.kind in ("iso", "ymd_zh", "md_en", "dm_en", "numeric", "month_rel", "day_zh", "day_en"):
            tail = _DAY_END_RE.match(text, first_end)
            if tail:
                try:
                    end = add_months(first.day, 0, number(tail["d"]))
                except ValueError:
                    end = None
                if end is not None and end < first.day:
                    end = add_months(first.day, 1, end.day)
                end_half, last = _half_after(text, tail.end())
                if end is not None and _in_order(first.day, start_half, end, end_half):
                    spans.append(_span(original, first.day, end, (begin, last), start_half, end_half))
                    i += 1
                    continue
        following = singles[i + 1].start if i + 1 < len(singles) else len(text)
        spans.extend(_listed(text, original, today, first, following))
        i += 1
    return spans


def _listed(text: str, original: str, today: date, first: Phrase, following: int) -> list[DateSpan]:
    """A day alone, with the days listed with it in one month: the one before it ("12月28、29号", "28、29号": the first
    shares the month of the one after it) and those after a dated day ("12月28日和29日", "Dec 28 and 29")."""
    assert first.day is not None
    spans = []
    head = _MONTH_DAY_HEAD_RE.search(text[:first.start]) if first.kind in ("day_zh", "day_en") else None
    if head is not None:
        days = _month_days(today, number(head["m"]), [number(head["d"]), first.day.day]) if head["m"] else [
            d for d in (safe_date(first.day.year, first.day.month, int(head["bare"])), first.day) if d is not None]
        if len(days) == 2 and days[0] < days[1]:
            spans.append(_span(original, days[0], days[0], (head.start(), head.end())))
            first = replace(first, day=days[1])
    assert first.day is not None
    spans.append(_span(original, first.day, first.day, (first.start, first.end)))
    last, at = first.day, first.end
    while first.kind in _DATED_DAYS and (tail := _DAY_LIST_RE.match(text, at)) and tail.end() <= following:
        listed = add_months(last, 0, number(tail["d"]))
        if listed is None or listed <= last:
            break
        spans.append(_span(original, listed, listed, (tail.start("d"), tail.end())))
        last, at = listed, tail.end()
    return spans


_DATED_DAYS = ("iso", "ymd_zh", "md_en", "dm_en", "numeric")
_DAY_LIST_RE = re.compile(
    r"\s*(?:、|，|,|/|&|和|及|与|跟|\band\b)\s*(?:the\s+)?(?P<d>\d{1,2}|[一二三四五六七八九十]{1,3})\s*(?:st|nd|rd|th|日|号)?"
    r"(?![\d:/月]|\.\d)(?!\s*(?:days?|hours?|weeks?|months?|天|小时|个|周|星期|元|块|号|日))", re.I)
"""A day listed after a dated day, in its month: "12月28日和29日", "Dec 28 and 29"."""
_MONTH_DAY_HEAD_RE = re.compile(
    r"(?:(?P<m>\d{1,2}|[一二三四五六七八九十]{1,3})\s*月\s*(?P<d>\d{1,2}|[一二三四五六七八九十]{1,3})\s*(?:、|，|,|和|及|与|跟)|"
    r"(?<![\d.月])(?P<bare>\d{1,2})\s*(?:、|和))\s*$")
"""A month and day before a day listed after it ("12月28、29号", "28、29号"): the two days of that month."""


def _month_days(today: date, month: int, days: list[int]) -> list[date]:
    """Days of one month written without a year, in the year nearest today of the first; [] when one is no date."""
    from tools.parsers.date_phrases import _nearest_month_day

    first = _nearest_month_day(today, month, days[0])
    found = [safe_date(first.year, month, d) for d in days] if first is not None else []
    return [d for d in found if d is not None] if len(found) == len(days) and all(found) else []


_APART_RE = re.compile(r"[^，,。.;；!！?？\n]*?(?:到|至|\b(?:to|till|until|through|thru)\b)[^，,。.;；!！?？\n]*", re.I)


def _ends_said_apart(text: str, singles: list[Phrase]) -> list[Phrase]:
    """A bare weekday after a date in the same clause with a range's word between them, but other words too
    ("下周四下午开始休到周五", "from next Tuesday afternoon all the way to Thursday"): it is that range's end, read after the
    date as a range's end is, never this week's day before it. Not a range (its halves and days are not read)."""
    out = list(singles)
    for i in range(1, len(out)):
        first, second = out[i - 1], out[i]
        if second.weekday is None or first.day is None or second.day is None or second.day >= first.day:
            continue
        if _APART_RE.fullmatch(text[first.end : second.start]):
            out[i] = replace(second, day=_end_after(first.day, second), weekday=None)
    return out


_LIST_JOIN_RE = re.compile(r"\s*(?:,|，|、|/|&)?\s*(?:\band\b|\bplus\b|和|及|与|跟|还有)?\s*(?:on\s+)?", re.I)
_WEEK_LIST_JOIN_RE = re.compile(
    r"(?:\s*的?(?:上午|下午)|\s+(?:in\s+the\s+)?(?:morning|afternoon)|\s*(?:[AaPp]\.?[Mm]\.?))?"
    + _LIST_JOIN_RE.pattern
    + r"(?:(?:all|the\s+whole|the\s+full)\s+(?:day\s+)?(?:of\s+)?|(?:the\s+)?(?:morning|afternoon)\s+of\s+)?",
    re.I)
"""What joins the weekdays of a list whose week is said once, halves and whole days said with them ("Thursday
afternoon and all of Friday next week", 下周四下午和周五): a list's join (`_LIST_JOIN_RE`) with them."""


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


def read_date(text: str, today: date, *, after: date | None = None) -> date:
    """The one date a phrase names ("下周五", "明天", "next Friday", "2027-01-22", "12月3日"), counted from `today`;
    with `after`, the phrase is a range's end after that start, read as a range's end is ("周五" in the start's week
    or the next, "the following Monday" the first Monday after it).

    Raises DateReadError: "unreadable" when the phrase is not one date ("the following Monday" without `after`),
    "not_on_calendar" when it names a day that does not exist (2025-02-30).
    """
    folded = fold_width(text).strip()
    singles = phrases(folded, today)
    if len(singles) == 1:
        found = singles[0]
        before = _FILLER_BEFORE_RE.fullmatch(folded[: found.start])
        behind = _FILLER_AFTER_RE.fullmatch(folded[found.end :])
        if before and behind:
            day = _end_after(after, found) if after is not None else found.day
            if found.after_start and day is None:
                raise DateReadError("unreadable", text)  # no start, or a day of the start's own week
            if day is None:
                raise DateReadError("not_on_calendar", text)
            return day
    raise DateReadError("unreadable", text)
