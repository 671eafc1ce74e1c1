"""`langgraph dev` (the Studio / LangGraph API server) started on a free loopback port for the tests.

The server runs in a scratch copy of the project root: the project's own `langgraph.json` and links to the
packages, so its `.langgraph_api/` state and any developer `.env` never mix with the test's.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path
from types import TracebackType

from tests.support.net import LOOPBACK, free_port, stop_process_group, wait_until

REPO_ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("graph", "tools", "state", "evals")
START_TIMEOUT_S = 120.0
OFFLINE_ENV = {
    "LANGGRAPH_CLI_NO_ANALYTICS": "1",  # the CLI's usage ping
    "LANGSMITH_TRACING": "false",
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
        langgraph = Path(sys.executable).with_name("langgraph")
        command = [
            str(langgraph), "dev", "--no-browser", "--no-reload", "--host", LOOPBACK, "--port", str(self.port),
            "--config", "langgraph.json",
        ]
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen(
                command, cwd=self.workdir, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        wait_until(self._ready, timeout=START_TIMEOUT_S, what=f"langgraph dev on {self.url}", interval=0.25)
        return self

    def _ready(self) -> bool:
        assert self.proc is not None
        if self.proc.poll() is not None:
            raise RuntimeError(f"langgraph dev exited with {self.proc.returncode}:\n{self.log_tail()}")
        with urllib.request.urlopen(f"{self.url}/ok", timeout=2) as response:  # noqa: S310 - loopback
            return response.status == 200

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


def server_env(**overrides: str) -> dict[str, str]:
    """This process's environment without model, store, tracing or LangGraph settings, plus `overrides`."""
    prefixes = ("OPENAI_", "FLOWAGENT_", "LANGSMITH_", "LANGCHAIN_", "LANGGRAPH_")
    env = {k: v for k, v in os.environ.items() if not k.startswith(prefixes)}
    env.update(overrides)
    return env
