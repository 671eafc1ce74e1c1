"""`./run web --port P` as a person starts it: the page's address, with that port, after the server's own banner; and
the timer service running in its server, firing a request's timers each once, at most a minute late."""

from __future__ import annotations

import re
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from evals.doubles.openai_server import ScriptedOpenAIServer
from tests.support.langgraph_server import server_env
from tests.support.net import free_port, stop_process_group, wait_until

ROOT = Path(__file__).resolve().parents[2]
STARTUP_S = 180


@contextmanager
def run_web(tmp_path: Path) -> Iterator[tuple[int, Path, subprocess.Popen[bytes]]]:
    """`./run web --port P` on a store in `tmp_path`, once it printed the page's address: (P, its log, the process)."""
    port = free_port()
    with ScriptedOpenAIServer(api_key="sk-test") as model:
        env = server_env(OPENAI_BASE_URL=model.base_url, OPENAI_API_KEY="sk-test", FLOWAGENT_MODEL="scripted",
                         FLOWAGENT_DB=str(tmp_path / "workflow.db"), FLOWAGENT_AUTH_SECRET="s" * 48)
        log = tmp_path / "web.log"
        with log.open("wb") as out:
            process = subprocess.Popen(["./run", "web", "--port", str(port)], cwd=ROOT, env=env, stdout=out,
                                       stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            page = f"==> the page: http://127.0.0.1:{port}/flowagent/"
            deadline = time.monotonic() + STARTUP_S
            while page not in log.read_text(errors="replace") and time.monotonic() < deadline:
                assert process.poll() is None, log.read_text(errors="replace")[-3000:]
                time.sleep(0.5)
            yield port, log, process
        finally:
            stop_process_group(process)


def test_run_web_prints_the_pages_address_with_its_port_after_the_servers_banner(tmp_path: Path) -> None:
    with run_web(tmp_path) as (port, log, _):
        page = f"==> the page: http://127.0.0.1:{port}/flowagent/"
        text = re.sub(r"\x1b\[[0-9;]*m", "", log.read_text(errors="replace"))
        assert page in text, text[-3000:]
        assert text.index("API: http") < text.index(page), text[-3000:]  # after the server's banner


def test_run_webs_server_fires_the_timers_each_once_within_a_minute(tmp_path: Path) -> None:
    from tests.support.timers import REMIND_KEY, remind_bpmn
    from tools.workflow.store import WorkflowStore

    with run_web(tmp_path) as (_, log, _):
        store = WorkflowStore(f"sqlite:///{tmp_path / 'workflow.db'}")
        try:
            with store.transaction() as conn:
                store.process_engine.deploy(conn, remind_bpmn(remind="PT1S", escalate="PT2S", due="PT3S", working=False))
                started = store.process_engine.start(conn, REMIND_KEY, requester="user_1",
                                                     data={"reason": "合同", "nextUserId": "user_2"})
            number = int(started.instance_id.removeprefix("req_"))

            def fired() -> list[dict[str, Any]] | None:
                rows = [r for r in store.snapshot()["process_timers"] if r["instance_id"] == number]
                return rows if len(rows) == 3 and all(r["status"] == "fired" for r in rows) else None

            rows = wait_until(fired, timeout=3 + 60, what="the timers fired by ./run web's server", interval=0.5)
            for row in rows:  # the default 15 s polls: at most a minute late
                late = datetime.fromisoformat(row["fired_at"]) - datetime.fromisoformat(row["due_at"])
                assert timedelta(0) <= late <= timedelta(seconds=60), row
            events = [e["detail"]["timer_id"] for e in store.audit_entries("timer_fired")]
            assert sorted(events) == sorted(r["id"] for r in rows), log.read_text(errors="replace")[-3000:]
        finally:
            store.dispose()
