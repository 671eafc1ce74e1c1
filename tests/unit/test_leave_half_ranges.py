"""Issue 33 through the leave form: the halves of the one range a person states fill its startHalf and endHalf, the
days it counts are the days stated, and a last day said as "the following Monday" is read after the first day."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from tools.grounding import read_dates, stated_value
from tools.request import read_request
from tools.spec import PersonValue
from tools.workflow.forms import person_values
from tools.workflow.leave.rules import read_leave

TUESDAY = date(2026, 12, 1)


@pytest.fixture
def values(store) -> dict[str, PersonValue]:
    with store.read() as conn:
        definition = next(d for d in store.process_engine.definitions(conn) if d.key == "process_qingjia")
    return {v.param: v for v in person_values(definition)}


def read(values: dict[str, PersonValue], *texts: str) -> dict[str, Any]:
    request = read_request(list(texts), index=0, today=TUESDAY)
    return {p: stated_value(values[p], request) for p in ("days", "fields.startHalf", "fields.endHalf")}


@pytest.mark.parametrize(
    ("text", "days", "start_half", "end_half"),
    [
        ("下周四下午到周五请年假，搬家", 1.5, "下午", None),
        ("周一下午到周三上午请事假", 2.0, "下午", "上午"),
        ("I need next Thursday afternoon through Friday off, moving house", 1.5, "下午", None),
        ("off from next Thursday afternoon through next Friday, please", 1.5, "下午", None),
        ("from Monday afternoon to Wednesday morning, family matter", 2.0, "下午", "上午"),
        ("下周一上午到周二，去办签证", 2.0, "上午", None),
    ],
)
def test_a_ranges_halves_fill_the_leave_forms_halves(values, text, days, start_half, end_half):
    assert read(values, text) == {"days": days, "fields.startHalf": start_half, "fields.endHalf": end_half}


def test_without_a_range_a_half_is_read_from_the_words_as_before(values):
    assert read(values, "下周二下午要去医院拔智齿，请半天病假")["fields.startHalf"] == "下午"
    assert read(values, "明天上午开会，下午请假")["fields.startHalf"] is None  # both said: asked


def test_two_different_ranges_fill_no_half(values):
    found = read(values, "下周四下午到周五，或者下周一下午到周二")
    assert found["fields.startHalf"] is None and found["fields.endHalf"] is None


def test_the_form_counts_what_the_range_states(values):
    """The values read, as filed, count the days the range states (1.5: Thursday afternoon and Friday)."""
    form = {"leaveType": "年假", "startDate": "2026-12-10", "endDate": "2026-12-11", "startHalf": "下午", "days": 1.5}
    assert read_leave(form, TUESDAY).days == 1.5
    form = {"leaveType": "事假", "startDate": "2026-12-07", "endDate": "2026-12-09", "startHalf": "下午",
            "endHalf": "上午", "days": 2}
    assert read_leave(form, TUESDAY).days == 2


@pytest.mark.parametrize(
    ("start", "end", "read_end"),
    [("next Friday", "the following Monday", "2026-12-14"), ("Friday", "the Monday after", "2026-12-07"),
     ("下周三", "周五", "2026-12-11"), ("2026-12-09", "next Friday", "2026-12-11")],
)
def test_the_last_day_is_read_after_the_first(values, start, end, read_end):
    args = {"fields": {"startDate": start, "endDate": end}}
    filled = read_dates(list(values.values()), args, TUESDAY)
    assert filled["fields"]["endDate"] == read_end


def test_the_last_day_that_needs_a_first_is_left_as_written_without_one(values):
    args = {"fields": {"endDate": "the following Monday"}}
    assert read_dates(list(values.values()), args, TUESDAY)["fields"]["endDate"] == "the following Monday"


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("这周五到下周二请年假，回老家参加婚礼", 3.0),  # Friday, Monday, Tuesday: the weekend is not counted
        ("Book me personal leave Saturday through next Wednesday, sorting out the new flat", 3.0),
        ("off from Dec 11 to Dec 14 — family visiting", 2.0),
        ("下周四下午到下下周一请调休", 2.5),
    ],
)
def test_a_leave_said_as_a_range_and_no_count_lasts_its_working_days(values, text, days):
    """The days of a leave the person gave as dates alone are the working days of those dates, whatever count the
    model passed: the range's calendar days (or a model's guess) are not the person's."""
    assert read(values, text)["days"] == days


@pytest.mark.parametrize("text", ["12月10日到14日请假，4天", "Friday to Monday off please, 4 days",
                                  "下周四到下周一请假"])  # an end before its start: the form refuses it
def test_a_count_the_person_said_beside_a_range_is_theirs_and_decides_nothing_alone(values, text):
    """A count of their own beside the dates is not replaced by the dates' working days: the two differ (calendar
    days said), so nothing is read and the leave's rules say both to the person."""
    assert read(values, text)["days"] is None


def test_a_count_the_person_said_beside_a_range_that_agrees_is_read(values):
    assert read(values, "下周三到周五请3天年假")["days"] == 3.0


@pytest.mark.parametrize(("text", "day"), [  # written after the rule (the twenty-first round, read); none from it
    ("上周六加了一天班，这周五调休一天", "2026-12-04"),
    ("Worked last Sunday to cover the shift, so one comp day on Thursday please", "2026-12-03"),
    ("上周一和这周五各请一天", None),  # two days said as the leave's: no one day
])
def test_a_past_day_told_as_why_is_no_day_of_a_one_day_leave(values, text, day):
    request = read_request([text], index=0, today=TUESDAY)
    assert stated_value(values["fields.startDate"], request) == day
    assert stated_value(values["fields.endDate"], request) == day
