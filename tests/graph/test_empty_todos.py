"""Whether anything waits on the person, asked when nothing does ("我现在有待办吗？", "Is Zhang San's claim waiting on
me?"), is answered by the empty list: "this is not known here" had been put before it, as if the question asked
for something no tool looks up (the sixtieth round's writer; none of its words). Through the real graph with a
scripted model."""

from __future__ import annotations

import pytest

from evals.doubles.scripted import tool_call


@pytest.mark.parametrize(("said", "unknown"), [
    ("我这边现在有待办吗？", "不知道"),
    ("王五那个报销是不是在等我批？", "不知道"),
    ("王五那笔打车的报销，在我这儿吗？", "不知道"),
    ("Is Wang Wu's expense claim waiting on me?", "don't know"),
    ("do I have any tasks right now?", "don't know"),
])
def test_an_empty_todo_list_answers_whether_anything_waits(graph_driver, said, unknown):
    agent = graph_driver(tool_call("queryTodoTask", {"userId": "user_4"}), "OK", user_id="user_4", fixed_answers=True)
    agent.say(said)
    answer = str(agent.messages[-1].content)
    assert unknown not in answer and ("没有待办" in answer or "no pending tasks" in answer)


def test_who_decides_after_the_person_is_answered_by_the_todo_they_opened(graph_driver, start_request):
    # the sixtieth round's writer, none of its words: the answer from the to-do's view had been sent back for the
    # list of workflows, and the person never got it
    start_request(requester="user_3", approver="user_2", days=4, reason="visiting my parents")
    agent = graph_driver(tool_call("viewTask", {"taskId": "task_1"}), "After you it goes to HR.", "(asked again)",
                         user_id="user_2")
    agent.say("Show me that one. If I sign off, does anyone else need to approve it after me?")
    assert str(agent.messages[-1].content) == "After you it goes to HR."
