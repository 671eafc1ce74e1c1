"""Slips of the fingers read as the words meant: a key English word with one letter left out, doubled or swapped; a
Chinese option typed with a pinyin keyboard's other character of the same sound; thousands written with spaces before
an amount's unit; a short day name in lower case that ends a range from a day. Phrasings written for these tests,
none from the evaluation sets; beside each, words that look alike and are left as they are.
"""

from __future__ import annotations

from datetime import date

import pytest

from tools.parsers.dates import find_dates
from tools.parsers.quantities import find_quantities
from tools.parsers.slips import mended, sound_mended
from tools.request import latest_message, read_request
from tools.workflow.words import decision_in

MONDAY = date(2026, 12, 7)


@pytest.mark.parametrize(("typed", "meant"), [
    ("pls aprove zhao lius claim", "pls approve zhao lius claim"),
    ("rejcet it, wrong dates", "reject it, wrong dates"),
    ("Approoved already?", "Approved already?"),
    ("off thrusday moring", "off thursday morning"),
    ("reciepts are in my bag", "receipts are in my bag"),
    ("a day of compensatroy leave", "a day of compensatory leave"),
    ("wihdraw my trip", "withdraw my trip"),
])
def test_a_key_word_with_one_slip_is_read_as_the_word(typed: str, meant: str) -> None:
    assert mended(typed) == meant


@pytest.mark.parametrize("text", [
    "we need your approval", "they may annul the contract", "the annals of the team", "he is in mourning",
    "eject the disc", "I approve", "请假三天",
])
def test_words_of_their_own_and_right_spellings_stay(text: str) -> None:
    assert mended(text) == text


def test_the_persons_words_are_read_mended_so_a_slipped_decision_decides() -> None:
    request = read_request(["just aprove wang wus leave, looks fine"], index=0, today=MONDAY)
    assert decision_in(latest_message(request)) is True
    assert decision_in(latest_message(read_request(["rejcet it"], index=0, today=MONDAY))) is False


LEAVE_TYPES = ["年假", "事假", "病假", "调休", "婚假", "差旅", "餐饮"]


@pytest.mark.parametrize(("typed", "meant"), [
    ("想请病家两天", "想请病假两天"),
    ("调修半天，周五下午", "调休半天，周五下午"),
    ("下个月请婚价", "下个月请婚假"),
    ("餐引费三百二", "餐饮费三百二"),
])
def test_an_option_typed_with_a_character_of_the_same_sound_is_the_option(typed: str, meant: str) -> None:
    assert sound_mended(typed, LEAVE_TYPES) == meant


@pytest.mark.parametrize("text", ["今年价格又涨了", "这是假的吧", "去医院看病家属陪着", "调修电脑的钱"])
def test_a_same_sound_character_inside_another_word_stays(text: str) -> None:
    assert sound_mended(text, LEAVE_TYPES) == text


@pytest.mark.parametrize(("text", "value"), [
    ("报销 3 600 元的打车费", 3600.0), ("paid 12 400 rmb for the booth", 12400.0), ("¥2 150.50 for printing", 2150.5),
])
def test_thousands_written_with_spaces_before_a_unit_are_one_amount(text: str, value: float) -> None:
    [amount] = [q for q in find_quantities(text) if q.unit == "yuan"]
    assert amount.value == value


@pytest.mark.parametrize("text", ["room 6 800", "2 250 days", "1 25 yuan"])
def test_digits_with_spaces_and_no_amount_unit_are_no_amount(text: str) -> None:
    assert [q for q in find_quantities(text) if q.unit == "yuan" and q.value > 999] == []


@pytest.mark.parametrize(("text", "start", "end"), [
    ("off next tue thru thu", date(2026, 12, 15), date(2026, 12, 17)),
    ("fri-sun", date(2026, 12, 11), date(2026, 12, 13)),
    ("next thurs to sat", date(2026, 12, 17), date(2026, 12, 19)),
])
def test_a_short_day_in_lower_case_ends_a_range_from_a_day(text: str, start: date, end: date) -> None:
    [span] = find_dates(text, MONDAY)
    assert (span.start, span.end) == (start, end)


def test_a_short_day_that_is_a_word_stays_a_word() -> None:
    assert find_dates("we sat down and talked", MONDAY) == []
