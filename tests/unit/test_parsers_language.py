"""The language of a message, and the texts a person spelled out."""

from __future__ import annotations

from datetime import date

import pytest

from tools.parsers import language_of, read_text


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("我想请三天假", "zh"),
        ("I need three days off", "en"),
        ("please approve 张三's request", "en"),
        ("Send it to 张三 and 李四", "en"),
        ("帮我approve一下", "zh"),
        ("给Li Si发邮件", "zh"),
        ("好的", "zh"),
        ("yes", "en"),
        ("I", "en"),
    ],
)
def test_language_of_mixed_text(text, lang):
    assert language_of(text) == lang


def test_language_default_when_no_words():
    assert language_of("3", default="en") == "en"
    assert language_of("", default="zh") == "zh"
    assert read_text("李四", today=date(2026, 12, 1), ignore=["李四"], default_lang="en").lang == "en"


@pytest.mark.parametrize(
    ("text", "quoted"),
    [
        ("提醒李四，内容：明天前请审批", ("明天前请审批",)),
        ("Chase Li Si, the text is: please review my leave today", ("please review my leave today",)),
        ("给赵六发邮件，就写：请尽快审批我的请假", ("请尽快审批我的请假",)),
        ("邮件内容是“本周五前请处理”", ("本周五前请处理",)),
        ("催一下李四，说「我下周要出差」", ("我下周要出差",)),
        ('send an email to Zhao Liu saying "please approve by next Monday"', ("please approve by next Monday",)),
        ("Remind Wang Wu, say: the deadline is Friday", ("the deadline is Friday",)),
        ("text: hello", ("hello",)),
        ("我想请三天假", ()),
    ],
)
def test_quoted_texts(text, quoted):
    assert read_text(text, today=date(2026, 12, 1)).quoted == quoted


def test_quoted_keeps_masked_names():
    """Names are masked for reading numbers, never in the person's own text."""
    said = read_text("提醒李四，内容：请张三审批", today=date(2026, 12, 1), ignore=["张三", "李四"])
    assert said.quoted == ("请张三审批",)
