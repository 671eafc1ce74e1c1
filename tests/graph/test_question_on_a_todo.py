"""A decision proposed for a question about a to-do ("Open it. If I approve, does it go to someone after me?") is
refused as asked for nothing, and the to-do's view is shown in its place, with its steps and who decides next: the
sixtieth round's run carded the decision twice and ended with nothing found. Phrasings written for these tests, none
from a scenario."""

from __future__ import annotations

import pytest
from langchain_core.messages import ToolMessage

from evals.doubles.scripted import tool_call


@pytest.mark.parametrize(("said", "next_step"), [
    ("Show me Wang Wu's leave. If I approve it, is it finished or does it go on after me?", "HR"),
    ("把王五的请假调出来看看，我同意之后就结束了吗，还是要往下走？", "人事"),
])
def test_a_decision_proposed_for_a_question_shows_the_todo_instead(graph_driver, start_request, store, said, next_step):
    start_request(requester="user_3", approver="user_2", days=4, reason="visiting my parents")
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "task_1", "isOK": True, "result": "ok"}), "Done.",
                         user_id="user_2", fixed_answers=True)
    answer = str(agent.say(said)["messages"][-1].content)
    assert agent.actions == [] and "task_1" in answer and next_step in answer
    assert [t["status"] for t in store.snapshot()["tasks"]] == ["pending"]


@pytest.mark.parametrize("said", ["Pull up Wang Wu's leave. Once I sign it, does anybody else have to look at it?",
                                  "王五的请假我看一下。我批了以后还要别人审吗？"])
def test_asking_whether_someone_else_decides_next_passes_nothing_on(graph_driver, start_request, said):
    start_request(requester="user_3", approver="user_2", days=4, reason="visiting my parents")
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "task_1", "isOK": True, "result": "ok"}), "Done.",
                         user_id="user_2", fixed_answers=True)
    answer = str(agent.say(said)["messages"][-1].content)
    assert "take the task over" not in answer and "转交给谁" not in answer and agent.actions == []


def test_a_write_on_words_that_name_no_todo_proposes_no_view(graph_driver, start_request):
    """The model's own words ("printer") name no to-do: nothing is shown in place of its write (the sixty-first
    round's run looked up "printer" twice, refused each time)."""
    start_request(requester="user_3", approver="user_2", days=4, reason="visiting my parents")
    agent = graph_driver(tool_call("returnTask", {"taskId": "printer", "comment": "toner"}), "Hard to say.",
                         user_id="user_2", fixed_answers=True)
    result = agent.say("If I approve a leave, is it finished or does it go on after me?")
    assert not [m for m in result["messages"] if isinstance(m, ToolMessage) and m.name == "viewTask"]


def test_a_todos_steps_say_when_a_request_comes_to_the_next(graph_driver, start_request):
    """"Why does a leave even come to HR?" is answered by the step's condition beside it (the sixty-first round's
    run showed the steps without it)."""
    start_request(requester="user_3", approver="user_2", days=4, reason="visiting my parents")
    agent = graph_driver(tool_call("viewTask", {"taskId": "task_1"}), "x", user_id="user_2", fixed_answers=True)
    answer = str(agent.say("What's Wang Wu's leave, and why would HR see it after me?")["messages"][-1].content)
    assert "HR's decision (approved and over 3 days)" in answer
