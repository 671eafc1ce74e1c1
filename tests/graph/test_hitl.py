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
    card = {"action": "sendEmail", "summary": "Send an e-mail to 李四", "recipient": "李四 (user_2)", "task": "",
            "policy_notes": ["[person_stated] emailContent"]}
    assert card_description(card) == "Send an e-mail to 李四\nrecipient: 李四 (user_2)\nnote: [person_stated] emailContent"
