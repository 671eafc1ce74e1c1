"""The graph behind `langgraph dev` (Studio and the LangGraph API), driven by the langgraph-sdk client.

One server per module, started from the project's `langgraph.json`; the model is the scripted
OpenAI-compatible server of this test process, so the real langchain-openai path runs inside the server.
Studio signs in as any client does, with a bearer token (a dev token here): the actor of each run is the
signed-in user, so the approver's run signs in as 李四 and the requester's as 张三.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from evals.doubles.openai_server import ScriptedOpenAIServer
from tests.support.langgraph_server import LangGraphDevServer, model_settings, store_env, stream_updates
from tests.support.review import approving_reply, start_leave_request
from tools import WorkflowStore

GRAPH_ID = "flowagent"
NODES = ["read_request", "reasoner", "tool_validator", "ask_person", "human_review", "executor", "observation_summarizer",
         "budget_check"]


@pytest.fixture(scope="module")
def server(model: ScriptedOpenAIServer, db_path: Path, start_server: Any) -> Iterator[LangGraphDevServer]:
    """The model settings come from the project's `.env` (as the README says), the rest from the environment."""
    with start_server(store_env(db_path), model_settings(model)) as dev:
        yield dev


@pytest.fixture(scope="module")
def client(server: LangGraphDevServer) -> Any:
    """Signed in as 张三 (user_1)."""
    return server.client("user_1")


@pytest.fixture(scope="module")
def approver(server: LangGraphDevServer) -> Any:
    """Signed in as 李四 (user_2), who approves 张三's requests."""
    return server.client("user_2")


def test_studio_shows_the_graph_its_nodes_and_the_context_fields(client: Any) -> None:
    [assistant] = client.assistants.search(graph_id=GRAPH_ID)
    drawn = client.assistants.get_graph(assistant["assistant_id"])
    assert {node["id"] for node in drawn["nodes"]} == {"__start__", "__end__", *NODES}

    schemas = client.assistants.get_schemas(assistant["assistant_id"])
    context = schemas["context_schema"]["properties"]
    assert {"user_id", "model", "protocol", "max_model_calls", "approval_tools", "locale", "timezone"} <= set(context)
    assert context["user_id"]["default"] == "user_1" and "actor" in context["user_id"]["description"]
    assert context["protocol"]["enum"] == ["native", "react", "json"] and context["max_model_calls"]["default"] == 8


def test_studio_gets_the_input_schema_for_its_message_form(client: Any) -> None:
    [assistant] = client.assistants.search(graph_id=GRAPH_ID)
    schemas = client.assistants.get_schemas(assistant["assistant_id"])
    assert schemas["input_schema"] is not None, "the server could not build the input schema (see state/ TypedDicts)"
    assert set(schemas["input_schema"]["properties"]) == {"messages"}


def test_run_stops_at_the_approval_card_and_approve_resumes_it(
    approver: Any, model: ScriptedOpenAIServer, server_store: WorkflowStore
) -> None:
    client = approver
    task = start_leave_request(server_store)
    model.reset(
        [
            {"content": "先查李四的待办。", "tool_calls": [{"name": "queryTodoTask", "arguments": {"userId": "user_2"}}]},
            approving_reply(task),
            f"已批准 {task}。",
        ]
    )
    thread = client.threads.create()
    thread_id = thread["thread_id"]
    nodes, interrupts = stream_updates(
        client, thread_id, input={"messages": [{"role": "user", "content": f"批准我的待办 {task}"}]}
    )
    assert nodes == [
        "read_request", "reasoner", "tool_validator", "executor", "observation_summarizer", "budget_check", "reasoner",
        "tool_validator",
    ]
    [streamed] = interrupts

    # The waiting card, read back from the thread: built from the store, with the exact arguments and their hash.
    state = client.threads.get_state(thread_id)
    assert client.threads.get(thread_id)["status"] == "interrupted"
    [waiting] = state["interrupts"]
    assert waiting["value"] == streamed["value"]
    [value] = waiting["value"]["action_requests"]
    assert waiting["value"]["review_configs"] == [
        {"action_name": "handleTodoTask", "allowed_decisions": ["approve", "edit", "reject"]}
    ]
    assert (value["name"], value["args"]) == ("handleTodoTask", {"taskId": task, "result": "同意", "isOK": True})
    card = value["card"]
    assert (card["requester"], card["assignee"], card["days"], card["reason"], card["task_status"]) == (
        "张三 (user_1)", "李四 (user_2)", 1.0, "家里有事", "pending"
    )
    assert [t["status"] for t in server_store.snapshot()["tasks"] if f"task_{t['id']}" == task] == ["pending"]

    nodes, interrupts = stream_updates(
        client, thread_id, command={"resume": {"decisions": [{"type": "approve", "args_hash": value["args_hash"]}]}}
    )
    assert (nodes, interrupts) == (["human_review", "executor", "observation_summarizer", "budget_check", "reasoner"], [])

    final = client.threads.get_state(thread_id)
    assert final["next"] == [] and final["interrupts"] == []
    messages = final["values"]["messages"]
    assert messages[-1]["type"] == "ai" and messages[-1]["content"] == f"已批准 {task}。"
    decided = [m for m in messages if m["type"] == "tool" and m["name"] == "handleTodoTask"]
    assert [json.loads(m["content"])["status"] for m in decided] == ["approved"]
    assert [a["decision"] for a in final["values"]["audit"]] == ["approve"]

    snapshot = server_store.snapshot()
    [row] = [t for t in snapshot["tasks"] if f"task_{t['id']}" == task]
    assert (row["status"], row["decided_by"], row["comment"]) == ("approved", "user_2", "同意")
    events = [(a["event"], a["actor_id"]) for a in snapshot["audit_log"] if a["thread_id"] == thread_id]
    assert events == [("review_approve", "user_2"), ("tool_executed", "user_2")]
    assert all(r["model"] == "scripted" for r in model.requests)


