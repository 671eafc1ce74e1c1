"""A Chinese place typed in lower case after a cue is the destination ("trip to chengdu for the workshop"), as its
capitalised name is; an English word after the cue is not, nor a place-like word used as a verb. Phrasings written for
this test after the rule (the eighty-eighth round's run: "a business trip to chengdu for the client workshop" had its
destination asked, and the dates given next filed as one); none from a round."""

from __future__ import annotations

from datetime import date

import pytest

from tools.parsers.pinyin import lower_case_place
from tools.readers import read_after

CUES = ("to", "in", "visit", "visiting", "destination")


@pytest.mark.parametrize(("said", "place"), [
    ("need a trip to nanjing next wed for the audit", "nanjing"),
    ("flying to xi'an on monday, back thursday", "xi'an"),
    ("pls file my trip to guangzhou, li si approves", "guangzhou"),
    ("business trip, destination taiyuan, 3 days", "taiyuan"),
    ("trip to Chengdu next week", "Chengdu"),  # capitalised: read as before
])
def test_a_place_typed_in_lower_case_is_read_after_its_cue(said, place):
    assert read_after(CUES, [said], names=["Li Si"], today=date(2026, 12, 8)) == place


@pytest.mark.parametrize("rest", [
    "guide the new team", "change the dates", "see the client", "london next week", "time off", "attend the fair",
    "zhang san", "dinner with them",
])
def test_an_english_word_or_a_verb_after_the_cue_is_no_place(rest):
    assert lower_case_place(rest) == ""


@pytest.mark.parametrize(("said", "place"), [  # the eighty-seventh round's run ("去杭州跑一趟供应商"); written after
    ("下周二去宁波跑一趟厂家，李四批", "宁波"), ("月底要去常州拜访合作方", "常州"), ("去南通一趟见供应商", "南通"),
])
def test_a_supplier_or_partner_after_the_trip_is_where_in_the_city_not_a_second_place(said, place):
    assert read_after(("去", "到", "趟", "to"), [said], names=["李四"], today=date(2026, 12, 8)) == place
