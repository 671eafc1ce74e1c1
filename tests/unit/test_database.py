"""One SQLite set-up (`tools.database`): the workflow store, the sign-in's deny list, the graph's checkpointer and the
tests' engine all run the same pragmas on every connection, and the engines begin a write IMMEDIATE and a read
deferred."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine

from flowagent.server import revocations
from graph.checkpoint import close_checkpointer, open_sqlite_checkpointer
from tests.support import engine as engine_support
from tools import WorkflowStore
from tools.database import READ_ONLY_OPTION

SET_UP = {"journal_mode": "wal", "synchronous": 1, "foreign_keys": 1, "busy_timeout": 30000}
"""The pragmas read back from a connection: WAL, synchronous=NORMAL (1), foreign keys on, a 30 s busy timeout."""


@contextmanager
def store_engine(path: Path) -> Iterator[Engine]:
    store = WorkflowStore(f"sqlite:///{path}")
    try:
        yield store.engine
    finally:
        store.dispose()


@contextmanager
def deny_list_engine(path: Path) -> Iterator[Engine]:
    engine = revocations.engine_at(f"sqlite:///{path}")
    try:
        yield engine
    finally:
        engine.dispose()


@contextmanager
def the_tests_engine(path: Path) -> Iterator[Engine]:
    engine = engine_support.sqlite_engine(path)
    try:
        yield engine
    finally:
        engine.dispose()


ENGINES: dict[str, Callable[[Path], Any]] = {"store": store_engine, "deny list": deny_list_engine,
                                             "tests": the_tests_engine}


def pragmas(connection: Any) -> dict[str, Any]:
    return {name: connection.execute(f"PRAGMA {name}").fetchone()[0] for name in SET_UP}


def locked_for_writing(path: Path) -> bool:
    """Whether another connection holds the file's write lock (this one does not wait for it)."""
    other = sqlite3.connect(str(path), timeout=0, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:
        assert "locked" in str(exc)
        return True
    else:
        other.execute("ROLLBACK")
        return False
    finally:
        other.close()


@pytest.mark.parametrize("opened", ENGINES.values(), ids=ENGINES.keys())
def test_every_sqlite_engine_sets_up_its_connections_the_same_way(tmp_path, opened):
    with opened(tmp_path / "project.db") as engine, engine.connect() as conn:
        assert pragmas(conn.connection.driver_connection) == SET_UP


def test_the_checkpointer_sets_up_its_connection_the_same_way(tmp_path):
    saver = open_sqlite_checkpointer(tmp_path / "checkpoints.db")
    try:
        assert pragmas(saver.conn) == SET_UP
    finally:
        close_checkpointer(saver)


@pytest.mark.parametrize("opened", ENGINES.values(), ids=ENGINES.keys())
def test_every_sqlite_engine_begins_a_write_immediate_and_a_read_deferred(tmp_path, opened):
    path = tmp_path / "project.db"
    with opened(path) as engine:
        with engine.begin() as conn:
            conn.exec_driver_sql("SELECT 1")
            assert locked_for_writing(path)
        with engine.connect().execution_options(**{READ_ONLY_OPTION: True}) as conn:
            conn.exec_driver_sql("SELECT 1")
            assert not locked_for_writing(path)
