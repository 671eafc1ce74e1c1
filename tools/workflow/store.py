"""The workflow store: SQLAlchemy Core tables, created and seeded on first use."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    event,
    func,
    insert,
    select,
    text,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError

from tools.backend import Execution
from tools.database import default_url, normalize_url
from tools.workflow.seed import PROCESSES, USERS

metadata = MetaData()

users = Table(
    "users",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("name", String(128), nullable=False),
    Column("email", String(256), nullable=False),
    Column("alias", String(128), nullable=False, default=""),
)

processes = Table(
    "processes",
    metadata,
    Column("key", String(64), primary_key=True),
    Column("name", String(128), nullable=False),
    Column("description", Text, nullable=False, default=""),
    Column("startable", Boolean, nullable=False),
)

requests = Table(
    "requests",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("process_key", String(64), ForeignKey("processes.key"), nullable=False),
    Column("requester_id", String(64), ForeignKey("users.id"), nullable=False),
    Column("reason", Text, nullable=False),
    Column("days", Float, nullable=False),
    Column("status", String(16), nullable=False),  # pending | approved | rejected
    Column("flagged", Boolean, nullable=False, default=False),
    Column("created_at", String(40), nullable=False),
    Column("decided_at", String(40)),
)

tasks = Table(
    "tasks",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("request_id", Integer, ForeignKey("requests.id"), nullable=False),
    Column("assignee_id", String(64), ForeignKey("users.id"), nullable=False),
    Column("status", String(16), nullable=False),  # pending | approved | rejected
    Column("comment", Text),
    Column("decided_by", String(64)),
    Column("created_at", String(40), nullable=False),
    Column("decided_at", String(40)),
)

outbox = Table(
    "outbox",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("idempotency_key", String(256), nullable=False, unique=True),
    Column("thread_id", String(128), nullable=False),
    Column("sender_id", String(64), nullable=False),
    Column("recipient_id", String(64), ForeignKey("users.id"), nullable=False),
    Column("recipient_email", String(256), nullable=False),
    Column("subject", String(256), nullable=False),
    Column("body", Text, nullable=False),
    Column("task_id", Integer),
    Column("status", String(16), nullable=False),  # queued | sending | sent | failed
    Column("attempts", Integer, nullable=False, default=0),
    Column("last_error", Text),
    Column("created_at", String(40), nullable=False),
    Column("claimed_at", String(40)),
    Column("sent_at", String(40)),
)

tool_executions = Table(
    "tool_executions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("idempotency_key", String(256), nullable=False, unique=True),
    Column("thread_id", String(128), nullable=False),
    Column("actor_id", String(64), nullable=False),
    Column("tool", String(64), nullable=False),
    Column("args", Text, nullable=False),
    Column("result", Text, nullable=False),
    Column("created_at", String(40), nullable=False),
)

audit_log = Table(
    "audit_log",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", String(40), nullable=False),
    Column("thread_id", String(128)),
    Column("actor_id", String(64)),
    Column("event", String(64), nullable=False),
    Column("detail", Text, nullable=False),
)

DOMAIN_TABLES: tuple[Table, ...] = (
    users,
    processes,
    requests,
    tasks,
    outbox,
    tool_executions,
    audit_log,
)


def utcnow() -> str:
    """Now, as an ISO-8601 UTC timestamp (stored as text so every backend compares it the same way)."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


POSTGRES_SETUP_LOCK = 0x666C6F77  # "flow": the advisory lock that serialises table creation and seeding


READ_ONLY_OPTION = "flowagent_read_only"
"""Execution option that marks a connection as read-only (see `WorkflowStore.read`)."""


