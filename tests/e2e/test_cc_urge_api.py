"""CC and urge over the LangGraph API (`langgraph dev` and `flowagent serve`), each person signed in with a token of
their own and the scripted model behind the real langchain-openai path: a start card shows who is copied and the
copied person is told; they read the request copied to them and their attempt to decide it is refused before any card;
the requester's urge waits for its own card and a second the same day is refused."""

from __future__ import annotations

import json
from typing import Any

from evals.doubles.openai_server import ScriptedOpenAIServer
from tests.support.langgraph_server import stream_updates
from tools import WorkflowStore


def _ask(client: Any, text: str) -> str:
    thread_id = client.threads.create()["thread_id"]
    stream_updates(client, thread_id, input={"messages": [{"role": "user", "content": text}]})
    return str(thread_id)


def _waiting(client: Any, thread_id: str) -> dict[str, Any]:
    [waiting] = client.threads.get_state(thread_id)["interrupts"]
    [value] = waiting["value"]["action_requests"]
    return dict(value)


def _approve(client: Any, thread_id: str, value: dict[str, Any]) -> None:
    stream_updates(client, thread_id, command={"resume": {"decisions": [{"type": "approve",
                                                                         "args_hash": value["args_hash"]}]}})


def _tool_results(client: Any, thread_id: str, name: str) -> list[tuple[str, str]]:
    messages = client.threads.get_state(thread_id)["values"]["messages"]
    return [(m.get("status") or "success", str(m["content"])) for m in messages if m["type"] == "tool" and m["name"] == name]


def test_a_copied_person_is_told_reads_the_request_and_cannot_decide_it(
    signed_in: Any, model: ScriptedOpenAIServer, server_store: WorkflowStore
) -> None:
    zhang, wang = signed_in("user_1"), signed_in("user_3")
    leave = {"processKey": "process_qingjia", "days": 1, "reason": "看病", "nextUserId": "李四", "cc": ["王五"]}
    model.reset([{"content": "发起请假。", "tool_calls": [{"name": "runWorkFlow", "arguments": leave}]}, "已提交。"])
    thread_id = _ask(zhang, "请一天假看病，李四审批，抄送王五")
    value = _waiting(zhang, thread_id)
    assert (value["args"]["cc"], value["card"]["cc"], value["card"]["labels"]["cc"]) == (["user_3"], "王五", "抄送")
    _approve(zhang, thread_id, value)
    snapshot = server_store.snapshot()
    [copied] = [c for c in snapshot["request_cc"] if c["user_id"] == "user_3"]
    request = copied["instance_id"]
    assert any(n["recipient_id"] == "user_3" and n["subject"] == f"[flowagent] 抄送 / Copied to you: {request}"
               for n in snapshot["notifications"])
    task = next(f"task_{t['id']}" for t in snapshot["tasks"] if f"req_{t['request_id']}" == request)

    model.reset([
        {"content": "查抄送给我的申请。", "tool_calls": [{"name": "queryCcRequests", "arguments": {}}]}, "有张三的请假。",
        {"content": "批准。", "tool_calls": [{"name": "handleTodoTask",
                                              "arguments": {"taskId": task, "isOK": True, "result": "同意"}}]},
        "这个待办不归你审批。",
    ])
    thread_id = _ask(wang, "有哪些申请抄送给我了？")
    [(status, content)] = _tool_results(wang, thread_id, "queryCcRequests")
    listed = {r["requestId"]: r for r in json.loads(content)["requests"]}
    assert status == "success" and (listed[request]["requester"], listed[request]["heldBy"]) == ("张三", "李四")
    stream_updates(wang, thread_id, input={"messages": [{"role": "user", "content": "帮我批准张三的请假，意见同意"}]})
    assert wang.threads.get_state(thread_id)["interrupts"] == []  # refused before any card
    [(status, content)] = _tool_results(wang, thread_id, "handleTodoTask")
    assert status == "error" and "[not_assignee]" in content
    assert [t["status"] for t in server_store.snapshot()["tasks"] if f"task_{t['id']}" == task] == ["pending"]


def test_an_urge_waits_for_its_card_and_a_second_the_same_day_is_refused(
    signed_in: Any, model: ScriptedOpenAIServer, server_store: WorkflowStore
) -> None:
    zhang = signed_in("user_1")
    leave = {"processKey": "process_qingjia", "days": 2, "reason": "搬家", "nextUserId": "李四"}
    model.reset([{"content": "发起请假。", "tool_calls": [{"name": "runWorkFlow", "arguments": leave}]}, "已提交。"])
    thread_id = _ask(zhang, "请两天假搬家，李四审批")
    _approve(zhang, thread_id, _waiting(zhang, thread_id))
    request = f"req_{max(r['id'] for r in server_store.snapshot()['requests'])}"
    before = len(server_store.snapshot()["urges"])

    model.reset([{"content": "催办。", "tool_calls": [{"name": "urgeTask", "arguments": {"requestId": request}}]},
                 "已催办李四。"])
    thread_id = _ask(zhang, "我的请假还没批，帮我催一下李四")
    value = _waiting(zhang, thread_id)
    card = value["card"]
    assert (value["name"], card["title"], card["recipient"]) == ("urgeTask", "催办", "李四")
    assert card["text"].startswith(f"张三催办：张三提交的请假申请 {request}（2 天）")
    assert len(server_store.snapshot()["urges"]) == before  # nothing before the person approves
    _approve(zhang, thread_id, value)
    snapshot = server_store.snapshot()
    assert len(snapshot["urges"]) == before + 1
    assert any(n["recipient_id"] == "user_2" and "催办" in n["subject"] and request in n["body"]
               for n in snapshot["notifications"])

    model.reset([{"content": "再催。", "tool_calls": [{"name": "urgeTask", "arguments": {"requestId": request}}]},
                 "今天已经催过了，明天可以再催。"])
    thread_id = _ask(zhang, "再催他一次")
    assert zhang.threads.get_state(thread_id)["interrupts"] == []
    [(status, content)] = _tool_results(zhang, thread_id, "urgeTask")
    assert status == "error" and "[urge_too_soon]" in content and "next is possible on" in content
    assert len(server_store.snapshot()["urges"]) == before + 1
