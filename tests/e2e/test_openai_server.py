"""The scripted OpenAI server, driven over real HTTP by the real langchain-openai ChatOpenAI client."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openai
import pytest
from langchain_core.messages import AIMessage, AIMessageChunk, HumanMessage, SystemMessage, ToolMessage
from langchain_openai import ChatOpenAI
from pydantic import BaseModel, Field, SecretStr

from evals.doubles.openai_server import ReplyError, ScriptedOpenAIServer

REPO_ROOT = Path(__file__).resolve().parents[2]


class CreateTask(BaseModel):
    """Create a to-do task."""

    title: str = Field(description="Short task title")
    due: str | None = Field(default=None, description="ISO date")


LEAVE_TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "request_leave",
        "description": "Request leave",
        "parameters": {
            "type": "object",
            "properties": {"days": {"type": "integer"}},
            "required": ["days"],
        },
    },
}


def make_llm(srv: ScriptedOpenAIServer | str, key: str = "sk-test", **kwargs: Any) -> ChatOpenAI:
    base_url = srv if isinstance(srv, str) else srv.base_url
    return ChatOpenAI(base_url=base_url, api_key=SecretStr(key), model="scripted", max_retries=0, **kwargs)


def merge(chunks: list[AIMessageChunk]) -> AIMessageChunk:
    total = chunks[0]
    for chunk in chunks[1:]:
        total = total + chunk
    return total


@pytest.fixture(autouse=True)
def no_openai_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_BASE_URL", "OPENAI_API_BASE", "OPENAI_API_KEY", "LANGSMITH_TRACING"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(scope="module")
def shared_server() -> Iterator[ScriptedOpenAIServer]:
    # One server per module: ChatOpenAI caches its httpx clients per base_url, so reusing the port
    # keeps each test in the milliseconds instead of paying for fresh TLS contexts every time.
    with ScriptedOpenAIServer() as server:
        yield server


@pytest.fixture
def srv(shared_server: ScriptedOpenAIServer) -> ScriptedOpenAIServer:
    shared_server.reset()
    return shared_server


def test_plain_text_reply(srv: ScriptedOpenAIServer) -> None:
    srv.reset(["Hello from the script."])
    assert srv.base_url.startswith("http://127.0.0.1:") and srv.base_url.endswith("/v1")
    msg = make_llm(srv).invoke("hi")
    assert isinstance(msg, AIMessage)
    assert msg.content == "Hello from the script."
    assert msg.tool_calls == []
    assert msg.response_metadata["finish_reason"] == "stop"
    assert msg.response_metadata["model_name"] == "scripted"


def test_tool_call_reply_with_pydantic_and_dict_tools(srv: ScriptedOpenAIServer) -> None:
    srv.reset(
        [
            {
                "content": None,
                "tool_calls": [{"name": "CreateTask", "arguments": {"title": "Buy milk"}, "id": "c1"}],
            },
            {
                "content": "Two at once.",
                "tool_calls": [
                    {"name": "request_leave", "arguments": '{"days": 3}'},
                    {"name": "CreateTask", "arguments": {"title": "x", "due": "2030-01-02"}},
                ],
            },
        ]
    )
    llm = make_llm(srv).bind_tools([CreateTask, LEAVE_TOOL])
    first = llm.invoke("add a task")
    second = llm.invoke("both")
    assert isinstance(first, AIMessage) and isinstance(second, AIMessage)
    assert first.tool_calls == [
        {"name": "CreateTask", "args": {"title": "Buy milk"}, "id": "c1", "type": "tool_call"}
    ]
    assert first.response_metadata["finish_reason"] == "tool_calls"
    assert second.content == "Two at once."
    assert [(c["name"], c["args"]) for c in second.tool_calls] == [
        ("request_leave", {"days": 3}),
        ("CreateTask", {"title": "x", "due": "2030-01-02"}),
    ]
    ids = [c["id"] for c in second.tool_calls]  # ids default to unique values
    assert all(ids) and len(set(ids)) == 2


def test_streaming_text_and_tool_calls(srv: ScriptedOpenAIServer) -> None:
    srv.reset(
        [
            "Streaming works, word by word.",
            {
                "content": None,
                "tool_calls": [{"name": "request_leave", "arguments": {"days": 2}, "id": "s1"}],
            },
        ]
    )
    llm = make_llm(srv, stream_usage=True)
    chunks = list(llm.stream("hi"))
    tool_chunks = list(llm.bind_tools([LEAVE_TOOL]).stream("leave"))
    requests = srv.requests

    assert len(chunks) > 2, "text should arrive in several deltas"
    text = merge(chunks)
    assert text.content == "Streaming works, word by word."
    assert text.response_metadata["finish_reason"] == "stop"
    assert text.usage_metadata is not None and text.usage_metadata["output_tokens"] > 0

    call = merge([c for c in tool_chunks if isinstance(c, AIMessageChunk)])
    assert call.tool_calls == [
        {"name": "request_leave", "args": {"days": 2}, "id": "s1", "type": "tool_call"}
    ]
    assert call.response_metadata["finish_reason"] == "tool_calls"
    assert all(r["stream"] is True for r in requests)
    assert requests[0]["stream_options"] == {"include_usage": True}


def test_async_client_invoke_and_stream(srv: ScriptedOpenAIServer) -> None:
    """LangGraph's server drives models asynchronously: ainvoke/astream over the same server."""
    srv.reset(
        [
            "async hello",
            {
                "content": None,
                "tool_calls": [{"name": "CreateTask", "arguments": {"title": "a"}, "id": "a1"}],
            },
        ]
    )
    llm = make_llm(srv, stream_usage=True).bind_tools([CreateTask])

    async def run() -> tuple[Any, list[Any]]:
        return await llm.ainvoke("hi"), [c async for c in llm.astream("hi")]

    first, chunks = asyncio.run(run())
    assert first.content == "async hello"
    call = merge([c for c in chunks if isinstance(c, AIMessageChunk)])
    assert call.tool_calls == [
        {"name": "CreateTask", "args": {"title": "a"}, "id": "a1", "type": "tool_call"}
    ]
    assert call.usage_metadata is not None and call.usage_metadata["total_tokens"] > 0


