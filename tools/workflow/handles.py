"""The workflow store's read handles: a connection taken from the pool at its first use, and a deadline its
statements stop at (`WorkflowStore.read`, `WorkflowStore.read_until`)."""

from __future__ import annotations

import math
import sqlite3
import time
from collections.abc import Callable
from typing import Any, cast

from sqlalchemy import Connection

STOPPED_AT_DEADLINE = "flowagent_stops_at"
"""Where a read connection keeps the deadline its statements stop at (`conn.info`), until it goes back to the pool."""

PROGRESS_OPS = 1000
"""SQLite virtual-machine steps between two looks at the clock while a statement runs (a few microseconds)."""


def stop_at(conn: Connection, deadline: float) -> None:
    """Make every statement on `conn` stop at `deadline`, until `release_read`."""
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError("the read's deadline passed before it began")
    if conn.dialect.name == "sqlite":
        _sqlite(conn).set_progress_handler(lambda: time.monotonic() >= deadline, PROGRESS_OPS)  # true: interrupt
    elif conn.dialect.name == "postgresql":
        # LOCAL: the setting ends with the read's transaction, which closing the connection rolls back
        conn.exec_driver_sql(f"SET LOCAL statement_timeout = {max(1, math.ceil(left * 1000))}")
    else:
        raise NotImplementedError(f"no deadline for reads on {conn.dialect.name}")
    conn.info[STOPPED_AT_DEADLINE] = deadline


def release_read(conn: Connection) -> None:
    """Close a read connection, first taking off the deadline its statements stopped at (the pool keeps it)."""
    if conn.info.pop(STOPPED_AT_DEADLINE, None) is not None and conn.dialect.name == "sqlite" and not conn.closed:
        _sqlite(conn).set_progress_handler(None, 0)
    conn.close()


def _sqlite(conn: Connection) -> sqlite3.Connection:
    return cast(sqlite3.Connection, conn.connection.driver_connection)


class FirstUse:
    """A connection opened when one of its attributes is first asked for, and closed with `close` if it was."""

    __slots__ = ("_open", "_conn", "_release")

    def __init__(
        self, open_connection: Callable[[], Connection], release: Callable[[Connection], None] = Connection.close
    ) -> None:
        self._open = open_connection
        self._release = release
        self._conn: Connection | None = None

    def __getattr__(self, name: str) -> Any:
        if self._conn is None:
            self._conn = self._open()
        return getattr(self._conn, name)

    def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            self._release(conn)
