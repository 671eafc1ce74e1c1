"""Working days by the mainland-China calendar: weekends, public holidays and the make-up workdays around them.

`chinese_calendar` (the `chinesecalendar` distribution) knows each year's official schedule once the State
Council has published it (in its 1.11.0: 2004–2026). For a year it does not know yet, a day counts as a working
day when it is Monday to Friday: the count may then include a holiday that is not announced yet.
"""

from __future__ import annotations

from datetime import date, timedelta
from functools import lru_cache

MAX_SPAN_DAYS = 3660  # a range longer than ten years is counted by weekdays alone (nobody asks for one)


@lru_cache(maxsize=4096)
def is_working_day(day: date) -> bool:
    """Whether `day` is a working day in mainland China (Monday to Friday for a year the calendar has no data for)."""
    import chinese_calendar  # 30 ms: imported on the first count, not with the package

    try:
        return bool(chinese_calendar.is_workday(day))
    except NotImplementedError:
        return day.weekday() < 5


def working_days(start: date, end: date) -> int:
    """The number of working days in [start, end], both included (0 when end is before start)."""
    if end < start:
        return 0
    span = (end - start).days + 1
    if span > MAX_SPAN_DAYS:
        return sum(1 for n in range(span) if (start + timedelta(days=n)).weekday() < 5)
    return sum(1 for n in range(span) if is_working_day(start + timedelta(days=n)))
