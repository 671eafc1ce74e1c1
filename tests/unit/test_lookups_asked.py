"""Which look-ups a person's words ask for: where their request stands is looked up, where a thing goes is not (no
tool knows where invoices are handed in; a look-up asked of the model there sent its honest answer back)."""

import re

import pytest

from tools.workflow import TOOLSET


def _asks_where_my_request_is(text: str) -> bool:
    spec = TOOLSET.registry.get("queryMyRequests")
    return any(re.search(p, text, re.IGNORECASE) for p in spec.answers)


@pytest.mark.parametrize("text", ["上周的报销到哪一步了？", "我的请假批了吗", "出差申请在谁手上？", "报销单现在在哪儿卡着呢"])
def test_where_a_request_stands_asks_for_the_look_up(text):
    assert _asks_where_my_request_is(text)


@pytest.mark.parametrize("text", [
    "报销的纸质发票要交到哪里？", "请问报销单据寄到哪个地址", "出差的登机牌要贴在哪", "报销的原件送到哪里去",
])
def test_where_a_thing_of_a_request_goes_asks_for_no_look_up(text):
    assert not _asks_where_my_request_is(text)
