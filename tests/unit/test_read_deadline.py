"""A read that stops at its deadline (`WorkflowStore.read_until`, on a real SQLite file): a statement still running
then is stopped, not merely given up, and the connection goes back to the pool without the deadline."""

from __future__ import annotations

import time

import pytest
from sqlalchemy import text

from tools import WorkflowStore

NEVER_ENDS = text("WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n")
"""Counts for ever: only an interrupt ends it."""
COUNT_TO = text("WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < :top) SELECT count(*) FROM n")


def seconds_to_count(store: WorkflowStore, top: int) -> float:
    started = time.monotonic()
    with store.read() as conn:
        assert conn.execute(COUNT_TO, {"top": top}).scalar_one() == top
    return time.monotonic() - started


def test_a_statement_still_running_at_the_deadline_is_stopped_with_a_timeout_error(store):
    started = time.monotonic()
    with pytest.raises(TimeoutError, match="stopped at its deadline"):
        with store.read_until(started + 0.2) as conn:
            conn.execute(NEVER_ENDS)
    assert 0.2 <= time.monotonic() - started < 2


def test_a_read_that_ends_before_its_deadline_returns_what_it_read(store):
    with store.read_until(time.monotonic() + 30) as conn:
        assert conn.execute(COUNT_TO, {"top": 1000}).scalar_one() == 1000
        assert conn.execute(text("SELECT name FROM users WHERE id = 'user_1'")).scalar_one() == "张三"


def test_a_read_past_its_deadline_does_not_begin(store):
    with pytest.raises(TimeoutError, match="passed before it began"):
        with store.read_until(time.monotonic() - 1) as conn:
            conn.execute(text("SELECT 1"))


def test_the_pooled_connection_loses_the_deadline_with_the_read(store):
    store.engine.dispose()  # one pooled connection from here on: the one the stopped read used
    with pytest.raises(TimeoutError):
        with store.read_until(time.monotonic() + 0.05) as conn:
            conn.execute(NEVER_ENDS)
    time.sleep(0.1)  # the deadline is long past: a statement that still carried it would stop at once
    top = 200_000
    assert seconds_to_count(store, top) > 0  # counted to the end, on the same connection
    with store.read() as conn, store.read() as other:  # still one connection for each read, and both work
        assert conn.execute(text("SELECT 1")).scalar_one() == other.execute(text("SELECT 1")).scalar_one() == 1
