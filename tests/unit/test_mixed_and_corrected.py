"""Decisions and comments said in mixed languages or corrected on the way, read as a person would: an English decision
word written inside Chinese ("帮我approve了吧") decides; "sorry, no" takes back what came before; a comment dictated and
then dictated again after a take-back is the second; and a decision changed mid-message ("同意吧……不对，先别批，打回去让
她…") puts on the send-back only what the requester is to do. Written after the sixty-seventh round's writer reported
three such messages filed wrong or asked again; none of these phrasings is the round's."""

from __future__ import annotations

import pytest

from tools.workflow.comment_words import stated_comment
from tools.workflow.words import decision_in


@pytest.mark.parametrize(("said", "decided"), [
    ("李四的leave帮我approve了吧", True), ("这个claim先reject", False), ("王五那个trip我OK了", True),
    ("Approve it — sorry, no, reject it, wrong person", False), ("no, sorry, approve it after all", True),
    ("book a room for Friday", None), ("帮我看看这个facebook广告的报销", None),
])
def test_decision_words_in_either_language(said, decided):
    assert decision_in(said) is decided


@pytest.mark.parametrize(("said", "comment"), [
    ("王五的报销驳回，意见写“金额不对”，哦不，意见改成“发票抬头不对”", "发票抬头不对"),
    ("reject Wang Wu's claim, comment: wrong amount - no wait, comment: wrong invoice title", "wrong invoice title"),
    ("王五的报销驳回，意见写：原因是预算不够", "原因是预算不够"),  # nothing taken back: a label inside the comment is its own
])
def test_a_comment_dictated_again_after_a_take_back_is_the_second(person_request, said, comment):
    assert stated_comment(person_request(said, actor="user_2")) == comment


@pytest.mark.parametrize(("said", "comment"), [
    ("赵六那个出差同意吧……不对，先别批，打回去让她把行程写清楚", "让她把行程写清楚"),
    ("张三的报销批了，没问题，票据都核过了", "没问题，票据都核过了"),  # the same decision twice: the rest is its comment
])
def test_a_decision_changed_mid_message_keeps_only_the_last_ones_words(person_request, said, comment):
    assert stated_comment(person_request(said, actor="user_2")) == comment
