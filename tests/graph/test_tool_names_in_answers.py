"""What a person reads names no tool and no error code. A model that answers by naming the tool it should have called
("You need to decide the one task you named with handleTodoTask") is told once that the person never sees tool
names, and may call it then; an answer that still names one reads its title instead ("decide a task"), with the
codes left out.

The answers were written for this test; the first is what the offline model said in a held-out trial (2026-12-03)."""

from __future__ import annotations

from langchain_core.messages import AIMessage

from evals.doubles.scripted import tool_call
from graph.history import titled
from tools.workflow import TOOLSET

LEAKED = "You need to decide the one task you named with handleTodoTask, or ask them."


def test_a_model_that_names_the_tool_it_should_call_is_told_once_and_calls_it(graph_driver, store, start_request):
    start_request(requester="user_1", approver="user_2", days=3, reason="回老家")
    agent = graph_driver(
        tool_call("decideTasks", {"isOK": False, "comment": "short-staffed during the audit"}), LEAKED,
        tool_call("handleTodoTask", {"taskId": "Zhang San", "isOK": False, "result": "short-staffed during the audit"}),
        user_id="user_2",
    )
    agent.say("Decline Zhang San's leave, short-staffed during the audit")
    assert agent.card is not None and agent.card["action"] == "handleTodoTask"  # the one task, on its own card


def test_an_answer_that_still_names_a_tool_reads_its_title_and_no_code(graph_driver, store, start_request):
    start_request(requester="user_1", approver="user_2", days=3, reason="回老家")
    agent = graph_driver("Use handleTodoTask [not_a_batch] for one task.", LEAKED, user_id="user_2")
    result = agent.say("What should I do with Zhang San's leave?")
    answer = str(result["messages"][-1].content)
    assert "handleTodoTask" not in answer and "[" not in answer and "decide a task" in answer, answer


def test_titles_replace_names_in_the_persons_language():
    zh = titled(AIMessage(content="请用 handleTodoTask 或 decideTasks 处理 [not_a_batch]"), TOOLSET.registry, "zh")
    assert zh.content == "请用 审批 或 " + TOOLSET.registry.get("decideTasks").title_in("zh") + " 处理"
    plain = AIMessage(content="已批准张三的请假 [1 天]")
    assert titled(plain, TOOLSET.registry, "zh") is plain  # no tool, no code: untouched
