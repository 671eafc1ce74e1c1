"""A process named only to compare with is no request of its own ("Does a trip also go to finance, like big expense
claims do?" had the trip filed as a claim: the forty-third round's writer). None of these phrasings is from it."""

import pytest

from tools.workflow import lookup
from tools.workflow.form_fit import processes_they_named


def _named(store, text: str) -> list[str]:
    with store.read() as conn:
        return [d.key for d in processes_they_named(list(lookup.engine_of(conn).definitions(conn)), text)]


@pytest.mark.parametrize("text", [
    "Business trip to Wuhan next week. Is it decided by HR, like leave requests over three days?",
    "出差申请是不是也要财务审批，跟报销一样？下周去武汉",
])
def test_a_process_named_to_compare_with_is_not_asked_for(store, text):
    assert _named(store, text) == ["process_chuchai"]


@pytest.mark.parametrize(("text", "key"), [
    ("I'd like to file an expense claim for 86 yuan of taxis", "process_baoxiao"),
    ("I would like leave on Friday", "process_qingjia"),
])
def test_like_as_a_want_still_names_the_process(store, text, key):
    assert _named(store, text) == [key]