def test_reject_in_another_thread_becomes_the_observation_and_sends_nothing(
    client: Any, model: ScriptedOpenAIServer, server_store: WorkflowStore
) -> None:
    task = start_leave_request(server_store)
    text = f"李四你好，请审批我的请假申请 {task}，谢谢！"
    model.reset(
        [
            {
                "content": "发提醒邮件。",
                "tool_calls": [{"name": "sendEmail", "arguments": {"taskId": task, "emailContent": text}}],
            },
            "好的，邮件没有发送。",
        ]
    )
    thread_id = client.threads.create()["thread_id"]
    nodes, interrupts = stream_updates(
        client, thread_id, input={"messages": [{"role": "user", "content": f"发邮件提醒李四：{text}"}]}
    )
    assert nodes == ["read_request", "reasoner", "tool_validator"]
    [waiting] = interrupts
    [action] = waiting["value"]["action_requests"]
    card = action["card"]
    assert (action["name"], card["recipient_email"], card["text"]) == ("sendEmail", "lisi@example.com", text)

    nodes, interrupts = stream_updates(
        client, thread_id, command={"resume": {"decisions": [{"type": "reject", "message": "先别发"}]}}
    )
    assert (nodes, interrupts) == (["human_review", "budget_check", "reasoner"], [])

    messages = client.threads.get_state(thread_id)["values"]["messages"]
    [rejected] = [m for m in messages if m["type"] == "tool"]
    assert rejected["status"] == "error" and "Rejected by the reviewer (user_1): 先别发" in rejected["content"]
    assert messages[-1]["content"] == "好的，邮件没有发送。"
    snapshot = server_store.snapshot()
    assert snapshot["emails"] == []
    events = [(a["event"], a["actor_id"], json.loads(a["detail"]).get("message")) for a in snapshot["audit_log"]
              if a["thread_id"] == thread_id]
    assert events == [("review_reject", "user_1", "先别发")]


