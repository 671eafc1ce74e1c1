"""A throw-away Redis server for the tests: redis-server on 127.0.0.1:<free port>, no persistence, stopped after.

redis-server comes from Debian's package (`scripts/redis.sh` installs it).
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.net import LOOPBACK, free_port, port_accepts, stop_process_group, wait_until

NOT_INSTALLED = "redis-server was not found on PATH: run scripts/redis.sh to install it (apt)."
START_TIMEOUT_S = 20


class RedisServer:
    """One redis-server in the foreground of its own process group, on a free loopback port."""

    def __init__(self, binary: str) -> None:
        self.binary = binary
        self.base = Path(tempfile.mkdtemp(prefix="flowagent-redis-"))
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://{LOOPBACK}:{self.port}/0"

    def start(self) -> RedisServer:
        self.port = free_port()
        command = [
            self.binary, "--bind", LOOPBACK, "--port", str(self.port), "--save", "", "--appendonly", "no",
            "--dir", str(self.base), "--protected-mode", "yes",
        ]
        with open(self.base / "redis.log", "wb") as log:
            self.proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        wait_until(lambda: port_accepts(self.port), timeout=START_TIMEOUT_S, what=f"Redis on port {self.port}")
        return self

    def stop(self) -> None:
        try:
            if self.proc is not None:
                stop_process_group(self.proc)
        finally:
            shutil.rmtree(self.base, ignore_errors=True)


@pytest.fixture(scope="session", name="redis")
def redis_fixture() -> Iterator[RedisServer]:
    """A Redis server for the whole session; FAILS (never skips) when redis-server is not installed."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.fail(NOT_INSTALLED, pytrace=False)
    server = RedisServer(binary)
    try:
        server.start()
        yield server
    finally:
        server.stop()
