"""The workflow store: created and seeded on first use, seeded once, snapshots that evaluations can compare."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from sqlalchemy import func, select

from tools import WorkflowStore
from tools.workflow.engine import ENGINE_TABLES
from tools.workflow.store import DOMAIN_TABLES, VIEWS, audit_log

SEED_USERS = {
    "user_1": ("张三", "zhangsan@example.com"),
    "user_2": ("李四", "lisi@example.com"),
    "user_3": ("王五", "wangwu@example.com"),
    "user_4": ("赵六", "zhaoliu@example.com"),
    "user_admin": ("管理员", "admin@example.com"),
}
SEED_PROCESSES = {"process_qingjia": ("请假流程", 1), "process_baoxiao": ("报销流程", 1), "process_chuchai": ("出差流程", 1)}
SEED_GROUPS = [("hr", "user_admin"), ("finance", "user_4")]
TABLES = {"users", "outbox", "tool_executions", "audit_log", "leave_balances", "leave_ledger", "process_deployments",
          "process_instances", "process_tasks",
          "process_task_offers", "process_instance_actions", "process_timers", "user_groups", "user_group_members", "processes",
          "requests", "tasks", "emails",
          "notifications", "request_cc", "urges", "deputies", "process_task_moves", "user_languages"}
SEEDED = {"users", "leave_balances", "leave_ledger", "process_deployments", "user_groups", "user_group_members",
          "processes"}


def assert_seeded_once(snapshot: dict) -> None:
    assert {u["id"]: (u["name"], u["email"]) for u in snapshot["users"]} == SEED_USERS
    assert len(snapshot["users"]) == len(SEED_USERS)
    assert {p["key"]: (p["name"], p["version"]) for p in snapshot["processes"]} == SEED_PROCESSES
    assert len(snapshot["process_deployments"]) == len(SEED_PROCESSES)
    assert [(m["group_id"], m["user_id"]) for m in snapshot["user_group_members"]] == sorted(SEED_GROUPS)


def test_store_is_created_and_seeded_on_first_use(tmp_path):
    path = tmp_path / "nested" / "dir" / "first.db"
    assert not path.exists()
    store = WorkflowStore(f"sqlite:///{path}")
    try:
        assert path.exists()
        snapshot = store.snapshot()
        assert set(snapshot) == TABLES
        assert_seeded_once(snapshot)
        assert all(snapshot[t] == [] for t in TABLES - SEEDED)
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
    assert list(snapshot) == [t.name for t in (*DOMAIN_TABLES, *ENGINE_TABLES)] + list(VIEWS)
    assert json.loads(json.dumps(snapshot, ensure_ascii=False)) == snapshot
    for table in (*DOMAIN_TABLES, *ENGINE_TABLES):
        pk = [c.name for c in table.primary_key.columns]
        keys = [tuple(row[k] for k in pk) for row in snapshot[table.name]]
        assert keys == sorted(keys), table.name
    assert "bpmn_xml" not in snapshot["process_deployments"][0] and "state" not in snapshot["process_instances"][0]
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


# ---------------------------------------------------------------- stores written by the seed's own tables

LEGACY_SCHEMA = """
CREATE TABLE users (id VARCHAR(64) PRIMARY KEY, name VARCHAR(128) NOT NULL, email VARCHAR(256) NOT NULL,
                    alias VARCHAR(128) NOT NULL DEFAULT '');
CREATE TABLE processes (key VARCHAR(64) PRIMARY KEY, name VARCHAR(128) NOT NULL, description TEXT NOT NULL,
                        startable BOOLEAN NOT NULL);
CREATE TABLE requests (id INTEGER PRIMARY KEY AUTOINCREMENT, process_key VARCHAR(64) NOT NULL REFERENCES processes(key),
                       requester_id VARCHAR(64) NOT NULL REFERENCES users(id), reason TEXT NOT NULL, days FLOAT NOT NULL,
                       status VARCHAR(16) NOT NULL, flagged BOOLEAN NOT NULL, created_at VARCHAR(40) NOT NULL,
                       decided_at VARCHAR(40));
CREATE TABLE tasks (id INTEGER PRIMARY KEY AUTOINCREMENT, request_id INTEGER NOT NULL REFERENCES requests(id),
                    assignee_id VARCHAR(64) NOT NULL REFERENCES users(id), status VARCHAR(16) NOT NULL, comment TEXT,
                    decided_by VARCHAR(64), created_at VARCHAR(40) NOT NULL, decided_at VARCHAR(40));
