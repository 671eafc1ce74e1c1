"""Checkpointers: SQLite for local runs (fast and resumable), Postgres when `FLOWAGENT_CHECKPOINT_URL` says so."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.sqlite import SqliteSaver

from tools.database import open_sqlite

DEFAULT_CHECKPOINT_PATH = Path(".flowagent") / "checkpoints.db"


def open_sqlite_checkpointer(path: str | Path = DEFAULT_CHECKPOINT_PATH) -> SqliteSaver:
    """A SqliteSaver on a file, on a connection set up as every SQLite connection of the project is
    (`tools.database.open_sqlite`: WAL mode with `synchronous=NORMAL`, a busy timeout).

    WAL with NORMAL skips the fsync per committed row; a crash of the program never loses a committed
    checkpoint (only a power loss can drop the last few), so threads always resume.
    """
    saver = SqliteSaver(open_sqlite(path))
    saver.setup()
    return saver


def checkpoint_location() -> str:
    """`FLOWAGENT_CHECKPOINT_URL` (a postgresql:// URL or a file path), else `.flowagent/checkpoints.db`."""
    return os.environ.get("FLOWAGENT_CHECKPOINT_URL", "").strip() or str(DEFAULT_CHECKPOINT_PATH)


POSTGRES_SETUP_LOCK = 0x63686B70  # "chkp": serialises the saver's migrations when workers start together
POSTGRES_SETUP_TIMEOUT_S = 120.0
POSTGRES_POOL_SIZE = 4


def open_postgres_checkpointer(url: str) -> BaseCheckpointSaver:
    """A PostgresSaver on a small connection pool (broken connections are replaced), its tables migrated.

    Several worker processes may start at once on an empty database: the migrations run under an advisory
    lock, one process at a time, so none of them trips over another's CREATE TABLE. The lock is polled
    with pg_try_advisory_lock: a blocked pg_advisory_lock statement keeps a transaction open, and the
    migrations' CREATE INDEX CONCURRENTLY in the process holding the lock would wait for it forever.
    """
    from langgraph.checkpoint.postgres import PostgresSaver
    from psycopg import Connection
    from psycopg.rows import dict_row
    from psycopg_pool import ConnectionPool

    pool = ConnectionPool(
        url,
        min_size=1,
        max_size=POSTGRES_POOL_SIZE,
        kwargs={"autocommit": True, "prepare_threshold": 0, "row_factory": dict_row},
        check=ConnectionPool.check_connection,
        open=True,
    )
    saver = PostgresSaver(pool)  # type: ignore[arg-type]
    try:
        with Connection.connect(url, autocommit=True) as lock_conn:
            deadline = time.monotonic() + POSTGRES_SETUP_TIMEOUT_S
            while not _try_advisory_lock(lock_conn, POSTGRES_SETUP_LOCK):
                if time.monotonic() > deadline:
                    raise TimeoutError(f"another process held the checkpoint setup lock for {POSTGRES_SETUP_TIMEOUT_S:g} s")
                time.sleep(0.05)
            try:
                saver.setup()
            finally:
                lock_conn.execute("SELECT pg_advisory_unlock(%s)", (POSTGRES_SETUP_LOCK,))
    except BaseException:
        pool.close()
        raise
    return saver


def _try_advisory_lock(conn: Any, key: int) -> bool:
    row = conn.execute("SELECT pg_try_advisory_lock(%s)", (key,)).fetchone()
    return bool(row and row[0])


def close_checkpointer(saver: BaseCheckpointSaver) -> None:
    """Release the saver's connection (SQLite) or pool (Postgres)."""
    conn = getattr(saver, "conn", None)
    if conn is not None:
        conn.close()


def open_checkpointer(location: str | None = None) -> BaseCheckpointSaver:
    """The configured checkpointer: Postgres for a postgres URL, else a SQLite file."""
    location = location or checkpoint_location()
    if location.startswith(("postgresql://", "postgres://")):
        return open_postgres_checkpointer(location)
    return open_sqlite_checkpointer(location)
