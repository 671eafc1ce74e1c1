"""A value said and then taken back in the same message is the one said after ("请3天事假……哦不，4天吧"): for day counts,
amounts and dates; what is said only before the take-back stands; and a person named and then taken back for
"someone else" ("让李四批……哦不行，换个人吧") is nobody named. Written after the sixty-seventh round's run (a 4-day leave
corrected to 6 was carded with 4; a 1.5-day resend corrected to 1 filed 1.5); none of these phrasings is the round's."""

from __future__ import annotations

from datetime import date

import pytest

from tools.request import read_request
from tools.taken_back import names_someone_else

TODAY = date(2026, 12, 7)  # a Monday


def _read(text: str):  # type: ignore[no-untyped-def]
    return read_request([text], index=0, today=TODAY, people=[], actor_id="user_1")


@pytest.mark.parametrize(("said", "days"), [
    ("请3天事假……哦不，4天吧", [4.0]), ("two days off next week - no wait, three days", [3.0]),
    ("把2天改成1天", [1.0]), ("请5天年假去旅游", [5.0]),
    ("请3天假，李四批，哦不，王五批", [3.0]),  # the approver corrected, the length stands
])
def test_a_day_count_said_again_after_a_take_back_is_the_one(said, days):
    assert _read(said)["days"] == days


@pytest.mark.parametrize(("said", "amounts"), [("报销打车费800块，不对，是850块", [850.0]),
                                                ("claim 300 yuan for lunch, actually make it 320 yuan", [320.0])])
def test_an_amount_said_again_after_a_take_back_is_the_one(said, amounts):
    assert _read(said)["amounts"] == amounts


def test_a_date_said_again_after_a_take_back_is_the_one():
    assert _read("one day off next Thursday - actually, make it next Friday")["dates"] == ["2026-12-18"]


def test_someone_else_after_the_last_mention_takes_the_named_person_back():
    assert names_someone_else("让王五审批……哦不行，王五下周不在，换个人吧", ["王五"])
    assert not names_someone_else("换个人审批吧，让王五批", ["王五"])
    assert not names_someone_else("王五审批", ["王五"])
