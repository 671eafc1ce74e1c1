"""A to-do's comment the model named in its own words ("note", "remark") is the comment of a transfer, a return or a
decision, and a key that only says again which to-do it is ("requester") is left out: the sixtieth round's run had
"note" beside a transfer refused as no parameter, the sixty-second's "requester" beside a decision."""

from __future__ import annotations

import pytest

from tools.errors import InvalidArgumentsError
from tools.workflow.approver_specs import TRANSFER
from tools.workflow.request_specs import RETURN
from tools.workflow.specs import REGISTRY


@pytest.mark.parametrize("key", ["note", "remark", "message"])
def test_a_comment_named_otherwise_is_the_comment(key):
    assert TRANSFER.parse({"taskId": "task_1", "nextUserId": "user_3", key: "his client"}).comment == "his client"
    assert RETURN.parse({"taskId": "task_1", key: "attach the receipt"}).comment == "attach the receipt"


def test_the_comment_given_wins_and_two_other_names_are_not_guessed_between():
    assert TRANSFER.parse({"taskId": "task_1", "nextUserId": "user_3", "comment": "mine", "note": ""}).comment == "mine"
    with pytest.raises(InvalidArgumentsError):
        TRANSFER.parse({"taskId": "task_1", "nextUserId": "user_3", "note": "a", "remark": "b"})


def test_a_decisions_comment_named_otherwise_and_a_key_that_only_describes_it():
    decide = REGISTRY.get("handleTodoTask")
    args = decide.parse({"taskId": "Zhao Liu", "isOK": False, "comment": "over budget", "requester": "Zhao Liu"})
    assert (args.taskId, args.result, args.isOK) == ("Zhao Liu", "over budget", False)


def test_a_resends_note_put_among_its_fields_is_its_note():
    """The sixty-fourth round's run: "fields": {"note": …} was refused as no field of the form."""
    resend = REGISTRY.get("resubmitRequest")
    args = resend.parse({"requestId": "req_1", "fields": {"note": "doctor's note attached"}})
    assert args.note == "doctor's note attached" and not args.fields
