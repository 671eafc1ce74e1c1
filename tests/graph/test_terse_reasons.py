"""A terse leave's reason is the part that says why: its type and length named anywhere in a clause (英文 "annual
leave" too), a dash or brackets around why, and a word that implies the type (发烧, "flu") are no hindrance. Through the
real graph with a scripted model that leaves the reason out; phrasings written for these tests, none from the
evaluation sets."""

from __future__ import annotations

import pytest

from evals.doubles.scripted import tool_call


@pytest.mark.parametrize(("said", "reason"), [
    ("俩天事假 搬家，李四批", "搬家"),
    ("调休一天 孩子开家长会 李四审批", "孩子开家长会"),
    ("两天病假 发烧了 李四批", "发烧"),
    ("明天请一天病假，感冒，李四", "感冒"),
    ("请2天事假（装修验收），李四审批", "装修验收"),
    ("2 days annual leave, family wedding, Li Si approves", "family wedding"),
    ("sick leave 2 days - flu, li si to approve", "flu"),
    ("Personal leave, 2 days (moving flats). Li Si approves", "moving flats"),
])
def test_the_reason_of_a_terse_leave_is_what_says_why(graph_driver, said, reason):
    call = tool_call("runWorkFlow", {"processKey": "process_qingjia", "reason": "", "nextUserId": "李四", "days": 2,
                                     "fields": {}})
    agent = graph_driver(call, "done.", fixed_answers=True)
    agent.say(said)
    [action] = agent.actions
    assert action["args"]["reason"] == reason