def _sqlite_engine(url: str) -> Engine:
    parsed = make_url(url)
    database = parsed.database or ""
    if database and database != ":memory:":
        Path(database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy emit BEGIN itself (below) instead of pysqlite's lazy, deferred BEGIN.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        # A write transaction takes the write lock up front: concurrent writers queue instead of deadlocking
        # on upgrade. A read (`WorkflowStore.read`) begins deferred: in WAL mode it reads a snapshot without
        # the lock, so readers neither wait for writers nor make them wait.
        if conn.get_execution_options().get(READ_ONLY_OPTION):
            conn.exec_driver_sql("BEGIN")
        else:
            conn.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


_SEED_LOCK = threading.Lock()


_EXECUTION_BY_KEY = select(tool_executions.c.result).where(tool_executions.c.idempotency_key == bindparam("key"))


class WorkflowStore:
    """The leave-approval system's data: users, processes, requests, tasks, outbox, executions, audit.

    `WorkflowStore(url)` opens the store at a SQLAlchemy URL, creating its tables and seeding them on
    first use. Without a URL it uses `FLOWAGENT_DB`, else `.flowagent/workflow.db`. It is the workflow toolset's
    backend (`tools.backend.Backend`): its handles are SQLAlchemy connections.
    """

    conflict: tuple[type[BaseException], ...] = (IntegrityError,)

    def __init__(self, url: str | None = None, *, engine: Engine | None = None) -> None:
        self.url = normalize_url(url or default_url())
        if engine is not None:
            self.engine = engine
        elif self.url.startswith("sqlite"):
            self.engine = _sqlite_engine(self.url)
        else:
            self.engine = create_engine(self.url, pool_pre_ping=True, pool_size=10, max_overflow=20)
        self._setup()

    def __repr__(self) -> str:
        return f"WorkflowStore({self.engine.url.render_as_string(hide_password=True)!r})"

    def _setup(self) -> None:
        if self.engine.dialect.name == "postgresql":
            self._setup_postgres()
            return
        with _SEED_LOCK:
            metadata.create_all(self.engine, checkfirst=True)
            try:
                with self.engine.begin() as conn:
                    if conn.execute(select(func.count()).select_from(users)).scalar_one() == 0:
                        conn.execute(insert(users), USERS)
                        conn.execute(insert(processes), PROCESSES)
            except IntegrityError:
                # Another process seeded the same database first; its rows are the same seed.
                pass

    def _setup_postgres(self) -> None:
        # Workers starting together would race on CREATE TABLE and on the seed: one at a time per database,
        # in one transaction (Postgres DDL is transactional), so the next one finds the tables and the rows.
        with self.engine.begin() as conn:
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": POSTGRES_SETUP_LOCK})
            metadata.create_all(conn, checkfirst=True)
            if conn.execute(select(func.count()).select_from(users)).scalar_one() == 0:
                conn.execute(insert(users), USERS)
                conn.execute(insert(processes), PROCESSES)

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        """One transaction: committed when the block ends, rolled back entirely on any exception."""
        with self.engine.begin() as conn:
            yield conn

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A connection for reads: one snapshot, rolled back at the end; on SQLite it takes no write lock."""
        with self.engine.connect().execution_options(**{READ_ONLY_OPTION: True}) as conn:
            yield conn

    def recorded(self, handle: Connection, key: str) -> dict[str, Any] | None:
        """The result recorded under an idempotency key, or None."""
        raw = handle.execute(_EXECUTION_BY_KEY, {"key": key}).scalar_one_or_none()
        return None if raw is None else json.loads(raw)

    def record(self, handle: Connection, execution: Execution) -> None:
        """A write's execution and its audit entry, in the write's transaction (a duplicate key raises
        IntegrityError, and the whole transaction rolls back)."""
        handle.execute(
            insert(tool_executions).values(
                idempotency_key=execution.key,
                thread_id=execution.thread_id,
                actor_id=execution.actor_id,
                tool=execution.tool,
                args=json.dumps(execution.args, ensure_ascii=False, sort_keys=True, default=str),
                result=json.dumps(execution.result, ensure_ascii=False, sort_keys=True),
                created_at=utcnow(),
            )
        )
        self.audit(
            handle, "tool_executed", {"tool": execution.tool, "args": execution.args, "result": execution.result},
            thread_id=execution.thread_id, actor_id=execution.actor_id,
        )

    def reviews(self, thread_id: str, tool_call_id: str) -> list[dict[str, Any]]:
        """The review decisions on record for one call in one thread, oldest first."""
        query = (
            select(audit_log)
            .where(audit_log.c.thread_id == thread_id, audit_log.c.event.like("review_%"))
            .order_by(audit_log.c.id)
        )
        with self.read() as conn:
            rows = [dict(row, detail=json.loads(row["detail"])) for row in conn.execute(query).mappings()]
        return [row for row in rows if row["detail"].get("tool_call_id") == tool_call_id]

    def audit(
        self,
        conn: Connection,
        event_name: str,
        detail: dict[str, Any],
        *,
        thread_id: str | None = None,
        actor_id: str | None = None,
    ) -> None:
        """Append one record to the audit log inside the caller's transaction."""
        conn.execute(
            insert(audit_log).values(
                at=utcnow(),
                thread_id=thread_id,
                actor_id=actor_id,
                event=event_name,
                detail=json.dumps(detail, ensure_ascii=False, sort_keys=True, default=str),
            )
        )

    def record_audit(
        self,
        event_name: str,
        detail: dict[str, Any],
        *,
        thread_id: str | None = None,
        actor_id: str | None = None,
    ) -> None:
        """Append one record to the audit log in its own transaction."""
        with self.transaction() as conn:
            self.audit(conn, event_name, detail, thread_id=thread_id, actor_id=actor_id)

    def audit_entries(self, event_name: str | None = None, *, thread_id: str | None = None) -> list[dict[str, Any]]:
        """The audit log, oldest first, optionally of one event and one thread; each `detail` parsed."""
        query = select(audit_log).order_by(audit_log.c.id)
        if event_name is not None:
            query = query.where(audit_log.c.event == event_name)
        if thread_id is not None:
            query = query.where(audit_log.c.thread_id == thread_id)
        with self.read() as conn:
            rows = conn.execute(query).mappings().all()
        return [dict(row, detail=json.loads(row["detail"])) for row in rows]

    def snapshot(self) -> dict[str, list[dict[str, Any]]]:
        """Every domain row as plain, sorted, JSON-able data: `{table name: [row, ...]}`."""
        result: dict[str, list[dict[str, Any]]] = {}
        with self.read() as conn:
            for table in DOMAIN_TABLES:
                pk = list(table.primary_key.columns)
                rows = conn.execute(select(table).order_by(*pk)).mappings().all()
                result[table.name] = [_plain(dict(row)) for row in rows]
        return result

    def dispose(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()


def _plain(row: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in row.items():
        if isinstance(value, float) and value.is_integer():
            out[key] = value
        elif isinstance(value, str | int | float | bool) or value is None:
            out[key] = value
        else:
            out[key] = str(value)
    return out
