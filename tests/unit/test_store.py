"""The workflow store: created and seeded on first use, seeded once, snapshots that evaluations can compare."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from sqlalchemy import func, select

from tools import WorkflowStore
from tools.workflow.store import DOMAIN_TABLES, audit_log

SEED_USERS = {
    "user_1": ("张三", "zhangsan@example.com"),
    "user_2": ("李四", "lisi@example.com"),
    "user_3": ("王五", "wangwu@example.com"),
    "user_4": ("赵六", "zhaoliu@example.com"),
    "user_admin": ("管理员", "admin@example.com"),
}
SEED_PROCESSES = {"process_qingjia": ("请假流程", True), "process_baoxiao": ("报销流程", False),
                  "process_chuchai": ("出差流程", False)}
TABLES = {"users", "processes", "requests", "tasks", "outbox", "tool_executions", "audit_log"}


def assert_seeded_once(snapshot: dict) -> None:
    assert {u["id"]: (u["name"], u["email"]) for u in snapshot["users"]} == SEED_USERS
    assert len(snapshot["users"]) == len(SEED_USERS)
    assert {p["key"]: (p["name"], p["startable"]) for p in snapshot["processes"]} == SEED_PROCESSES
    assert len(snapshot["processes"]) == len(SEED_PROCESSES)


def test_store_is_created_and_seeded_on_first_use(tmp_path):
    path = tmp_path / "nested" / "dir" / "first.db"
    assert not path.exists()
    store = WorkflowStore(f"sqlite:///{path}")
    try:
        assert path.exists()
        snapshot = store.snapshot()
        assert set(snapshot) == TABLES
        assert_seeded_once(snapshot)
        assert all(snapshot[t] == [] for t in TABLES - {"users", "processes"})
    finally:
        store.dispose()


def test_reopening_does_not_duplicate_seed(tmp_path, start_request, store):
    start_request(days=2)
    before = store.snapshot()
    for _ in range(2):
        again = WorkflowStore(store.url)
        try:
            assert again.snapshot() == before
        finally:
            again.dispose()
    assert_seeded_once(store.snapshot())
    assert len(store.snapshot()["requests"]) == 1


def test_snapshot_is_json_serialisable_and_sorted(store, start_request, make_ctx):
    for days in (3, 0.5, "2"):
        start_request(days=days)
    snapshot = store.snapshot()
    assert list(snapshot) == [t.name for t in DOMAIN_TABLES]
    assert json.loads(json.dumps(snapshot, ensure_ascii=False)) == snapshot
    for table in DOMAIN_TABLES:
        [pk] = [c.name for c in table.primary_key.columns]
        keys = [row[pk] for row in snapshot[table.name]]
        assert keys == sorted(keys), table.name
    assert snapshot["requests"][0]["flagged"] is True and snapshot["requests"][1]["flagged"] is False
    assert [r["days"] for r in snapshot["requests"]] == [3.0, 0.5, 2.0]
    # Two snapshots of an unchanged store are equal (no volatile data is added by reading).
    assert store.snapshot() == snapshot


def test_flowagent_db_env_selects_the_file(tmp_path, monkeypatch):
    path = tmp_path / "from-env.db"
    monkeypatch.setenv("FLOWAGENT_DB", str(path))
    store = WorkflowStore()
    try:
        assert path.exists()
        assert Path(store.engine.url.database).resolve() == path.resolve()
        assert_seeded_once(store.snapshot())
    finally:
        store.dispose()

    url_path = tmp_path / "from-url.db"
    monkeypatch.setenv("FLOWAGENT_DB", f"sqlite:///{url_path}")
    store = WorkflowStore()
    try:
        assert url_path.exists() and store.url == f"sqlite:///{url_path}"
    finally:
        store.dispose()


def test_default_store_path_without_env(tmp_path, monkeypatch):
    monkeypatch.delenv("FLOWAGENT_DB", raising=False)
    monkeypatch.chdir(tmp_path)
    store = WorkflowStore()
    try:
        assert (tmp_path / ".flowagent" / "workflow.db").exists()
    finally:
        store.dispose()


def test_a_read_on_sqlite_takes_no_write_lock(store):
    """A reader holding its snapshot open does not make a writer wait (WAL, deferred BEGIN for reads)."""
    committed = threading.Event()

    def write() -> None:
        store.record_audit("probe", {"while": "a read is open"})
        committed.set()

    with store.read() as conn:
        before = conn.execute(select(func.count()).select_from(audit_log)).scalar_one()
        writer = threading.Thread(target=write)
        writer.start()
        assert committed.wait(5), "the writer waited for the reader's transaction"
        # The reader still sees its own snapshot, not the row committed meanwhile.
        assert conn.execute(select(func.count()).select_from(audit_log)).scalar_one() == before
    writer.join()
    with store.read() as conn:
        assert conn.execute(select(func.count()).select_from(audit_log)).scalar_one() == before + 1
