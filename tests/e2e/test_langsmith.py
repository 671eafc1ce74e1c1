"""LangSmith traces from the real langsmith client, captured by a local stand-in for the LangSmith API.

Tracing is switched on only by the standard variables (LANGSMITH_TRACING, LANGSMITH_ENDPOINT,
LANGSMITH_API_KEY, LANGSMITH_PROJECT). The graph runs in this process with the real ChatOpenAI against the
scripted OpenAI-compatible server and the real mailer against a local SMTP server that requires a password.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import HumanMessage
from langgraph.types import Command

from evals.doubles.openai_server import ScriptedOpenAIServer
from flowagent.models.endpoint import make_chat_model, settings_from_env
from graph import build_graph
from graph.checkpoint import open_sqlite_checkpointer
from state import Context
from tests.support.langgraph_server import LangGraphDevServer, model_env
from tests.support.langsmith_capture import LangSmithCapture
from tests.support.net import wait_until
from tests.support.smtp import SmtpHandler, smtp_server
from tools import CallContext, WorkflowStore, execute_call
from tools.workflow import TOOLSET

API_KEY = "lsv2-test-secret"
SMTP_PASSWORD = "smtp-secret-pw"
OPENAI_KEY = "sk-test"
SECRETS = (API_KEY, SMTP_PASSWORD, OPENAI_KEY)
PROJECT = "flowagent-test"
THREAD = "trace-thread-1"
NODES = {"read_request", "reasoner", "tool_validator", "human_review", "executor", "observation_summarizer", "budget_check"}
ROUTERS = {"route_after_reasoner", "route_after_validation", "route_after_review"}
REMINDER = "李四你好，请审批我的请假申请 task_1，谢谢！"
SCRIPT: list[Any] = [
    {"content": "先查李四的待办。", "tool_calls": [{"name": "queryTodoTask", "arguments": {"userId": "user_2"}}]},
    {
        "content": "发提醒邮件。",
        "tool_calls": [{"name": "sendEmail", "arguments": {"taskId": "task_1", "emailContent": REMINDER}}],
    },
    "已发邮件提醒李四审批 task_1。",
]
MODEL_RUN = "CallCutChatOpenAI"
"""The model's runs are named by its client: ChatOpenAI that stops a text-protocol reply at its complete call."""

# The local SMTP server requires a password without TLS on purpose (loopback only): the password is the secret.
pytestmark = pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS:UserWarning")


def reset_langsmith_caches() -> None:
    """langsmith caches environment lookups and its client per process: start and end with a clean slate."""
    from langsmith import run_trees
    from langsmith import utils as ls_utils

    ls_utils.get_env_var.cache_clear()  # type: ignore[attr-defined]
    ls_utils.get_tracer_project.cache_clear()
    client, run_trees._CLIENT = run_trees._CLIENT, None
    if client is not None:
        client.cleanup()


@pytest.fixture
def capture(monkeypatch: pytest.MonkeyPatch) -> Iterator[LangSmithCapture]:
    """The capture server, with tracing switched on through the standard variables for this test only."""
    with LangSmithCapture() as server:
        for name in ("LANGCHAIN_TRACING_V2", "LANGCHAIN_ENDPOINT", "LANGCHAIN_API_KEY", "LANGCHAIN_PROJECT"):
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setenv("LANGSMITH_TRACING", "true")
        monkeypatch.setenv("LANGSMITH_ENDPOINT", server.url)
        monkeypatch.setenv("LANGSMITH_API_KEY", API_KEY)
        monkeypatch.setenv("LANGSMITH_PROJECT", PROJECT)
        reset_langsmith_caches()
        try:
            yield server
        finally:
            monkeypatch.undo()
            reset_langsmith_caches()


def flush_traces() -> None:
    from langchain_core.tracers.langchain import wait_for_all_tracers

    wait_for_all_tracers()


