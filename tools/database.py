"""Where the project's database is (`FLOWAGENT_DB`, a SQLAlchemy URL or a file path, else `.flowagent/workflow.db`),
and how every SQLite connection of the project is set up.

The workflow's store keeps its tables there; the server's sign-in keeps its deny list of revoked tokens beside them.
Both, the graph's SQLite checkpointer and the tests open SQLite through `sqlite_engine` or `open_sqlite`, which run
`set_up_sqlite` on every new connection: one set of pragmas, so the processes sharing a file agree on its journal.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import make_url

DEFAULT_DB_PATH = Path(".flowagent") / "workflow.db"

SQLITE_BUSY_TIMEOUT_S = 30
"""How long a SQLite connection waits for another one's lock before it fails with "database is locked"."""

SQLITE_PRAGMAS = (
    "journal_mode=WAL",
    "synchronous=NORMAL",
    "foreign_keys=ON",
    f"busy_timeout={SQLITE_BUSY_TIMEOUT_S * 1000}",
)
"""Run on every new SQLite connection. WAL lets readers read a snapshot while one writer writes; with NORMAL a commit
skips its fsync, so a crash of the program never loses a committed row (only a power loss can drop the last few)."""

READ_ONLY_OPTION = "flowagent_read_only"
"""Execution option that marks a connection as read-only: on SQLite its transaction begins deferred (see
`sqlite_engine`)."""


def default_url() -> str:
    """The database URL from `FLOWAGENT_DB` (a URL or a file path), else `.flowagent/workflow.db`."""
    configured = os.environ.get("FLOWAGENT_DB", "").strip()
    if configured and "://" in configured:
        return configured
    path = Path(configured) if configured else DEFAULT_DB_PATH
    return f"sqlite:///{path}"


def normalize_url(url: str) -> str:
    """`postgresql://…` and `postgres://…` use the psycopg 3 driver (SQLAlchemy's default would be psycopg2)."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def set_up_sqlite(connection: sqlite3.Connection) -> None:
    """Run `SQLITE_PRAGMAS` on a new SQLite connection: the one set-up every SQLite connection of the project has."""
    cursor = connection.cursor()
    try:
        for pragma in SQLITE_PRAGMAS:
            cursor.execute(f"PRAGMA {pragma}")
    finally:
        cursor.close()


def open_sqlite(path: str | Path) -> sqlite3.Connection:
    """A plain sqlite3 connection on a file (its folder made), set up by `set_up_sqlite`, usable from any thread,
    for a library that takes one (LangGraph's `SqliteSaver`). Its transactions are sqlite3's own."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    connection = sqlite3.connect(str(path), timeout=SQLITE_BUSY_TIMEOUT_S, check_same_thread=False)
    set_up_sqlite(connection)
    return connection


def sqlite_engine(url: str) -> Engine:
    """A SQLAlchemy engine on a SQLite URL (a file's folder made), each connection set up by `set_up_sqlite`.

    SQLAlchemy emits BEGIN itself instead of pysqlite's lazy, deferred one, so savepoints work and a write
    transaction begins IMMEDIATE: it takes the write lock up front, and concurrent writers queue instead of failing
    with "database is locked" when a reader tries to write. A connection marked `READ_ONLY_OPTION` begins deferred:
    in WAL mode it reads a snapshot without the lock, so readers neither wait for writers nor make them wait.
    """
    database = make_url(url).database or ""
    if database and database != ":memory:":
        Path(database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, connect_args={"timeout": SQLITE_BUSY_TIMEOUT_S, "check_same_thread": False})

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # no BEGIN of pysqlite's own: `_on_begin` emits it
        set_up_sqlite(dbapi_connection)

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN" if conn.get_execution_options().get(READ_ONLY_OPTION) else "BEGIN IMMEDIATE")

    return engine
