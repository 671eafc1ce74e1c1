"""The approval card's shape in one place for tests that go through the API: what a waiting interrupt (LangChain's
HITL request) proposes, and the answer that approves it; a request started in the store, waiting for a decision; and
the scripted model's reply that decides it."""

from __future__ import annotations

from typing import Any

from tools import CallContext, WorkflowStore, execute_call
from tools.workflow import TOOLSET


def proposed_call(value: dict[str, Any]) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """(tool name, exact arguments, card built from the store) of a waiting human_review interrupt value."""
    [request] = value["action_requests"]
    return request["name"], request["args"], request["card"]


def approval(value: dict[str, Any]) -> dict[str, Any]:
    """The resume value that approves the card of `value`, exactly as shown (with its arguments' hash)."""
    [request] = value["action_requests"]
    return {"decisions": [{"type": "approve", "args_hash": request["args_hash"]}]}


def start_leave_request(store: WorkflowStore, requester: str = "user_1", approver: str = "user_2") -> str:
    """A one-day leave request (张三's to 李四 by default) started through the tool layer; returns the id of the task
    waiting for `approver`."""
    args = {"processKey": "process_qingjia", "userId": requester, "reason": "家里有事", "days": 1, "nextUserId": approver}
    call_id = f"setup-{len(store.snapshot()['requests'])}"
    ctx = CallContext(backend=store, actor_id=requester, thread_id="setup", call_id=call_id)
    return str(execute_call(TOOLSET, "runWorkFlow", args, ctx)["taskId"])


def approving_reply(task: str) -> dict[str, Any]:
    """The scripted model's reply that approves `task` for its assignee (`handleTodoTask`, comment 同意)."""
    call = {"name": "handleTodoTask", "arguments": {"taskId": task, "result": "同意", "isOK": True}}
    return {"content": f"批准 {task}。", "tool_calls": [call]}
