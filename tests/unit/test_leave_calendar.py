"""A leave counted in working days on the mainland-China calendar: every day of 2025 and 2026 as a one-day leave and
random ranges, checked against `chinese_calendar.is_workday` itself; half days; a year the calendar does not know."""

from __future__ import annotations

import random
from datetime import date, timedelta

import chinese_calendar
import pytest

from tools.workflow.leave.calendar import CountError, count_leave

FIRST, LAST = date(2025, 1, 1), date(2026, 12, 31)
ALL_DAYS = [FIRST + timedelta(days=n) for n in range((LAST - FIRST).days + 1)]


def test_every_day_of_2025_and_2026_as_a_one_day_leave_counts_as_the_calendar_says():
    for day in ALL_DAYS:
        count = count_leave(day, day)
        assert count.days == (1.0 if chinese_calendar.is_workday(day) else 0.0), day
        assert count.unknown_years == ()
        assert (day in count.makeup) == (chinese_calendar.is_workday(day) and day.weekday() >= 5), day


def test_random_ranges_count_the_calendars_working_days():
    rng = random.Random(33)
    for _ in range(2000):
        start = rng.choice(ALL_DAYS)
        end = min(start + timedelta(days=rng.randint(0, 40)), LAST)
        expected = sum(1 for d in ALL_DAYS if start <= d <= end and chinese_calendar.is_workday(d))
        assert count_leave(start, end).days == expected, (start, end)


def test_random_ranges_with_half_days_take_half_of_a_working_end():
    rng = random.Random(34)
    for _ in range(500):
        start = rng.choice(ALL_DAYS[:-30])
        end = start + timedelta(days=rng.randint(1, 20))
        whole = count_leave(start, end).days
        halves = 0.5 * chinese_calendar.is_workday(start) + 0.5 * chinese_calendar.is_workday(end)
        assert count_leave(start, end, start_half="pm", end_half="am").days == whole - halves, (start, end)


def test_the_new_year_2026_range_says_what_was_counted_in_each_language():
    count = count_leave(date(2025, 12, 31), date(2026, 1, 4))
    assert count.days == 2
    assert count.holidays == (date(2026, 1, 1), date(2026, 1, 2), date(2026, 1, 3))
    assert count.makeup == (date(2026, 1, 4),)
    assert count.line("zh") == "2025年12月31日–2026年1月4日：2 个工作日；1月1日至3日放假，1月4日（周日）调休上班"
    assert count.line("en") == ("31 Dec 2025 – 4 Jan 2026: 2 working days; 1–3 Jan public holidays, "
                                "4 Jan (Sunday) a make-up working day")


def test_national_day_2025_leaves_out_the_holiday_and_counts_the_saturday_worked():
    count = count_leave(date(2025, 9, 29), date(2025, 10, 12))
    # 9/29, 9/30 and the make-up Saturday 10/11 are worked; 10/1–10/8 is the holiday; 10/9, 10/10 are weekdays
    assert count.days == 5
    assert count.makeup == (date(2025, 10, 11),)
    assert "10月1日至8日放假" in count.line("zh")


def test_half_days_of_one_day():
    monday = date(2026, 12, 7)
    assert count_leave(monday, monday, start_half="am", end_half="am").days == 0.5
    assert count_leave(monday, monday, start_half="pm", end_half="pm").days == 0.5
    assert count_leave(monday, monday, start_half="pm").days == 0.5
    assert count_leave(monday, monday).days == 1
    assert count_leave(monday, monday, start_half="pm").line("zh") == "2026年12月7日下午：0.5 个工作日"
    assert count_leave(monday, date(2026, 12, 9), start_half="pm").line("en") == (
        "7 Dec 2026 afternoon – 9 Dec 2026: 2.5 working days")


def test_a_half_day_on_a_holiday_counts_nothing():
    # the afternoon of 1 January is a holiday: only Sunday the 4th (worked) and Monday the 5th count
    assert count_leave(date(2026, 1, 1), date(2026, 1, 5), start_half="pm").days == 2


def test_a_year_the_calendar_does_not_know_is_said_and_counted_monday_to_friday():
    count = count_leave(date(2026, 12, 30), date(2027, 1, 5))
    assert count.unknown_years == (2027,)
    # 12/30, 12/31 (2026, known: workdays); 2027: Fri 1/1, Mon 1/4, Tue 1/5 by weekday
    assert count.days == 5
    assert count.holidays == ()
    assert "2027 年的放假安排日历中还没有，按周一至周五计算，请确认" in count.line("zh")
    assert "no holiday schedule for 2027 yet: counted Monday to Friday, please confirm" in count.line("en")
    assert count.record()["unknown_years"] == [2027]


def test_an_end_before_the_start_is_refused_in_both_languages():
    with pytest.raises(CountError) as raised:
        count_leave(date(2026, 12, 9), date(2026, 12, 7))
    assert raised.value.code == "end_before_start"
    assert "早于开始时间" in raised.value.say["zh"] and "before it starts" in raised.value.say["en"]
    with pytest.raises(CountError):
        count_leave(date(2026, 12, 7), date(2026, 12, 7), start_half="pm", end_half="am")
    with pytest.raises(CountError) as long:
        count_leave(date(2026, 1, 1), date(2027, 6, 1))
    assert long.value.code == "span_too_long"
