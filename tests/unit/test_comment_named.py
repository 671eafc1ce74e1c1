"""A to-do's comment the model named in its own words ("note", "remark") is the comment of a transfer or a return: the
sixtieth round's run had "note" beside a transfer refused as no parameter, and the person's note lost with it."""

from __future__ import annotations

import pytest

from tools.errors import InvalidArgumentsError
from tools.workflow.approver_specs import TRANSFER
from tools.workflow.request_specs import RETURN


@pytest.mark.parametrize("key", ["note", "remark", "message"])
def test_a_comment_named_otherwise_is_the_comment(key):
    assert TRANSFER.parse({"taskId": "task_1", "nextUserId": "user_3", key: "his client"}).comment == "his client"
    assert RETURN.parse({"taskId": "task_1", key: "attach the receipt"}).comment == "attach the receipt"


def test_the_comment_given_wins_and_two_other_names_are_not_guessed_between():
    assert TRANSFER.parse({"taskId": "task_1", "nextUserId": "user_3", "comment": "mine", "note": ""}).comment == "mine"
    with pytest.raises(InvalidArgumentsError):
        TRANSFER.parse({"taskId": "task_1", "nextUserId": "user_3", "note": "a", "remark": "b"})