def test_requests_are_recorded_with_messages_and_tools(srv: ScriptedOpenAIServer) -> None:
    srv.reset(["ok", "ok again"])
    llm = make_llm(srv).bind_tools([CreateTask])
    llm.invoke([SystemMessage("You are flowagent."), HumanMessage("Plan my week")])
    ai = AIMessage("", tool_calls=[{"name": "CreateTask", "args": {"title": "t"}, "id": "c9"}])
    llm.invoke([HumanMessage("go"), ai, ToolMessage("created #7", tool_call_id="c9")])
    seen = srv.requests

    assert len(seen) == 2
    assert seen[0]["model"] == "scripted"
    assert seen[0]["messages"] == [
        {"role": "system", "content": "You are flowagent."},
        {"role": "user", "content": "Plan my week"},
    ]
    assert [t["function"]["name"] for t in seen[0]["tools"]] == ["CreateTask"]
    assert "title" in seen[0]["tools"][0]["function"]["parameters"]["properties"]
    assert seen[1]["messages"][1]["tool_calls"][0]["function"]["name"] == "CreateTask"
    assert seen[1]["messages"][-1] == {"role": "tool", "content": "created #7", "tool_call_id": "c9"}


def test_scripted_401_raises_authentication_error(srv: ScriptedOpenAIServer) -> None:
    error = {
        "message": "Incorrect API key provided",
        "type": "invalid_request_error",
        "code": "invalid_api_key",
    }
    srv.reset([{"http_status": 401, "error": error}, "recovered"])
    llm = make_llm(srv)
    with pytest.raises(openai.AuthenticationError) as info:
        llm.invoke("hi")
    assert info.value.status_code == 401
    assert info.value.code == "invalid_api_key"
    assert "Incorrect API key provided" in str(info.value)
    assert llm.invoke("again").content == "recovered", "the same keep-alive client keeps working"


def test_expected_api_key_is_enforced() -> None:
    with ScriptedOpenAIServer(["welcome"], api_key="sk-right") as srv:
        with pytest.raises(openai.AuthenticationError) as info:
            make_llm(srv, key="sk-wrong").invoke("hi")
        assert info.value.code == "invalid_api_key"
        assert srv.requests == [] and srv.remaining == 1, "rejected requests consume nothing"
        assert make_llm(srv, key="sk-right").invoke("hi").content == "welcome"


def test_callable_replies_see_the_request(srv: ScriptedOpenAIServer) -> None:
    def echo_tool_result(request: dict[str, Any]) -> dict[str, Any] | str:
        last = request["messages"][-1]
        if last["role"] == "tool":
            return f"The tool said: {last['content']}"
        return {"tool_calls": [{"name": "request_leave", "arguments": {"days": len(last["content"])}}]}

    srv.reset([echo_tool_result, echo_tool_result])
    llm = make_llm(srv).bind_tools([LEAVE_TOOL])
    first = llm.invoke([HumanMessage("four")])
    assert isinstance(first, AIMessage)
    assert first.tool_calls[0]["args"] == {"days": 4}
    tool_msg = ToolMessage("approved", tool_call_id=first.tool_calls[0]["id"])
    second = llm.invoke([HumanMessage("four"), first, tool_msg])
    assert second.content == "The tool said: approved"


