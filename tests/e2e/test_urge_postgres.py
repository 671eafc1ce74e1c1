"""Urges on a real PostgreSQL server: two urges of one task on one day, each in its own transaction, both past the check
before either wrote its row; the unique (task, day) row lets one through and refuses the other as the day's second
(`urge_too_soon`), with one e-mail sent."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from graph.calls import new_call_id
from tests.support.postgres import PostgresServer
from tools import CallContext, WorkflowStore, execute_call
from tools.errors import PolicyError
from tools.runtime import check_call
from tools.workflow import TOOLSET
from tools.workflow.urge import urge_task

pytestmark = pytest.mark.e2e


@pytest.fixture
def pg_store(postgres: PostgresServer) -> Iterator[WorkflowStore]:
    store = WorkflowStore(postgres.url(postgres.create_database("urge")))
    yield store
    store.dispose()


def _ctx(store: WorkflowStore, actor: str) -> CallContext:
    return CallContext(backend=store, actor_id=actor, thread_id="t-urge", call_id=new_call_id())


def test_two_urges_of_one_task_on_one_day_send_one_on_postgres(pg_store: WorkflowStore) -> None:
    leave = {"processKey": "process_qingjia", "userId": "user_1", "reason": "看病", "days": 1, "nextUserId": "user_2"}
    execute_call(TOOLSET, "runWorkFlow", leave, _ctx(pg_store, "user_1"))
    first = check_call(TOOLSET, "urgeTask", {"requestId": "req_1"}, _ctx(pg_store, "user_1"))
    second = check_call(TOOLSET, "urgeTask", {"requestId": "req_1"}, _ctx(pg_store, "user_1"))
    with pg_store.transaction() as conn:
        urge_task(conn, _ctx(pg_store, "user_1"), first.args, first.verdict)
    with pytest.raises(PolicyError) as refused, pg_store.transaction() as conn:
        urge_task(conn, _ctx(pg_store, "user_1"), second.args, second.verdict)
    assert refused.value.code == "urge_too_soon"
    snapshot = pg_store.snapshot()
    assert len(snapshot["urges"]) == 1
    assert len([n for n in snapshot["notifications"] if "催办" in n["subject"]]) == 1
    with pytest.raises(PolicyError) as again:  # and through the tool, the check says so before anything is written
        execute_call(TOOLSET, "urgeTask", {"requestId": "task_1"}, _ctx(pg_store, "user_1"))
    assert again.value.code == "urge_too_soon"