def run_reminder_conversation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[ScriptedOpenAIServer, SmtpHandler, WorkflowStore]:
    """张三 asks for a reminder to 李四: query, approval card, approve, e-mail sent over SMTP with a password; against
    the scripted model and a real SMTP server, stopped after, and the traces flushed. Returns the model server (its
    requests), the SMTP server's handler (what it received) and the store."""
    handler = SmtpHandler()
    with (
        ScriptedOpenAIServer(SCRIPT, api_key=OPENAI_KEY) as model,
        smtp_server(handler, user="u", password=SMTP_PASSWORD) as port,
    ):
        monkeypatch.setenv("OPENAI_BASE_URL", model.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", OPENAI_KEY)
        monkeypatch.setenv("FLOWAGENT_MODEL", "scripted")
        monkeypatch.setenv("FLOWAGENT_MAX_RETRIES", "0")
        monkeypatch.setenv("FLOWAGENT_RATE_LIMIT_RPS", "0")
        monkeypatch.setenv("FLOWAGENT_SMTP_URL", f"smtp://u:{SMTP_PASSWORD}@127.0.0.1:{port}?from=flowagent@example.com")
        store = WorkflowStore(f"sqlite:///{tmp_path / 'workflow.db'}")
        args = {"processKey": "process_qingjia", "userId": "user_1", "reason": "家里有事", "days": 1, "nextUserId": "user_2"}
        execute_call(TOOLSET, "runWorkFlow", args, CallContext(backend=store, actor_id="user_1", thread_id="setup", call_id="s1"))

        graph = build_graph(
            model=make_chat_model(settings_from_env()),  # the real ChatOpenAI, configured from the environment
            store=store,
            checkpointer=open_sqlite_checkpointer(tmp_path / "checkpoints.db"),
        )
        # The same config the chat CLI passes: the thread, plus user and thread as trace metadata.
        config = {"configurable": {"thread_id": THREAD}, "metadata": {"user_id": "user_1", "thread_id": THREAD}}
        context = Context(user_id="user_1")
        graph.invoke({"messages": [HumanMessage(content=f"发邮件提醒李四：{REMINDER}")]}, config, context=context)
        [pending] = graph.get_state(config).interrupts
        assert pending.value["action_requests"][0]["name"] == "sendEmail"
        graph.invoke(Command(resume={"decisions": [{"type": "approve"}]}), config, context=context)
        flush_traces()
    return model, handler, store


def test_traces_form_one_tree_per_invocation_with_node_model_and_tool_runs_and_no_secrets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capture: LangSmithCapture
) -> None:
    model, handler, store = run_reminder_conversation(tmp_path, monkeypatch)
    assert handler.logins == ["u"] and [r.rcpt_tos for r in handler.received] == [["lisi@example.com"]]
    assert [m["status"] for m in store.snapshot()["emails"]] == ["sent"]

    runs = capture.runs()
    by_id = dict(runs)

    # One root per invocation (the first ends at the approval card, the second after the resume).
    roots = sorted((r for r in runs.values() if not r.get("parent_run_id")), key=lambda r: r["start_time"])
    assert [r["name"] for r in roots] == ["flowagent", "flowagent"]
    assert all(r["session_name"] == PROJECT for r in runs.values())
    assert all(r.get("end_time") for r in runs.values()), "every run was closed"
    for run in runs.values():
        if run.get("parent_run_id"):
            assert run["parent_run_id"] in by_id, f"{run['name']} has a parent that was never sent"
        assert run["trace_id"] in {r["id"] for r in roots}

    def children(run: dict[str, Any]) -> list[dict[str, Any]]:
        return sorted((r for r in runs.values() if r.get("parent_run_id") == run["id"]), key=lambda r: r["dotted_order"])

    # The node runs, named as in DESIGN.md, directly under each root, in execution order.
    first, second = ([c["name"] for c in children(root)] for root in roots)
    assert first == [
        "read_request", "reasoner", "tool_validator", "executor", "observation_summarizer", "budget_check",
        "reasoner", "tool_validator", "human_review",
    ]
    assert second == ["human_review", "executor", "observation_summarizer", "budget_check", "reasoner"]
    assert {r["name"] for r in runs.values() if r.get("parent_run_id") in {root["id"] for root in roots}} == NODES

    # Model runs beneath the reasoner, tool runs beneath the executor, routers beneath their node.
    for run in runs.values():
        parent = by_id.get(run.get("parent_run_id") or "", {}).get("name")
        if run["run_type"] == "llm":
            assert (run["name"], parent) == (MODEL_RUN, "reasoner")
        if run["run_type"] == "tool":
            assert parent == "executor"
        if run["name"] in ROUTERS:
            assert parent in NODES
    llm_runs = [r for r in runs.values() if r["run_type"] == "llm"]
    assert len(llm_runs) == len(SCRIPT) == len(model.requests)
    tools = sorted((r for r in runs.values() if r["run_type"] == "tool"), key=lambda r: r["dotted_order"])
    assert [(t["name"], t["inputs"]) for t in tools] == [
        ("queryTodoTask", {"args": {"userId": "user_2"}}),
        ("sendEmail", {"args": {"taskId": "task_1", "emailContent": REMINDER}}),
    ]
    assert tools[1]["outputs"]["status"] == "sent" and tools[1]["outputs"]["email"] == "lisi@example.com"

    # Thread and user on every run, the root runs included.
    for run in runs.values():
        metadata = run["extra"]["metadata"]
        assert (metadata.get("thread_id"), metadata.get("user_id")) == (THREAD, "user_1"), run["name"]

    # No secret anywhere in what was sent (the API key travels only in its header).
    bodies = capture.all_bodies()
    assert b"queryTodoTask" in bodies and REMINDER.encode() in bodies  # the search really covers the payloads
    for secret in SECRETS:
        assert secret.encode() not in bodies, f"{secret} leaked into a trace payload"
    assert {r.headers.get("X-API-Key") or r.headers.get("x-api-key") for r in capture.requests if r.path != "/info"} == {API_KEY}


