"""Start and drive `tests.support.worker` processes: one JSON command line in, one JSON answer line out."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from tests.support.net import stop_process_group

REPO_ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT_S = 60.0
COMMAND_TIMEOUT_S = 90.0


class WorkerProcess:
    """One worker process with its own interpreter, graph, store engine and checkpointer connections."""

    def __init__(self, name: str, env: dict[str, str], cwd: Path) -> None:
        self.name = name
        self.stderr_path = cwd / f"{name}.stderr.log"
        self._stderr = open(self.stderr_path, "w", encoding="utf-8")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.support.worker"],
            cwd=cwd,
            env={**env, "PYTHONPATH": str(REPO_ROOT)},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            text=True,
            encoding="utf-8",
            start_new_session=True,
        )
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._reader = threading.Thread(target=self._read, name=f"{name}-stdout", daemon=True)
        self._reader.start()
        self.pid: int | None = None

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def _next(self, timeout: float) -> dict[str, Any]:
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError(f"worker {self.name} gave no answer within {timeout:g} s\n{self.stderr_tail()}") from None
        if line is None:
            raise RuntimeError(f"worker {self.name} exited ({self.proc.poll()})\n{self.stderr_tail()}")
        return json.loads(line)

    def wait_ready(self, timeout: float = START_TIMEOUT_S) -> WorkerProcess:
        self.pid = int(self._next(timeout)["ready"])
        return self

    def send(self, jobs: list[dict[str, Any]]) -> None:
        """Send one command without waiting for its answer (so two workers can run at the same time)."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps({"jobs": jobs}, ensure_ascii=False) + "\n")
        self.proc.stdin.flush()

    def receive(self, timeout: float = COMMAND_TIMEOUT_S) -> list[dict[str, Any]]:
        results = self._next(timeout)["results"]
        errors = [r for r in results if "error" in r]
        if errors:
            raise AssertionError(f"worker {self.name} failed jobs: {errors}\n{self.stderr_tail()}")
        return results

    def run(self, jobs: list[dict[str, Any]], timeout: float = COMMAND_TIMEOUT_S) -> list[dict[str, Any]]:
        self.send(jobs)
        return self.receive(timeout)

    def stderr_tail(self, chars: int = 4000) -> str:
        self._stderr.flush()
        return self.stderr_path.read_text(encoding="utf-8", errors="replace")[-chars:]

    def stop(self) -> None:
        """Ask the worker to end (EOF), then make sure its process group is gone."""
        try:
            if self.proc.stdin is not None and not self.proc.stdin.closed:
                self.proc.stdin.close()
            self.proc.wait(timeout=15)
        except (OSError, subprocess.TimeoutExpired):
            pass
        finally:
            stop_process_group(self.proc)
            self._stderr.close()
