"""A leave's length in working days on the mainland-China calendar, and what was counted, in the person's words.

`chinese_calendar` (the `chinesecalendar` distribution) knows each year's official schedule once the State Council has
published it (1.11.0: 2004–2026): public holidays are left out, make-up workdays (调休上班, a weekend day worked) are
counted. A year it does not know is named in `Count.unknown_years` and counted Monday to Friday; the card says so and
the person's approval of the card is their confirmation.

Half days: a leave from the afternoon (`start_half="pm"`, 下午) counts half of its first day, one to the morning
(`end_half="am"`, 上午) half of its last; a day's morning alone is `start_half="am", end_half="am"`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from functools import lru_cache
from typing import Any, Literal

Half = Literal["am", "pm"]
MAX_SPAN_DAYS = 366
"""A leave spans at most a year of calendar days (a longer one is no leave request: refused, not counted)."""
WEEKDAYS_ZH = ("周一", "周二", "周三", "周四", "周五", "周六", "周日")
WEEKDAYS_EN = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS_EN = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


class CountError(ValueError):
    """Dates that make no leave (an end before its start, a span over a year), with the words to tell the person."""

    def __init__(self, code: str, say: dict[str, str]) -> None:
        super().__init__(say["en"])
        self.code = code
        self.say = say


@lru_cache(maxsize=4096)
def _day(day: date) -> tuple[bool, bool, bool]:
    """(a working day, an official holiday, known to the calendar) for one day."""
    import chinese_calendar  # imported on the first count, not with the package

    try:
        holiday, name = chinese_calendar.get_holiday_detail(day)
    except NotImplementedError:
        return day.weekday() < 5, False, False
    return not holiday, bool(holiday and name), True


def is_working_day(day: date) -> bool:
    """Whether `day` is a working day (Monday to Friday in a year the calendar does not know)."""
    return _day(day)[0]


@dataclass(frozen=True)
class Count:
    """A leave counted: its ends, its length in working days, and what the count left out or took in."""

    start: date
    end: date
    start_half: Half | None
    end_half: Half | None
    days: float
    """Working days, in half-day steps."""
    holidays: tuple[date, ...]
    """Official holidays in the range (a weekend inside a holiday too): not counted."""
    makeup: tuple[date, ...]
    """Weekend days that are working days (调休上班): counted."""
    unknown_years: tuple[int, ...]
    """Years the calendar has no schedule for: counted Monday to Friday, to be confirmed by the person."""

    def record(self) -> dict[str, Any]:
        """The count as plain data (ISO dates), for a request's form, a card and the audit."""
        return {
            "start": self.start.isoformat(), "end": self.end.isoformat(), "startHalf": self.start_half,
            "endHalf": self.end_half, "days": self.days, "holidays": [d.isoformat() for d in self.holidays],
            "makeup": [d.isoformat() for d in self.makeup], "unknown_years": list(self.unknown_years),
        }

    def line(self, lang: str) -> str:
        """What was counted, for the card: "2025年12月31日–2026年1月4日：2 个工作日；1月1日至3日放假，1月4日（周日）调休上班"."""
        return _line_en(self) if lang == "en" else _line_zh(self)


def count_leave(start: date, end: date, *, start_half: Half | None = None, end_half: Half | None = None) -> Count:
    """The working days of a leave from `start` to `end` (both included), with its half days; `CountError` when the
    dates make no leave."""
    if end < start or (end == start and start_half == "pm" and end_half == "am"):
        raise CountError("end_before_start", {
            "zh": f"结束时间（{_date_zh(end)}{_half_zh(end_half)}）早于开始时间（{_date_zh(start)}"
                  f"{_half_zh(start_half)}），请核对日期。",
            "en": f"The leave ends ({_date_en(end)}{_half_en(end_half)}) before it starts ({_date_en(start)}"
                  f"{_half_en(start_half)}): check the dates.",
        })
    span = (end - start).days + 1
    if span > MAX_SPAN_DAYS:
        raise CountError("span_too_long", {
            "zh": f"{_date_zh(start)}到{_date_zh(end)}共 {span} 天，超过一年，请核对日期。",
            "en": f"{_date_en(start)} to {_date_en(end)} is {span} days, over a year: check the dates.",
        })
    days = 0.0
    holidays: list[date] = []
    makeup: list[date] = []
    unknown: set[int] = set()
    for n in range(span):
        day = start + timedelta(days=n)
        working, holiday, known = _day(day)
        if not known:
            unknown.add(day.year)
        if holiday:
            holidays.append(day)
        if working and day.weekday() >= 5:
            makeup.append(day)
        if working:
            half = (day == start and start_half == "pm") or (day == end and end_half == "am")
            days += 0.5 if half else 1.0
    return Count(start, end, start_half, end_half, days, tuple(holidays), tuple(makeup), tuple(sorted(unknown)))


