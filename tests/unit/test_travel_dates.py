"""Travel dates as people say them, resolved in code against the run's today (never by the model)."""

from __future__ import annotations

from datetime import date

import pytest

from tools.travel.dates import DateError, travel_date

WEDNESDAY = date(2025, 6, 11)
FRIDAY = date(2025, 6, 13)


@pytest.mark.parametrize(
    ("said", "today", "expected"),
    [
        ("下周五", WEDNESDAY, date(2025, 6, 20)),
        ("下星期五", WEDNESDAY, date(2025, 6, 20)),
        ("next Friday", WEDNESDAY, date(2025, 6, 20)),
        ("下周五", FRIDAY, date(2025, 6, 20)),
        ("下周一", date(2025, 6, 15), date(2025, 6, 16)),  # a Sunday: next week starts tomorrow
        ("周五", WEDNESDAY, date(2025, 6, 13)),
        ("这周五", FRIDAY, FRIDAY),
        ("this Friday", WEDNESDAY, date(2025, 6, 13)),
        ("friday", date(2025, 6, 14), date(2025, 6, 20)),  # the coming Friday, never a past one
        ("下下周一", WEDNESDAY, date(2025, 6, 23)),
        ("今天", WEDNESDAY, WEDNESDAY),
        ("明天", WEDNESDAY, date(2025, 6, 12)),
        ("后天", WEDNESDAY, date(2025, 6, 13)),
        ("大后天", WEDNESDAY, date(2025, 6, 14)),
        ("tomorrow", date(2025, 12, 31), date(2026, 1, 1)),
        ("3天后", WEDNESDAY, date(2025, 6, 14)),
        ("in 10 days", WEDNESDAY, date(2025, 6, 21)),
        ("2025-06-20", WEDNESDAY, date(2025, 6, 20)),
        ("2025/6/20", WEDNESDAY, date(2025, 6, 20)),
        ("2025年6月20日", WEDNESDAY, date(2025, 6, 20)),
        ("6月20日", WEDNESDAY, date(2025, 6, 20)),
        ("1月3号", date(2025, 12, 20), date(2026, 1, 3)),  # a month-day without a year is the nearest: next January's
    ],
)
def test_travel_date_resolves_the_persons_phrase(said, today, expected):
    assert travel_date(said, today) == expected


@pytest.mark.parametrize(
    ("said", "code", "words"),
    [
        ("2025-06-10", "past_date", "date 2025-06-10 is in the past (today is 2025-06-11)"),
        ("2020-01-01", "past_date", "choose today or a later date"),
        ("2027-01-01", "date_too_far", "more than 365 days ahead"),
        ("2025-02-30", "unreadable_date", "is not a date on the calendar"),
        ("someday", "unreadable_date", "Cannot read the date 'someday'; use an ISO date"),
    ],
)
def test_travel_date_refuses_past_unreadable_and_far_dates(said, code, words):
    with pytest.raises(DateError) as refused:
        travel_date(said, WEDNESDAY)
    assert refused.value.code == code
    assert words in refused.value.message
