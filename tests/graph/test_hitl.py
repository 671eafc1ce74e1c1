"""The HITL shape's reading of a person's decisions (graph/hitl.py), including the earlier shape's adapter."""

from __future__ import annotations

import pytest

from graph.hitl import card_description, read_decision, standard_decision


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("approve", {"decisions": [{"type": "approve"}]}),
        ({"decision": "Yes"}, {"decisions": [{"type": "approve"}]}),
        ({"decision": "reject", "message": "不行"}, {"decisions": [{"type": "reject", "message": "不行"}]}),
        (
            {"decision": "edit", "args": {"a": 1}},
            {"decisions": [{"type": "edit", "edited_action": {"name": None, "args": {"a": 1}}}]},
        ),
        ({"decision": "approve", "args_hash": "h"}, {"decisions": [{"type": "approve", "args_hash": "h"}]}),
        ({"decision": "maybe"}, {"decision": "maybe"}),
        ({"decisions": [{"type": "approve"}]}, {"decisions": [{"type": "approve"}]}),
    ],
)
def test_the_earlier_answers_become_standard_decisions(answer, expected):
    assert standard_decision(answer) == expected


def test_a_decision_is_read_with_its_body():
    assert read_decision({"decisions": [{"type": "approve", "args_hash": "h"}]}, "sendEmail") == (
        "approve", {"args_hash": "h"}, ""
    )
    edit = {"type": "edit", "edited_action": {"name": "sendEmail", "args": {"emailContent": "x"}}}
    assert read_decision({"decisions": [edit]}, "sendEmail") == ("edit", {"args_hash": None, "args": {"emailContent": "x"}}, "")
    assert read_decision({"decisions": [{"type": "reject", "message": "不"}]}, "sendEmail")[1]["message"] == "不"


@pytest.mark.parametrize(
    "answer",
    [None, 42, {}, {"decisions": "approve"}, {"decisions": [{"type": "respond", "message": "x"}]},
     {"decisions": [{"type": "edit", "edited_action": {"name": "sendEmail"}}]}, {"decisions": [{"type": "edit"}]}],
)
def test_an_unusable_answer_says_how_to_answer(answer):
    decision, body, error = read_decision(answer, "sendEmail")
    assert decision is None and body == {}
    assert error.startswith("Unrecognised answer") and '"decisions": [{"type": "approve"}]' in error


def test_the_description_is_the_card_in_words():
    """The summary, one line per labelled field in the labels' order (a list one value a line, empty fields left
    out), then the card's notes; ids, unlabelled fields and the checks' English notes are not for the person."""
    card = {"action": "runWorkFlow", "title": "发起申请", "summary": "提交你的报销申请：6,800 元", "process": "报销流程",
            "process_key": "process_baoxiao", "values": ["报销金额：6,800 元 ← 6千8百元", "费用类别：差旅"], "next": "",
            "approver": "李四 (user_2)", "labels": {"process": "流程", "values": "申请内容", "approver": "审批人",
                                                   "next": "接下来"},
            "notes": ["以下内容是根据你的话推断的，请核对：费用类别"], "policy_notes": ["[person_stated] fields.amount"]}
    assert card_description(card) == (
        "提交你的报销申请：6,800 元\n流程: 报销流程\n申请内容: 报销金额：6,800 元 ← 6千8百元\n  费用类别：差旅\n"
        "审批人: 李四 (user_2)\n以下内容是根据你的话推断的，请核对：费用类别"
    )


def test_a_card_without_a_summary_is_described_by_its_title():
    assert card_description({"action": "bookRoom", "title": "Book a room", "policy_notes": ["x"]}) == "Book a room"