def test_callable_failure_surfaces_as_server_error(srv: ScriptedOpenAIServer) -> None:
    def broken(request: dict[str, Any]) -> str:
        raise RuntimeError("boom")

    srv.reset([broken, "still alive"])
    llm = make_llm(srv)
    with pytest.raises(openai.InternalServerError, match="boom"):
        llm.invoke("hi")
    assert llm.invoke("hi").content == "still alive"


def test_script_exhaustion_gives_fallback_text(srv: ScriptedOpenAIServer) -> None:
    srv.reset(["only one"])
    llm = make_llm(srv)
    assert llm.invoke("1").content == "only one"
    assert llm.invoke("2").content == "(script exhausted)"
    assert "".join(str(c.content) for c in llm.stream("3")) == "(script exhausted)"
    assert len(srv.requests) == 3 and srv.remaining == 0


def test_usage_metadata_is_populated(srv: ScriptedOpenAIServer) -> None:
    answer = "a reasonably long answer for token counting"
    srv.reset([answer])
    msg = make_llm(srv).invoke([HumanMessage("count my tokens please, " * 5)])
    body = srv.requests[0]
    assert isinstance(msg, AIMessage) and msg.usage_metadata is not None
    expected_prompt = len(json.dumps(body["messages"])) // 4
    assert msg.usage_metadata["input_tokens"] == expected_prompt > 0
    assert msg.usage_metadata["output_tokens"] == len(answer) // 4
    assert msg.usage_metadata["total_tokens"] == expected_prompt + len(answer) // 4


def test_delay_and_models_endpoint(srv: ScriptedOpenAIServer) -> None:
    srv.reset([{"content": "slow", "delay_s": 0.1}])
    start = time.monotonic()
    assert make_llm(srv).invoke("x").content == "slow"
    assert time.monotonic() - start >= 0.1
    with urllib.request.urlopen(f"{srv.base_url}/models", timeout=5) as resp:
        models = json.load(resp)
    assert [m["id"] for m in models["data"]] == ["scripted"]


def test_invalid_replies_are_rejected_up_front() -> None:
    with pytest.raises(ReplyError):
        ScriptedOpenAIServer([{"content": "x", "tool_calls": [{"arguments": {}}]}])
    with pytest.raises(ReplyError):
        ScriptedOpenAIServer([{"contents": "typo"}])
    with pytest.raises(ReplyError):
        ScriptedOpenAIServer([42])  # type: ignore[list-item]


def test_stop_releases_port_with_idle_keepalive_connections() -> None:
    srv = ScriptedOpenAIServer(["a"]).start()
    assert make_llm(srv).invoke("x").content == "a"  # leaves a pooled keep-alive connection open
    port = srv.port
    start = time.monotonic()
    srv.stop()
    srv.stop()  # idempotent
    assert time.monotonic() - start < 2
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=1)


def test_from_file(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text(json.dumps(["one"]))
    with ScriptedOpenAIServer.from_file(path, exhausted_reply="done") as srv:
        llm = make_llm(srv)
        assert [llm.invoke("a").content, llm.invoke("b").content] == ["one", "done"]
    path.write_text(json.dumps({"not": "a list"}))
    with pytest.raises(ReplyError):
        ScriptedOpenAIServer.from_file(path)


def test_cli_serves_a_script_file(tmp_path: Path) -> None:
    script = tmp_path / "script.json"
    script.write_text(
        json.dumps(["from the file", {"tool_calls": [{"name": "CreateTask", "arguments": {}}]}])
    )
    with subprocess.Popen(
        [sys.executable, "-m", "evals.doubles.openai_server", "--script", str(script), "--port", "0"],
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        text=True,
    ) as proc:
        try:
            assert proc.stdout is not None
            base_url = proc.stdout.readline().strip()
            assert base_url.startswith("http://127.0.0.1:") and base_url.endswith("/v1")
            llm = make_llm(base_url)
            assert llm.invoke("hi").content == "from the file"
            tool_msg = llm.bind_tools([CreateTask]).invoke("hi")
            assert isinstance(tool_msg, AIMessage) and tool_msg.tool_calls[0]["name"] == "CreateTask"
            assert llm.invoke("hi").content == "(script exhausted)"
        finally:
            proc.terminate()
            assert proc.wait(timeout=5) == 0, "SIGTERM should stop the server cleanly"
