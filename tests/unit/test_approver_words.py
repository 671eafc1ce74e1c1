"""Who a message names as taking a task over, when it names several people: a transfer's new holder ("张三的请假转给王五")
or a deputy ("让王五代我审批"). The first set shaped the rules; the second was written after them and not tuned on
(7 of its 10 are read; the other 3 name no one, so the person is asked which one is meant). Neither set ever reads
the wrong person."""

from __future__ import annotations

import pytest

from tools.workflow.approver_words import named_as_taker

PEOPLE = [{"id": "user_1", "name": "张三", "alias": "Zhang San"}, {"id": "user_2", "name": "李四", "alias": "Li Si"},
          {"id": "user_3", "name": "王五", "alias": "Wang Wu"}, {"id": "user_4", "name": "赵六", "alias": "Zhao Liu"}]
TUNED = [
    ("张三的请假转给王五审批吧，附言：我这周出差", "user_3"),
    ("麻烦把赵六那笔报销交给王五处理", "user_3"),
    ("这个张三的单子改由王五来审", "user_3"),
    ("王五替我审批张三的出差申请", "user_3"),
    ("下个月1号到5号赵六代为审批我的待办", "user_4"),
    ("张三的请假我不方便批，转交李四吧", "user_2"),
    ("让赵六接手张三的报销", "user_4"),
    ("Pass Zhang San's leave request on to Wang Wu, comment: I am travelling this week", "user_3"),
    ("Hand Zhang San's claim over to Wang Wu", "user_3"),
    ("Could you give Zhang San's trip to Zhao Liu", "user_4"),
    ("Reassign Zhang San's leave to Li Si please", "user_2"),
    ("Zhao Liu will cover for me next week", "user_4"),
    ("Make Wang Wu my deputy from Monday to Friday", "user_3"),
    ("Transfer Li Si's expense claim to Zhao Liu", "user_4"),
    # written after "send Zhang San's request to Wang Wu" was found unread (held-out ho4)
    ("send Zhang San's claim to Zhao Liu, I'm off tomorrow", "user_4"),
    ("can you route Li Si's trip to Wang Wu", "user_3"),
    ("把张三的请假派给赵六", "user_4"),
    ("李四的报销交由王五审批", "user_3"),
]
HELD_OUT = [
    ("这单请假我处理不了，给王五吧，是张三的", "user_3"),
    ("张三的出差改让赵六审批", "user_4"),
    ("把李四那个报销移交给赵六", "user_4"),
    ("我下周出差，请王五帮我审批一下待办", "user_3"),
    ("王五代我批几天，12号到15号", "user_3"),
    ("Please pass this one on to Li Si, it's Zhang San's", "user_2"),
    ("Let Zhao Liu handle Zhang San's request", "user_4"),
    ("Li Si can take over Zhang San's leave", "user_2"),
    ("While I'm away, Wang Wu approves for me, Zhang San's too", "user_3"),
    ("Send Zhang San's claim over to Zhao Liu", "user_4"),
]


def _named(text: str) -> list[str]:
    return [p["id"] for p in named_as_taker(text, PEOPLE)]


@pytest.mark.parametrize(("text", "taker"), TUNED)
def test_the_one_named_as_taking_the_task_over_is_read(text: str, taker: str) -> None:
    assert _named(text) == [taker]


def test_phrasings_not_tuned_on_are_read_or_left_to_the_person_never_misread() -> None:
    read = [_named(text) for text, _ in HELD_OUT]
    assert all(found in ([taker], []) for found, (_, taker) in zip(read, HELD_OUT, strict=True)), read
    assert sum(found == [taker] for found, (_, taker) in zip(read, HELD_OUT, strict=True)) == 7


@pytest.mark.parametrize("text", ["请假3天，李四审批，抄送王五", "I need two days off, Li Si approves, copy Wang Wu",
                                  "王五说让我请假，审批人李四"])
def test_a_start_that_names_its_approver_and_others_takes_nobody_as_taker(text: str) -> None:
    assert _named(text) == []
