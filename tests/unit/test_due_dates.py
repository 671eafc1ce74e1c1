"""A day said as when something is due ("报告我周四前交", "I'll send the agenda by Monday") is no date of the request:
a trip's return answered beside one had been asked again, the request then stating three dates (the forty-third
round's writer's report). "until Friday" ends a range and stays. None of these phrasings is from a scenario."""

from datetime import date

import pytest

from tools.request import read_request

MONDAY = date(2026, 12, 7)


def _dates(*texts: str) -> list[str]:
    return read_request(list(texts), index=0, today=MONDAY)["dates"]


@pytest.mark.parametrize(("texts", "dates"), [
    (("下周三去苏州出差", "下周五回来，王五批，报告我周四前交给他"), ["2026-12-16", "2026-12-18"]),
    (("Trip to Xiamen next Tuesday", "back next Thursday, Wang Wu approves; I'll send him the agenda by Monday"),
     ["2026-12-15", "2026-12-17"]),
    (("下周一请一天年假，交接文档周五之前发你",), ["2026-12-14"]),
])
def test_a_day_something_is_due_is_no_date_of_the_request(texts, dates):
    assert _dates(*texts) == dates


@pytest.mark.parametrize("text", ["off from Wednesday until Friday", "周五前后去一趟深圳"])
def test_a_day_that_ends_a_range_or_is_roughly_when_stays(text):
    assert "2026-12-11" in _dates(text)  # this Friday
