"""CC and urge on the page at /flowagent/, in headless Chromium on a phone-sized screen: a person a request is copied
to finds it under "copied to me" with who filed it, who holds it, its timeline and its diagram, and has no task to
decide; the requester's pending request has a reminder button that puts the urge into the chat, where its own card
follows."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from evals.doubles.openai_server import ScriptedOpenAIServer
from tests.e2e.test_web import open_page
from tests.support.langgraph_server import LangGraphDevServer
from tools import CallContext, WorkflowStore, execute_call
from tools.workflow import TOOLSET


@pytest.fixture(scope="module")
def server(page_server: LangGraphDevServer) -> LangGraphDevServer:
    return page_server  # the page's server (tests/e2e/conftest.py)


def test_a_copied_request_is_read_on_the_page_and_its_requester_urges_it(
    server: LangGraphDevServer, model: ScriptedOpenAIServer, browser: Browser, server_store: WorkflowStore
) -> None:
    leave = {"processKey": "process_qingjia", "userId": "user_1", "reason": "看牙医", "days": 1, "nextUserId": "user_2",
             "cc": ["user_3"]}
    started = execute_call(TOOLSET, "runWorkFlow", leave,
                           CallContext(backend=server_store, actor_id="user_1", thread_id="web-cc", call_id="c1"))
    request = started["requestId"]

    # 王五 (an English browser) finds it copied to him: who filed it, who holds it, its timeline and its diagram.
    wang = open_page(browser, server, locale="en-US", user_id="user_3")
    wang.get_by_test_id("tab-tasks").click()
    row = wang.locator(f"[data-testid=copied-row][data-request={request}]")
    expect(row).to_have_attribute("data-status", "pending")
    expect(row).to_contain_text("Requester Zhang San")
    expect(row.get_by_test_id("held-by")).to_contain_text("Li Si")
    expect(row.get_by_test_id("timeline")).to_contain_text("Zhang San started the request")
    row.get_by_test_id("diagram-toggle").click()
    expect(row.get_by_test_id("diagram")).to_be_visible()
    expect(wang.get_by_test_id("task-row")).to_have_count(0)  # nothing for him to decide

    # 张三 urges 李四 from his request's row: the urge goes into the chat and waits for its own card.
    model.reset([
        {"content": "催办李四。", "tool_calls": [{"name": "urgeTask", "arguments": {"requestId": request}}]},
        "已催办李四，明天可以再催。",
    ])
    zhang = open_page(browser, server, locale="zh-CN", user_id="user_1")
    zhang.get_by_test_id("tab-tasks").click()
    mine = zhang.locator(f"[data-testid=request-row][data-request={request}]")
    mine.get_by_test_id("urge-request").click()
    expect(zhang.get_by_test_id("composer")).to_have_value(f"催办我的申请 {request}")
    zhang.get_by_test_id("send").click()
    card = zhang.get_by_test_id("review-card")
    expect(card.get_by_test_id("card-title")).to_have_text("需要你的确认 · 催办", timeout=30_000)  # a busy machine
    expect(card.locator("[data-field=recipient] dd")).to_have_text("李四")
    expect(card.locator("[data-field=text] dd")).to_contain_text(f"张三催办：张三提交的请假申请 {request}")
    assert server_store.snapshot()["urges"] == []  # nothing before 张三 approves
    card.get_by_test_id("approve").click()
    expect(zhang.get_by_test_id("answer").last).to_have_text("已催办李四，明天可以再催。", timeout=30_000)
    [urged] = server_store.snapshot()["urges"]
    assert (urged["instance_id"], urged["requester_id"]) == (request, "user_1")