INSERT INTO users VALUES ('user_1', '张三', 'zhangsan@example.com', 'Zhang San'), ('user_2', '李四', 'lisi@example.com', 'Li Si'),
  ('user_3', '王五', 'wangwu@example.com', 'Wang Wu'), ('user_4', '赵六', 'zhaoliu@example.com', 'Zhao Liu'),
  ('user_admin', '管理员', 'admin@example.com', 'Administrator');
INSERT INTO processes VALUES ('process_qingjia', '请假流程', 'Leave request (请假)', 1),
  ('process_baoxiao', '报销流程', 'Expense claim (报销)', 0), ('process_chuchai', '出差流程', 'Business trip (出差)', 0);
INSERT INTO requests VALUES
  (1, 'process_qingjia', 'user_1', '看牙医', 1, 'approved', 0, '2026-11-01T08:00:00+00:00', '2026-11-01T09:00:00+00:00'),
  (2, 'process_qingjia', 'user_1', '回老家', 5, 'pending', 1, '2026-11-02T08:00:00+00:00', NULL),
  (3, 'process_qingjia', 'user_3', '搬家', 2, 'rejected', 1, '2026-11-03T08:00:00+00:00', '2026-11-03T09:00:00+00:00'),
  (4, 'process_qingjia', 'user_4', '孩子生病', 0.5, 'pending', 0, '2026-11-04T08:00:00+00:00', NULL);
INSERT INTO tasks VALUES
  (1, 1, 'user_2', 'approved', '同意', 'user_2', '2026-11-01T08:00:00+00:00', '2026-11-01T09:00:00+00:00'),
  (2, 2, 'user_3', 'pending', NULL, NULL, '2026-11-02T08:00:00+00:00', NULL),
  (3, 3, 'user_2', 'rejected', '人手不够', 'user_2', '2026-11-03T08:00:00+00:00', '2026-11-03T09:00:00+00:00'),
  (4, 4, 'user_2', 'pending', NULL, NULL, '2026-11-04T08:00:00+00:00', NULL);
"""


def test_a_store_written_by_the_seeds_tables_has_its_pending_requests_carried_into_engine_instances(tmp_path):
    import sqlite3

    from tools import execute_call
    from tools.spec import CallContext
    from tools.workflow import TOOLSET

    path = tmp_path / "legacy.db"
    with sqlite3.connect(path) as db:
        db.executescript(LEGACY_SCHEMA)
    store = WorkflowStore(f"sqlite:///{path}")
    try:
        snap = store.snapshot()
        # The two pending requests, with their ids, data, approver and time; the decided ones stay in the old tables.
        assert [(r["id"], r["requester_id"], r["days"], r["reason"], r["status"], r["step"]) for r in snap["requests"]] == [
            (2, "user_1", 5.0, "回老家", "pending", "审批人审批"), (4, "user_4", 0.5, "孩子生病", "pending", "审批人审批")]
        assert [(t["id"], t["request_id"], t["assignee_id"], t["status"]) for t in snap["tasks"]] == [
            (2, 2, "user_3", "pending"), (4, 4, "user_2", "pending")]
        assert snap["requests"][0]["created_at"] == "2026-11-02T08:00:00+00:00"
        [carried] = store.audit_entries("legacy_requests_carried")
        assert [c["request"] for c in carried["detail"]["carried"]] == ["req_2", "req_4"]

        # They run on: 王五 decides task_2 (5 days: on to hr), and new ids continue after the old tables' highest.
        ctx = CallContext(backend=store, actor_id="user_3", call_id="c1")
        decided = execute_call(TOOLSET, "handleTodoTask", {"taskId": "task_2", "isOK": True, "result": "同意"}, ctx)
        assert [(n["taskId"], n["step"]) for n in decided["next"]] == [("task_5", "人事审批")]
        ctx = CallContext(backend=store, actor_id="user_2", call_id="c2")
        started = execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_qingjia", "userId": "user_2", "days": 1,
                                                         "reason": "体检", "nextUserId": "user_3"}, ctx)
        assert (started["requestId"], started["taskId"]) == ("req_5", "task_6")
    finally:
        store.dispose()
    again = WorkflowStore(f"sqlite:///{path}")  # carried once: a second start changes nothing
    try:
        assert len(again.audit_entries("legacy_requests_carried")) == 1
        assert [r["id"] for r in again.snapshot()["requests"]] == [2, 4, 5]
    finally:
        again.dispose()
