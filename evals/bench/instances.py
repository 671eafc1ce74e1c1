"""Throughput of the production server (`flowagent serve`, langgraph-runtime-pg) on one and on two instances.

    python -m evals.bench.instances [--clients 32] [--runs 8] [--instances 2] [--workers 1] [--out DIR]

Starts a local PostgreSQL and Redis (`scripts/postgres.sh`, `scripts/redis.sh`, in a temporary folder), the
evals' scripted OpenAI-compatible model answering at once (zero latency: one `queryTodoTask` look-up, then the
answer), and the instances from `.venv-serve` (`./run serve` builds it) on one deployment. Each client, signed in
with a dev token, sends `runs.wait` on a new thread, `--runs` times; clients are spread over the instances in turn.

Ideal throughput for several instances is linear scaling: the instances times one instance's throughput with the
same number of clients. The goal is at least 0.8× that ideal. The machine's cores bound it: every instance, the
database, Redis, the model server and the clients share them (the report names the core count).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any, cast

from evals.bench.common import median, percentile, table
from evals.bench.processes import free_port, serving
from evals.doubles.openai_server import ScriptedOpenAIServer

PROJECT_ROOT = Path(__file__).resolve().parents[2]
SERVE_PYTHON = PROJECT_ROOT / ".venv-serve" / "bin" / "python"
PACKAGES = ("flowagent", "graph", "tools", "state", "evals")
SECRET = "flowagent-bench-only-signing-secret-0123456789"
DEFAULT_OUT = PROJECT_ROOT / "evals" / "bench" / "reports" / "instances"
LOGS: Path | None = None
"""Where the instances' logs are copied when they stop (the report's folder)."""


def zero_latency_reply(request: dict[str, Any]) -> dict[str, Any]:
    messages = request.get("messages") or []
    if messages and messages[-1].get("role") == "tool":
        return {"content": "Done: 1 look-up."}
    return {"tool_calls": [{"name": "queryTodoTask", "arguments": {"userId": "user_1"}}]}


def script(name: str, *args: str) -> str:
    done = subprocess.run(["bash", str(PROJECT_ROOT / "scripts" / name), *args], capture_output=True, text=True,
                          check=False)
    if done.returncode != 0:
        raise RuntimeError(f"scripts/{name} {' '.join(args)} failed: {done.stderr.strip()}")
    return done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""


@contextmanager
def services(base: Path) -> Iterator[tuple[str, str]]:
    """A local PostgreSQL and Redis in `base`; yields (DATABASE_URI, REDIS_URI); stopped after."""
    pg_dir = base / "postgres"
    redis_dir = base / "redis"
    if os.geteuid() == 0:
        shutil.chown(base, "postgres", "postgres")
    database_uri = script("postgres.sh", "start", str(pg_dir), str(free_port()))
    try:
        redis_uri = script("redis.sh", "start", str(redis_dir), str(free_port()))
        try:
            yield database_uri, redis_uri
        finally:
            script("redis.sh", "stop", str(redis_dir))
    finally:
        script("postgres.sh", "stop", str(pg_dir))


@contextmanager
def instance(workdir: Path, env: dict[str, str], *, workers: int, jobs: int) -> Iterator[str]:
    """One `flowagent serve` in `workdir` (the project's langgraph.json, links to the packages); yields its URL."""
    workdir.mkdir(parents=True)
    shutil.copy(PROJECT_ROOT / "langgraph.json", workdir / "langgraph.json")
    for package in PACKAGES:
        (workdir / package).symlink_to(PROJECT_ROOT / package, target_is_directory=True)
    port = free_port()
    command = [str(SERVE_PYTHON), "-m", "flowagent.server.serve", "--port", str(port), "--workers", str(workers),
               "--jobs-per-worker", str(jobs), "--config", "langgraph.json"]
    try:
        with serving(command, "flowagent serve", port, workdir, env) as url:
            yield url
    finally:
        if LOGS is not None:
            LOGS.mkdir(parents=True, exist_ok=True)
            shutil.copy(workdir / "server.log", LOGS / f"{workdir.name}.log")


def answered(values: Any) -> bool:
    last = values.get("messages", [{}])[-1] if isinstance(values, dict) and values.get("messages") else {}
    return str(last.get("content", "")).startswith("Done")


async def load(urls: list[str], token: str, clients: int, runs: int) -> tuple[float, list[float], int]:
    """`clients` concurrent clients, spread over `urls`, each sending `runs` runs; returns (wall s, run durations,
    how many `runs.wait` answers were an earlier state than the thread's final one).

    langgraph-runtime-pg's `runs.wait` (and stream) ends when a 0.5 s wait for the run's next stream message times
    out and the run's row already says it finished; a busy server can deliver the last messages later than that,
    and the answer is then an earlier state. Each run's outcome is therefore read back from the thread's state."""
    from langgraph_sdk import get_client

    sdk = [get_client(url=url, api_key=None, headers={"Authorization": f"Bearer {token}"}) for url in urls]
    durations: list[float] = []
    stale = 0

    async def client(index: int) -> None:
        api = sdk[index % len(sdk)]
        for _ in range(runs):
            thread = await api.threads.create()
            started = time.perf_counter()
            result = await api.runs.wait(thread["thread_id"], "flowagent",
                                         input=cast(Any, {"messages": [{"role": "human", "content": "我有哪些待办？"}]}))
            durations.append(time.perf_counter() - started)
            if answered(result):
                continue
            nonlocal stale
            stale += 1
            state = await api.threads.get_state(thread["thread_id"])
            if not answered(state["values"]):
                raise RuntimeError(f"a run ended with {str(state['values'])[-1500:]}")

    began = time.perf_counter()
    await asyncio.gather(*(client(i) for i in range(clients)))
    return time.perf_counter() - began, durations, stale


def measure(clients: int, runs: int, instances: int, workers: int, jobs: int) -> dict[str, Any]:
    from flowagent.server.tokens import issue_dev_token
    from tools import WorkflowStore

    results: dict[str, Any] = {"clients": clients, "runs_per_client": runs, "workers": workers, "jobs": jobs,
                               "cores": len(os.sched_getaffinity(0)), "load_before": os.getloadavg()[0], "levels": {}}
    with tempfile.TemporaryDirectory(prefix="flowagent-bench-instances-", dir="/var/tmp") as tmp, ExitStack() as stack:
        base = Path(tmp)
        database_uri, redis_uri = stack.enter_context(services(base))
        model = stack.enter_context(ScriptedOpenAIServer(exhausted_reply=zero_latency_reply, api_key="sk-bench"))
        env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "FLOWAGENT_", "LANGSMITH_"))}
        env.update(OPENAI_BASE_URL=model.base_url, OPENAI_API_KEY="sk-bench", FLOWAGENT_MODEL="scripted",
                   FLOWAGENT_RATE_LIMIT_RPS="0", FLOWAGENT_MAX_RETRIES="0", FLOWAGENT_AUTH_SECRET=SECRET,
                   FLOWAGENT_DB=database_uri, DATABASE_URI=database_uri, REDIS_URI=redis_uri,
                   LANGSMITH_TRACING="false", LANGGRAPH_CLI_NO_ANALYTICS="1")
        urls = [stack.enter_context(instance(base / f"instance-{i}", env, workers=workers, jobs=jobs))
                for i in range(instances)]
        store = WorkflowStore(database_uri)
        token = issue_dev_token("user_1", secret=SECRET, backend=store)
        store.dispose()
        asyncio.run(load(urls, token, min(clients, 4), 1))  # warm-up: graphs imported, model clients made
        for count in sorted({1, instances}):
            wall, durations, stale = asyncio.run(load(urls[:count], token, clients, runs))
            results["levels"][str(count)] = {
                "runs": len(durations), "stale_wait_answers": stale, "wall_s": wall, "runs_per_s": len(durations) / wall,
                "p50_ms": median(durations) * 1000, "p95_ms": percentile(durations, 95) * 1000,
            }
    results["load_after"] = os.getloadavg()[0]
    one = results["levels"]["1"]["runs_per_s"]
    for count, level in results["levels"].items():
        level["ideal_runs_per_s"] = one * int(count)
        level["efficiency"] = level["runs_per_s"] / level["ideal_runs_per_s"]
    return results


