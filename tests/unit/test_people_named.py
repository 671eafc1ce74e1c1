"""Which people a text names: the quick check of a directory agrees with the full rules on every text."""

from __future__ import annotations

import pytest

from tools.people import _squashed, may_name, mention_strength, named_in

PEOPLE = [
    {"id": "user_1", "name": "张三", "alias": "Zhang San", "email": "zhangsan@example.com"},
    {"id": "user_2", "name": "李四", "alias": "Li Si", "email": "lisi@example.com"},
    {"id": "user_12", "name": "王五", "alias": "Wang Wu", "email": "ww@example.com"},
    {"id": "user_4", "name": "Anna Schmidt", "alias": "", "email": "anna.schmidt@example.com"},
    {"id": "user_5", "name": "STRAUSS", "alias": "Strauß", "email": None},
]

TEXTS = [
    "帮我查一下李四的待办", "请 李 四 审批", "approve Li Si's request", "approve LI SI's request", "lisi@example.com 催一下",
    "remind LISI about it", "send it to user_12", "send it to user_1", "user_123 is nobody", "xuser_1 is nobody",
    "Anna  Schmidt is away", "annaschmidt", "ask anna schmidt", "Herr Strauss kommt", "herr strauß kommt",
    "zhang san and wang wu", "ZhangSan", "张三、王五和李四", "nobody at all", "", "ww@example.com", "Wang\tWu",
]


@pytest.mark.parametrize("text", TEXTS)
def test_a_person_the_quick_check_passes_over_is_never_named(text):
    for person in PEOPLE:
        if mention_strength(text, person):
            assert may_name(_squashed(text), person), (text, person["id"])


def test_named_in_finds_who_the_rules_name():
    assert [p["id"] for p in named_in("请 李 四 审批", PEOPLE)] == ["user_2"]
    assert [p["id"] for p in named_in("zhang san and wang wu", PEOPLE)] == ["user_1", "user_12"]
    assert [p["id"] for p in named_in("send it to user_12, not Li Si", PEOPLE)] == ["user_12"]  # an id outranks a name
    assert named_in("user_123 is nobody", PEOPLE) == []
    assert named_in("", PEOPLE) == []
