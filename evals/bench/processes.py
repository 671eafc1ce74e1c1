"""The benchmarks' server processes: a free loopback port, and a server started in a session of its own, used once it
answers `/ok`, then stopped with the workers it started (its process group)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

STARTUP_TIMEOUT_S = 120.0
"""How long a server may take to answer `/ok` after it was started."""


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def log_tail(path: Path, lines: int = 12) -> str:
    """The last lines of a server's log."""
    try:
        return "\n".join(path.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


def _wait_until_up(process: subprocess.Popen[bytes], url: str, name: str, log: Path) -> None:
    """Wait until the server `name` started as `process` answers `url/ok` with 200; RuntimeError with the end of its
    `log` if it exits first or does not answer within `STARTUP_TIMEOUT_S`."""
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"{name} exited with {process.returncode}: {log_tail(log)}")
        try:
            with urllib.request.urlopen(f"{url}/ok", timeout=2) as response:  # noqa: S310 - loopback
                if response.status == 200:
                    return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"{name} did not start in {STARTUP_TIMEOUT_S:.0f} s: {log_tail(log)}")
        time.sleep(0.5)


def _stop_group(process: subprocess.Popen[bytes]) -> None:
    """Stop a server started in a session of its own, and the workers it started: SIGTERM to its process group, then
    SIGKILL if it has not ended within 20 s."""
    for sig, wait in ((signal.SIGTERM, 20), (signal.SIGKILL, 10)):
        try:
            os.killpg(process.pid, sig)
            process.wait(timeout=wait)
            break
        except ProcessLookupError:
            break
        except subprocess.TimeoutExpired:
            continue


@contextmanager
def serving(command: Sequence[str], name: str, port: int, workdir: Path, env: dict[str, str]) -> Iterator[str]:
    """Start the server `name` (`command`, listening on `port`) in `workdir` and a session of its own, its output in
    `workdir/server.log`; yield its URL once it answers `/ok`, and stop it with its workers after."""
    log_path = workdir / "server.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            list(command), cwd=workdir, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            url = f"http://127.0.0.1:{port}"
            _wait_until_up(process, url, name, log_path)
            yield url
        finally:
            _stop_group(process)