# ---------------------------------------------------------------- words


def _date_zh(day: date, *, year: bool = True) -> str:
    return f"{day.year}年{day.month}月{day.day}日" if year else f"{day.month}月{day.day}日"


def _date_en(day: date, *, year: bool = True) -> str:
    return f"{day.day} {MONTHS_EN[day.month - 1]} {day.year}" if year else f"{day.day} {MONTHS_EN[day.month - 1]}"


def _half_zh(half: Half | None) -> str:
    return {"am": "上午", "pm": "下午"}.get(half or "", "")


def _half_en(half: Half | None) -> str:
    return {"am": " morning", "pm": " afternoon"}.get(half or "", "")


def _runs(days: tuple[date, ...]) -> list[tuple[date, date]]:
    """Consecutive days as (first, last) runs."""
    runs: list[tuple[date, date]] = []
    for day in days:
        if runs and (day - runs[-1][1]).days == 1:
            runs[-1] = (runs[-1][0], day)
        else:
            runs.append((day, day))
    return runs


def _number(days: float) -> str:
    return f"{days:g}"


def _ends_zh(count: Count) -> str:
    start = _date_zh(count.start) + _half_zh(count.start_half)
    if count.start == count.end:
        both = count.start_half if count.start_half == count.end_half or count.end_half is None else None
        return _date_zh(count.start) + _half_zh(both or count.start_half or count.end_half)
    return f"{start}–{_date_zh(count.end, year=count.end.year != count.start.year)}{_half_zh(count.end_half)}"


def _ends_en(count: Count) -> str:
    if count.start == count.end:
        both = count.start_half if count.start_half == count.end_half or count.end_half is None else None
        return _date_en(count.start) + _half_en(both or count.start_half or count.end_half)
    return f"{_date_en(count.start)}{_half_en(count.start_half)} – {_date_en(count.end)}{_half_en(count.end_half)}"


def _line_zh(count: Count) -> str:
    parts = []
    for first, last in _runs(count.holidays):
        if first == last:
            parts.append(f"{_date_zh(first, year=False)}放假")
        elif first.month == last.month:
            parts.append(f"{_date_zh(first, year=False)}至{last.day}日放假")
        else:
            parts.append(f"{_date_zh(first, year=False)}至{_date_zh(last, year=False)}放假")
    parts += [f"{_date_zh(d, year=False)}（{WEEKDAYS_ZH[d.weekday()]}）调休上班" for d in count.makeup]
    line = f"{_ends_zh(count)}：{_number(count.days)} 个工作日"
    if parts:
        line += "；" + "，".join(parts)
    if count.unknown_years:
        years = "、".join(str(y) for y in count.unknown_years)
        line += f"；{years} 年的放假安排日历中还没有，按周一至周五计算，请确认"
    return line


def _line_en(count: Count) -> str:
    parts = []
    for first, last in _runs(count.holidays):
        if first == last:
            parts.append(f"{_date_en(first, year=False)} a public holiday")
        elif first.month == last.month:
            parts.append(f"{first.day}–{last.day} {MONTHS_EN[first.month - 1]} public holidays")
        else:
            parts.append(f"{_date_en(first, year=False)} – {_date_en(last, year=False)} public holidays")
    parts += [f"{_date_en(d, year=False)} ({WEEKDAYS_EN[d.weekday()]}) a make-up working day" for d in count.makeup]
    unit = "working day" if count.days == 1 else "working days"
    line = f"{_ends_en(count)}: {_number(count.days)} {unit}"
    if parts:
        line += "; " + ", ".join(parts)
    if count.unknown_years:
        years = ", ".join(str(y) for y in count.unknown_years)
        line += f"; the calendar has no holiday schedule for {years} yet: counted Monday to Friday, please confirm"
    return line
