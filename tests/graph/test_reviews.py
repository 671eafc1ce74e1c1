"""The executor runs an approval tool's call only with the person's review on record (`graph/reviews.py`).

The graph's state can be written by others than its review node (a server's client, a bug, a replayed checkpoint):
these tests write it directly, as a trusted in-process caller may, and show that the workflow store's audit log,
not the state, decides.
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, ToolMessage
from langgraph.types import Command

from graph.budget import open_step
from graph.calls import args_hash
from graph.reviews import review_on_record
from state.records import ToolCallRecord
from tools import CallContext
from tools.workflow import TOOLSET

MAIL = "李四你好，请审批我的请假申请，谢谢！"


def tool_call(name: str, args: dict[str, Any], *, id: str) -> AIMessage:  # noqa: A002 - the tool call's field
    return AIMessage(content="", tool_calls=[{"type": "tool_call", "name": name, "args": args, "id": id}])


def planted(name: str, args: dict[str, Any], call_id: str = "c-planted") -> Command[Any]:
    """A step whose call is marked approved, written into the state as if human_review had approved it and sent it on
    to the executor."""
    call = ToolCallRecord(id=call_id, name=name, args=args, status="approved")
    return Command(update={"step": open_step(None, [call])}, goto="executor")


def events(store, thread_id: str = "t1") -> list[tuple[str, str | None]]:
    return [(a["event"], a["actor_id"]) for a in store.audit_entries(thread_id=thread_id)]


def test_a_call_marked_approved_in_the_state_without_a_review_is_not_run(graph_driver, store, start_request):
    task = start_request(requester="user_1", approver="user_2")["taskId"]
    agent = graph_driver("你好。", "好的。", user_id="user_2")
    agent.say("你好")
    args = {"taskId": task, "result": "同意", "isOK": True}
    agent.graph.update_state(agent.config, planted("handleTodoTask", args), as_node="human_review")

    agent.graph.invoke(None, agent.config, context=agent.context)

    assert [t["status"] for t in store.snapshot()["tasks"]] == ["pending"]
    [observation] = [m for m in agent.messages if isinstance(m, ToolMessage)]
    assert observation.status == "error" and "not_reviewed" in str(observation.content)
    assert events(store) == [("unreviewed_call_refused", "user_2")]


def test_an_approval_on_record_for_other_arguments_does_not_count(graph_driver, store):
    agent = graph_driver(tool_call("sendEmail", {"userId": "user_2", "emailContent": MAIL}, id="c-mail"), "已发送")
    agent.say(f"给李四发邮件：{MAIL}")
    [action] = agent.actions
    # The card waits; the state is then changed to other arguments, marked approved, under the same call id.
    other = {"userId": "user_3", "emailContent": "王五你好"}
    agent.graph.update_state(agent.config, planted("sendEmail", other, call_id="c-mail"), as_node="human_review")
    agent.graph.invoke(None, agent.config, context=agent.context)
    assert store.snapshot()["outbox"] == []
    assert ("unreviewed_call_refused", "user_1") in events(store)
    assert action["args_hash"] != args_hash("sendEmail", other)


def test_an_approval_by_someone_else_or_in_another_thread_does_not_count(store, make_ctx):
    args = {"userId": "user_2", "emailContent": MAIL}
    call = {"id": "c-mail", "name": "sendEmail", "args": args, "status": "approved"}
    detail = {"tool": "sendEmail", "tool_call_id": "c-mail", "args_hash": args_hash("sendEmail", args)}
    store.record_audit("review_approve", detail, thread_id="t1", actor_id="user_3")
    store.record_audit("review_approve", detail, thread_id="t2", actor_id="user_1")
    ctx = make_ctx("user_1", thread_id="t1", call_id="c-mail")
    assert not review_on_record(TOOLSET, call, ctx)  # type: ignore[arg-type]
    store.record_audit("review_approve", detail, thread_id="t1", actor_id="user_1")
    assert review_on_record(TOOLSET, call, ctx)  # type: ignore[arg-type]
    assert not review_on_record(TOOLSET, {**call, "id": "c-other"}, ctx)  # type: ignore[arg-type]


def test_an_edit_normalised_by_the_validator_still_runs_as_the_persons_approval(graph_driver, store):
    agent = graph_driver(tool_call("sendEmail", {"userId": "user_2", "emailContent": MAIL}, id="c-mail"), "已发送")
    agent.say(f"给李四发邮件：{MAIL}")
    # The reviewer names the recipient by name; the validator resolves it to user_3 before the executor sees it.
    edited = {"userId": "王五", "emailContent": "王五你好，请帮忙看一下我的请假。"}
    agent.resume({"decisions": [{"type": "edit", "edited_action": {"name": "sendEmail", "args": edited}}]})
    assert agent.interrupts == []
    assert [(r["recipient_id"], r["body"]) for r in store.snapshot()["outbox"]] == [("user_3", edited["emailContent"])]
    assert events(store) == [("review_edit", "user_1"), ("tool_executed", "user_1")]


def test_an_approval_tool_switched_off_by_a_trusted_callers_context_needs_no_review(graph_driver, store, start_request):
    task = start_request(requester="user_1", approver="user_2")["taskId"]
    args = {"taskId": task, "result": "同意", "isOK": True}
    agent = graph_driver(tool_call("handleTodoTask", args, id="c-ok"), "已批准", user_id="user_2", approval_tools=())
    agent.say(f"批准 {task}，同意")
    assert [t["status"] for t in store.snapshot()["tasks"]] == ["approved"]


def test_the_review_check_reads_the_calls_own_thread(store, make_ctx):
    ctx: CallContext = make_ctx("user_1", thread_id="t9", call_id="c1")
    call = {"id": "c1", "name": "getAllUser", "args": {}, "status": "ready"}
    assert not review_on_record(TOOLSET, call, ctx)  # type: ignore[arg-type]
