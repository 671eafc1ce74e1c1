"""The LangGraph servers of the tests, each started on a free loopback port from the project's `langgraph.json`:

- `LangGraphDevServer`: `langgraph dev` (in memory, one process), as `./run web` runs it;
- `ProductionServer`: `flowagent serve` (langgraph-runtime-pg from `.venv-serve`, `./run serve`) on a PostgreSQL
  database and a Redis the test owns, with N worker processes.

Either runs in a scratch copy of the project root: the project's own `langgraph.json` and links to the packages,
so its state and any developer `.env` never mix with the test's. Both have the same interface: `url`, `token()`,
`client()`, `db_url` (the workflow store), `log_tail()`, `stop()`.

The project's `langgraph.json` turns sign-in on (`flowagent/server/auth.py`): `server_env()` gives the server a test
signing secret, and `server.client("user_2")` is an SDK client signed in as that user with a dev token.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from langgraph_sdk import get_sync_client

from flowagent.server.tokens import ENV_SECRET, issue_dev_token
from tests.support.net import LOOPBACK, free_port, stop_process_group, wait_until

if TYPE_CHECKING:
    from evals.doubles.openai_server import ScriptedOpenAIServer

REPO_ROOT = Path(__file__).resolve().parents[2]
SERVE_PYTHON = REPO_ROOT / ".venv-serve" / "bin" / "python"
PACKAGES = ("flowagent", "graph", "tools", "state", "evals")
START_TIMEOUT_S = 120.0
CLIENT_TIMEOUT_S = 60
TEST_AUTH_SECRET = "flowagent-tests-only-signing-secret-0123456789"
"""The dev-token secret of the servers the tests start (at least 32 bytes); never a real deployment's."""
OFFLINE_ENV = {
    "LANGGRAPH_CLI_NO_ANALYTICS": "1",  # the CLI's usage ping
    "LANGSMITH_TRACING": "false",
    "PYTHONUNBUFFERED": "1",  # the log file is read while the server runs (which instance started a run)
}


