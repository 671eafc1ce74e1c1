"""Due dates in the chat (issue 34): an approver who asks for their to-do list reads, in their language, when each
step is due (the leave: when it moves on to the approver's manager), as the look-up found it."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage

from evals.doubles.scripted import tool_call
from tools.workflow.store import WorkflowStore
from tools.workflow.timeline import when


def final(result: dict[str, Any]) -> str:
    last = result["messages"][-1]
    assert isinstance(last, AIMessage) and not last.tool_calls, last
    return str(last.content)


def moves_on(store: WorkflowStore, task_id: str) -> str:
    [row] = [r for r in store.snapshot()["process_timers"]
             if f"task_{r['task_id']}" == task_id and r["action"] == "escalate"]
    return str(row["due_at"])


def test_a_chinese_to_do_list_in_the_chat_says_when_the_step_is_due(graph_driver, store, start_request):
    task_id = start_request(requester="user_1", approver="user_2")["taskId"]
    agent = graph_driver(tool_call("queryTodoTask", {}), "你有 1 个待办。", user_id="user_2", fixed_answers=True)
    answer = final(agent.say("我有哪些待办？"))
    assert f"李四有 1 个待办：{task_id}（张三的请假，审批人审批：" in answer
    assert f"；截止 {when(moves_on(store, task_id), 'zh')}）" in answer


def test_an_english_to_do_list_in_the_chat_says_when_the_step_is_due(graph_driver, store, start_request):
    task_id = start_request(requester="user_1", approver="user_2")["taskId"]
    agent = graph_driver(tool_call("queryTodoTask", {}), "You have 1 pending task.", user_id="user_2",
                         fixed_answers=True)
    answer = final(agent.say("Show me what is waiting for me to approve."))
    assert f"Li Si has 1 pending task: {task_id} (Zhang San" in answer
    assert f"; due {when(moves_on(store, task_id), 'en')})" in answer
