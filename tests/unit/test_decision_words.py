"""The decision a person's words state (`words.decision_in`): 过 said of a request is an approval ("这俩都可以过",
"行，过吧"), and 过 in any other word is none (不过, 问过, 过去, 过年, 过期). Phrasings written for this test after the
rule (a graph test's "张三那条，还有赵六的，这俩都可以过" was asked "approve or reject?"), none from a scenario."""

from __future__ import annotations

import pytest

from tools.workflow.words import decision_in


@pytest.mark.parametrize(("text", "decided"), [
    ("这俩都可以过", True), ("报销那个直接过了吧", True), ("行，过吧", True), ("三个都过", True), ("能过就过了", True),
    ("赵六那条你帮我过一下", True),
    ("看过了，驳回", False), ("不过这笔得驳回", False),
    ("不过我还得想想", None), ("我都问过了", None), ("时间都过去了", None), ("马上就过年了", None), ("发票都过期了", None),
    ("他说过了", None), ("过了两天再说", None),
])
def test_pass_said_of_a_request_is_an_approval(text, decided):
    assert decision_in(text) is decided


@pytest.mark.parametrize(("said", "comment"), [  # written after a writer's report (the twenty-fifth round's)
    ("王五的报销通过，备注写“票据已核对”", "票据已核对"),
    ("Approve it, comment: \"checked against the receipts\"", "checked against the receipts"),
    ("reject, note: 'same receipt as the March claim'", "same receipt as the March claim"),
    ("同意，意见：“好的”，注意安全", "“好的”，注意安全"),  # more than the quote: as written
    # thanks after it, and what the speaker does later, are for the assistant (the twenty-sixth round's writer)
    ("赵六的出差批了，意见写：行程没问题，住宿按标准来，辛苦", "行程没问题，住宿按标准来"),
    ("reject the cab claim, comment: no receipt attached, thanks a lot", "no receipt attached"),
    ("Approve it - note: budget ok for Q1. I'll do the other two later.", "budget ok for Q1"),
    ("意见写：辛苦了", "辛苦了"),  # the thanks is the comment
    ("那笔报销让李四帮我看吧，附言：我下午一直在开会，麻烦了。谢谢啦！", "我下午一直在开会"),  # 附言 (28th round, read)
])
def test_a_comment_written_between_quotes_is_filed_without_them(said, comment):
    from datetime import date

    from tools.request import read_request
    from tools.workflow.words import stated_comment

    request = read_request([said], index=0, people=[], actor_id="user_2", today=date(2026, 12, 7))
    assert stated_comment(request) == comment
