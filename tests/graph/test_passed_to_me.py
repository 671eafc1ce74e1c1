"""What a colleague passed on to the person ("李四说转了个请假给我，是谁的？", "Li Si passed a leave request over to me")
is a to-do of theirs: the look-up of their copies, made with the colleague's id, had been refused as someone else's
and the person told "李四不是当前用户" (the fifty-sixth round's run; none of its words). Through the real graph with a
scripted model."""

from __future__ import annotations

import pytest

from evals.doubles.scripted import tool_call
from tools import execute_call
from tools.workflow import TOOLSET


@pytest.mark.parametrize("said", [
    "李四说转了个请假给我，谁的啊，请几天？",
    "Li Si says he passed a leave request over to me. Whose is it and for what?",
])
def test_a_todo_passed_on_to_the_person_is_looked_up_among_their_todos(graph_driver, make_ctx, start_request, said):
    start_request(requester="user_1", approver="user_2", days=1, reason="孩子开家长会")
    execute_call(TOOLSET, "transferTask", {"taskId": "task_1", "nextUserId": "user_3", "comment": "我这周出差"},
                 make_ctx("user_2"))
    agent = graph_driver(tool_call("queryCcRequests", {"userId": "李四"}), "好的", user_id="user_3", fixed_answers=True)
    agent.say(said)
    looked = [m.name for m in agent.messages if getattr(m, "type", "") == "tool" and m.status != "error"]
    assert looked == ["queryTodoTask"]
    answer = str(agent.messages[-1].content)
    assert ("张三" in answer or "Zhang San" in answer) and "家长会" in answer


@pytest.mark.parametrize("said", [
    "I'm covering Li Si's approvals while he's off. Is anything waiting for me?",  # the fifty-sixth round's run
    "李四休假这几天我帮他顶着，现在有啥要我批的？",
])
def test_what_waits_on_a_deputy_is_their_todos_not_their_deputies(graph_driver, make_ctx, start_request, said):
    start_request(requester="user_1", approver="user_3", days=1, reason="孩子开家长会")
    agent = graph_driver(tool_call("queryMyDeputies", {}), "好的", user_id="user_3", fixed_answers=True)
    agent.say(said)
    looked = [m.name for m in agent.messages if getattr(m, "type", "") == "tool" and m.status != "error"]
    assert looked == ["queryTodoTask"]


def test_a_question_of_ones_own_deputies_is_still_theirs(graph_driver):
    agent = graph_driver(tool_call("queryMyDeputies", {}), "好的", user_id="user_2", fixed_answers=True)
    agent.say("Did I set anyone to cover for me while I'm away? Anything waiting for me?")
    looked = [m.name for m in agent.messages if getattr(m, "type", "") == "tool" and m.status != "error"]
    assert looked[0] == "queryMyDeputies"
