"""A travel date as people say it ("下周五", "明天", "next Friday", "2025-06-20"), resolved against today.

Today comes from the run (the graph's clock in `Context.timezone`, handed to tools as `CallContext.today`), never
from the model. Week phrases count weeks from Monday: "下周五" and "next Friday" are the Friday of next week;
"周五", "这周五" and "this Friday" the coming Friday (today if it is Friday).
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from tools.errors import DomainError

MAX_DAYS_AHEAD = 365
WEEKDAYS_ZH = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6, "末": 5}
WEEKDAYS_EN = {"monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4, "saturday": 5, "sunday": 6,
               "mon": 0, "tue": 1, "wed": 2, "thu": 3, "fri": 4, "sat": 5, "sun": 6}
OFFSETS = {"今天": 0, "今日": 0, "明天": 1, "明日": 1, "后天": 2, "大后天": 3, "today": 0, "tomorrow": 1,
           "the day after tomorrow": 2, "day after tomorrow": 2}
HELP = "use an ISO date (2025-06-20) or 今天/明天/后天/下周五/6月20日/tomorrow/next Friday"

_ISO = re.compile(r"^(\d{4})[-/.年](\d{1,2})[-/.月](\d{1,2})[日号]?$")
_MONTH_DAY = re.compile(r"^(\d{1,2})月(\d{1,2})[日号]?$")
_WEEK_ZH = re.compile(r"^(下下|下|这|本)?(?:个)?(?:周|星期|礼拜)([一二三四五六日天末])$")
_WEEK_EN = re.compile(r"^(next|this|coming)?\s*([a-z]+)$")
_IN_DAYS = re.compile(r"^(?:in\s+)?(\d{1,3})\s*(?:days?\s*(?:later|from now)?|天后|天以后)$")


class DateError(DomainError):
    """A travel date that cannot be read, or that lies in the past or too far ahead."""


def _week_day(today: date, weekday: int, weeks_ahead: int | None) -> date:
    """`weeks_ahead` None: the coming such day (today included); else that day in the week `weeks_ahead` from now."""
    if weeks_ahead is None:
        return today + timedelta(days=(weekday - today.weekday()) % 7)
    monday = today - timedelta(days=today.weekday()) + timedelta(weeks=weeks_ahead)
    return monday + timedelta(days=weekday)


def read_date(text: str, today: date) -> date:
    """The date a phrase means, counted from `today`; raises DateError when it cannot be read."""
    said = re.sub(r"\s+", " ", text.strip().lower()).removesuffix(".")
    if said in OFFSETS:
        return today + timedelta(days=OFFSETS[said])
    if match := _ISO.match(said.replace(" ", "")):
        return _make(int(match[1]), int(match[2]), int(match[3]), text)
    if match := _MONTH_DAY.match(said.replace(" ", "")):
        month, day = int(match[1]), int(match[2])
        found = _make(today.year, month, day, text)
        return found if found >= today else _make(today.year + 1, month, day, text)
    if match := _WEEK_ZH.match(said.replace(" ", "")):
        ahead = {"下下": 2, "下": 1, "这": 0, "本": 0}.get(match[1] or "")
        return _week_day(today, WEEKDAYS_ZH[match[2]], ahead)
    if (match := _WEEK_EN.match(said)) and match[2] in WEEKDAYS_EN:
        return _week_day(today, WEEKDAYS_EN[match[2]], 1 if match[1] == "next" else None)
    if match := _IN_DAYS.match(said):
        return today + timedelta(days=int(match[1]))
    raise DateError("unreadable_date", f"Cannot read the date {text.strip()[:40]!r}; {HELP}.")


def _make(year: int, month: int, day: int, text: str) -> date:
    try:
        return date(year, month, day)
    except ValueError:
        raise DateError("unreadable_date", f"{text.strip()[:40]!r} is not a date on the calendar; {HELP}.") from None


def travel_date(text: str, today: date, *, param: str = "date") -> date:
    """A date to travel on: read from the person's phrase, today or later, at most a year ahead."""
    found = read_date(text, today)
    if found < today:
        raise DateError(
            "past_date",
            f"{param} {found.isoformat()} is in the past (today is {today.isoformat()}); choose today or a later date.",
        )
    if found > today + timedelta(days=MAX_DAYS_AHEAD):
        raise DateError(
            "date_too_far", f"{param} {found.isoformat()} is more than {MAX_DAYS_AHEAD} days ahead; nothing is on sale yet."
        )
    return found
