"""Numbers and sentences as said in one breath: a bare number taken back for another is the second ("三百二，不对，是四百五",
"320, no, 450"; the thirty-fourth round's writer found both unread), one said not to be it is none ("金额是1080，不是1280";
"320元，不是350元" had been read as 350); and a sentence that turns to another thing ("改成3天重新提交吧，顺便告诉我还剩几天")
asks one thing and tells another (it had been read as a question only). Phrasings written for these tests."""

from __future__ import annotations

import pytest

from tools.message_kind import asked_sentences, kind_of
from tools.parsers.quantities import find_quantities


@pytest.mark.parametrize(("said", "read"), [
    ("报销两百八，不对，是三百一", [(310.0, "none")]),
    ("it came to 75, no, 57", [(57.0, "none")]),
    ("一共六十，哦不对，六十五块", [(65.0, "yuan")]),
    ("金额是900，不是990", [(900.0, "none")]),
    ("两百元，不是两百五十元", [(200.0, "yuan")]),
    ("请两天，不对，三天", [(3.0, "day")]),
    # "not" in English too (the forty-fifth round's writer: "should be 460, not 640" resent nothing); none from it
    ("the total is 385, not 358", [(385.0, "none")]),
    ("make the claim 1,250 yuan not 1,520 yuan", [(1250.0, "yuan")]),
    ("it should say 2 days, not 3", [(2.0, "day")]),
])
def test_a_number_taken_back_or_denied(said, read):
    assert [(q.value, q.unit) for q in find_quantities(said)] == read


@pytest.mark.parametrize(("said", "kind", "asked"), [
    ("把天数改成两天再提交，顺便说一下我调休还剩多少", "action", ["顺便说一下我调休还剩多少"]),
    ("报销的进度怎么样了，另外李四的请假呢？", "information", ["报销的进度怎么样了？", "另外李四的请假呢？"]),
    ("File it again with 2 days, also how much annual leave is left?", "action", ["also how much annual leave is left?"]),
    ("两天事假，周四周五，王五批；顺便问下年假还有几天？", "action", ["顺便问下年假还有几天？"]),
    ("Cancel my trip request, and has anyone looked at my claim yet?", "action",
     ["and has anyone looked at my claim yet?"]),
    ("那个出差撤回吧，还有，我的报销到哪一步了？", "action", ["还有，我的报销到哪一步了？"]),
])
def test_a_turn_to_another_thing_is_a_sentence_of_its_own(said, kind, asked):
    assert kind_of(said) == kind and asked_sentences(said) == asked


@pytest.mark.parametrize(("said", "dates"), [
    ("下周要去医院复查，周三请一天假", ["2026-12-16"]),
    ("Next week my parents visit, so Wednesday and Thursday off please", ["2026-12-16", "2026-12-17"]),
    ("下个星期搬家，周二下午到周三", ["2026-12-15", "2026-12-16"]),
    ("下周忙。周三请假", ["2026-12-09"]),  # a sentence of its own: the coming Wednesday
])
def test_a_bare_weekday_after_next_week_is_that_weeks(said, dates):
    from datetime import date

    from tools.request import read_request
    assert read_request([said], index=0, today=date(2026, 12, 7))["dates"] == dates  # a Monday
