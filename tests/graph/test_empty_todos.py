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