def test_a_request_starts_only_after_its_start_card_is_approved_through_the_api(
    client: Any, model: ScriptedOpenAIServer, server_store: WorkflowStore
) -> None:
    """The start card over the LangGraph API: the values as they will be filed, in the person's language; nothing is
    filed while it waits; edit is checked again; approve files exactly what the card showed."""
    said = "报销打车去机场的差旅费560元，李四审批"
    claim = {"processKey": "process_baoxiao", "reason": "打车去机场", "nextUserId": "李四",
             "fields": {"amount": 560, "category": "差旅"}}
    model.reset([{"content": "提交报销。", "tool_calls": [{"name": "runWorkFlow", "arguments": claim}]}, "已提交。"])
    before = len(server_store.snapshot()["requests"])
    thread_id = client.threads.create()["thread_id"]
    nodes, interrupts = stream_updates(client, thread_id, input={"messages": [{"role": "user", "content": said}]})
    assert nodes == ["read_request", "reasoner", "tool_validator"]
    [waiting] = client.threads.get_state(thread_id)["interrupts"]
    [value] = waiting["value"]["action_requests"]
    card = value["card"]
    assert (value["name"], card["title"], card["process"]) == ("runWorkFlow", "发起申请", "报销流程")
    assert card["values"][:2] == ["报销金额：560 元 ← 560元", "报销类别：差旅"]
    assert card["approver"] == "李四 (user_2)" and card["next"].startswith("提交后先送审批人审批（李四）")
    assert value["description"].splitlines()[0] == card["summary"] == "提交你的报销申请：560 元"
    assert len(server_store.snapshot()["requests"]) == before  # nothing filed while the card waits

    # An edit that makes the requester their own approver is checked again and refused: still nothing filed.
    edited = {**value["args"], "nextUserId": "user_1"}
    stream_updates(client, thread_id, command={"resume": {"decisions": [
        {"type": "edit", "edited_action": {"name": "runWorkFlow", "args": edited}}]}})
    assert len(server_store.snapshot()["requests"]) == before

    model.reset([{"content": "提交报销。", "tool_calls": [{"name": "runWorkFlow", "arguments": claim}]}, "已提交。"])
    thread_id = client.threads.create()["thread_id"]
    stream_updates(client, thread_id, input={"messages": [{"role": "user", "content": said}]})
    [waiting] = client.threads.get_state(thread_id)["interrupts"]
    [value] = waiting["value"]["action_requests"]
    nodes, interrupts = stream_updates(
        client, thread_id, command={"resume": {"decisions": [{"type": "approve", "args_hash": value["args_hash"]}]}}
    )
    assert (nodes, interrupts) == (["human_review", "executor", "observation_summarizer", "budget_check", "reasoner"], [])
    filed = server_store.snapshot()["requests"][before:]
    assert [(r["process_key"], json.loads(r["form"])["amount"], json.loads(r["form"])["category"]) for r in filed] == [
        ("process_baoxiao", 560, "差旅")
    ]
    request = f"req_{filed[0]['id']}"

    # 张三 asks where it is (a read: no card), then withdraws it on a card; nothing changes before he approves it.
    model.reset([
        {"content": "查我的申请。", "tool_calls": [{"name": "queryMyRequests", "arguments": {}}]},
        "你的报销在审批人审批这一步，由李四处理。",
        {"content": "撤回报销。", "tool_calls": [{"name": "withdrawRequest", "arguments": {"requestId": request}}]},
        "已撤回。",
    ])
    thread_id = client.threads.create()["thread_id"]
    nodes, interrupts = stream_updates(client, thread_id, input={"messages": [{"role": "user", "content": "我的报销到哪了？"}]})
    assert interrupts == []
    [mine] = [json.loads(m["content"]) for m in client.threads.get_state(thread_id)["values"]["messages"]
              if m["type"] == "tool" and m["name"] == "queryMyRequests"]
    [listed] = [r for r in mine["requests"] if r["requestId"] == request]
    assert (listed["process"], listed["status"], listed["heldBy"]) == ("报销流程", "审批中", "李四")
    stream_updates(client, thread_id, input={"messages": [{"role": "user", "content": "报销不要了，撤回吧"}]})
    [waiting] = client.threads.get_state(thread_id)["interrupts"]
    [value] = waiting["value"]["action_requests"]
    assert (value["name"], value["card"]["title"], value["card"]["held_by"]) == ("withdrawRequest", "撤回申请", "李四")
    assert [r["status"] for r in server_store.snapshot()["requests"] if f"req_{r['id']}" == request] == ["pending"]
    stream_updates(client, thread_id, command={"resume": {"decisions": [{"type": "approve", "args_hash": value["args_hash"]}]}})
    snapshot = server_store.snapshot()
    assert [r["status"] for r in snapshot["requests"] if f"req_{r['id']}" == request] == ["withdrawn"]
    assert [t["status"] for t in snapshot["tasks"] if t["request_id"] == filed[0]["id"]] == ["cancelled"]


