"""'Pass it to someone else then' after a transfer to its requester was refused asks who takes it: the requester named
in the message before had been read as the taker again, and refused again (the fifty-seventh round's run; none of its
words). Through the real graph with a scripted model."""

from __future__ import annotations

import pytest

from evals.doubles.scripted import tool_call
from tools.taken_back import names_someone_else


@pytest.mark.parametrize(("first", "then"), [
    ("Hand Zhang San's leave over to Zhang San, he can sort it out", "OK, give it to somebody else then"),
    ("张三的请假转给张三自己处理吧", "那换个人吧"),
])
def test_someone_else_after_a_refused_taker_is_asked(graph_driver, store, start_request, first, then):
    start_request(requester="user_1", approver="user_2", days=1, reason="看病")
    agent = graph_driver(tool_call("transferTask", {"taskId": "Zhang San", "nextUserId": "Zhang San"}),
                         user_id="user_2", fixed_answers=True)
    agent.say(first)
    first_asked = str(agent.messages[-1].content)
    assert agent.actions == [] and ("?" in first_asked or "？" in first_asked)  # why not, and who instead
    agent.script(tool_call("transferTask", {"taskId": "Zhang San", "nextUserId": "Wang Wu"}), "OK")
    agent.say(then)
    assert agent.actions == []
    asked = str(agent.messages[-1].content)
    assert "?" in asked or "？" in asked
    assert "Wang Wu" in asked or "王五" in asked  # among the choices offered, not taken for them
    assert store.snapshot()["tasks"][0]["assignee_id"] == "user_2"


def test_someone_else_is_read_only_where_it_is_said():
    assert names_someone_else("pass it to someone else then") and names_someone_else("那换个人吧")
    assert not names_someone_else("pass it to Wang Wu") and not names_someone_else("else I'll do it myself")