def test_tracing_is_off_by_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LANGSMITH_TRACING", "LANGSMITH_TRACING_V2", "LANGCHAIN_TRACING_V2", "LANGCHAIN_TRACING"):
        monkeypatch.delenv(name, raising=False)
    with LangSmithCapture() as server:
        monkeypatch.setenv("LANGSMITH_ENDPOINT", server.url)
        monkeypatch.setenv("LANGSMITH_API_KEY", API_KEY)
        reset_langsmith_caches()
        try:
            _, _, store = run_reminder_conversation(tmp_path, monkeypatch)
            assert json.loads(json.dumps(store.snapshot()["emails"]))[0]["status"] == "sent"
            assert server.requests == []
        finally:
            monkeypatch.undo()
            reset_langsmith_caches()


def test_studio_runs_carry_user_and_thread_on_every_run(tmp_path: Path) -> None:
    """Behind `langgraph dev` the signed-in user (the run's actor) and the thread reach every traced run's metadata."""
    script = [SCRIPT[0], "李四有一条待办。"]
    with LangSmithCapture() as capture, ScriptedOpenAIServer(script, api_key=OPENAI_KEY) as model:
        env = model_env(
            model, tmp_path / "workflow.db", LANGSMITH_TRACING="true", LANGSMITH_ENDPOINT=capture.url,
            LANGSMITH_API_KEY=API_KEY, LANGSMITH_PROJECT=PROJECT,
        )
        with LangGraphDevServer(env) as server:
            client = server.client("user_2")
            thread_id = client.threads.create()["thread_id"]
            question: Any = {"messages": [{"role": "user", "content": "李四有什么待办？"}]}
            client.runs.wait(thread_id, "flowagent", input=question)

            def root_closed() -> bool:
                roots = [r for r in capture.runs().values() if not r.get("parent_run_id")]
                return bool(roots) and all(r.get("end_time") for r in roots)

            wait_until(root_closed, timeout=30, what="the server's trace of the run")

    runs = capture.runs()
    [root] = [r for r in runs.values() if not r.get("parent_run_id")]
    assert root["name"] == "flowagent" and root["session_name"] == PROJECT
    names = {r["name"] for r in runs.values()}
    assert NODES - {"human_review"} | {MODEL_RUN, "queryTodoTask"} <= names
    for run in runs.values():
        metadata = run["extra"]["metadata"]
        assert (metadata.get("thread_id"), metadata.get("user_id")) == (thread_id, "user_2"), run["name"]
    # Run payloads only: langgraph-api also reports its own usage to the LangSmith endpoint, authenticated
    # with the same key (POST /v1/metadata/submit); that report is not a trace.
    payloads = b"\n".join(r.body for r in capture.requests if r.path.startswith("/runs"))
    assert b"queryTodoTask" in payloads
    for secret in SECRETS:
        assert secret.encode() not in payloads, f"{secret} leaked into a trace payload"
