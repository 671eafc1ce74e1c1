"""Two `flowagent timers` processes on one PostgreSQL database: every step's reminder, escalation and due date fires
exactly once and at most a minute late, and they keep firing when one of the two processes is killed."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from tests.support.postgres import PostgresServer, postgres_fixture  # noqa: F401 - the session fixture `postgres`
from tests.support.timers import REMIND_KEY, remind_bpmn
from tools.workflow.engine import tables
from tools.workflow.store import WorkflowStore

pytestmark = pytest.mark.e2e

TIMERS = [sys.executable, "-m", "flowagent.cli", "timers", "--interval", "0.5"]
READY_S = 90.0
"""How long a `flowagent timers` process may take to start (imports on a busy two-core machine)."""


@pytest.fixture
def store(postgres: PostgresServer) -> Iterator[WorkflowStore]:
    workflow = WorkflowStore(postgres.url(postgres.create_database("timers"), driver="postgresql+psycopg"))
    with workflow.transaction() as conn:
        workflow.process_engine.deploy(conn, remind_bpmn(remind="PT2S", escalate="PT4S", due="PT6S", working=False))
    yield workflow
    workflow.dispose()


def service(url: str, log: Path) -> subprocess.Popen[str]:
    """A `flowagent timers` process on the store, its output in `log`, once it polls."""
    env = {**os.environ, "FLOWAGENT_DB": url, "FLOWAGENT_SMTP_URL": ""}
    process = subprocess.Popen([*TIMERS, "--db", url], stdout=log.open("w"), stderr=subprocess.STDOUT, text=True,
                               env=env, cwd=Path(__file__).resolve().parents[2])
    deadline = time.monotonic() + READY_S
    while "polling every" not in log.read_text():
        assert process.poll() is None, log.read_text()[-2000:]
        assert time.monotonic() < deadline, f"flowagent timers did not start: {log.read_text()[-2000:]}"
        time.sleep(0.2)
    return process


def start(store: WorkflowStore, count: int) -> None:
    for n in range(count):
        with store.transaction() as conn:
            store.process_engine.start(conn, REMIND_KEY, requester="user_1",
                                       data={"reason": f"合同 {n}", "nextUserId": "user_2"})


def timers(store: WorkflowStore) -> list[dict[str, object]]:
    with store.read() as conn:
        return [dict(r) for r in conn.execute(select(tables.timers).order_by(tables.timers.c.id)).mappings()]


def wait_until_all_fired(store: WorkflowStore, timeout: float = 60.0) -> list[dict[str, object]]:
    deadline = time.monotonic() + timeout
    while True:
        rows = timers(store)
        if rows and all(r["status"] == "fired" for r in rows):
            return rows
        assert time.monotonic() < deadline, [(r["id"], r["status"]) for r in rows if r["status"] != "fired"]
        time.sleep(0.5)


def test_two_timer_services_fire_each_timer_once_and_on_time_and_one_keeps_going_alone(
    store: WorkflowStore, tmp_path: Path
):
    url = store.url
    first, second = service(url, tmp_path / "a.log"), service(url, tmp_path / "b.log")
    try:
        start(store, 8)
        first_round = wait_until_all_fired(store)
        first.send_signal(signal.SIGKILL)  # no goodbye: its claims are in the database or nowhere
        first.wait(timeout=10)
        start(store, 4)
        rows = wait_until_all_fired(store)
    finally:
        for process in (first, second):
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                process.wait(timeout=20)
    assert len(first_round) == 8 * 3 and len(rows) == 12 * 3
    for row in rows:  # at most a minute late, by the due time the engine stored
        late = datetime.fromisoformat(str(row["fired_at"])) - datetime.fromisoformat(str(row["due_at"]))
        assert timedelta(0) <= late <= timedelta(seconds=60), row
    names = {f"{socket.gethostname()}:{p.pid}" for p in (first, second)}
    assert {str(r["fired_by"]) for r in first_round} <= names
    after_kill = [r for r in rows if r["id"] not in {f["id"] for f in first_round}]
    assert {str(r["fired_by"]) for r in after_kill} == {f"{socket.gethostname()}:{second.pid}"}
    fired = Counter(e["detail"]["timer_id"] for e in store.audit_entries("timer_fired"))
    assert sorted(fired) == [r["id"] for r in rows] and set(fired.values()) == {1}  # each fired exactly once
    mails = Counter((m["recipient_id"], m["subject"].split(": ")[0]) for m in store.snapshot()["notifications"]
                    if m["thread_id"] == "timers")
    assert mails == {("user_2", "[flowagent] 催办提醒 / Reminder"): 12, ("user_admin", "[flowagent] 超时转交 / Moved to you"): 12,
                     ("user_2", "[flowagent] 已转交 / Moved on"): 12}
    with store.read() as conn:
        kinds = [h.kind for h in store.process_engine.timeline(conn, "req_12")]
    assert kinds == ["started", "reminded", "escalated", "overdue"]
    last_due = [r for r in rows if r["action"] == "due"][-1]
    assert json.loads(str(last_due["detail"]))["holders"] == ["user_admin"]  # the due date came after the move to hr
