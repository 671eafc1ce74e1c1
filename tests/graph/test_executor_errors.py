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
