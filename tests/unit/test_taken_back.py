"""An option named and not chosen is not read as the choice: taken back for another in the same breath, said not to
be it, or kept for later (the thirty-fourth round's writer found "annual leave. Actually no, make it a comp day" filed
as annual leave, and "那就调休吧，年假留着过年用" not read as an answer). Phrasings written for these tests."""

from __future__ import annotations

import pytest

from tools.choices import read_choice

LEAVE = [("年假", "年假", "Annual leave"), ("事假", "事假", "Personal leave"), ("病假", "病假", "Sick leave"),
         ("调休", "调休", "Compensatory leave")]
HINTS = [("调休", "comp day", "in lieu"), ("病假", "发烧", "fever")]


@pytest.mark.parametrize(("said", "chosen"), [
    ("周五用年假吧……哦不对，改成调休，年假我要攒着", "调休"),
    ("Put Friday down as personal leave. On second thought, make it annual leave.", "年假"),
    ("不用年假，走病假，这两天发烧", "病假"),
    ("Sick leave, not annual leave, please", "病假"),
    ("就事假吧，年假留到春节回家用", "事假"),
    ("A comp day please, I'd like to keep my annual leave for the summer", "调休"),
    ("Annual leave, or rather a comp day", "调休"),
    # one said to be used up (the thirty-eighth round, read after its run; none of its words)
    ("年假早就用完了，周五走事假吧", "事假"), ("I'm out of comp days, so personal leave for Friday", "事假"),
])
def test_the_option_left_is_the_one_chosen(said, chosen):
    found = read_choice(LEAVE, HINTS, [said])
    assert found is not None and found.value == chosen


@pytest.mark.parametrize("said", ["年假或者调休都可以", "annual leave or a comp day, whichever"])
def test_options_offered_as_alternatives_are_still_no_choice(said):
    assert read_choice(LEAVE, HINTS, [said]) is None


@pytest.mark.parametrize(("said", "chosen"), [("周四请一天年假", "年假"), ("I need a sick day, I have a fever", "病假")])
def test_one_option_named_is_read_as_before(said, chosen):
    found = read_choice(LEAVE, HINTS, [said])
    assert found is not None and found.value == chosen
