"""The stores a trial starts from: the workflow store on a new SQLite file, copied from one this process seeded, with
SQL compiled once per process; and the thread's checkpointer, in memory or on a SQLite file."""

from __future__ import annotations

import atexit
import shutil
import sqlite3
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.sqlite import SqliteSaver
from sqlalchemy import Dialect, Engine
from sqlalchemy.util import LRUCache

from evals.timeflow import TrialClock, trial_engine
from tools import WorkflowStore
from tools.database import sqlite_engine

COMPILED_CACHE_SIZE = 2_000
"""Compiled statements kept for the trials of one process (a trial compiles about fifty; SQLAlchemy's default per
engine is 500)."""
_SEEDED: list[Path] = []
_SEEDED_LOCK = threading.Lock()


def fresh_store(directory: str, clock: TrialClock | None = None) -> WorkflowStore:
    """The workflow store a trial starts from, on a new SQLite file in `directory`: a copy of one this process seeded
    once (creating and seeding the tables took a fifth of a scripted trial). The copy holds the rows seeding gives;
    their creation times are those of the first seed."""
    with _SEEDED_LOCK:
        if not _SEEDED:
            seeded = Path(tempfile.mkdtemp(prefix="flowagent-eval-seed-")) / "workflow.db"
            WorkflowStore(f"sqlite:///{seeded}").dispose()  # closing the last connection folds the WAL into the file
            atexit.register(shutil.rmtree, seeded.parent, ignore_errors=True)
            _SEEDED.append(seeded)
    target = Path(directory) / "workflow.db"
    shutil.copyfile(_SEEDED[0], target)
    engine = sharing_compiled_sql(sqlite_engine(f"sqlite:///{target}"))
    return WorkflowStore(f"sqlite:///{target}", engine=engine, process_engine=trial_engine(clock or TrialClock()))


_COMPILED: list[tuple[Dialect, LRUCache[Any, Any]]] = []


def sharing_compiled_sql(engine: Engine) -> Engine:
    """`engine` with the SQL dialect and compiled-statement cache of this process's first trial store.

    SQLAlchemy caches a statement's compiled SQL per engine, keyed by the engine's dialect object: every trial opens
    a new file, so each compiled all its statements again (a fifth of a scripted trial). The trials' engines are all
    SQLite with the same settings, so they can share one dialect and one cache."""
    with _SEEDED_LOCK:
        if not _COMPILED:
            _COMPILED.append((engine.dialect, LRUCache(COMPILED_CACHE_SIZE)))
        dialect, cache = _COMPILED[0]
    engine.dialect = dialect
    engine.update_execution_options(compiled_cache=cache)
    return engine


@contextmanager
def open_saver(kind: str, directory: str) -> Iterator[BaseCheckpointSaver]:
    """A fresh checkpointer: in memory, or a SQLite file in the trial's directory."""
    if kind == "memory":
        yield InMemorySaver()
        return
    conn = sqlite3.connect(f"{directory}/checkpoints.db", check_same_thread=False)
    try:
        saver = SqliteSaver(conn)
        saver.setup()
        yield saver
    finally:
        conn.close()
