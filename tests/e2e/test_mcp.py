"""The LangGraph server's MCP endpoint (`/mcp`, Streamable HTTP) offers the assistant to MCP clients behind the same
sign-in, driven with the `mcp` SDK as the client against a real `langgraph dev` from the project's `langgraph.json`.

Each assistant (`flowagent`, `flowagent_toy`, `flowagent_travel`) is one MCP tool whose input is the graph's input
(`messages`). langgraph-api runs every tool call as a stateless run (`runs.wait` without a thread) with the caller's
headers, so the bearer token signs the run in and the signed-in user is its actor. A write stops at its card: the
tool result carries the state with `__interrupt__` (the card from the store); an MCP client cannot answer it, since
the run's temporary thread is deleted when the run ends, so the write never happens (the person asks again on the
page or in the chat, where the card can be answered).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

import httpx2
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

MAIL = "李四你好，请审批我的请假申请，谢谢！"


def first_leaf(error: BaseException) -> BaseException:
    """The first error inside (nested) exception groups, as anyio's task groups wrap the client's errors."""
    while isinstance(error, BaseExceptionGroup):
        error = error.exceptions[0]
    return error


def mcp_session(
    url: str, token: str | None, use: Callable[[ClientSession], Awaitable[Any]], statuses: list[int] | None = None
) -> tuple[Any, list[int]]:
    """Run `use(session)` in an initialised MCP client session on `url/mcp`; returns (its result, HTTP statuses seen).
    An error of the client is raised as itself, not inside the task groups' exception groups."""
    statuses = [] if statuses is None else statuses

    async def record(response: Any) -> None:
        statuses.append(response.status_code)

    async def main() -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        async with httpx2.AsyncClient(headers=headers, timeout=60, event_hooks={"response": [record]}) as http:
            async with streamable_http_client(f"{url}/mcp", http_client=http) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    return await use(session)

    try:
        return asyncio.run(main()), statuses
    except BaseExceptionGroup as group:
        raise first_leaf(group) from group


def ask(text: str) -> dict[str, Any]:
    return {"messages": [{"role": "user", "content": text}]}


def test_an_mcp_client_without_a_token_is_refused(server):
    statuses: list[int] = []
    with pytest.raises(MCPError):
        mcp_session(server.url, None, lambda session: session.list_tools(), statuses)
    assert statuses == [401]
    response = httpx2.post(f"{server.url}/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                           headers={"Accept": "application/json, text/event-stream"}, timeout=30)
    assert response.status_code == 401 and response.json()["detail"].startswith("[missing_token]")


def test_an_mcp_client_with_a_forged_token_is_refused(server):
    statuses: list[int] = []
    forged = server.token("user_1")[:-4] + "AAAA"
    with pytest.raises(MCPError):
        mcp_session(server.url, forged, lambda session: session.list_tools(), statuses)
    assert statuses == [401]
    response = httpx2.post(f"{server.url}/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                           headers={"Authorization": "Bearer forged", "Accept": "application/json, text/event-stream"},
                           timeout=30)
    assert response.status_code == 401


def test_the_assistants_are_mcp_tools_that_take_messages(server):
    listed, statuses = mcp_session(server.url, server.token("user_1"), lambda session: session.list_tools())
    tools = {tool.name: tool for tool in listed.tools}
    assert {"flowagent", "flowagent_toy", "flowagent_travel"} <= set(tools)
    assert set(tools["flowagent"].input_schema["properties"]) == {"messages"}
    assert set(statuses) <= {200, 202}


def test_a_question_is_answered_as_the_signed_in_user(server, model):
    model.reset([{"content": "查待办", "tool_calls": [{"name": "queryTodoTask", "arguments": {}}]}, "张三，你目前没有待办。"])
    result, _ = mcp_session(
        server.url, server.token("user_1"), lambda session: session.call_tool("flowagent", ask("我有哪些待办？"))
    )
    assert not result.is_error
    [content] = result.content
    assert "张三，你目前没有待办。" in content.text
    # The run acted for 张三: the prompt names him, and the look-up ran with his id (filled in by code).
    assert "Signed-in user: 张三 (userId user_1)" in model.requests[0]["messages"][0]["content"]
    assert '"userId": "user_1"' in content.text or "'userId': 'user_1'" in content.text
    # What a run gives back (its messages and outcome), not the graph's own records.
    assert "'outcome'" in content.text and "'budget'" not in content.text and "'audit'" not in content.text


def test_a_user_id_sent_in_the_mcp_call_does_not_change_the_actor(server, model):
    model.reset(["你好，张三。"])

    async def call(session: ClientSession) -> Any:
        return await session.call_tool("flowagent", {**ask("我是谁？"), "user_id": "user_2"})

    result, _ = mcp_session(server.url, server.token("user_1"), call)
    assert "Signed-in user: 张三 (userId user_1)" in model.requests[0]["messages"][0]["content"]
    assert "userId user_2" not in model.requests[0]["messages"][0]["content"]
    assert not result.is_error


def test_a_write_stops_at_its_card_and_an_mcp_client_cannot_answer_it(server, model, server_store):
    model.reset([{"content": "发邮件", "tool_calls": [{"name": "sendEmail", "arguments": {"userId": "user_2",
                                                                                       "emailContent": MAIL}}]}])
    result, _ = mcp_session(
        server.url, server.token("user_1"), lambda session: session.call_tool("flowagent", ask(f"给李四发邮件：{MAIL}"))
    )
    [content] = result.content
    assert "'__interrupt__'" in content.text and "'action_requests'" in content.text
    assert "recipient_email': 'lisi@example.com'" in content.text  # the card, built from the store
    assert server_store.snapshot()["outbox"] == []
    assert [a["event"] for a in server_store.audit_entries() if json.dumps(a["detail"]).find("sendEmail") >= 0] == []
    # Nothing is left waiting: the stateless run's thread is gone, so no later resume can send the e-mail.
    assert server.client("user_1").threads.search(status="interrupted") == []
