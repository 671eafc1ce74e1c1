"""The person's answer to the graph's question for a text (an e-mail's words, a reason): what is taken as the text.

The phrasings below were written for this test, not taken from scenarios: a bare yes answers a yes/no and gives no
text; a yes followed by a lead ("好，就写…") gives what follows the lead; anything else is the person's text whole."""

from __future__ import annotations

import pytest

from tools.words import answered_text, is_consent


@pytest.mark.parametrize("message", [
    "可以，发吧", "好的", "嗯，可以。", "没问题，发送吧", "行吧", "发一下", "确认！",
    "ok", "OK!", "yes please", "ok go ahead", "Sure, send it.", "yep, do it", "fine",
])
def test_a_bare_yes_is_consent_and_gives_no_text(message: str) -> None:
    assert is_consent(message)
    assert answered_text(message) is None


@pytest.mark.parametrize(("message", "text"), [
    ("就写：明天下午前请处理", "明天下午前请处理"),
    ("好，就写请尽快处理", "请尽快处理"),
    ("ok, the text is: please look at it today", "please look at it today"),
    ("原因是发烧", "发烧"),
    ("because my sister is getting married", "my sister is getting married"),
    # a word that begins like a yes or a lead is not one
    ("好久没休假了，想出去走走", "好久没休假了，想出去走走"),
    ("发烧了", "发烧了"),
    ("Yesterday I was sick", "Yesterday I was sick"),
    ("reasonable delay expected", "reasonable delay expected"),
    # a yes that goes on without a lead: the whole message is the text, nothing of it dropped
    ("Please approve it by Friday", "Please approve it by Friday"),
    ("yes, tell him the deadline is Friday", "yes, tell him the deadline is Friday"),
    ("就写：今天能批吗？", "今天能批吗？"),  # a question inside the text, after its lead
])
def test_the_text_is_what_the_person_wrote_after_any_lead(message: str, text: str) -> None:
    assert not is_consent(message)
    assert answered_text(message) == text


@pytest.mark.parametrize("message", ["算了", "never mind", "写什么好呢？", "What should it say?", ""])
def test_a_cancel_a_question_or_nothing_gives_no_text(message: str) -> None:
    assert answered_text(message) is None


@pytest.mark.parametrize("message", ["刚才那个设好了没？帮我看下", "wait, did my leave go through? check it"])
def test_a_message_that_asks_something_is_no_text(message: str) -> None:
    # written after the rule (the fourteenth round: a question was filed as a trip's destination); none from it
    assert answered_text(message) is None


@pytest.mark.parametrize("message", [  # the eighty-eighth round's writer; written after the rule, none of its words
    "设置好了没", "都办完了吧，帮我看一下", "is it all set now", "did that go through?", "代理生效了吗",
])
def test_a_message_asking_whether_something_is_done_gives_no_text(message: str) -> None:
    assert answered_text(message) is None


@pytest.mark.parametrize("message", ["孩子病了没人带", "搬家，东西弄好了就回来", "家里装修完了要验收"])
def test_a_done_thing_told_as_the_why_is_still_the_text(message: str) -> None:
    assert answered_text(message) == message