class LangGraphDevServer:
    """`langgraph dev --no-browser --no-reload --port <free> --config langgraph.json`, stopped on exit.

    `dotenv` variables are written to the scratch root's `.env`, which `langgraph.json` names: they reach
    the graph as a developer's `.env` would (and take precedence over `env`).
    """

    def __init__(self, env: dict[str, str], dotenv: dict[str, str] | None = None) -> None:
        self.env = {**env, **{k: v for k, v in OFFLINE_ENV.items() if k not in env}}
        self.dotenv = dict(dotenv or {})
        self.workdir = Path(tempfile.mkdtemp(prefix="flowagent-langgraph-dev-"))
        self.log_path = self.workdir / "server.log"
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}"

    def start(self) -> LangGraphDevServer:
        shutil.copy(REPO_ROOT / "langgraph.json", self.workdir / "langgraph.json")
        if self.dotenv:
            lines = [f"{name}={value}" for name, value in self.dotenv.items()]
            (self.workdir / ".env").write_text("\n".join(lines) + "\n", encoding="utf-8")
        for package in PACKAGES:
            (self.workdir / package).symlink_to(REPO_ROOT / package, target_is_directory=True)
        command = self.command()
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen(
                command, cwd=self.workdir, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        wait_until(self._ready, timeout=START_TIMEOUT_S, what=f"langgraph dev on {self.url}", interval=0.25)
        return self

    def command(self) -> list[str]:
        langgraph = Path(sys.executable).with_name("langgraph")
        return [
            str(langgraph), "dev", "--no-browser", "--no-reload", "--host", LOOPBACK, "--port", str(self.port),
            "--config", "langgraph.json",
        ]

    @property
    def db_url(self) -> str:
        """The workflow store the server's graph uses (FLOWAGENT_DB from `.env` or the environment)."""
        db = self.dotenv.get("FLOWAGENT_DB") or self.env.get("FLOWAGENT_DB") or ".flowagent/workflow.db"
        path = db if "://" in db or Path(db).is_absolute() else str(self.workdir / db)
        return path if "://" in path else f"sqlite:///{path}"

    def token(self, user_id: str, **kwargs: Any) -> str:
        """A dev token for `user_id`, signed with the server's FLOWAGENT_AUTH_SECRET."""
        from tools import WorkflowStore

        store = WorkflowStore(self.db_url)
        try:
            secret = self.dotenv.get(ENV_SECRET) or self.env[ENV_SECRET]
            return issue_dev_token(user_id, secret=secret, backend=store, **kwargs)
        finally:
            store.dispose()

    def client(self, user_id: str | None = None, *, token: str | None = None) -> Any:
        """An SDK client signed in as `user_id` (a fresh dev token), or sending `token`, or neither."""
        bearer = token if token is not None else self.token(user_id) if user_id is not None else None
        headers = {"Authorization": f"Bearer {bearer}"} if bearer is not None else None
        return get_sync_client(url=self.url, api_key=None, headers=headers, timeout=CLIENT_TIMEOUT_S)

    def _ready(self) -> bool:
        assert self.proc is not None
        if self.proc.poll() is not None:
            raise RuntimeError(f"langgraph dev exited with {self.proc.returncode}:\n{self.log_tail()}")
        with urllib.request.urlopen(f"{self.url}/ok", timeout=2) as response:  # noqa: S310 - loopback
            return response.status == 200

    def kill(self) -> None:
        """SIGKILL the server's whole process group at once (a crash, not a shutdown)."""
        assert self.proc is not None
        os.killpg(self.proc.pid, 9)
        self.proc.wait(timeout=10)

    def log_tail(self, chars: int = 6000) -> str:
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")[-chars:]
        except OSError:
            return ""

    def stop(self) -> None:
        try:
            if self.proc is not None:
                stop_process_group(self.proc)
        finally:
            shutil.rmtree(self.workdir, ignore_errors=True)

    def __enter__(self) -> LangGraphDevServer:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()


class ProductionServer(LangGraphDevServer):
    """`flowagent serve --workers N` (langgraph-runtime-pg from `.venv-serve`) on `database_uri` and `redis_uri`.

    `FLOWAGENT_DB` in `env` is the workflow store; several instances on one `database_uri` and `redis_uri` with the
    same store are one deployment. The server is the leader of its own process group (its worker processes
    included), so `stop()` ends all of it and `kill()` crashes it.
    """

    def __init__(
        self, env: dict[str, str], dotenv: dict[str, str] | None = None, *, database_uri: str, redis_uri: str,
        workers: int = 1, jobs_per_worker: int = 4,
    ) -> None:
        super().__init__({**env, "DATABASE_URI": database_uri, "REDIS_URI": redis_uri}, dotenv)
        self.workers = workers
        self.jobs_per_worker = jobs_per_worker

    def command(self) -> list[str]:
        if not SERVE_PYTHON.is_file():
            raise RuntimeError(f"{SERVE_PYTHON} is missing: `./run test` (or `./run serve`) builds .venv-serve")
        return [
            str(SERVE_PYTHON), "-m", "flowagent.server.serve", "--host", LOOPBACK, "--port", str(self.port),
            "--workers", str(self.workers), "--jobs-per-worker", str(self.jobs_per_worker), "--config", "langgraph.json",
        ]


def postgres_database(url: str) -> str:
    """The database name of a postgresql:// URL."""
    return re.sub(r"\?.*$", "", url.rsplit("/", 1)[-1])


def server_env(**overrides: str) -> dict[str, str]:
    """This process's environment without model, store, tracing or LangGraph settings, with the tests' dev-token
    secret (`TEST_AUTH_SECRET`), plus `overrides`."""
    prefixes = ("OPENAI_", "FLOWAGENT_", "LANGSMITH_", "LANGCHAIN_", "LANGGRAPH_")
    env = {k: v for k, v in os.environ.items() if not k.startswith(prefixes)}
    env[ENV_SECRET] = TEST_AUTH_SECRET
    env.update(overrides)
    return env


def store_env(db: str | Path, **overrides: str) -> dict[str, str]:
    """`server_env` with the workflow store at `db` (a file or a URL), no model retries and no rate limit."""
    return server_env(FLOWAGENT_DB=str(db), FLOWAGENT_MAX_RETRIES="0", FLOWAGENT_RATE_LIMIT_RPS="0", **overrides)


def model_settings(model: ScriptedOpenAIServer) -> dict[str, str]:
    """The settings that point the graph at the scripted model server `model` (in the environment or a `.env`)."""
    return {"OPENAI_BASE_URL": model.base_url, "OPENAI_API_KEY": model.api_key or "sk-test", "FLOWAGENT_MODEL": "scripted"}


def model_env(model: ScriptedOpenAIServer, db: str | Path, **overrides: str) -> dict[str, str]:
    """The environment of a server whose graph calls the scripted `model`, with the workflow store at `db`."""
    return store_env(db, **{**model_settings(model), **overrides})


def stream_updates(
    client: Any, thread_id: str, graph_id: str = "flowagent", **run: Any
) -> tuple[list[str], list[dict[str, Any]]]:
    """Run on the thread with stream_mode="updates": (node names in order, interrupt payloads)."""
    nodes: list[str] = []
    interrupts: list[dict[str, Any]] = []
    for part in client.runs.stream(thread_id, graph_id, stream_mode="updates", **run):
        assert part.event != "error", part.data
        if part.event != "updates":
            continue
        for name, update in part.data.items():
            if name == "__interrupt__":
                interrupts.extend(update)
            else:
                nodes.append(name)
    return nodes, interrupts

