"""A bug of our own in a tool: the operator sees its traceback in the log, the model a readable observation."""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from langchain_core.messages import ToolMessage
from sqlalchemy import Connection

from evals.doubles.scripted import tool_call
from tools import REGISTRY, CallContext, Effect, ToolRegistry, ToolSpec, Verdict
from tools.workflow.args import NoArgs


def crash(conn: Connection, ctx: CallContext, args: NoArgs, verdict: Verdict) -> dict[str, Any]:
    raise RuntimeError("disk on fire")


CRASHING = ToolRegistry(
    [*REGISTRY, ToolSpec(name="crashTool", description="Always crashes.", args_model=NoArgs, effect=Effect.READ,
                         handler=crash)],
)


def test_a_crashing_handler_is_logged_with_its_traceback_and_observed_readably(graph_driver, caplog):
    agent = graph_driver(tool_call("crashTool", {}, id="c-crash"), "出错了，请稍后再试。", registry=CRASHING)
    with caplog.at_level(logging.ERROR, logger="graph.nodes.executor"):
        agent.say("查一下")

    [record] = [r for r in caplog.records if r.name == "graph.nodes.executor"]
    assert record.levelno == logging.ERROR
    assert "crashTool" in record.getMessage() and "c-crash" in record.getMessage()
    assert record.exc_info is not None and record.exc_info[0] is RuntimeError
    assert "Traceback" in caplog.text and 'raise RuntimeError("disk on fire")' in caplog.text

    [observation] = [m for m in agent.messages if isinstance(m, ToolMessage)]
    assert observation.status == "error"
    assert str(observation.content).startswith("Error [tool_failed]: crashTool failed: RuntimeError: disk on fire (")
    assert "Traceback" not in str(observation.content)
    assert agent.messages[-1].content == "出错了，请稍后再试。"


def test_a_refusal_is_an_observation_not_an_error_in_the_log(graph_driver, caplog, start_request):
    start_request(requester="user_1", approver="user_2")
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "task_1", "isOK": True}, id="c1"), "好的",
                         user_id="user_2")
    with caplog.at_level(logging.ERROR, logger="graph.nodes.executor"):
        agent.say("批准张三的请假")
        agent.resume({"decisions": [{"type": "approve"}]}, user_id="user_3")  # the executor refuses: not the assignee
    assert [r for r in caplog.records if r.name == "graph.nodes.executor"] == []


RELEASE = threading.Event()


def hang(conn: Connection, ctx: CallContext, args: NoArgs, verdict: Verdict) -> dict[str, Any]:
    RELEASE.wait(timeout=30)  # a tool stuck on a server that does not answer
    return {"late": True}


HANGING = ToolRegistry(
    [*REGISTRY, ToolSpec(name="hangTool", description="Never answers in time.", args_model=NoArgs, effect=Effect.READ,
                         handler=hang)],
)


def test_a_tool_that_hangs_is_given_up_after_the_timeout_and_the_run_goes_on(graph_driver):
    agent = graph_driver(tool_call("hangTool", {}, id="c-hang"), "它没有按时返回。", registry=HANGING, tool_timeout_s=0.3)
    RELEASE.clear()
    started = time.monotonic()
    try:
        agent.say("查一下")
        waited = time.monotonic() - started
    finally:
        RELEASE.set()

    [observation] = [m for m in agent.messages if isinstance(m, ToolMessage)]
    assert observation.status == "error"
    assert str(observation.content).startswith("Error [timeout]: hangTool did not finish within 0.3 s.")
    assert waited < 10  # the run went on without the tool (it would have waited 30 s)
    assert agent.messages[-1].content == "它没有按时返回。"


def count_for_ever(conn: Connection, ctx: CallContext, args: NoArgs, verdict: Verdict) -> dict[str, Any]:
    THREADS.append(threading.current_thread().name)
    query = "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n"
    return {"count": conn.exec_driver_sql(query).scalar_one()}  # a query that never ends


def thread_name(conn: Connection, ctx: CallContext, args: NoArgs, verdict: Verdict) -> dict[str, Any]:
    THREADS.append(threading.current_thread().name)
    return {"ok": True}


THREADS: list[str] = []
BOUNDED = ToolRegistry([
    *REGISTRY,
    ToolSpec(name="countForEver", description="Never ends.", args_model=NoArgs, effect=Effect.READ,
             handler=count_for_ever, backend_bound=True),
    ToolSpec(name="boundRead", description="Waits on the store only.", args_model=NoArgs, effect=Effect.READ,
             handler=thread_name, backend_bound=True),
    ToolSpec(name="anyRead", description="May wait on anything.", args_model=NoArgs, effect=Effect.READ,
             handler=thread_name),
])


def test_a_read_that_waits_on_the_store_only_is_stopped_by_the_store_at_the_timeout(graph_driver):
    THREADS.clear()
    agent = graph_driver(tool_call("countForEver", {}, id="c-count"), "它没有按时返回。", registry=BOUNDED,
                         tool_timeout_s=0.3)
    started = time.monotonic()
    agent.say("查一下")
    waited = time.monotonic() - started

    [observation] = [m for m in agent.messages if isinstance(m, ToolMessage)]
    assert observation.status == "error"
    assert str(observation.content).startswith("Error [timeout]: countForEver did not finish within 0.3 s.")
    assert waited < 10
    # The query ran on the executor's own thread, and that thread went on with the run: the query was stopped, not
    # left running on a pool thread.
    assert THREADS == [threading.current_thread().name]


def test_only_a_read_declared_to_wait_on_the_store_alone_skips_the_pool(graph_driver):
    THREADS.clear()
    agent = graph_driver(
        tool_call("boundRead", {}, id="c-bound"), tool_call("anyRead", {}, id="c-any"), "好的", registry=BOUNDED,
    )
    agent.say("查一下")
    assert len(THREADS) == 2
    assert not THREADS[0].startswith("flowagent-tool")
    assert THREADS[1].startswith("flowagent-tool")  # a handler that may wait on anything can only be given up
