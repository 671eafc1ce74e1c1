"""Workload 4, second part: the same conversations through `langgraph dev` and the LangGraph SDK (reported only)."""

from __future__ import annotations

import asyncio
import json
import os
import random
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from evals.bench.common import Sizes, median, percentile, table
from evals.bench.processes import free_port, serving
from evals.doubles.openai_server import ScriptedOpenAIServer

PROJECT_ROOT = Path(__file__).resolve().parents[2]
API_KEY = "sk-bench"


@dataclass
class Served:
    """Throughput through the server at each number of concurrent clients."""

    threads: list[int] = field(default_factory=list)
    runs_per_s: list[float] = field(default_factory=list)
    text: str = ""
    summary: str = ""
    data: dict[str, Any] = field(default_factory=dict)


def scripted_reply(latency_s: float) -> Any:
    """The model behind the server: one `queryTodoTask` look-up, then an answer, each after a jittered delay."""
    rng = random.Random(5)
    lock = threading.Lock()

    def reply(request: dict[str, Any]) -> dict[str, Any]:
        with lock:
            delay = latency_s * (1 + rng.uniform(-0.25, 0.25))
        messages = request.get("messages") or []
        if messages and messages[-1].get("role") == "tool":
            return {"content": "Done: 1 look-up.", "delay_s": delay}
        return {"tool_calls": [{"name": "queryTodoTask", "arguments": {"userId": "user_2"}}], "delay_s": delay}

    return reply


@contextmanager
def dev_server(model_url: str, directory: Path, jobs: int) -> Iterator[str]:
    """`langgraph dev` on a free loopback port, its model pointed at `model_url`; yields the server URL."""
    port = free_port()
    config = {
        "dependencies": [str(PROJECT_ROOT)],
        "graphs": {"flowagent": str(PROJECT_ROOT / "flowagent" / "app.py") + ":graph"},
    }
    (directory / "langgraph.json").write_text(json.dumps(config), encoding="utf-8")
    env = dict(
        os.environ,
        OPENAI_BASE_URL=model_url,
        OPENAI_API_KEY=API_KEY,
        FLOWAGENT_MODEL="scripted",
        FLOWAGENT_RATE_LIMIT_RPS="0",
        FLOWAGENT_MAX_RETRIES="0",
        FLOWAGENT_DB=str(directory / "workflow.db"),
        LANGSMITH_TRACING="false",
        LANGCHAIN_TRACING_V2="false",
        PYTHONPATH=str(PROJECT_ROOT),
    )
    cli = Path(sys.executable).with_name("langgraph")
    command = [
        str(cli) if cli.exists() else "langgraph", "dev", "--no-browser", "--no-reload", "--allow-blocking",
        "--host", "127.0.0.1", "--port", str(port), "--config", str(directory / "langgraph.json"),
        "--n-jobs-per-worker", str(jobs),
    ]  # fmt: skip
    with serving(command, "langgraph dev", port, directory, env) as url:
        yield url


async def _level(url: str, threads: int, runs: int) -> tuple[float, list[float]]:
    from langgraph_sdk import get_client

    client = get_client(url=url)
    durations: list[float] = []

    async def worker() -> None:
        for _ in range(runs):
            thread = await client.threads.create()
            started = time.perf_counter()
            result = await client.runs.wait(
                thread["thread_id"],
                "flowagent",
                input=cast(Any, {"messages": [{"role": "human", "content": "李四有哪些待办？"}]}),
                context={"user_id": "user_1"},
            )
            durations.append(time.perf_counter() - started)
            last = (result or {}).get("messages", [{}])[-1] if isinstance(result, dict) else {}
            if not str(last.get("content", "")).startswith("Done"):
                raise RuntimeError(f"a run through the server ended with {str(result)[:300]}")

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(threads)))
    return time.perf_counter() - started, durations


def measure(sizes: Sizes) -> Served:
    """Start the scripted model server and `langgraph dev`, then run each concurrency level through the SDK."""
    served = Served()
    rows = []
    with tempfile.TemporaryDirectory(prefix="flowagent-bench-server-") as tmp:
        model = ScriptedOpenAIServer(exhausted_reply=scripted_reply(sizes.latency_s), api_key=API_KEY).start()
        try:
            jobs = max(sizes.server_threads)
            began = time.perf_counter()
            with dev_server(model.base_url, Path(tmp), jobs) as url:
                startup = time.perf_counter() - began
                asyncio.run(_level(url, 1, 1))  # warm-up: graph import, first model client
                for threads in sizes.server_threads:
                    wall, durations = asyncio.run(_level(url, threads, sizes.runs_per_thread))
                    ideal_run = 2 * sizes.latency_s
                    rps = len(durations) / wall
                    ideal = threads / ideal_run
                    served.threads.append(threads)
                    served.runs_per_s.append(rps)
                    served.data[str(threads)] = {"runs_per_s": rps, "ideal": ideal, "p50": median(durations),
                                                 "p95": percentile(durations, 95)}
                    rows.append([threads, len(durations), f"{rps:.1f}", f"{ideal:.1f}", f"{rps / ideal:.2f}×",
                                 f"{median(durations) * 1000:.0f}", f"{percentile(durations, 95) * 1000:.0f}"])
        finally:
            model.stop()
    served.text = (
        f"Through the LangGraph dev server (`langgraph dev`, in-memory runtime, `--n-jobs-per-worker {jobs}`; started "
        f"in {startup:.0f} s): the same conversations sent with the SDK (`runs.wait`, one new thread per run) from "
        "concurrent asyncio clients; the graph's model is `ChatOpenAI` against the evals' scripted OpenAI-compatible "
        f"server answering after {sizes.latency_s * 1000:.0f} ms ±25 %. Reported, not judged: the server runs "
        "flowagent's synchronous nodes on its worker threads.\n\n"
        + table(["clients", "runs", "runs/s", "ideal runs/s", "efficiency", "p50 ms", "p95 ms"], rows)
    )
    served.summary = ", ".join(
        f"{t} clients: {served.data[str(t)]['runs_per_s'] / (t / (2 * sizes.latency_s)):.2f}× ideal" for t in served.threads
    )
    return served