def test_a_leave_start_card_shows_its_type_counted_dates_and_balance_through_the_api(
    client: Any, model: ScriptedOpenAIServer, server_store: WorkflowStore
) -> None:
    """The leave lines of the start card over the LangGraph API: sick leave over New Year counted in working days
    (rejected: nothing filed), then annual leave with 张三's balance, held once approved; the balance question then
    reads what is left, with no card and no write."""
    year = date.today().year
    sick = {"processKey": "process_qingjia", "reason": "发烧在家休息", "days": 2, "nextUserId": "李四",
            "fields": {"leaveType": "病假", "startDate": "2025-12-31", "endDate": "2026-01-04"}}
    model.reset([{"content": "提交病假。", "tool_calls": [{"name": "runWorkFlow", "arguments": sick}]}, "好的，没有提交。"])
    thread_id = client.threads.create()["thread_id"]
    said = "帮我补一个病假，2025年12月31日到2026年1月4日，发烧在家休息，李四审批"
    stream_updates(client, thread_id, input={"messages": [{"role": "user", "content": said}]})
    [waiting] = client.threads.get_state(thread_id)["interrupts"]
    [value] = waiting["value"]["action_requests"]
    assert value["card"]["labels"]["leave"] == "假期"
    assert value["card"]["leave"] == [
        "病假：带薪，不占额度", "2025年12月31日–2026年1月4日：2 个工作日；1月1日至3日放假，1月4日（周日）调休上班",
    ]
    stream_updates(client, thread_id, command={"resume": {"decisions": [{"type": "reject", "message": "先不提交"}]}})

    annual = {"processKey": "process_qingjia", "reason": "带爸妈出去旅游", "days": 3, "nextUserId": "李四",
              "fields": {"leaveType": "年假"}}
    model.reset([{"content": "提交年假。", "tool_calls": [{"name": "runWorkFlow", "arguments": annual}]}, "已提交。",
                 {"content": "查余额。", "tool_calls": [{"name": "getLeaveBalance", "arguments": {}}]}, "年假还剩 7 天。"])
    thread_id = client.threads.create()["thread_id"]
    stream_updates(client, thread_id, input={"messages": [{"role": "user", "content": "请3天年假，带爸妈出去旅游，李四审批"}]})
    [waiting] = client.threads.get_state(thread_id)["interrupts"]
    [value] = waiting["value"]["action_requests"]
    assert value["card"]["values"][1] == "请假类型：年假"
    assert value["card"]["leave"] == ["年假：带薪，计入额度", f"年假余额 10 天（{year} 年），本次 3 天，剩余 7 天"]
    stream_updates(client, thread_id, command={"resume": {"decisions": [{"type": "approve", "args_hash": value["args_hash"]}]}})
    [held] = [(r["allocated"], r["held"]) for r in server_store.snapshot()["leave_balances"]
              if (r["user_id"], r["leave_type"], r["year"]) == ("user_1", "年假", year)]
    assert held == (10, 3)

    before = server_store.snapshot()["tool_executions"]
    nodes, interrupts = stream_updates(client, thread_id, input={"messages": [{"role": "user", "content": "我还有几天年假？"}]})
    assert interrupts == [] and "human_review" not in nodes
    [balance] = [json.loads(m["content"]) for m in client.threads.get_state(thread_id)["values"]["messages"]
                 if m["type"] == "tool" and m["name"] == "getLeaveBalance"]
    assert balance["balances"][0]["left"] == 7
    assert server_store.snapshot()["tool_executions"] == before


def test_an_approver_returns_a_request_and_its_requester_resubmits_it_through_the_api(
    client: Any, approver: Any, model: ScriptedOpenAIServer, server_store: WorkflowStore
) -> None:
    """Return (退回) and resubmit over the LangGraph API: 李四 sends 张三's request back on a card with his comment; the
    step is gone; 张三 changes the days on a card showing old → new, and the same request waits for 李四 again."""
    task = start_leave_request(server_store)  # 张三's one-day leave, waiting for 李四
    request = next(f"req_{t['request_id']}" for t in server_store.snapshot()["tasks"] if f"task_{t['id']}" == task)
    model.reset([
        {"content": "退回。", "tool_calls": [{"name": "returnTask", "arguments": {"taskId": task, "comment": "写清楚哪天"}}]},
        "已退回。",
    ])
    thread_id = approver.threads.create()["thread_id"]
    stream_updates(approver, thread_id, input={"messages": [{"role": "user", "content": "把张三的请假退回，意见：写清楚哪天"}]})
    [waiting] = approver.threads.get_state(thread_id)["interrupts"]
    [value] = waiting["value"]["action_requests"]
    assert (value["name"], value["card"]["title"], value["card"]["verdict"]) == ("returnTask", "退回申请", "退回")
    stream_updates(approver, thread_id, command={"resume": {"decisions": [
        {"type": "approve", "args_hash": value["args_hash"]}]}})
    assert [r["status"] for r in server_store.snapshot()["requests"] if f"req_{r['id']}" == request] == ["returned"]

    model.reset([
        {"content": "重新提交。", "tool_calls": [{"name": "resubmitRequest", "arguments": {"requestId": request, "days": 2}}]},
        "已重新提交。",
    ])
    thread_id = client.threads.create()["thread_id"]
    stream_updates(client, thread_id, input={"messages": [{"role": "user", "content": "改成2天，重新提交"}]})
    [waiting] = client.threads.get_state(thread_id)["interrupts"]
    [value] = waiting["value"]["action_requests"]
    assert (value["name"], value["card"]["changes"], value["card"]["comment"]) == (
        "resubmitRequest", "请假天数：1 天 → 2 天", "李四：写清楚哪天")
    stream_updates(client, thread_id, command={"resume": {"decisions": [{"type": "approve", "args_hash": value["args_hash"]}]}})
    snapshot = server_store.snapshot()
    [row] = [r for r in snapshot["requests"] if f"req_{r['id']}" == request]
    assert (row["status"], row["days"]) == ("pending", 2.0)
    steps = [(t["status"], t["assignee_id"]) for t in snapshot["tasks"] if f"req_{t['request_id']}" == request]
    assert steps == [("returned", "user_2"), ("pending", "user_2")]
