"""Two rules a person would state, tried on phrasings written for this test: a from-to pair of dates is read from the
one range, else the one date (both ends) or the two dates (from the earlier to the later) the person gave; and a
decision's comment that only names the request and the decision ("出差批了", "leave approved") says nothing."""

from __future__ import annotations

from datetime import date

import pytest

from tools.request import read_request
from tools.words import content_tokens
from tools.workflow.args import arrange_start
from tools.workflow.form_dates import range_end
from tools.workflow.words import DECISION_ONLY

TODAY = date(2026, 12, 3)  # a Thursday


@pytest.mark.parametrize(("said", "start", "end"), [
    ("12月14日去武汉出差见客户", "2026-12-14", None),  # one date alone: its first day, the return asked
    ("Trip to Hefei on December 15 for the audit", "2026-12-15", None),
    ("12月14日去武汉见客户，当天来回", "2026-12-14", "2026-12-14"),  # said to end that day: both ends
    ("A day trip to Hefei on December 15 for the audit", "2026-12-15", "2026-12-15"),
    ("去武汉见客户，12月16日回来", None, "2026-12-16"),  # said as the day back: the first day asked
    ("12月8日出发，12月10日回来，去上海出差", "2026-12-08", "2026-12-10"),  # two dates: from the earlier to the later
    ("Flying to Xi'an on Dec 9, back on Dec 11", "2026-12-09", "2026-12-11"),
    ("下周一到周三去深圳", "2026-12-07", "2026-12-09"),  # a range, as before
    ("去上海出差，王五审批", None, None),  # no date: asked
    ("Dec 8 to Beijing, Dec 9 to Tianjin, back Dec 12", None, None),  # three dates: asked, never guessed
])
def test_a_trips_two_dates_come_from_the_range_the_date_or_the_two_dates_said(said, start, end):
    request = read_request([said], index=0, today=TODAY)
    assert (range_end("start", trip=True)(request), range_end("end", trip=True)(request)) == (start, end)


@pytest.mark.parametrize("comment", ["出差批了", "请假同意", "报销没问题", "这个申请通过", "trip approved",
                                     "approved the leave", "OK for this claim", "fine, approve the request"])
def test_a_comment_that_only_names_the_request_and_the_decision_says_nothing(comment):
    assert content_tokens(DECISION_ONLY.sub(" ", comment)) == []


@pytest.mark.parametrize("comment", ["同意，注意安全", "批了，记得带发票", "approved, keep the receipts",
                                     "出差可以，但要控制住宿费"])
def test_a_comment_with_something_of_its_own_is_one(comment):
    assert content_tokens(DECISION_ONLY.sub(" ", comment)) != []


def test_form_fields_the_model_put_beside_the_parameters_go_into_fields():
    arranged = arrange_start({"processKey": "process_baoxiao", "amount": 7500, "category": "办公",
                              "fields": {"category": "差旅"}, "nextUserId": "王五"})
    assert arranged == {"processKey": "process_baoxiao", "nextUserId": "王五",
                        "fields": {"category": "差旅", "amount": 7500}}  # a value already in fields stays
    assert arrange_start({"processKey": "p", "days": 1}) == {"processKey": "p", "days": 1}
