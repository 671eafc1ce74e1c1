"""`flowagent serve` (the production server, `./run serve`) as an operator meets it, started from `.venv-serve`.

- Without sign-in settings it refuses to start within seconds, naming what is missing.
- Without `DATABASE_URI` and `REDIS_URI` it starts a local PostgreSQL and Redis (Debian's packages, the project's
  scripts), says so, and serves: `/ok` answers 200, and a dev token from `flowagent token` signs in.
- It stays in the foreground; its worker processes are in its process group, which one signal stops.
"""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from flowagent.server.serve import ENV_PG_PORT, ENV_REDIS_PORT, state_dir
from tests.support.langgraph_server import PACKAGES, REPO_ROOT, SERVE_PYTHON, server_env
from tests.support.net import free_port, stop_process_group, wait_until

REFUSAL_LIMIT_S = 10


def scratch(tmp_path: Path) -> Path:
    """A project folder as an operator has it: langgraph.json and the packages."""
    root = tmp_path / "project"
    root.mkdir()
    (root / "langgraph.json").write_text((REPO_ROOT / "langgraph.json").read_text())
    for package in PACKAGES:
        (root / package).symlink_to(REPO_ROOT / package, target_is_directory=True)
    return root


def group_is_gone(group: int) -> bool:
    """No process is left in the process group (exiting workers are reaped within moments)."""
    return subprocess.run(["pgrep", "-g", str(group)], capture_output=True, check=False).returncode == 1


def serve(root: Path, env: dict[str, str], *args: str, timeout: float) -> subprocess.CompletedProcess[str]:
    command = [str(SERVE_PYTHON), "-m", "flowagent.server.serve", "--port", str(free_port()), *args]
    return subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, timeout=timeout, check=False)


@pytest.mark.parametrize(
    ("settings", "named"),
    [({}, "FLOWAGENT_AUTH_SECRET"), ({"FLOWAGENT_AUTH_SECRET": "short"}, "at least 32"),
     ({"FLOWAGENT_JWKS_URL": "http://127.0.0.1:9/jwks.json"}, "FLOWAGENT_JWT_ISSUER")],
    ids=["nothing", "a weak secret", "a JWKS URL without its issuer"],
)
def test_without_sign_in_it_refuses_to_start_within_seconds_naming_what_is_missing(tmp_path, settings, named):
    env = server_env()
    del env["FLOWAGENT_AUTH_SECRET"]
    env.update(settings)
    started = time.monotonic()
    done = serve(scratch(tmp_path), env, timeout=60)
    took = time.monotonic() - started
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.startswith("flowagent serve: refusing to start:") and named in done.stderr
    assert took < REFUSAL_LIMIT_S


@pytest.fixture
def local_services(tmp_path: Path) -> Iterator[tuple[Path, dict[str, str]]]:
    """A project folder whose serve finds no DATABASE_URI or REDIS_URI; its local services are stopped after."""
    root = scratch(tmp_path)
    ports = {ENV_PG_PORT: str(free_port()), ENV_REDIS_PORT: str(free_port())}
    try:
        yield root, ports
    finally:
        local = state_dir(root)
        subprocess.run(["bash", str(REPO_ROOT / "scripts" / "redis.sh"), "stop", str(local / "redis")], check=False)
        subprocess.run(["bash", str(REPO_ROOT / "scripts" / "postgres.sh"), "stop", str(local / "postgres")], check=False)
        subprocess.run(["rm", "-rf", str(local)], check=False)


def test_without_a_database_it_starts_local_postgresql_and_redis_and_serves(local_services):
    root, ports = local_services
    env = {**server_env(OPENAI_BASE_URL="http://127.0.0.1:9/v1", OPENAI_API_KEY="sk-test", FLOWAGENT_MODEL="scripted"),
           **ports}
    port = free_port()
    log = root / "serve.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [str(SERVE_PYTHON), "-m", "flowagent.server.serve", "--port", str(port), "--workers", "2"],
            cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )
    try:
        def ok() -> bool:
            assert proc.poll() is None, log.read_text(errors="replace")[-3000:]
            return httpx.get(f"http://127.0.0.1:{port}/ok", timeout=2).status_code == 200

        wait_until(ok, timeout=180, what="flowagent serve's /ok", interval=0.5)
        said = log.read_text(errors="replace")
        pg_url = f"postgresql://postgres@127.0.0.1:{ports[ENV_PG_PORT]}/"
        assert f"DATABASE_URI is not set: started a local PostgreSQL at {pg_url}" in said
        assert f"REDIS_URI is not set: started a local Redis at redis://127.0.0.1:{ports[ENV_REDIS_PORT]}/0" in said
        assert "FLOWAGENT_DB is not set: the workflow store shares DATABASE_URI's database" in said

        # A token from `flowagent token` (the store is the local database) signs in; none is refused.
        token_env = {**env, "FLOWAGENT_DB": f"postgresql://postgres@127.0.0.1:{ports[ENV_PG_PORT]}/flowagent"}
        token = subprocess.run([str(SERVE_PYTHON), "-m", "flowagent.cli", "token", "李四"], cwd=REPO_ROOT, env=token_env,
                               capture_output=True, text=True, timeout=60, check=True).stdout.strip()
        url = f"http://127.0.0.1:{port}"
        assert httpx.post(f"{url}/threads/search", json={}, timeout=10).status_code == 401
        me = httpx.get(f"{url}/flowagent/api/me", headers={"Authorization": f"Bearer {token}"}, timeout=10)
        assert me.json()["name"] == "李四"
        assert httpx.post(f"{url}/threads", json={}, headers={"Authorization": f"Bearer {token}"}, timeout=10).status_code == 200

        # In the foreground, leading its own process group, with its two workers in it.
        assert os.getpgid(proc.pid) == proc.pid
        members = subprocess.run(["pgrep", "-g", str(proc.pid)], capture_output=True, text=True, check=False).stdout.split()
        assert len(members) >= 3, members  # the server and its two worker processes
    finally:
        stop_process_group(proc)
    wait_until(lambda: group_is_gone(proc.pid), timeout=15, what="the server's process group to end")
