"""A flowagent worker process for the scale-out tests: `python -m tests.support.worker`.

It builds the graph exactly as a deployment would, from the environment only: the store from FLOWAGENT_DB,
the checkpointer from FLOWAGENT_CHECKPOINT_URL, the model from OPENAI_BASE_URL / FLOWAGENT_MODEL. Then it
reads one JSON command per line on stdin and answers one JSON line on stdout:

    {"jobs": [{"thread_id": "t1", "user_id": "user_2", "say": "approve task_1"}, ...]}
    {"jobs": [{"thread_id": "t1", "user_id": "user_2", "resume": {"decisions": [{"type": "approve"}]}}, ...]}
    {"jobs": [{"thread_id": "t1", "user_id": "user_2"}]}          (read the thread's state only)

The jobs of one command run concurrently, one thread each. An empty line or EOF ends the worker.
"""

from __future__ import annotations

import json
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langgraph.types import Command

from flowagent.models.endpoint import make_chat_model, settings_from_env
from graph.builder import build_graph
from graph.checkpoint import close_checkpointer, open_checkpointer
from state.context import Context
from tools import WorkflowStore

MAX_CONCURRENT_JOBS = 64


def describe(message: Any) -> dict[str, Any]:
    """A message as plain data the test can compare."""
    item: dict[str, Any] = {"type": message.type, "content": str(message.content)}
    if isinstance(message, AIMessage):
        item["tool_calls"] = [{"name": c["name"], "args": c["args"], "id": c["id"]} for c in message.tool_calls]
    if isinstance(message, ToolMessage):
        item["status"] = message.status
        item["tool_call_id"] = message.tool_call_id
    return item


def run_job(graph: Any, job: dict[str, Any]) -> dict[str, Any]:
    thread_id, user_id = job["thread_id"], job["user_id"]
    config = {"configurable": {"thread_id": thread_id}, "metadata": {"user_id": user_id, "thread_id": thread_id}}
    context = Context(user_id=user_id)
    try:
        if "say" in job:
            graph.invoke({"messages": [HumanMessage(content=job["say"])]}, config, context=context)
        elif "resume" in job:
            graph.invoke(Command(resume=job["resume"]), config, context=context)
        state = graph.get_state(config)
    except Exception as exc:  # noqa: BLE001 - reported to the test, which fails on it
        return {"thread_id": thread_id, "pid": os.getpid(), "error": f"{type(exc).__name__}: {exc}"}
    return {
        "thread_id": thread_id,
        "pid": os.getpid(),
        "interrupts": [i.value for i in state.interrupts],
        "messages": [describe(m) for m in state.values.get("messages", [])],
    }


def main() -> int:
    store = WorkflowStore()
    saver = open_checkpointer()
    graph = build_graph(model=make_chat_model(settings_from_env()), store=store, checkpointer=saver)
    print(json.dumps({"ready": os.getpid()}), flush=True)
    try:
        with ThreadPoolExecutor(max_workers=MAX_CONCURRENT_JOBS, thread_name_prefix="job") as pool:
            for line in sys.stdin:
                if not line.strip():
                    break
                jobs = json.loads(line)["jobs"]
                results = list(pool.map(lambda job: run_job(graph, job), jobs))
                print(json.dumps({"results": results}, ensure_ascii=False, default=str), flush=True)
    finally:
        close_checkpointer(saver)
        store.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main())
