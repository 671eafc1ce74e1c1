"""A read that stops at its deadline on a real PostgreSQL server: the time left becomes the read's
`statement_timeout`, which ends with the read, so the pooled connection goes on without it."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from sqlalchemy import text

from tests.support.postgres import PostgresServer, postgres_fixture  # noqa: F401 - the session fixture `postgres`
from tools import WorkflowStore

pytestmark = pytest.mark.e2e


@pytest.fixture
def pg_store(postgres: PostgresServer) -> Iterator[WorkflowStore]:
    store = WorkflowStore(postgres.url(postgres.create_database("deadline"), driver="postgresql+psycopg"))
    yield store
    store.dispose()


def test_a_statement_still_running_at_the_deadline_is_stopped_and_the_connection_goes_on_without_it(pg_store):
    store = pg_store
    store.engine.dispose()  # one pooled connection from here on: the one the stopped read used
    started = time.monotonic()
    with pytest.raises(TimeoutError, match="stopped at its deadline"):
        with store.read_until(started + 0.3) as conn:
            conn.execute(text("SELECT pg_sleep(30)"))
    assert 0.3 <= time.monotonic() - started < 5
    with store.read() as conn:  # the timeout was the stopped read's only: a longer statement now runs to its end
        assert conn.execute(text("SHOW statement_timeout")).scalar_one() == "0"
        conn.execute(text("SELECT pg_sleep(0.5)"))
        assert conn.execute(text("SELECT name FROM users WHERE id = 'user_1'")).scalar_one() == "张三"
    with store.read_until(time.monotonic() + 30) as conn:
        assert conn.execute(text("SELECT name FROM users WHERE id = 'user_2'")).scalar_one() == "李四"
