"""The workflow store: the users, the process engine's deployments, instances, tasks and groups, the e-mail outbox,
tool executions and the audit log, in one database (SQLAlchemy Core), created and seeded on first use.

Requests and their approval steps live in the process engine's tables (`tools.workflow.engine.tables`): a request
is a process instance (`req_<id>`), a step waiting for a decision is a task (`task_<id>`). The store hands the engine
the caller's transaction, so an instance's new state, the tool execution's idempotency key and the e-mails it causes
commit together or not at all. The store's own tables are `tools.workflow.tables` (importable from here too).
"""

from __future__ import annotations

import functools
import json
import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

from sqlalchemy import Connection, Engine, bindparam, create_engine, func, insert, select, text
from sqlalchemy.exc import IntegrityError, OperationalError

from tools.backend import Execution
from tools.database import READ_ONLY_OPTION, default_url, normalize_url, sqlite_engine
from tools.workflow.engine import ProcessEngine, SpiffEngine, seed
from tools.workflow.engine import tables as engine_tables
from tools.workflow.handles import FirstUse, release_read, stop_at
from tools.workflow.languages import keep_language
from tools.workflow.leave.calendar import is_working_day
from tools.workflow.leave.seed import seed_balances
from tools.workflow.legacy import carry_legacy_requests
from tools.workflow.managers import manager_of, seed_managers
from tools.workflow.seed import ALLOCATIONS, USERS
from tools.workflow.tables import DOMAIN_TABLES, SYSTEM_SENDER, audit_log, metadata, outbox, tool_executions, users

__all__ = [
    "DOMAIN_TABLES",
    "PROCESS_ENGINE_KEY",
    "READ_ONLY_OPTION",
    "SNAPSHOT_COLUMNS_LEFT_OUT",
    "SYSTEM_SENDER",
    "VIEWS",
    "WorkflowStore",
    "audit_log",
    "metadata",
    "outbox",
    "tool_executions",
    "users",
    "utcnow",
    "workflow_engine",
]

logger = logging.getLogger(__name__)

SNAPSHOT_COLUMNS_LEFT_OUT = {"process_deployments": ("bpmn_xml",), "process_instances": ("state",)}
"""Columns a snapshot leaves out: the BPMN text and SpiffWorkflow's serialized state (large, and read by no check)."""

VIEWS = ("processes", "requests", "tasks", "emails", "notifications")
"""Tables a snapshot adds: read from the engine's, the deployed processes (latest versions), the requests (process
instances) and their approval steps (tasks), in the shape the seed's tables had; and the outbox split by sender, the
e-mails people sent (`emails`) and those the system wrote (`notifications`). See `WorkflowStore.snapshot`."""


def utcnow() -> str:
    """Now, as an ISO-8601 UTC timestamp (stored as text so every backend compares it the same way)."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def workflow_engine(clock: Callable[[], datetime] | None = None) -> SpiffEngine:
    """The store's process engine: SpiffWorkflow, embedded; its timers count working days on the mainland-China
    calendar (`tools.workflow.leave.calendar`) and escalate along the store's reporting lines
    (`tools.workflow.managers`). On `clock` (a test's, a trial's) when given."""
    if clock is None:
        return SpiffEngine(working_day=is_working_day, manager_of=manager_of)
    return SpiffEngine(clock=clock, working_day=is_working_day, manager_of=manager_of)


POSTGRES_SETUP_LOCK = 0x666C6F77  # "flow": the advisory lock that serialises table creation and seeding


_SEED_LOCK = threading.Lock()
PROCESS_ENGINE_KEY = "flowagent_process_engine"
"""Where a store's connections carry its process engine (`conn.info`), for code that gets only the connection."""


_EXECUTION_BY_KEY = select(tool_executions.c.result).where(tool_executions.c.idempotency_key == bindparam("key"))


