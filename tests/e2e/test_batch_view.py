"""Batch decisions and what an approver sees, through the LangGraph API and the page, on `langgraph dev`: a batch
run stops at one card listing each task; a task decided elsewhere before the person approves is reported and the
others are decided; `viewTask` answers without a card; on the page the to-do row opens its request's diagram, its
timeline and the requester's earlier requests. One server for the module; the model is the scripted
OpenAI-compatible server of this test process."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest
from langgraph_sdk import get_sync_client
from playwright.sync_api import Browser, expect

from evals.doubles.openai_server import ScriptedOpenAIServer
from tests.support.browser import phone
from tests.support.langgraph_server import LangGraphDevServer, stream_updates
from tools import CallContext, WorkflowStore, execute_call
from tools.workflow import TOOLSET


@pytest.fixture(scope="module")
def server(page_server: LangGraphDevServer) -> LangGraphDevServer:
    return page_server  # the page's server (tests/e2e/conftest.py)


def _client(server: LangGraphDevServer, user_id: str) -> Any:
    request = urllib.request.Request(f"{server.url}/flowagent/auth/dev-token", data=json.dumps({"user_id": user_id})
                                     .encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310
        token = json.loads(response.read())["token"]
    return get_sync_client(url=server.url, api_key=None, headers={"Authorization": f"Bearer {token}"})


def _start(store: WorkflowStore, requester: str, approver: str, days: float, call_id: str, reason: str = "看牙医") -> str:
    args = {"processKey": "process_qingjia", "userId": requester, "reason": reason, "days": days, "nextUserId": approver}
    return str(execute_call(TOOLSET, "runWorkFlow", args, CallContext(backend=store, actor_id=requester,
                                                                        call_id=call_id))["taskId"])


def _status(store: WorkflowStore, task: str) -> str:
    return next(t["status"] for t in store.snapshot()["tasks"] if f"task_{t['id']}" == task)


def test_a_batch_stops_at_one_card_and_a_task_decided_meanwhile_is_reported_through_the_api(
    server: LangGraphDevServer, model: ScriptedOpenAIServer, server_store: WorkflowStore
) -> None:
    one = _start(server_store, "user_1", "user_4", 1, "batch-1")
    two = _start(server_store, "user_3", "user_4", 0.5, "batch-2")
    long = _start(server_store, "user_2", "user_4", 4, "batch-3")
    model.reset([
        {"content": "批量。", "tool_calls": [{"name": "decideTasks", "arguments": {
            "isOK": True, "processKey": "process_qingjia", "maxDays": 1}}]},
        "已批准张三的请假；王五的请假已经处理过了。",
    ])
    zhao = _client(server, "user_4")
    thread = zhao.threads.create()["thread_id"]
    stream_updates(zhao, thread, input={"messages": [{"role": "user", "content": "批准所有一天以内的请假"}]})
    [waiting] = zhao.threads.get_state(thread)["interrupts"]
    [value] = waiting["value"]["action_requests"]
    card = value["card"]
    assert (value["name"], card["title"], card["count"]) == ("decideTasks", "批量审批", 2)
    assert [i["taskId"] for i in card["items"]] == [one, two] and list(card["labels"]) == ["filter", "tasks", "next"]
    assert [d["taskId"] for d in value["args"]["decisions"]] == [one, two]  # the card's tasks are the call's
    # meanwhile 赵六 rejects 王五's half day elsewhere (the page)
    execute_call(TOOLSET, "handleTodoTask", {"taskId": two, "isOK": False, "result": "那天要盘点"},
                 CallContext(backend=server_store, actor_id="user_4", call_id="batch-elsewhere"))
    stream_updates(zhao, thread, command={"resume": {"decisions": [{"type": "approve", "args_hash": value["args_hash"]}]}})
    assert (_status(server_store, one), _status(server_store, two), _status(server_store, long)) == (
        "approved", "rejected", "pending")
    state = zhao.threads.get_state(thread)["values"]
    [line] = state["outcome"]
    assert line["tool"] == "decideTasks" and f"王五的请假申请（{two}，0.5 天） 已经处理过了" in line["detail"]


def test_view_task_answers_without_a_card_through_the_api(
    server: LangGraphDevServer, model: ScriptedOpenAIServer, server_store: WorkflowStore
) -> None:
    earlier = _start(server_store, "user_4", "user_admin", 1, "view-1", reason="看病")  # 赵六's only other leave
    execute_call(TOOLSET, "handleTodoTask", {"taskId": earlier, "isOK": True, "result": "好"},
                 CallContext(backend=server_store, actor_id="user_admin", call_id="view-decide"))
    task = _start(server_store, "user_4", "user_admin", 2, "view-2", reason="回老家")
    model.reset([{"content": "看看。", "tool_calls": [{"name": "viewTask", "arguments": {"taskId": task}}]},
                 "赵六今年之前还请过一次假。"])
    admin = _client(server, "user_admin")
    thread = admin.threads.create()["thread_id"]
    stream_updates(admin, thread, input={"messages": [{"role": "user", "content": f"看看 {task} 的流程图和经过"}]})
    state = admin.threads.get_state(thread)
    assert state["interrupts"] == [] and state["values"]["outcome"] == []  # a read: no card, nothing changed
    [observation] = [m for m in state["values"]["messages"] if m["type"] == "tool"]
    assert observation["status"] == "success"
    seen = json.loads(observation["content"])
    assert (seen["taskId"], seen["earlierTotal"], seen["earlier"][0]["status"]) == (task, 1, "已批准")


def test_the_pages_to_do_row_opens_the_diagram_timeline_and_earlier_requests(
    server: LangGraphDevServer, server_store: WorkflowStore, browser: Browser
) -> None:
    first = _start(server_store, "user_admin", "user_2", 1, "page-1", reason="搬家")  # 管理员's only other leave
    execute_call(TOOLSET, "handleTodoTask", {"taskId": first, "isOK": False, "result": "那天人手不够"},
                 CallContext(backend=server_store, actor_id="user_2", call_id="page-decide"))
    task = _start(server_store, "user_admin", "user_2", 1, "page-2", reason="体检")
    page = phone(browser, locale="zh-CN").new_page()
    page.goto(f"{server.url}/flowagent/")
    page.get_by_test_id("sign-in-user_2").click()
    page.get_by_test_id("tab-tasks").click()
    row = page.locator(f"[data-testid=task-row][data-task={task}]")
    row.get_by_test_id("task-view-toggle").click()
    view = row.get_by_test_id("task-view")
    expect(view.get_by_test_id("timeline")).to_contain_text("管理员 发起申请")
    expect(view.get_by_test_id("earlier")).to_contain_text("已驳回")
    expect(view).to_contain_text("申请人今年之前的同类申请（1 个）")
    expect(view.locator("svg").first).to_be_visible()  # the request's diagram, drawn
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")  # it fits a phone


def test_the_page_shows_the_batch_card_task_by_task_and_the_person_changes_one(
    server: LangGraphDevServer, model: ScriptedOpenAIServer, server_store: WorkflowStore, browser: Browser
) -> None:
    one = _start(server_store, "user_1", "user_3", 1, "page-batch-1", reason="dentist")
    two = _start(server_store, "user_4", "user_3", 1, "page-batch-2", reason="moving house")
    long = _start(server_store, "user_2", "user_3", 3, "page-batch-3", reason="family")
    model.reset([
        {"content": "Batch.", "tool_calls": [{"name": "decideTasks", "arguments": {"isOK": True, "maxDays": 1}}]},
        "Zhang San's leave is approved and Zhao Liu's rejected.",
    ])
    page = phone(browser, locale="en-US").new_page()
    page.goto(f"{server.url}/flowagent/")
    page.get_by_test_id("sign-in-user_3").click()
    page.get_by_test_id("composer").fill("Approve all the one-day leaves")
    page.get_by_test_id("send").click()
    card = page.get_by_test_id("review-card")
    expect(card.get_by_test_id("card-title")).to_have_text("Needs your confirmation · decide several tasks")
    lines = card.locator("[data-field=tasks] dd")
    expect(lines).to_contain_text(f"Zhang San's leave request ({one}, 1 day): approve")
    expect(lines).to_contain_text(f"Zhao Liu's leave request ({two}, 1 day): approve")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    card.get_by_test_id("edit").click()  # task by task: Zhao Liu's is rejected, with its own comment
    item = card.locator(f"[data-testid=batch-item][data-task={two}]")
    expect(item).to_contain_text(f"Zhao Liu's leave request ({two}, 1 day)")
    item.get_by_test_id("batch-decision").select_option("reject")
    item.get_by_test_id("batch-comment").fill("stocktaking that day")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    card.get_by_test_id("batch-send").click()
    expect(page.get_by_test_id("answer")).to_have_text("Zhang San's leave is approved and Zhao Liu's rejected.")
    assert (_status(server_store, one), _status(server_store, two), _status(server_store, long)) == (
        "approved", "rejected", "pending")
    [row] = [t for t in server_store.snapshot()["tasks"] if f"task_{t['id']}" == two]
    assert row["comment"] == "stocktaking that day"
