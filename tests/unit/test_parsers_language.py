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
        # the forty-seventh round's writer's report: Chinese grammar, English nouns (none of these is from it)
        ("把 open 的 expense claim 都 reject 掉，reason 写 budget freeze", "zh"),
        ("下周一到周三请个 annual leave，approver 是李四", "zh"),
        ("pls file a baoxiao for 打车 费", "en"),
        ("Zhang San 那个 trip request, approve", "zh"),
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


def test_a_message_asks_for_information_only_when_every_sentence_is_a_question_nobody_is_asked_to_act_on():
    from tools.request import kind_of

    for text in ("我有哪些待办？", "李四有几个待办", "Is anything waiting for me?", "what are my tasks",
                 "张三的假批了吗？", "Who approves leave here?", "I filed a claim on Monday. Has Li Si approved it yet?",
                 "Quick question, can I see what's waiting for me?", "Is my 1.5-day leave approved?",
                 # courtesy beside a question asks nothing more (the twenty-fourth round, read; written after the rule)
                 "Which of my requests are still open? Thanks!", "谁在审批我的出差？谢谢。", "How do I see my balance?"):
        assert kind_of(text) == "information", text
    for text in ("能帮我批一下张三的假吗？", "Can you approve Zhang San's leave?", "Have Li Si approve it.",
                 "我想请假，先看看有哪些流程", "Do the leave request for me", "Why hasn't Li Si approved? Remind him.",
                 # "can you" after a clause: still a request (phrasings written for this test)
                 "Quick one, could you approve Zhang San's leave?", "My leave for Friday, would you file it?",
                 "I'm sick today, will you put in a day of leave for me?",
                 # a statement, then the request as a question; anyone asked after a clause (written after the rule)
                 "Off to the Chengdu site from Monday. Could Wang Wu handle my approvals until I'm back?",
                 "Away all next week, would Zhao Liu cover my sign-offs?",
                 "Dentist at 3pm. Can you file half a day for me?",
                 # how to get something done asks for it (the twenty-fourth round, read; written after the rule)
                 "Paid for the team's pizza myself, 180 yuan. How can I claim it?", "上周自己垫钱买了硒鼓，这个怎么报？",
                 "How do I get the parking fee back?",
                 # an order, then a question (the thirty-first round's writer's report; written after the rule)
                 "Change the amount to 480 and send it again. Also, when does the money come through?",
                 "Please withdraw my trip request. Is Li Si still in the office?",
                 "I'd like you to file two days of leave. Who approves it?"):
        assert kind_of(text) == "action", text
    for text in ("你都会些啥？", "what can you do?", "How can you help me?", "你能帮我做什么",
                 "so what can you really do here?"):
        assert kind_of(text) == "capability", text


@pytest.mark.parametrize(("text", "kind"), [  # written after the rule; none from a scenario
    # question words that ask nothing: "those few", "several", "a few days ago", "nothing much", "whoever"
    ("王五报上来的那几张单子我都核过了，都通过", "action"),
    ("这几条待办统一驳回", "action"),
    ("好几个同事都请过了，张三的先批", "action"),
    ("前几天那笔打车费撤回来", "action"),
    ("没啥问题，同意", "action"),
    ("没什么可说的，驳回", "action"),
    ("没多少钱，给他过了", "action"),
    ("不管是谁提的，一律驳回", "action"),
    ("无论多少天，先批", "action"),
    # "a few" after a possessive, a time word or a comparison, "tens of" (written after the rule; none from a scenario)
    ("赵六的几张发票都退回去", "action"),
    ("过几天我再补，先撤回", "action"),
    ("晚几天也没关系，同意", "action"),
    ("最近几天提的出差统统通过", "action"),
    ("几十块钱的餐费，给他过了", "action"),
    ("他早几天就交了，驳回理由是超标", "action"),
    # what someone else is told to state (written after the rule; none from a scenario)
    ("打回给王五，要求他注明为什么要坐飞机", "action"),
    ("把张三的出差退回，写明去见哪家客户", "action"),
    ("退回去让他讲清楚花了多少", "action"),
    ("让他说说为什么", "action"),
    # a suggestion put as a question asks for it (the fifteenth round's writer found "要不再催他一遍？"; none from it)
    ("要不今天再提醒他一次？", "action"),
    ("should we ping Li Si once more?", "action"),
    ("how about chasing Zhao Liu again?", "action"),
    ("why don't you send him a reminder?", "action"),
    ("要不是他提醒，我都忘了报销了", "action"),
    ("how about my trip request?", "information"),
    ("Should my claim go to finance first?", "information"),
    # what is not settled yet tells, and what one has to do says what is wanted (the twenty-second round, read; written
    # after the rule)
    ("下周得去趟无锡装设备，待几天还没定，王五审批", "action"),
    ("几号出发还不确定，先把出差提了吧", "action"),
    ("我打算请几天假陪老人体检", "action"),
    ("哪天出发？", "information"),
    # questions still
    ("这个流程叫什么？", "information"),
    ("我还剩几天年假", "information"),
    ("张三几号回来？", "information"),
    ("谁手上压着我的报销", "information"),
    ("我的申请有没有批", "information"),  # 申请 is the noun, not 请 (to ask for)
    ("一共报了多少", "information"),
])
def test_question_words_that_ask_nothing_leave_a_message_an_action(text, kind):
    from tools.request import kind_of

    assert kind_of(text) == kind
