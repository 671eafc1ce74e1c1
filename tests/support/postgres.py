"""A throw-away PostgreSQL server for the tests: initdb in a temp dir, 127.0.0.1 only, trust auth, removed after.

The server binaries come from the PATH or Debian's /usr/lib/postgresql/<version>/bin; `scripts/postgres.sh`
installs them. initdb refuses to run as root, so as root the server runs as the `postgres` OS user.
"""

from __future__ import annotations

import os
import pwd
import re
import shutil
import signal
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.net import LOOPBACK, free_port, port_accepts, wait_until

NOT_INSTALLED = (
    "PostgreSQL server binaries (initdb, pg_ctl) were not found on PATH or under /usr/lib/postgresql/*/bin: "
    "run scripts/postgres.sh to install them (apt; it uses sudo when not run as root)."
)
START_TIMEOUT_S = 30
SERVER_SETTINGS = {
    "listen_addresses": LOOPBACK,
    "unix_socket_directories": "''",  # TCP on loopback only
    "max_connections": "200",
    "fsync": "off",  # a throw-away cluster: durability is not under test, only transactional behaviour
}


def find_bindir() -> Path | None:
    """The directory holding initdb and pg_ctl: from PATH, else the newest /usr/lib/postgresql/<ver>/bin."""
    initdb, pg_ctl = shutil.which("initdb"), shutil.which("pg_ctl")
    if initdb and pg_ctl:
        return Path(os.path.realpath(initdb)).parent
    candidates = [p for p in Path("/usr/lib/postgresql").glob("*/bin") if (p / "initdb").exists() and (p / "pg_ctl").exists()]
    if not candidates:
        return None

    def version(path: Path) -> tuple[int, ...]:
        return tuple(int(n) for n in re.findall(r"\d+", path.parent.name)) or (0,)

    return max(candidates, key=version)


class PostgresServer:
    """One PostgreSQL cluster in a temp dir, listening on 127.0.0.1:<free port>, every role trusted."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.base = Path(tempfile.mkdtemp(prefix="flowagent-pg-"))
        self.data = self.base / "data"
        self.log = self.base / "server.log"
        self.port = 0
        self._as_postgres: list[str] = []
        if os.geteuid() == 0:
            try:
                account = pwd.getpwnam("postgres")
            except KeyError:
                shutil.rmtree(self.base, ignore_errors=True)
                raise RuntimeError(f"running as root but there is no `postgres` OS user; {NOT_INSTALLED}") from None
            os.chown(self.base, account.pw_uid, account.pw_gid)
            self._as_postgres = ["runuser", "-u", "postgres", "--"]

    def _run(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        cmd = [*self._as_postgres, str(self.bindir / args[0]), *args[1:]]
        done = subprocess.run(cmd, cwd=self.base, capture_output=True, text=True, timeout=timeout, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}\n{self.log_tail()}")
        return done

    def log_tail(self, chars: int = 3000) -> str:
        try:
            return self.log.read_text(errors="replace")[-chars:]
        except OSError:
            return ""

    def start(self) -> PostgresServer:
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C", "-N")
        last: Exception | None = None
        for _ in range(3):  # a free port can be taken between choosing and binding it
            self.port = free_port()
            options = " ".join(f"-c {k}={v}" for k, v in {**SERVER_SETTINGS, "port": str(self.port)}.items())
            try:
                self._run(
                    "pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-t", str(START_TIMEOUT_S),
                    "-o", options, "start", timeout=START_TIMEOUT_S + 10,
                )
            except RuntimeError as exc:
                last = exc
                continue
            wait_until(lambda: port_accepts(self.port), timeout=START_TIMEOUT_S, what=f"PostgreSQL on port {self.port}")
            return self
        raise RuntimeError(f"PostgreSQL did not start: {last}")

    def url(self, database: str = "postgres", *, driver: str = "postgresql") -> str:
        """`postgresql://postgres@127.0.0.1:PORT/db` (psycopg); `driver="postgresql+psycopg"` for SQLAlchemy."""
        return f"{driver}://postgres@{LOOPBACK}:{self.port}/{database}"

    def create_database(self, prefix: str = "t") -> str:
        """A new empty database; returns its name."""
        import psycopg

        name = f"{prefix}_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return name

    def stop(self) -> None:
        """Stop the server (fast shutdown, then SIGKILL of the postmaster if needed) and delete its files."""
        try:
            if (self.data / "postmaster.pid").exists():
                try:
                    self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "-t", "20", "stop", timeout=30)
                except (RuntimeError, subprocess.TimeoutExpired):
                    self._kill_postmaster()
        finally:
            shutil.rmtree(self.base, ignore_errors=True)

    def _kill_postmaster(self) -> None:
        try:
            pid = int((self.data / "postmaster.pid").read_text().split()[0])
            os.kill(pid, signal.SIGKILL)
        except (OSError, ValueError, IndexError):
            pass


def _interrupt_on_sigterm(signum: int, frame: object) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


@pytest.fixture(scope="session", name="postgres")
def postgres_fixture() -> Iterator[PostgresServer]:
    """A PostgreSQL server for the whole session; FAILS (never skips) when PostgreSQL is not installed.

    While it runs, SIGTERM (a CI timeout, `kill`) interrupts pytest like Ctrl-C, so the server is still
    stopped and its files removed instead of outliving the test run.
    """
    bindir = find_bindir()
    if bindir is None:
        pytest.fail(NOT_INSTALLED, pytrace=False)
    try:
        server = PostgresServer(bindir)
    except RuntimeError as exc:
        pytest.fail(str(exc), pytrace=False)
    previous = signal.signal(signal.SIGTERM, _interrupt_on_sigterm)
    try:
        server.start()
        yield server
    finally:
        server.stop()
        signal.signal(signal.SIGTERM, previous)
