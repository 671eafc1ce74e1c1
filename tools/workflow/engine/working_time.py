"""Durations of a timer or a due date: ISO 8601 (`PT1H`, `P1D`, `P2DT4H`), counted in plain time or in working time.

In working time only the hours of working days count, in the calendar's time zone: from a Friday 15:00, `P1D` ends on
Monday 15:00; from a Saturday, the count starts at the next working day's midnight. Which days are working days is
the caller's (`SpiffEngine(working_day=...)`): the engine knows no country's holidays, and without one it counts
Monday to Friday (`weekdays`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime, time, timedelta, tzinfo
from zoneinfo import ZoneInfo

WorkingDay = Callable[[date], bool]
"""Whether a date is a working day."""

WORKING_TIMEZONE = ZoneInfo("Asia/Shanghai")
"""The time zone a working day is counted in (the company's)."""

DURATION = re.compile(
    r"^P(?:(?P<weeks>\d+)W|(?:(?P<days>\d+)D)?(?:T(?:(?P<hours>\d+)H)?(?:(?P<minutes>\d+)M)?(?:(?P<seconds>\d+)S)?)?)$"
)
MAX_DURATION = timedelta(days=366)


class DurationError(ValueError):
    """A duration this engine does not count (years and months have no fixed length: write days)."""


def weekdays(day: date) -> bool:
    """Monday to Friday: the working days when the caller gives no calendar."""
    return day.weekday() < 5


def parse_duration(text: str) -> timedelta:
    """An ISO 8601 duration in weeks, days, hours, minutes and seconds (`P1D`, `PT1H`, `P1DT12H`, `P2W`)."""
    match = DURATION.match((text or "").strip().upper())
    if match is None or not any(match.groupdict().values()) or (text.strip().upper().endswith("T")):
        raise DurationError(
            f"{text!r} is not an ISO 8601 duration this engine counts: write it as PnW, PnD, PTnH, PTnM, PTnS or "
            f"a mix (P1D, PT1H, P1DT12H); years and months have no fixed length, write days"
        )
    parts = {name: int(value) for name, value in match.groupdict().items() if value}
    duration = timedelta(**parts)
    if duration <= timedelta(0) or duration > MAX_DURATION:
        raise DurationError(f"{text!r} must be longer than nothing and at most {MAX_DURATION.days} days")
    return duration


def due_after(
    start: datetime,
    duration: timedelta,
    *,
    working_time: bool,
    working_day: WorkingDay = weekdays,
    zone: tzinfo = WORKING_TIMEZONE,
) -> datetime:
    """When `duration` has passed since `start` (timezone-aware): in plain time, or counting only working days' hours."""
    if not working_time:
        return start + duration
    moment = start.astimezone(zone)
    left = duration
    for _ in range(3 * 366):  # a calendar with no working day in years would never end: give up loudly instead
        day = moment.date()
        midnight = datetime.combine(day + timedelta(days=1), time(0), zone)
        if working_day(day):
            available = midnight - moment
            if left <= available:
                return (moment + left).astimezone(start.tzinfo)
            left -= available
        moment = midnight
    raise DurationError("the working-day calendar gives no working day in three years")
