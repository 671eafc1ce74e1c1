"""What to do with another person's request the person speaks of, in place of a call on it as their own: the one
to-do of theirs the person holds (decided, sent back, passed on or shown as their words ask), the copies when it was
copied to them, or the tools on others' requests (`tools.workflow.guards.AnothersRequest`)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from tools.guards.call import Call
from tools.request import persons_in_latest
from tools.workflow import lookup
from tools.workflow.approver_words import named_as_taker
from tools.workflow.engine import TaskView
from tools.workflow.tables import request_cc
from tools.workflow.todo_guards import decided_apart, said_return_or_reject
from tools.workflow.words import ASKED, BEFORE_DECIDING, HANDLE, stated_decision


def on_the_todo(call: Call, person_id: str, said: str, todos: list[TaskView],
                 latest: str) -> tuple[str, dict[str, Any] | None]:
    """What to do with another person's request instead, and the call itself when the person's words ask for it whole.
    On the one to-do of theirs the person holds, named with its id (a small model follows one call it is given better
    than a list of five): the decision they stated; the decision, asked, when they say to deal with it and not how;
    its details, when a look-up of their own requests or copies was meant to show it. Else the tools on others'
    requests, and no call."""
    head = f"The user speaks of {person_id}'s request ({said!r})" + (
        "." if call.spec.name in (COPIES, TODOS) else ": it is not theirs to file, withdraw, resend, list or urge.")
    if len(todos) != 1 and call.spec.name == "queryMyRequests" and _copied_from(call, person_id):
        return (f"{head} It was copied to the user: to show it and where it stands, call {COPIES}."), {
            "name": COPIES, "args": {}}  # "王五那个出差批了吗" of one copied to them: their copies show it
    if len(todos) != 1:
        return (f"{head} To see it as its approver, call viewTask (copied to them: queryCcRequests); to approve or "
                "reject it, handleTodoTask; to send it back to them, returnTask; to pass it on, transferTask (each "
                "takes the requester's name as taskId)."), None
    task_id = todos[0].id
    waits = f"{head} It waits for the user's decision as {task_id}, a to-do of theirs"
    # passed on "to sign off": the decision is the colleague's; decided apart ("我同意，让他把周报交给王五"): not passed
    to = passed_to(call, person_id, latest) if decided_apart(call, latest) is None else None
    if to is not None:
        return (f"{waits}: to pass it on to {to} as they say, call transferTask with taskId {task_id} and nextUserId "
                f"{to}."), {"name": "transferTask", "args": {"taskId": task_id, "nextUserId": to}}
    # "办了没？", "was it approved?": a decision it seems to state is asked about; "could you take care of it?" asks for one
    asked = bool(ASKED.search(latest)) and call.request is not None and call.request["kind"] == "information"
    if not asked and (said_return_or_reject([latest]) or ("", ""))[0] == "return":
        return (f"{waits}: to send it back to them as they say, call returnTask with taskId {task_id} and their "
                "comment."), {"name": "returnTask", "args": {"taskId": task_id}}
    # a decision said as what comes after ("Before I sign off on it, show me what it's for", 批之前先让我看看) is none
    decided = None if asked or BEFORE_DECIDING.search(latest) else stated_decision(call.request)  # type: ignore[arg-type]
    if decided is not None:
        return (f"{waits}: to {'approve' if decided else 'reject'} it as they said, call handleTodoTask with taskId "
                f"{task_id} and isOK {str(decided).lower()}."), {
                    "name": "handleTodoTask", "args": {"taskId": task_id, "isOK": decided}}
    if BEFORE_DECIDING.search(latest) and not asked:  # "no decision yet, I just want to read": it is shown
        return f"{waits}: to show it as they ask, call viewTask with taskId {task_id}.", {
            "name": "viewTask", "args": {"taskId": task_id}}
    if HANDLE.search(latest) and not asked:
        return (f"{waits}: to deal with it as they ask, call handleTodoTask with taskId {task_id} (they are asked to "
                "approve or reject)."), {"name": "handleTodoTask", "args": {"taskId": task_id}}
    if call.spec.name in ("queryMyRequests", COPIES, TODOS):
        return f"{waits}: to show it and where it stands, call viewTask with taskId {task_id}.", {
            "name": "viewTask", "args": {"taskId": task_id}}
    return (f"{waits}: to show it, call viewTask with taskId {task_id}; to approve or reject it, handleTodoTask with "
            f"taskId {task_id}; to send it back, returnTask; to pass it on, transferTask."), None


def _copied_from(call: Call, requester: str) -> bool:
    """Whether a request of `requester`'s was copied to the person."""
    copied = call.handle.execute(select(request_cc.c.instance_id).where(
        request_cc.c.user_id == call.ctx.actor_id)).scalars().all()
    engine = lookup.engine_of(call.handle)
    return any(engine.instance(call.handle, rid).requester == requester for rid in copied)


def passed_to(call: Call, requester: str, latest: str) -> str | None:
    """The one person the message names as taking the to-do over ("pass Wang Wu's leave over to Zhao Liu", 转给赵六;
    `approver_words.named_as_taker`), never its requester; None otherwise, or when the message asks a question."""
    assert call.request is not None
    if ASKED.search(latest):
        return None
    named = persons_in_latest(call.request, but=requester)
    takers = named_as_taker(latest, named)
    return str(takers[0]["id"]) if len(takers) == 1 else None


COPIES = "queryCcRequests"
TODOS = "queryTodoTask"
"""The look-up of the requests copied to the person: not where a request waiting on them as a to-do is."""
