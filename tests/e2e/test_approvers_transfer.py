"""Transfer (转交) and deputies while away (代理审批) through the LangGraph API and the page, on `langgraph dev`: the
approver's run stops at the transfer's card and the step moves once approved; a deputy set over the API takes the
person's new tasks, marked on their behalf in the page's to-do list; the page's buttons and deputy form start the
action in the chat, where its card follows. One server for the module; the model is the scripted OpenAI-compatible
server of this test process."""

from __future__ import annotations

import json
import urllib.request
from datetime import date, timedelta
from typing import Any

import pytest
from langgraph_sdk import get_sync_client
from playwright.sync_api import Browser, Page, expect

from evals.doubles.openai_server import ScriptedOpenAIServer
from tests.support.browser import phone
from tests.support.langgraph_server import LangGraphDevServer, stream_updates
from tools import CallContext, WorkflowStore, execute_call
from tools.workflow import TOOLSET

GRAPH_ID = "flowagent"


@pytest.fixture(scope="module")
def server(page_server: LangGraphDevServer) -> LangGraphDevServer:
    return page_server  # the page's server (tests/e2e/conftest.py)


def _post(server: LangGraphDevServer, path: str, body: Any = None, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    data = json.dumps(body).encode() if body is not None else None
    with urllib.request.urlopen(urllib.request.Request(f"{server.url}{path}", data=data, headers=headers),  # noqa: S310
                                timeout=10) as response:
        return json.loads(response.read())


def _token(server: LangGraphDevServer, user_id: str) -> str:
    return str(_post(server, "/flowagent/auth/dev-token", {"user_id": user_id})["token"])


def _client(server: LangGraphDevServer, user_id: str) -> Any:
    return get_sync_client(url=server.url, api_key=None, headers={"Authorization": f"Bearer {_token(server, user_id)}"})


def _start(store: WorkflowStore, requester: str, approver: str, call_id: str) -> str:
    args = {"processKey": "process_qingjia", "userId": requester, "reason": "看牙医", "days": 1, "nextUserId": approver}
    return str(execute_call(TOOLSET, "runWorkFlow", args, CallContext(backend=store, actor_id=requester,
                                                                        call_id=call_id))["taskId"])


def _approve_card(client: Any, thread_id: str, said: str) -> dict[str, Any]:
    stream_updates(client, thread_id, input={"messages": [{"role": "user", "content": said}]})
    [waiting] = client.threads.get_state(thread_id)["interrupts"]
    [value] = waiting["value"]["action_requests"]
    stream_updates(client, thread_id, command={"resume": {"decisions": [{"type": "approve",
                                                                         "args_hash": value["args_hash"]}]}})
    return dict(value)


def _page(browser: Browser, server: LangGraphDevServer, user_id: str, locale: str = "zh-CN") -> Page:
    page = phone(browser, locale=locale).new_page()
    page.goto(f"{server.url}/flowagent/")
    page.get_by_test_id(f"sign-in-{user_id}").click()
    expect(page.get_by_test_id("composer")).to_be_visible()
    return page


def test_a_transfer_waits_for_its_card_and_moves_the_step_through_the_api(
    server: LangGraphDevServer, model: ScriptedOpenAIServer, server_store: WorkflowStore
) -> None:
    task = _start(server_store, "user_1", "user_2", "transfer-start")
    model.reset([
        {"content": "转交。", "tool_calls": [{"name": "transferTask", "arguments": {
            "taskId": task, "nextUserId": "王五", "comment": "我这周出差"}}]},
        "已转交给王五。",
    ])
    li = _client(server, "user_2")
    value = _approve_card(li, li.threads.create()["thread_id"], "张三的请假转给王五审批吧，附言：我这周出差")
    card = value["card"]
    assert (value["name"], card["title"], card["from"], card["to"], card["comment"]) == (
        "transferTask", "转交待办", "李四", "王五", "我这周出差")
    snapshot = server_store.snapshot()
    [row] = [t for t in snapshot["tasks"] if f"task_{t['id']}" == task]
    assert (row["status"], row["assignee_id"]) == ("pending", "user_3")
    assert any(n["recipient_id"] == "user_3" and task in n["subject"] and "转交" in n["subject"]
               for n in snapshot["notifications"])


def test_a_deputy_set_over_the_api_takes_new_tasks_on_the_persons_behalf_on_the_page(
    server: LangGraphDevServer, model: ScriptedOpenAIServer, server_store: WorkflowStore, browser: Browser
) -> None:
    first, last = date.today() - timedelta(days=1), date.today() + timedelta(days=6)
    model.reset([
        {"content": "设置代理。", "tool_calls": [{"name": "setDeputy", "arguments": {
            "deputyUserId": "王五", "startDate": first.isoformat(), "endDate": last.isoformat()}}]},
        "已设置。",
    ])
    li = _client(server, "user_2")
    said = f"{first.isoformat()} 到 {last.isoformat()} 我休假，让王五代我审批"
    value = _approve_card(li, li.threads.create()["thread_id"], said)
    assert (value["name"], value["card"]["deputy"]) == ("setDeputy", "王五")
    task = _start(server_store, "user_4", "user_2", "deputy-start")  # 赵六's leave to 李四 goes to 王五

    wang = _page(browser, server, "user_3")
    wang.get_by_test_id("tab-tasks").click()
    row = wang.locator(f"[data-testid=task-row][data-task={task}]")
    expect(row.get_by_test_id("on-behalf")).to_have_text("代李四审批")
    row.get_by_test_id("transfer-task").click()  # passing it on starts in the chat, where its card follows
    expect(wang.get_by_test_id("composer")).to_have_value(f"把待办 {task} 转交给")


def test_the_pages_deputy_form_puts_the_request_in_the_chat_and_its_card_follows(
    server: LangGraphDevServer, model: ScriptedOpenAIServer, server_store: WorkflowStore, browser: Browser
) -> None:
    first, last = date.today() + timedelta(days=10), date.today() + timedelta(days=14)
    model.reset([
        {"content": "Deputy.", "tool_calls": [{"name": "setDeputy", "arguments": {
            "deputyUserId": "Zhao Liu", "startDate": first.isoformat(), "endDate": last.isoformat()}}]},
        "Zhao Liu covers for you.",
    ])
    admin = _page(browser, server, "user_admin", locale="en-US")
    admin.get_by_test_id("tab-tasks").click()
    form = admin.get_by_test_id("deputy-form")
    form.get_by_test_id("deputy-name").fill("Zhao Liu")
    form.get_by_test_id("deputy-from").fill(first.isoformat())
    form.get_by_test_id("deputy-to").fill(last.isoformat())
    assert admin.evaluate("document.documentElement.scrollWidth <= window.innerWidth")  # the form fits a phone
    form.get_by_test_id("deputy-set").click()
    said = f"Zhao Liu covers my approvals from {first.isoformat()} to {last.isoformat()}"
    expect(admin.get_by_test_id("composer")).to_have_value(said)
    admin.get_by_test_id("send").click()
    card = admin.get_by_test_id("review-card")
    expect(card.locator("[data-field=deputy] dd")).to_have_text("Zhao Liu")
    assert [r for r in server_store.snapshot()["deputies"] if r["user_id"] == "user_admin"] == []
    card.get_by_test_id("approve").click()
    expect(admin.get_by_test_id("answer")).to_have_text("Zhao Liu covers for you.")
    [row] = [r for r in server_store.snapshot()["deputies"] if r["user_id"] == "user_admin"]
    assert (row["deputy_id"], row["start_date"], row["end_date"]) == ("user_4", first.isoformat(), last.isoformat())
