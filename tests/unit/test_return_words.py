"""A send-back that tells the requester what to do is a return, its comment what they are to do; a question word
that says "nothing" asks nothing. Written after the thirty-ninth round's writer reported "…啥事也不说，先打回去让他把原因
写清楚" refused as a question, read as a rejection, and its comment cut to "清楚"; none of these is its phrasing."""

import pytest

from tools.message_kind import asks_to_be_told, kind_of
from tools.workflow.comment_words import stated_comment
from tools.workflow.request_words import new_reason
from tools.workflow.todo_guards import said_return_or_reject


@pytest.mark.parametrize(("said", "comment"), [
    ("王五这个报销什么票据都没附，打回去叫他把发票补齐", "叫他把发票补齐"),
    ("赵六的出差，退回去让她写清楚见哪个客户", "让她写清楚见哪个客户"),
])
def test_a_send_back_that_tells_them_what_to_do_is_a_return_with_that_comment(person_request, said, comment):
    assert kind_of(said) == "action"
    assert said_return_or_reject([said])[0] == "return"
    assert stated_comment(person_request(said, actor="user_2")) == comment


def test_a_send_back_with_grounds_only_is_still_a_rejection():
    assert said_return_or_reject(["这个出差打回去，预算太高"])[0] == "reject"


@pytest.mark.parametrize("said", ["Fever since last night. Do I need to hand in anything for it?",
                                  "要不要附医院的证明？"])
def test_a_question_beside_a_leave_asks_to_be_told(said):
    question = said.split(". ")[-1].rstrip("?？")
    assert asks_to_be_told(question)


@pytest.mark.parametrize(("said", "comment"), [  # the fiftieth round's writer: the grounds were left out
    (("看看赵六那笔报销", "发票抬头不对，打回去叫她重开一张"), "发票抬头不对，叫她重开一张"),
    (("王五那个出差呢？", "日期不对，时间也太长，退回去让他重新填一下日期"), "日期不对，时间也太长，让他重新填一下日期"),
])
def test_a_send_back_keeps_the_grounds_said_before_it(person_request, said, comment):
    assert stated_comment(person_request(*said, actor="user_2")) == comment


@pytest.mark.parametrize(("said", "comment"), [  # the fifty-second round's writer: the venting went to the requester
    ("王五这个出差又没写目的地，说了多少遍了！去哪儿都不知道？打回去让他补上目的地", "让他补上目的地"),
    ("赵六那笔报销，发票金额对不上，烦死了！退回去叫她核对一下", "发票金额对不上，叫她核对一下"),
])
def test_a_send_back_keeps_no_grounds_that_are_exclaimed_or_asked(person_request, said, comment):
    assert stated_comment(person_request(said, actor="user_2")) == comment


@pytest.mark.parametrize("said", [  # the eighty-sixth round's writer; written after the rule, none of its words
    "王五那单看不出是啥费用，退回去", "看不清是什么发票，打回去让他重新传", "搞不清是哪个项目的，先退给他",
    "这张发票弄不明白是哪天开的，退回去让她说明",
])
def test_a_send_back_beside_what_one_cannot_make_out_is_an_instruction(said):
    assert kind_of(said) == "action"


@pytest.mark.parametrize("said", ["我看不出这单是谁批的？", "李四的报销看不出是什么？"])
def test_what_one_cannot_make_out_asked_with_a_question_mark_is_still_a_question(said):
    assert kind_of(said) == "information"


@pytest.mark.parametrize(("said", "reason"), [  # written after the rule, none from a round
    ("原因写成：孩子学校开家长会，麻烦重新提交", "孩子学校开家长会"), ("事由改为去苏州见客户。", "去苏州见客户"),
    ("update the reason to: visa appointment at the consulate, and resubmit", "visa appointment at the consulate"),
    # more than one clause left: not cut short, not read
    ("事由改成：部门团建的场地费，金额不变，重新提交", None), ("理由改一下再提交", None), ("理由改好了，重新提交", None),
])
def test_a_new_reason_is_the_rest_of_the_change_or_nothing(said, reason):
    assert new_reason(said) == reason


@pytest.mark.parametrize(("said", "comment"), [  # the eighty-eighth round's run; written after the rule, none of its words
    ("这笔先驳回 发票对不上 下周再说", "发票对不上 下周再说"),
    ("this one's rejected, the hotel is over budget", "the hotel is over budget"),
    ("approve zhao liu's trip, client confirmed the dates", "client confirmed the dates"),
])
def test_grounds_after_a_decision_of_the_to_do_pointed_at_or_named_in_lower_case_are_its_comment(person_request, said,
                                                                                                comment):
    assert stated_comment(person_request(said, actor="user_3")) == comment


@pytest.mark.parametrize(("said", "note"), [
    ("收据补好了 再提一下", "收据补好了"), ("材料交到财务了 重新提交吧", "材料交到财务了"),
    # a clause that only names the request is no note (the ninetieth round's writer; written after the rule)
    ("行程单补上了，之前被打回的那份申请再提交一次", "行程单补上了"), ("抬头重开了，刚刚退回来的报销帮我重提", "抬头重开了"),
])
def test_a_resends_note_typed_with_spaces_for_commas_is_read(person_request, said, note):
    from tools.workflow.resubmit import resend_note

    assert resend_note(person_request(said)) == note


@pytest.mark.parametrize(("said", "comment"), [  # the eighty-eighth round's run; written after the rule
    ("decline it, the fair was cancelled", "the fair was cancelled"), ("approve it", None), ("reject that one", None),
    ("approve it, commnet: have a good trip", "have a good trip"), ("这趟驳回，理有：预算没了", "预算没了"),  # typed labels
])
def test_grounds_after_deciding_it_are_its_comment(person_request, said, comment):
    assert stated_comment(person_request(said, actor="user_3")) == comment