class WorkflowStore:
    """The approval system's data: users, the process engine's deployments, requests, tasks and groups, the outbox,
    tool executions and the audit log.

    `WorkflowStore(url)` opens the store at a SQLAlchemy URL, creating its tables and seeding them on first use (the
    users, the groups `hr` and `finance`, and the BPMN processes shipped in `tools/workflow/processes/`; a shipped file
    whose XML changed is deployed as a new version). Without a URL it uses `FLOWAGENT_DB`, else
    `.flowagent/workflow.db`. A store written by the seed's own tables has its pending requests carried into engine
    instances on first start (`tools.workflow.legacy`). It is the workflow toolset's backend (`tools.backend.Backend`):
    its handles are SQLAlchemy connections, and `process_engine` runs in them.
    """

    conflict: tuple[type[BaseException], ...] = (IntegrityError,)

    def __init__(self, url: str | None = None, *, engine: Engine | None = None,
                 process_engine: ProcessEngine | None = None) -> None:
        self.url = normalize_url(url or default_url())
        if engine is not None:
            self.engine = engine
        elif self.url.startswith("sqlite"):
            self.engine = sqlite_engine(self.url)
        else:
            self.engine = create_engine(self.url, pool_pre_ping=True, pool_size=10, max_overflow=20)
        self.process_engine: ProcessEngine = (
            process_engine if process_engine is not None else workflow_engine()
        )
        """The BPMN engine the workflow's tools run processes on (`workflow_engine`)."""
        self._setup()

    def __repr__(self) -> str:
        return f"WorkflowStore({self.engine.url.render_as_string(hide_password=True)!r})"

    def _setup(self) -> None:
        if self.engine.dialect.name == "postgresql":
            # Workers starting together would race on CREATE TABLE and on the seed: one at a time per database,
            # in one transaction (Postgres DDL is transactional), so the next one finds the tables and the rows.
            with self.engine.begin() as conn:
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": POSTGRES_SETUP_LOCK})
                self._create_and_seed(conn)
            return
        with _SEED_LOCK:
            try:
                with self.engine.begin() as conn:  # BEGIN IMMEDIATE: another process seeding waits for this one
                    self._create_and_seed(conn)
            except IntegrityError:
                # Another process seeded the same database first; its rows are the same seed.
                pass

    def _create_and_seed(self, conn: Connection) -> None:
        conn.info[PROCESS_ENGINE_KEY] = self.process_engine
        metadata.create_all(conn, checkfirst=True)
        engine_tables.create_tables(conn)
        if conn.execute(select(func.count()).select_from(users)).scalar_one() == 0:
            conn.execute(insert(users), USERS)
        seed_balances(conn, ALLOCATIONS)
        seed_managers(conn)
        seed(self.process_engine, conn)
        carry_legacy_requests(conn, self.process_engine, audit_log, self.audit)

    # ---------------------------------------------------------------- deployments

    def deploy(self, bpmn: str | Path) -> dict[str, Any]:
        """Deploy a BPMN process (a file path or XML text): `{"key", "version"}`; the same key again is version n + 1,
        and running instances finish on the version they started with. Invalid BPMN raises
        `tools.workflow.engine.DeployError` (naming the element and the fix), and nothing is stored."""
        with self.transaction() as conn:
            deployed = self.process_engine.deploy(conn, bpmn)
        return {"key": deployed.key, "version": deployed.version}

    # ---------------------------------------------------------------- the backend

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        """One transaction: committed when the block ends, rolled back entirely on any exception."""
        with self.engine.begin() as conn:
            conn.info[PROCESS_ENGINE_KEY] = self.process_engine
            yield conn

    def read(self) -> AbstractContextManager[Connection]:
        """A connection for reads: one snapshot, rolled back at the end; on SQLite it takes no write lock.

        It is taken from the pool at its first use: a check that finds every record it needs already known (the
        validator's, on most steps) takes none."""
        return self._read(None)

    def read_until(self, deadline: float) -> AbstractContextManager[Connection]:
        """`read`, whose statements stop at `deadline` (a `time.monotonic()` time) and raise `TimeoutError`: SQLite
        checks the time as a statement runs, PostgreSQL gets the time left as the read's `statement_timeout`."""
        return self._read(deadline)

    @contextmanager
    def _read(self, deadline: float | None) -> Iterator[Connection]:
        if deadline is None:
            handle = FirstUse(self._read_connection)
        else:
            handle = FirstUse(functools.partial(self._read_connection, deadline), release=release_read)
        try:
            yield cast(Connection, handle)
        except OperationalError as exc:
            # PostgreSQL's own cancel for the read's statement_timeout (57014) is the deadline, even when its timer
            # fired a millisecond before this process's clock says the deadline has come
            stopped = getattr(exc.orig, "sqlstate", None) == "57014"
            if deadline is None or (time.monotonic() < deadline and not stopped):
                raise
            raise TimeoutError(f"the read was stopped at its deadline ({exc.orig})") from exc
        finally:
            handle.close()

    def _read_connection(self, deadline: float | None = None) -> Connection:
        conn = self.engine.connect().execution_options(**{READ_ONLY_OPTION: True})
        conn.info[PROCESS_ENGINE_KEY] = self.process_engine
        if deadline is not None:
            try:
                stop_at(conn, deadline)
            except BaseException:
                release_read(conn)
                raise
        return conn

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
        keep_language(handle, execution.actor_id, execution.lang, utcnow())

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

    # ---------------------------------------------------------------- snapshots

    def snapshot(self) -> dict[str, list[dict[str, Any]]]:
        """Every row as plain, sorted, JSON-able data: `{table name: [row, ...]}`.

        The store's tables (users, outbox, tool_executions, audit_log), the engine's (process_deployments without
        their XML, process_instances without SpiffWorkflow's state, process_tasks, process_task_offers, user_groups,
        user_group_members), and three views of the engine's rows in the shape the seed's tables had, which the
        evaluations grade on:

        - `processes`: each deployed key's latest version: key, name, name_en, version, startable (always true),
          fields (the start form as JSON);
        - `requests`: one per instance: id, process_key, process_version, requester_id, status (pending while it
          runs, returned while it waits on its requester, then approved, rejected, ended or withdrawn), the form's
          `days` and `reason` (None when the process has none), form (every form value, JSON), step (the steps
          waiting now), flagged (over one day), created_at, decided_at;
        - `tasks`: one per user task: id, request_id, process_key, step, element_id, assignee_id, candidate_users and
          candidate_groups (comma-separated), status (pending, approved, rejected, returned to the requester, or
          cancelled when a parallel branch ended it or the request was withdrawn or sent back), comment, decided_by,
          created_at, decided_at;
        - `emails` and `notifications`: the outbox's rows sent by people (sendEmail) and by the system (a task is
          waiting for you, your request ended), each as in `outbox`.
        """
        from tools.workflow.views import processes_view, requests_view, tasks_view

        result: dict[str, list[dict[str, Any]]] = {}
        with self.read() as conn:
            for table in (*DOMAIN_TABLES, *engine_tables.ENGINE_TABLES):
                left_out = SNAPSHOT_COLUMNS_LEFT_OUT.get(table.name, ())
                columns = [c for c in table.columns if c.name not in left_out]
                pk = list(table.primary_key.columns)
                rows = conn.execute(select(*columns).order_by(*pk)).mappings().all()
                result[table.name] = [_plain(dict(row)) for row in rows]
            result["processes"] = [_plain(row) for row in processes_view(conn, self.process_engine)]
            result["requests"] = [_plain(row) for row in requests_view(conn, self.process_engine)]
            result["tasks"] = [_plain(row) for row in tasks_view(conn)]
        result["emails"] = [row for row in result["outbox"] if row["sender_id"] != SYSTEM_SENDER]
        result["notifications"] = [row for row in result["outbox"] if row["sender_id"] == SYSTEM_SENDER]
        return result

    def dispose(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()


def _plain(row: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in row.items():
        if isinstance(value, str | int | float | bool) or value is None:
            out[key] = value
        else:
            out[key] = str(value)
    return out
