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
    # an approval word negated is a rejection, beside the word that rejects (the thirtieth round's writer's report)
    ("这笔实在没法通过，麻烦驳回", False), ("预算超了，我批不了，退回吧", False), ("无法同意，请帮我拒绝", False),
    ("I'm unable to support this request; please decline it", False), ("can't back this one, reject", False),
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
    # a quote that ends its sentence is the comment, whatever follows; the cue may lead straight to it (30th's writer)
    ("劳驾帮我退回去，并留言“行程单缺一页”？辛苦您", "行程单缺一页"),
    ("Could you turn it down and add the note \"over the hotel cap\"? Best regards, Wang Wu", "over the hotel cap"),
    ("同意吧，批注「按差标执行」。顺便问下明天的会几点", "按差标执行"),
    ("approve, remark 'ok this once', and also list my other to-dos", "ok this once"),
    # a quote and then another matter after a dash or comma (the seventy-fifth round's writer; none of its words)
    ("Sign off all the claims on my desk, note 'receipts checked' - and then make Zhao Liu my backup next week",
     "receipts checked"),
    ("都批了吧，意见写“注意交接”，然后把李四设成我的代理人", "注意交接"),
    # dictated after a word of saying and a colon (the same writer's "Say: …")
    ("Reject Wang Wu's taxi claim. Write: the receipt is unreadable.", "the receipt is unreadable"),
    ("赵六的出差批了，就说：路上注意安全", "路上注意安全"),
    # after a word of writing and a quote (the seventy-ninth round's writer; none of its words)
    ("李四那个假同意，你写“孩子的事要紧，安心去”", "孩子的事要紧，安心去"),
    ("Sign off Wang Wu's trip and just write \"safe travels, keep the receipts\"", "safe travels, keep the receipts"),
    ("赵六的报销批了，写上「按标准报销，下不为例」", "按标准报销，下不为例"),
])
def test_a_comment_written_between_quotes_is_filed_without_them(said, comment):
    from datetime import date

    from tools.request import read_request
    from tools.workflow.comment_words import stated_comment

    request = read_request([said], index=0, people=[], actor_id="user_2", today=date(2026, 12, 7))
    assert stated_comment(request) == comment


@pytest.mark.parametrize("text", [  # the fifty-third round's writer: "not mine to sign off" was read as signing it off
    "Travel claims aren't mine to sign off any more, hand it to Wang Wu",
    "this isn't my call to approve, pass it on to HR",
    "I'm not the right person to approve this one",
    "行政的报销已经不归我批了，转给王五",
    # someone else's decision told (the seventy-seventh round's run: a transfer's note had a decision proposed after it)
    "Hand the bigger one to Zhao Liu, note: she already signed off on the budget", "领导已经同意了，转给赵六处理",
])
def test_saying_a_decision_is_not_theirs_decides_nothing(text):
    assert decision_in(text) is None


@pytest.mark.parametrize(("said", "comment"), [  # the seventy-fifth round's run: the return asked for its comment
    ("Kick Wang Wu's trip back to him and tell him to split it into two trips", "split it into two trips"),
    ("please send Zhao Liu's claim back and ask her to attach the taxi receipts", "attach the taxi receipts"),
])
def test_what_the_requester_is_told_to_do_with_a_send_back_is_its_comment(said, comment):
    from datetime import date

    from tools.request import read_request
    from tools.workflow.comment_words import stated_comment

    people = [{"id": "user_3", "name": "王五", "alias": "Wang Wu"}, {"id": "user_4", "name": "赵六", "alias": "Zhao Liu"}]
    request = read_request([said], index=0, people=people, actor_id="user_2", today=date(2026, 12, 7))
    assert stated_comment(request) == comment


@pytest.mark.parametrize(("said", "comment"), [  # the seventy-sixth round's run: a question told on is the comment
    ("Send Wang Wu's trip back to him: he has to say which customer he's visiting", "he has to say which customer he's visiting"),
    ("王五的出差退回去，必须写清楚见哪家客户", "必须写清楚见哪家客户"),
])
def test_a_question_the_requester_must_answer_is_the_send_backs_comment(said, comment):
    from datetime import date

    from tools.request import read_request
    from tools.workflow.comment_words import stated_comment

    people = [{"id": "user_3", "name": "王五", "alias": "Wang Wu"}]
    request = read_request([said], index=0, people=people, actor_id="user_2", today=date(2026, 12, 7))
    assert stated_comment(request) == comment


@pytest.mark.parametrize(("question", "answer", "comment"), [  # the seventy-ninth round's writer; none of its words
    ("请问审批意见写什么？超过 1 天的申请需要填写审批意见。", "那就写同意", "同意"),
    ("请问审批意见写什么？超过 1 天的申请需要填写审批意见。", "批准", "批准"),
    ("请问审批意见写什么？超过 1 天的申请需要填写审批意见。", "写“注意交接”就好", "注意交接"),
    ("请问审批意见写什么？超过 1 天的申请需要填写审批意见。", "假期愉快就行", "假期愉快就行"),  # all it says
    ("请问审批意见写什么？超过 1 天的申请需要填写审批意见。", "填同意即可。顺便看看王五的报销", "同意"),
    ("What comment goes with the decision? Requests over one day need one.", "just put approved", "approved"),
    ("What comment goes with the decision? Requests over one day need one.", "ok", "ok"),
    ("What comment goes with the decision? Requests over one day need one.", "write 'enjoy the break' is fine",
     "enjoy the break"),
])
def test_an_answer_to_the_question_asking_for_a_comment_is_the_comment(question, answer, comment):
    from datetime import date

    from tools.request import read_request
    from tools.workflow.comment_words import stated_comment

    request = read_request(["我这边请假的都批了吧", answer], index=1, people=[], actor_id="user_3",
                           today=date(2026, 12, 7), shown=[question])
    assert stated_comment(request) == comment


def test_an_answer_after_another_question_is_read_as_any_message():
    from datetime import date

    from tools.request import read_request
    from tools.workflow.comment_words import stated_comment

    request = read_request(["张三的请假批了吧", "同意"], index=1, people=[], actor_id="user_3", today=date(2026, 12, 7),
                           shown=["张三有两个待办，你指的是哪一个？"])
    assert stated_comment(request) != "同意"
