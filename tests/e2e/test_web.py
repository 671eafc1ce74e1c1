"""The web page at /flowagent/ on `langgraph dev`, driven in headless Chromium on a phone-sized screen.

One LangGraph server per module, started from the project's `langgraph.json` (graphs and the page's routes);
the model is the scripted OpenAI-compatible server of this test process. Screenshots go to a temporary
folder, or to `FLOWAGENT_WEB_SCREENSHOTS` (e.g. `docs/web`) when it is set.
"""

from __future__ import annotations

import json
import os
import re
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from langgraph_sdk import get_sync_client
from playwright.sync_api import Browser, Page, expect

from evals.doubles import openai_http
from evals.doubles.openai_server import ScriptedOpenAIServer
from tests.support.browser import phone
from tests.support.langgraph_server import LangGraphDevServer
from tools import CallContext, WorkflowStore, execute_call
from tools.workflow import TOOLSET
from tools.workflow.timeline import when

GRAPH_ID = "flowagent"


@pytest.fixture(scope="module")
def server(page_server: LangGraphDevServer) -> LangGraphDevServer:
    return page_server  # the page's server (tests/e2e/conftest.py)


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    configured = os.environ.get("FLOWAGENT_WEB_SCREENSHOTS")
    folder = Path(configured) if configured else tmp_path_factory.mktemp("screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def api(server: LangGraphDevServer, path: str, *, token: str | None = None, body: Any = None) -> tuple[int, Any]:
    """(status, JSON body) of one call to the server."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(f"{server.url}{path}", data=data, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310 - loopback
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def token_of(server: LangGraphDevServer, user_id: str) -> str:
    status, body = api(server, "/flowagent/auth/dev-token", body={"user_id": user_id})
    assert status == 200, body
    return str(body["token"])


def sdk_client(server: LangGraphDevServer, user_id: str) -> Any:
    """The LangGraph SDK client of a signed-in user."""
    return get_sync_client(url=server.url, api_key=None, headers={"Authorization": f"Bearer {token_of(server, user_id)}"})


def open_page(browser: Browser, server: LangGraphDevServer, *, locale: str, user_id: str) -> Page:
    """A phone-sized page signed in as `user_id` through the development picker."""
    page = phone(browser, locale=locale).new_page()
    page.goto(f"{server.url}/flowagent/")
    page.get_by_test_id(f"sign-in-{user_id}").click()
    expect(page.get_by_test_id("composer")).to_be_visible()
    return page


def ask(page: Page, text: str) -> None:
    page.get_by_test_id("composer").fill(text)
    page.get_by_test_id("send").click()


def fits_the_screen(page: Page) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def test_a_leave_request_goes_from_zhangsan_to_lisi_and_back_on_the_page(
    server: LangGraphDevServer, model: ScriptedOpenAIServer, browser: Browser, server_store: WorkflowStore, shots: Path
) -> None:
    # 1. 张三 (a Chinese browser) asks for two days off with 李四 as the approver.
    args = {"processKey": "process_qingjia", "userId": "user_1", "reason": "家里有事", "days": 2, "nextUserId": "user_2"}
    model.reset(
        [
            {"content": "张三要请假 2 天，审批人李四。", "tool_calls": [{"name": "runWorkFlow", "arguments": args}]},
            "已提交 2 天的请假申请，等待李四审批。",
        ]
    )
    zhang = open_page(browser, server, locale="zh-CN", user_id="user_1")
    expect(zhang.get_by_test_id("signed-in-as")).to_have_text("当前用户：张三")
    expect(zhang.get_by_test_id("tab-tasks")).to_have_text("待办")
    ask(zhang, "我要请假 2 天，家里有事，审批人李四")

    start = zhang.get_by_test_id("review-card")  # nothing is filed before 张三 confirms what will be
    expect(start.get_by_test_id("card-title")).to_have_text("需要你的确认 · 发起申请")
    expect(start.locator("[data-field=approver] dd")).to_have_text("李四 (user_2)")
    assert server_store.snapshot()["requests"] == []
    assert fits_the_screen(zhang)
    zhang.screenshot(path=str(shots / "card.png"), full_page=True)
    start.get_by_test_id("approve").click()

    expect(zhang.get_by_test_id("answer")).to_have_text("已提交 2 天的请假申请，等待李四审批。")
    expect(zhang.get_by_test_id("outcome")).to_contain_text("实际发生：发起申请：已执行。已发起请假申请")
    steps = zhang.get_by_test_id("steps")
    expect(steps).not_to_have_attribute("open", "")
    steps.locator("summary").click()
    expect(steps).to_contain_text("操作: 发起申请")
    expect(steps).to_contain_text("结果: 完成")
    assert fits_the_screen(zhang)
    zhang.screenshot(path=str(shots / "chat.png"))

    [request] = server_store.snapshot()["requests"]
    assert (request["requester_id"], request["days"], request["reason"], request["status"]) == (
        "user_1", 2.0, "家里有事", "pending"
    )
    [task] = server_store.snapshot()["tasks"]
    assert (task["assignee_id"], task["status"]) == ("user_2", "pending")
    task_id = f"task_{task['id']}"
    thread_id = zhang.evaluate("location.hash").removeprefix("#thread=")
    zhang_client = sdk_client(server, "user_1")
    assert zhang_client.threads.get(thread_id)["metadata"]["owner"] == "user_1"

    # 2. 李四 (an English browser) sees the task, asks about it in the chat, and approves it on the card.
    li = open_page(browser, server, locale="en-US", user_id="user_2")
    li.get_by_test_id("tab-tasks").click()
    row = li.locator(f"[data-testid=task-row][data-task={task_id}]")
    expect(row).to_have_attribute("data-status", "pending")
    expect(row).to_contain_text("Requester Zhang San")  # the requester as an English reader names him
    expect(row).to_contain_text("2 days")
    expect(row).to_contain_text("Reason: 家里有事")
    [moves_on] = [r for r in server_store.snapshot()["process_timers"]
                  if f"task_{r['task_id']}" == task_id and r["action"] == "escalate"]
    expect(row.get_by_test_id("task-due")).to_have_text(f"Due: {when(moves_on['due_at'], 'en')}")  # when it moves on
    li.screenshot(path=str(shots / "todo.png"))

    model.reset(
        [
            {
                "content": f"Approve {task_id} with the comment 同意.",
                "tool_calls": [{"name": "handleTodoTask", "arguments": {"taskId": task_id, "result": "同意", "isOK": True}}],
            },
            f"Approved {task_id}.",
        ]
    )
    row.get_by_role("button", name="Handle in the chat").click()
    expect(li.get_by_test_id("composer")).to_have_value(f"Help me handle my task {task_id}")
    ask(li, f"Approve {task_id}, comment: 同意")

    card = li.get_by_test_id("review-card")
    expect(card.get_by_test_id("card-title")).to_have_text("Needs your confirmation · decide a task")
    # The card is in the reviewer's language (李四 writes English): names as English speakers write them.
    expect(card.locator("[data-field=requester] dd")).to_have_text("Zhang San (user_1)")
    expect(card.locator("[data-field=assignee] dd")).to_have_text("Li Si (user_2)")
    expect(card.locator("[data-field=step] dd")).to_have_text("Approver's decision")
    expect(card.locator("[data-field=on_approve] dd")).to_have_text("approving ends the request (approved)")
    expect(card.locator("[data-field=form] dd")).to_contain_text("家里有事")
    expect(card.locator("[data-field=task_status]")).to_have_count(0)  # a field for machines: never shown
    expect(li.get_by_test_id("composer")).to_have_count(0)
    assert [t["status"] for t in server_store.snapshot()["tasks"]] == ["pending"]
    assert fits_the_screen(li)

    li.get_by_test_id("approve").click()
    expect(li.get_by_test_id("answer")).to_have_text(f"Approved {task_id}.")
    expect(li.get_by_test_id("outcome")).to_contain_text("What actually happened: Decide a task: done. Approved")
    expect(card).to_have_count(0)
    [decided] = server_store.snapshot()["tasks"]
    assert (decided["status"], decided["decided_by"], decided["comment"]) == ("approved", "user_2", "同意")
    li.get_by_test_id("tab-tasks").click()
    expect(li.locator(f"[data-testid=task-row][data-task={task_id}]")).to_have_attribute("data-status", "approved")

    # 3. 张三 sees his request decided, and finds his thread again in his list.
    zhang.get_by_test_id("tab-tasks").click()
    mine = zhang.locator(f"[data-testid=request-row][data-request=req_{request['id']}]")
    expect(mine).to_have_attribute("data-status", "approved")
    expect(mine).to_contain_text("已批准")
    expect(mine).to_contain_text("意见: 同意")
    expect(mine.get_by_test_id("timeline")).to_contain_text("张三 发起申请")  # what happened, as the approver's card says
    expect(mine.get_by_test_id("timeline")).to_contain_text("审批人审批：李四 批准（同意）")
    expect(mine.get_by_test_id("held-by")).to_have_count(0)  # decided: nobody holds it
    zhang.screenshot(path=str(shots / "requests.png"))
    zhang.get_by_test_id("tab-threads").click()
    expect(zhang.get_by_test_id("thread-row")).to_have_count(1)
    zhang.get_by_test_id("new-thread").click()
    expect(zhang.get_by_test_id("question")).to_have_count(0)
    zhang.get_by_test_id("tab-threads").click()
    zhang.get_by_test_id("thread-row").click()
    expect(zhang.get_by_test_id("question")).to_have_text("我要请假 2 天，家里有事，审批人李四")

    # 4. 张三 files another request, sees who holds it and since when, and withdraws it on a card: 李四's list loses it.
    second = execute_call(TOOLSET, "runWorkFlow", {**args, "days": 1, "reason": "看牙医"},
                          CallContext(backend=server_store, actor_id="user_1", thread_id="web-second", call_id="c1"))
    zhang.get_by_test_id("tab-tasks").click()
    pending = zhang.locator(f"[data-testid=request-row][data-request={second['requestId']}]")
    expect(pending.get_by_test_id("held-by")).to_contain_text("处理人：李四（自 ")
    expect(pending.get_by_test_id("timeline")).to_contain_text("张三 发起申请")
    model.reset([
        {"content": "撤回张三的请假。",
         "tool_calls": [{"name": "withdrawRequest", "arguments": {"requestId": second["requestId"]}}]},
        "已撤回你的请假申请，李四已收到通知。",
    ])
    pending.get_by_test_id("withdraw-request").click()  # the row's button puts the request in the composer
    expect(zhang.get_by_test_id("composer")).to_have_value(f"撤回我的申请 {second['requestId']}")
    zhang.get_by_test_id("send").click()
    withdraw = zhang.get_by_test_id("review-card")
    expect(withdraw.get_by_test_id("card-title")).to_have_text("需要你的确认 · 撤回申请")
    expect(withdraw.locator("[data-field=held_by] dd")).to_have_text("李四")
    expect(withdraw.locator("[data-field=next] dd")).to_contain_text("李四的待办随之取消")
    assert [r["status"] for r in server_store.snapshot()["requests"]] == ["approved", "pending"]  # not before approve
    withdraw.get_by_test_id("approve").click()
    expect(zhang.get_by_test_id("answer").last).to_have_text("已撤回你的请假申请，李四已收到通知。")
    assert [r["status"] for r in server_store.snapshot()["requests"]] == ["approved", "withdrawn"]
    zhang.get_by_test_id("tab-tasks").click()
    expect(pending).to_have_attribute("data-status", "withdrawn")
    expect(pending.get_by_test_id("timeline")).to_contain_text("张三 撤回了申请")
    li.get_by_test_id("tab-chat").click()
    li.get_by_test_id("tab-tasks").click()
    expect(li.locator(f"[data-testid=task-row][data-task={second['taskId']}]")).to_have_count(0)

    # 5. 李四 sends a third request back: 张三's row says so with the comment, and offers to change and send it again.
    third = execute_call(TOOLSET, "runWorkFlow", {**args, "days": 1, "reason": "搬家"},
                         CallContext(backend=server_store, actor_id="user_1", thread_id="web-third", call_id="c1"))
    execute_call(TOOLSET, "returnTask", {"taskId": third["taskId"], "comment": "写清楚哪天搬"},
                 CallContext(backend=server_store, actor_id="user_2", thread_id="web-third", call_id="c2"))
    zhang.get_by_test_id("tab-chat").click()
    zhang.get_by_test_id("tab-tasks").click()
    back = zhang.locator(f"[data-testid=request-row][data-request={third['requestId']}]")
    expect(back).to_have_attribute("data-status", "returned")
    expect(back).to_contain_text("已退回")
    expect(back.get_by_test_id("timeline")).to_contain_text("审批人审批：李四 退回（写清楚哪天搬）")
    back.get_by_test_id("resubmit-request").click()
    expect(zhang.get_by_test_id("composer")).to_have_value(f"修改我的申请 {third['requestId']} 后重新提交：")

    # The language follows the browser until the person switches it.
    zhang.get_by_test_id("language").click()
    expect(zhang.get_by_test_id("tab-tasks")).to_have_text("To-do")


def test_zhangsan_cannot_open_lisis_thread_on_the_page(
    server: LangGraphDevServer, model: ScriptedOpenAIServer, browser: Browser
) -> None:
    li_client = sdk_client(server, "user_2")
    model.reset(["你好，李四。"])
    thread_id = li_client.threads.create(metadata={"owner": "user_2"})["thread_id"]
    li_client.runs.wait(
        thread_id, GRAPH_ID, input={"messages": [{"role": "user", "content": "李四的私事"}]}, context={"user_id": "user_2"}
    )

    # The server itself hides 李四's thread from 张三's token (LangGraph auth): it looks absent.
    zhang_client = sdk_client(server, "user_1")
    with pytest.raises(httpx.HTTPStatusError) as refused:
        zhang_client.threads.get(thread_id)
    assert refused.value.response.status_code == 404

    zhang = open_page(browser, server, locale="zh-CN", user_id="user_1")
    zhang.goto(f"{server.url}/flowagent/#thread={thread_id}")
    expect(zhang.get_by_test_id("not-yours")).to_have_text("这个会话不存在，或不属于你。")
    expect(zhang.get_by_text("李四的私事")).to_have_count(0)
    zhang.get_by_test_id("tab-threads").click()
    expect(zhang.get_by_test_id("threads-panel")).to_have_attribute("data-loaded", "yes")
    expect(zhang.get_by_test_id("thread-row").filter(has_text="李四的私事")).to_have_count(0)


def test_the_page_routes_answer_only_for_the_signed_in_user(server: LangGraphDevServer) -> None:
    status, body = api(server, "/flowagent/auth/dev-users")
    assert status == 200 and {"id": "user_2", "name": "李四"} in body["users"]
    assert api(server, "/flowagent/auth/dev-token", body={"user_id": "nobody"})[0] == 404
    for path in ("/flowagent/api/me", "/flowagent/api/tasks", "/flowagent/api/outbox"):
        assert api(server, path)[0] == 401
        assert api(server, path, token="user_2.forged")[0] == 401

    zhang = token_of(server, "user_1")
    assert api(server, "/flowagent/api/me", token=zhang) == (
        200, {"id": "user_1", "name": "张三", "email": "zhangsan@example.com"}
    )
    status, tasks = api(server, "/flowagent/api/tasks", token=zhang)
    assert status == 200 and tasks["todo"] == []
    assert all(r["id"].startswith("req_") for r in tasks["requests"])

    with urllib.request.urlopen(f"{server.url}/flowagent/", timeout=10) as page:  # noqa: S310 - loopback
        assert page.status == 200 and b'<div id="root">' in page.read()


def test_a_rejected_reminder_says_why_and_sends_nothing(
    server: LangGraphDevServer, model: ScriptedOpenAIServer, browser: Browser, server_store: WorkflowStore
) -> None:
    text = "李四你好，请尽快审批我的请假申请，谢谢！"
    model.reset(
        [
            {
                "content": "发提醒邮件。",
                "tool_calls": [{"name": "sendEmail", "arguments": {"userId": "user_2", "emailContent": text}}],
            },
            "好的，邮件没有发送。",
        ]
    )
    def zhangs() -> int:  # the e-mails 张三's panel shows: those he sent or was sent (notifications too)
        return len([r for r in server_store.snapshot()["outbox"] if "user_1" in (r["sender_id"], r["recipient_id"])])

    sent_before, all_before = zhangs(), len(server_store.snapshot()["outbox"])
    zhang = open_page(browser, server, locale="zh-CN", user_id="user_1")
    ask(zhang, f"发邮件提醒李四：{text}")

    card = zhang.get_by_test_id("review-card")
    expect(card.locator("[data-field=recipient_email] dd")).to_have_text("lisi@example.com")
    expect(card.locator("[data-field=text] dd")).to_have_text(text)
    card.get_by_test_id("reject").click()
    card.get_by_test_id("reject-message").fill("先别发")
    card.get_by_role("button", name="确认拒绝").click()

    expect(zhang.get_by_test_id("answer")).to_have_text("好的，邮件没有发送。")
    expect(zhang.get_by_test_id("outcome")).to_have_text("实际发生：你在确认时拒绝了：发送邮件（你说：先别发）")
    assert len(server_store.snapshot()["outbox"]) == all_before
    zhang.get_by_test_id("tab-outbox").click()
    expect(zhang.get_by_test_id("email-row")).to_have_count(sent_before)


ENGLISH_SENTENCE = re.compile(r"[A-Za-z]{2,}(?:[ ,'’-]+[A-Za-z]{2,}){3,}")
"""Four English words in a row (tool names, ids and JSON keys are single words)."""
HAN = re.compile(r"[\u3400-\u9fff]")


def conversation_text(page: Page) -> str:
    """Everything the conversation shows, the folded steps (thoughts, actions, observations) opened."""
    for steps in page.get_by_test_id("steps").all():
        if steps.get_attribute("open") is None:
            steps.locator("summary").click()
    return page.get_by_test_id("messages").inner_text()


def test_the_page_speaks_the_persons_language_throughout_the_conversation(
    server: LangGraphDevServer, model: ScriptedOpenAIServer, browser: Browser, server_store: WorkflowStore
) -> None:
    # 王五, on a Chinese page: the model picks an approver nobody named, the graph asks, his answer is filled in.
    leave = {"processKey": "process_qingjia", "userId": "user_3", "reason": "回老家", "days": 1, "nextUserId": "user_4"}
    model.reset([{"content": "王五要请一天假。", "tool_calls": [{"name": "runWorkFlow", "arguments": leave}]}, "已提交。"])
    wang = open_page(browser, server, locale="zh-CN", user_id="user_3")
    ask(wang, "明天请一天假回老家")
    expect(wang.get_by_test_id("answer")).to_have_text("请问谁来审批？可选：张三、李四、赵六、管理员。")
    ask(wang, "李四吧")
    wang.get_by_test_id("approve").click()  # the start card
    expect(wang.get_by_test_id("answer").last).to_have_text("已提交。")
    shown = conversation_text(wang)
    assert "发起申请：未执行（需要先问你）" in shown and ENGLISH_SENTENCE.findall(shown) == []

    # 赵六, on an English page, writes in English: names and the graph's words are English.
    leave = {"processKey": "process_qingjia", "userId": "user_4", "reason": "moving house", "days": 1, "nextUserId": "user_1"}
    model.reset([{"content": "Filing it.", "tool_calls": [{"name": "runWorkFlow", "arguments": leave}]}, "Filed."])
    zhao = open_page(browser, server, locale="en-US", user_id="user_4")
    ask(zhao, "I need a day off tomorrow for moving house")
    question = "Who should approve it? You can choose: Zhang San, Li Si, Wang Wu, Administrator."
    expect(zhao.get_by_test_id("answer")).to_have_text(question)
    ask(zhao, "Zhang San")
    zhao.get_by_test_id("approve").click()  # the start card
    expect(zhao.get_by_test_id("answer").last).to_have_text("Filed.")
    expect(zhao.get_by_test_id("outcome").last).to_contain_text("Zhang San approves it")
    assert HAN.findall(conversation_text(zhao)) == []


# ------------------------------------------------------------------------------------------------------
# Nothing written for the model or the code reaches the person (issue 32)
# ------------------------------------------------------------------------------------------------------

TOOL_NAMES = tuple(TOOLSET.registry.names)
MODEL_TEXT = ("Thought:", "Action:", "Action Input", "Final Answer", "Observation:", '"thought"', "Rejected by the reviewer",
              "Do not retry", "[person_stated]", "I will take care of it soon", "policy")
"""The model's protocol lines, the notes written for it, and the model's own words a check replaced."""
SLOW_PIECE_S = 0.5
STREAMED = 30_000
"""How long the page may take to show what a slowly streamed reply leads to (ms)."""


def raw_words(text: str, lang: str) -> list[str]:
    """Tool names, raw values (`pending`, `approve`, `idle`, `True`) and refusal codes in `text`. In English, "approve"
    is a word of the language (the card's verdict says it), so there only the others count."""
    words = [*TOOL_NAMES, "pending", "idle", "True", *(["approve"] if lang == "zh" else [])]
    found = [w for w in words if re.search(rf"(?<![A-Za-z]){re.escape(w)}(?![A-Za-z])", text)]
    return found + re.findall(r"\[[a-z_]+\]", text) + [t for t in MODEL_TEXT if t in text]


@pytest.fixture
def slow_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """The scripted model writes each piece of a reply after a pause, as a local model does: the page streams it."""
    stream_chunks = openai_http.stream_chunks

    def slowly(*args: Any, **kwargs: Any) -> Iterator[dict[str, Any]]:
        for chunk in stream_chunks(*args, **kwargs):
            if any((choice.get("delta") or {}).get("content") for choice in chunk.get("choices", [])):
                time.sleep(SLOW_PIECE_S)
            yield chunk

    monkeypatch.setattr(openai_http, "stream_chunks", slowly)


def on_the_react_protocol(page: Page) -> None:
    """The page's runs use the react text protocol, as on the offline model: the run's context says so."""

    def react(route: Any) -> None:
        body = json.loads(route.request.post_data or "{}")
        body["context"] = {**(body.get("context") or {}), "protocol": "react"}
        route.continue_(post_data=json.dumps(body))

    page.route(re.compile(r"/threads/[^/]+/runs/stream$"), react)


WATCH = """() => {
  window.seen = [];
  window.answers = [];
  new MutationObserver(() => {
    const box = document.querySelector("[data-testid=messages]");
    if (box) window.seen.push(box.innerText);
    for (const answer of document.querySelectorAll("[data-testid=answer]")) window.answers.push(answer.innerText);
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
}"""
"""Keeps every text the conversation showed, while the model streamed too."""


def react(thought: str, action: str | None = None, args: dict[str, Any] | None = None, final: str = "") -> str:
    """A model reply in the react text protocol."""
    if action is None:
        return f"Thought: {thought}\nFinal Answer: {final}"
    return f"Thought: {thought}\nAction: {action}\nAction Input: {json.dumps(args or {}, ensure_ascii=False)}"


def shown_everywhere(page: Page) -> str:
    """The conversation (its steps opened), then the to-do and threads tabs, as the person reads them."""
    text = conversation_text(page)
    page.get_by_test_id("tab-tasks").click()
    expect(page.get_by_test_id("todo")).to_be_attached()
    page.wait_for_timeout(500)  # the panel's read
    text += "\n" + page.locator("main").inner_text()
    page.get_by_test_id("tab-threads").click()
    expect(page.get_by_test_id("threads-panel")).to_have_attribute("data-loaded", "yes")
    return text + "\n" + page.locator("main").inner_text()


def test_a_chinese_conversation_shows_no_tool_name_code_raw_value_or_model_text(
    server: LangGraphDevServer, model: ScriptedOpenAIServer, browser: Browser, server_store: WorkflowStore, slow_model: None
) -> None:
    answer = "有请假、报销和出差三个流程，都可以在这里发起。"  # the scripted model sends it in pieces: one ends in it
    mail = {"userId": "user_2", "emailContent": "请尽快处理我的申请"}
    model.reset([
        react("我先查一下有哪些流程。", "getAllWorkFlow"), react("查到了。", final=answer),
        react("发邮件给李四。", "sendEmail", mail), react("好的。", final="好的，邮件没有发送。"),
    ])
    wang = open_page(browser, server, locale="zh-CN", user_id="user_3")
    on_the_react_protocol(wang)
    wang.evaluate(WATCH)
    ask(wang, "有哪些流程？")
    expect(wang.get_by_test_id("answer")).to_have_text(answer, timeout=STREAMED)
    expect(wang.get_by_test_id("send")).to_be_visible()
    # The answer streamed in: the bubble showed part of it before all of it, and never the model's Thought / Action.
    streamed = wang.evaluate("window.answers")
    assert any(0 < len(a) < len(answer) and answer.startswith(a) for a in streamed), streamed
    steps = wang.get_by_test_id("steps")
    steps.locator("summary").click()
    expect(steps).to_contain_text("操作: 查看流程", timeout=STREAMED)

    ask(wang, "发邮件给李四：请尽快处理我的申请")
    card = wang.get_by_test_id("review-card")
    expect(card.get_by_test_id("card-title")).to_have_text("需要你的确认 · 发送邮件", timeout=STREAMED)
    card_text = card.inner_text()
    card.get_by_test_id("reject").click()
    card.get_by_test_id("reject-message").fill("先别发")
    card.get_by_role("button", name="确认拒绝").click()
    expect(wang.get_by_test_id("answer").last).to_have_text("好的，邮件没有发送。", timeout=STREAMED)
    declined = "实际发生：你在确认时拒绝了：发送邮件（你说：先别发）"
    expect(wang.get_by_test_id("outcome").last).to_have_text(declined, timeout=STREAMED)

    seen = wang.evaluate("window.seen")
    assert seen and [raw_words(text, "zh") for text in seen if raw_words(text, "zh")] == []
    shown = shown_everywhere(wang)
    assert raw_words(card_text + shown, "zh") == [] and ENGLISH_SENTENCE.findall(card_text + shown) == []


def test_an_english_conversation_shows_no_tool_name_code_raw_value_or_model_text(
    server: LangGraphDevServer, model: ScriptedOpenAIServer, browser: Browser, server_store: WorkflowStore, slow_model: None
) -> None:
    args = {"processKey": "process_qingjia", "userId": "user_1", "reason": "moving house", "days": 1, "nextUserId": "user_4"}
    started = execute_call(TOOLSET, "runWorkFlow", args, CallContext(backend=server_store, actor_id="user_1", call_id="en-1"))
    task = started["taskId"]
    answer = "There are three: leave, expense and business trip."
    decide = {"taskId": task, "isOK": True, "result": "I will take care of it soon"}  # not the comment the person gave
    mail = {"userId": "user_2", "emailContent": "please review my request"}
    model.reset([
        react("I look them up.", "getAllWorkFlow"), react("Found them.", final=answer),
        react("Approving it.", "handleTodoTask", decide), react("Done.", final=f"Approved {task}."),
        react("Sending it.", "sendEmail", mail), react("OK.", final="OK, no e-mail was sent."),
    ])
    zhao = open_page(browser, server, locale="en-US", user_id="user_4")
    on_the_react_protocol(zhao)
    zhao.evaluate(WATCH)
    ask(zhao, "Which workflows are there?")
    expect(zhao.get_by_test_id("answer")).to_have_text(answer, timeout=STREAMED)
    expect(zhao.get_by_test_id("send")).to_be_visible()

    ask(zhao, f"Approve {task}, comment: fine by me")
    card = zhao.get_by_test_id("review-card")
    expect(card.get_by_test_id("card-title")).to_have_text("Needs your confirmation · decide a task", timeout=STREAMED)
    expect(card.locator("[data-field=comment] dd")).to_have_text("fine by me")  # the person's words won
    cards = card.inner_text()
    card.get_by_test_id("approve").click()
    expect(zhao.get_by_test_id("answer").last).to_have_text(f"Approved {task}.", timeout=STREAMED)
    expect(zhao.get_by_test_id("outcome").last).to_contain_text("What actually happened: Decide a task: done.", timeout=STREAMED)

    ask(zhao, "Remind Li Si by e-mail: please review my request")
    expect(card.get_by_test_id("card-title")).to_have_text("Needs your confirmation · send an e-mail", timeout=STREAMED)
    cards += "\n" + card.inner_text()
    card.get_by_test_id("reject").click()
    card.get_by_test_id("reject-message").fill("not now")
    card.get_by_role("button", name="Reject").click()
    expect(zhao.get_by_test_id("answer").last).to_have_text("OK, no e-mail was sent.", timeout=STREAMED)
    declined = "What actually happened: You declined: send an e-mail (you said: not now)"
    expect(zhao.get_by_test_id("outcome").last).to_have_text(declined, timeout=STREAMED)

    seen = zhao.evaluate("window.seen")
    assert seen and [raw_words(text, "en") for text in seen if raw_words(text, "en")] == []
    talk = conversation_text(zhao)
    assert HAN.findall(cards + talk) == []  # (the to-do tab shows the store's names: 张三 asked)
    assert raw_words(cards + shown_everywhere(zhao), "en") == []


def test_a_long_leave_shows_its_diagram_with_the_hr_step_current(
    server: LangGraphDevServer, browser: Browser, server_store: WorkflowStore, shots: Path
) -> None:
    """张三's 5-day leave, approved by 李四, waits for HR: his page draws the process (bpmn-js) with the approver's step
    done, HR's current and the end next; 管理员 sees the HR step in his to-do list."""
    args = {"processKey": "process_qingjia", "userId": "user_1", "reason": "回老家", "days": 5, "nextUserId": "user_2"}
    started = execute_call(TOOLSET, "runWorkFlow", args, CallContext(backend=server_store, actor_id="user_1", call_id="long-1"))
    decided = execute_call(TOOLSET, "handleTodoTask", {"taskId": started["taskId"], "isOK": True, "result": "同意"},
                           CallContext(backend=server_store, actor_id="user_2", call_id="long-2"))
    [hr] = decided["next"]
    status, tasks = api(server, "/flowagent/api/tasks", token=token_of(server, "user_1"))
    [mine] = [r for r in tasks["requests"] if r["id"] == started["requestId"]]
    assert (status, mine["status"], mine["step"]) == (200, "pending", "人事审批")  # the API carries the current step
    assert mine["diagram"]["current"] == ["Task_hr"] and "Task_approve" in mine["diagram"]["done"]

    zhang = open_page(browser, server, locale="zh-CN", user_id="user_1")
    zhang.get_by_test_id("tab-tasks").click()
    row = zhang.locator(f"[data-testid=request-row][data-request={started['requestId']}]")
    expect(row).to_have_attribute("data-step", "人事审批")
    expect(row.get_by_test_id("current-step")).to_have_text(f"当前步骤: 人事审批 ({hr['taskId']})")
    expect(row.get_by_test_id("timeline")).to_contain_text("审批人审批：李四 批准（同意）")  # the decisions, in time
    expect(row.get_by_test_id("held-by")).to_contain_text("处理人：人事（管理员）")
    row.get_by_test_id("diagram-toggle").click()
    diagram = row.get_by_test_id("diagram")
    expect(diagram).to_have_attribute("data-state", "ready")
    expect(diagram.locator("g.djs-element[data-element-id=Task_hr]")).to_have_class(re.compile(r"\bfa-current\b"))
    expect(diagram.locator("g.djs-element[data-element-id=Task_approve]")).to_have_class(re.compile(r"\bfa-done\b"))
    expect(diagram.locator("g.djs-element[data-element-id=EndEvent_approved]")).to_have_class(re.compile(r"\bfa-next\b"))
    expect(diagram.locator("g.djs-element[data-element-id=Flow_qingjia_to_hr]")).to_have_class(re.compile(r"\bfa-done\b"))
    expect(diagram.get_by_text("人事审批", exact=True)).to_be_visible()  # the BPMN's own labels, drawn
    assert fits_the_screen(zhang)
    zhang.screenshot(path=str(shots / "diagram.png"), full_page=True)

    admin = open_page(browser, server, locale="en-US", user_id="user_admin")
    admin.get_by_test_id("tab-tasks").click()
    task = admin.locator(f"[data-testid=task-row][data-task={hr['taskId']}]")
    expect(task).to_have_attribute("data-status", "pending")
    expect(task).to_contain_text("HR's decision")
    expect(task).to_contain_text("Offered to: HR")
    expect(task.get_by_test_id("task-due")).to_have_count(0)  # HR's step has no timer: no due date
    task.get_by_test_id("send-back-task").click()  # sending it back starts in the chat, where its card follows
    expect(admin.get_by_test_id("composer")).to_have_value(f"Send task {hr['taskId']} back to its requester, comment: ")


def test_an_approvers_to_do_row_shows_when_the_step_is_due_in_their_language(
    server: LangGraphDevServer, browser: Browser, server_store: WorkflowStore
) -> None:
    """李四's to-do row for 张三's leave says when it is due (when it moves on to his manager), in Chinese and in English,
    as the API carries it (issue 34)."""
    args = {"processKey": "process_qingjia", "userId": "user_1", "reason": "看牙", "days": 1, "nextUserId": "user_2"}
    started = execute_call(TOOLSET, "runWorkFlow", args, CallContext(backend=server_store, actor_id="user_1", call_id="due-1"))
    [moves_on] = [r for r in server_store.snapshot()["process_timers"]
                  if f"task_{r['task_id']}" == started["taskId"] and r["action"] == "escalate"]
    status, tasks = api(server, "/flowagent/api/tasks", token=token_of(server, "user_2"))
    [row] = [t for t in tasks["todo"] if t["id"] == started["taskId"]]
    assert (status, row["due"]) == (200, {"zh": when(moves_on["due_at"], "zh"), "en": when(moves_on["due_at"], "en")})
    for locale, words in (("zh-CN", f"截止：{row['due']['zh']}"), ("en-US", f"Due: {row['due']['en']}")):
        li = open_page(browser, server, locale=locale, user_id="user_2")
        li.get_by_test_id("tab-tasks").click()
        expect(li.locator(f"[data-testid=task-row][data-task={started['taskId']}]").get_by_test_id("task-due")).to_have_text(words)


# ------------------------------------------------------------------------------------------------------
# Answers state only what is known (issue 33)
# ------------------------------------------------------------------------------------------------------


def cut_after_the_first_answer_piece(events: list[str], answer: str) -> str:
    """The stream's events up to the first `messages` piece of `answer` (a stream cut there, as a dropped connection or
    a server that stopped sending would leave it)."""
    for index, event in enumerate(events):
        if event.startswith("event: messages") and answer.split()[0] in event:
            return "".join(e + "\n\n" for e in events[: index + 1])
    raise AssertionError(f"no piece of {answer!r} in the stream: {events[:8]}")


@pytest.mark.parametrize("cut", ["after the run", "while it runs"])
def test_a_stream_cut_mid_answer_still_ends_with_the_whole_answer_on_the_page(
    server: LangGraphDevServer, model: ScriptedOpenAIServer, browser: Browser, slow_model: None, cut: str
) -> None:
    """The page's stream ends after the first piece of the answer. It then reads the thread: a run that ended shows
    its whole answer; a run still going is followed again until it ends, and the person can ask the next question."""
    answer = "There are three: leave, expense and business trip."
    model.reset([react("I look them up.", "getAllWorkFlow"), react("Found them.", final=answer)])
    zhao = open_page(browser, server, locale="en-US", user_id="user_4")
    cuts: list[str] = []

    def cut_short(route: Any) -> None:
        body = json.loads(route.request.post_data or "{}")
        body["context"] = {**(body.get("context") or {}), "protocol": "react"}
        if cut == "after the run":  # the whole run streamed to the test, then half of it to the page
            response = route.fetch(post_data=json.dumps(body))
            events = response.text().replace("\r\n", "\n").split("\n\n")
            cuts.append(cut_after_the_first_answer_piece(events, answer))
            route.fulfill(response=response, body=cuts[-1])
            return
        body["on_disconnect"] = "continue"  # the run goes on when the test stops reading
        headers = {k: v for k, v in route.request.headers.items() if k.lower() not in ("content-length", "host")}
        events, block = [], ""
        with httpx.stream("POST", route.request.url, headers=headers, json=body, timeout=STREAMED / 1000) as streamed:
            started = dict(streamed.headers)
            for line in streamed.iter_lines():
                if line:
                    block += line + "\n"
                    continue
                events.append(block.rstrip("\n"))
                block = ""
                if events[-1].startswith("event: messages") and answer.split()[0] in events[-1]:
                    break
        cuts.append(cut_after_the_first_answer_piece(events, answer))
        kept = {k: v for k, v in started.items() if k.lower() in ("content-type", "content-location", "location")}
        route.fulfill(status=200, headers=kept, body=cuts[-1])

    zhao.route(re.compile(r"/threads/[^/]+/runs/stream$"), cut_short)
    zhao.evaluate(WATCH)
    ask(zhao, "Which workflows are there?")
    expect(zhao.get_by_test_id("answer")).to_have_text(answer, timeout=2 * STREAMED)
    expect(zhao.get_by_test_id("send")).to_be_visible()
    assert len(cuts) == 1 and answer not in cuts[0]  # the page got a stream that ended before the answer did
    assert zhao.get_by_role("alert").count() == 0


def test_a_made_up_figure_streamed_onto_the_page_is_gone_once_the_answer_is_redone(
    server: LangGraphDevServer, model: ScriptedOpenAIServer, browser: Browser, slow_model: None
) -> None:
    """The model streams a salary no tool knows, twice: the page shows it while it streams, then the answer the graph
    put in its place. Nothing of it is left in the answer, the folded steps or the thread's state."""
    made_up = ("李四的月薪是一万二千元。", "李四每月拿 12,000 元。")
    model.reset(list(made_up))
    wang = open_page(browser, server, locale="zh-CN", user_id="user_3")
    wang.evaluate(WATCH)
    ask(wang, "李四一个月工资多少？")
    # two slow answers, then what no tool knows, said in its own words (工资和奖金这些，我这里看不到，所以不知道)
    expect(wang.get_by_test_id("answer")).to_contain_text("所以不知道", timeout=2 * STREAMED)
    expect(wang.get_by_test_id("send")).to_be_visible()
    seen = wang.evaluate("window.seen")
    assert any("一万二" in text for text in seen), "the made-up answer never streamed onto the page"
    shown = conversation_text(wang)
    for figure in ("一万二", "12,000", "12000", "月薪是"):
        assert figure not in shown
    client = sdk_client(server, "user_3")
    [latest] = client.threads.search(limit=1, sort_by="updated_at", sort_order="desc")
    answer = client.threads.get_state(latest["thread_id"])["values"]["messages"][-1]
    assert str(answer["content"]).startswith("工资和奖金这些") and "一万二" not in str(answer["content"])
