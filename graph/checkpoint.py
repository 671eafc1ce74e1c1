"""Checkpointers: SQLite for local runs (fast and resumable), Postgres when `FLOWAGENT_CHECKPOINT_URL` says so."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.sqlite import SqliteSaver

DEFAULT_CHECKPOINT_PATH = Path(".flowagent") / "checkpoints.db"


def open_sqlite_checkpointer(path: str | Path = DEFAULT_CHECKPOINT_PATH) -> SqliteSaver:
    """A SqliteSaver on a file, in WAL mode with `synchronous=NORMAL`.

    WAL with NORMAL skips the fsync per committed row; a crash of the program never loses a committed
    checkpoint (only a power loss can drop the last few), so threads always resume.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(str(path), check_same_thread=False, timeout=30)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    saver = SqliteSaver(conn)
    saver.setup()
    return saver


def checkpoint_location() -> str:
    """`FLOWAGENT_CHECKPOINT_URL` (a postgresql:// URL or a file path), else `.flowagent/checkpoints.db`."""
    return os.environ.get("FLOWAGENT_CHECKPOINT_URL", "").strip() or str(DEFAULT_CHECKPOINT_PATH)


def open_checkpointer(location: str | None = None) -> BaseCheckpointSaver:
    """The configured checkpointer: Postgres for a postgres URL, else a SQLite file."""
    location = location or checkpoint_location()
    if location.startswith(("postgresql://", "postgres://")):
        from langgraph.checkpoint.postgres import PostgresSaver
        from psycopg import Connection
        from psycopg.rows import dict_row

        conn = Connection.connect(location, autocommit=True, prepare_threshold=0, row_factory=dict_row)
        pg_saver = PostgresSaver(conn)  # type: ignore[arg-type]
        pg_saver.setup()
        return pg_saver
    return open_sqlite_checkpointer(location)