def report(results: dict[str, Any]) -> str:
    rows = [[count, level["runs"], level["stale_wait_answers"], f"{level['runs_per_s']:.1f}", f"{level['ideal_runs_per_s']:.1f}",
             f"{level['efficiency']:.2f}×", f"{level['p50_ms']:.0f}", f"{level['p95_ms']:.0f}"]
            for count, level in sorted(results["levels"].items(), key=lambda item: int(item[0]))]
    top = max(results["levels"], key=int)
    verdict = "met" if results["levels"][top]["efficiency"] >= 0.8 else "not met"
    return (
        f"# The production server on one and on {top} instances\n\n"
        f"{results['clients']} clients, {results['runs_per_client']} runs each (`runs.wait` on a new thread; the "
        f"scripted model answers at once: one look-up, then the answer), {results['workers']} worker process(es) "
        f"and {results['jobs']} concurrent runs per instance, PostgreSQL and Redis local, "
        f"{results['cores']} cores shared by everything (load average {results['load_before']:.1f} before, "
        f"{results['load_after']:.1f} after). Ideal: linear scaling of one instance's throughput. Early wait "
        "answers: `runs.wait` answered with an earlier state than the thread's final one (the run had finished; "
        "see `load`).\n\n"
        + table(["instances", "runs", "early wait answers", "runs/s", "ideal runs/s", "efficiency", "p50 ms", "p95 ms"], rows)
        + f"\n\nGoal (≥ 0.8× ideal on {top} instances): **{verdict}**.\n"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evals.bench.instances", description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--runs", type=int, default=8, help="runs per client")
    parser.add_argument("--instances", type=int, default=2)
    parser.add_argument("--workers", type=int, default=1, help="worker processes per instance")
    parser.add_argument("--jobs", type=int, default=32, help="concurrent runs per worker process")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    global LOGS
    LOGS = args.out / "logs"
    if not SERVE_PYTHON.is_file():
        print(f"{SERVE_PYTHON} is missing: run ./run serve (or ./run test) once to build .venv-serve", file=sys.stderr)
        return 2
    results = measure(args.clients, args.runs, args.instances, args.workers, args.jobs)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "results.json").write_text(json.dumps(results, indent=2), encoding="utf-8")
    text = report(results)
    (args.out / "report.md").write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
