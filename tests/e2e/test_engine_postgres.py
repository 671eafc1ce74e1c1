"""The process engine on a real PostgreSQL server (psycopg 3): a process deployed from BPMN runs end to end,
versions stay apart, and two workers completing one task at once make exactly one decision."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date

import pytest
from sqlalchemy import Engine, create_engine

from tests.support.engine import (
    ORDER_OVER_LIMIT,
    PURCHASE_KEY,
    PURCHASE_MEMBERS,
    assert_one_decision,
    prepare,
    purchase_bpmn,
    race,
)
from tests.support.postgres import PostgresServer, postgres_fixture  # noqa: F401 - the session fixture `postgres`
from tools.workflow.engine import SpiffEngine, seed, tables

pytestmark = pytest.mark.e2e

TODAY = date(2026, 12, 1)


@pytest.fixture
def db(postgres: PostgresServer) -> Iterator[Engine]:
    engine = create_engine(postgres.url(postgres.create_database("engine"), driver="postgresql+psycopg"))
    yield engine
    engine.dispose()


@pytest.fixture
def engine(db: Engine) -> SpiffEngine:
    spiff = SpiffEngine()
    prepare(db, spiff)
    return spiff


def test_a_process_from_bpmn_runs_through_two_steps_and_versions_stay_apart(db: Engine, engine: SpiffEngine):
    with db.begin() as conn:
        started = engine.start(conn, PURCHASE_KEY, requester="user_1", data=ORDER_OVER_LIMIT, today=TODAY)
        assert engine.deploy(conn, purchase_bpmn(name="采购申请 v2", limit=50000)).version == 2
    assert started.version == 1 and [t.assignee for t in started.tasks] == ["user_2"]
    with db.begin() as conn:
        assert [t.id for t in engine.tasks_for(conn, "user_2", [])] == [started.tasks[0].id]
        decided = engine.complete(conn, started.tasks[0].id, user_id="user_2", approved=True, comment="同意")
    (group_task,) = decided.tasks  # version 1's limit (10,000), not version 2's (50,000), routes this instance
    assert (group_task.step, group_task.candidate_groups, group_task.process_version) == ("采购部审批", ("purchasing",), 1)
    with db.begin() as conn:
        assert [t.id for t in engine.tasks_for(conn, "user_3", tables.groups_of(conn, "user_3"))] == [group_task.id]
        ended = engine.complete(conn, group_task.id, user_id="user_3", approved=True, comment="已下单")
    assert ended.status == "approved"
    assert [(e.kind, e.requester, e.outcome) for e in ended.events] == [("instance_ended", "user_1", "approved")]
    with db.connect() as conn:
        view = engine.instance(conn, started.instance_id)
        newer = engine.start(conn, PURCHASE_KEY, requester="user_1", data=ORDER_OVER_LIMIT, today=TODAY)
    assert (view.version, view.status, [h.user for h in view.history]) == (1, "approved", ["user_2", "user_3"])
    assert newer.version == 2


def test_two_group_members_deciding_one_task_at_once_make_one_decision(db: Engine, engine: SpiffEngine):
    for _ in range(3):
        with db.begin() as conn:
            started = engine.start(conn, PURCHASE_KEY, requester="user_1", data=ORDER_OVER_LIMIT, today=TODAY)
            group_task = engine.complete(conn, started.tasks[0].id, user_id="user_2", approved=True, comment="同意").tasks[0]
        # Both workers read the task as ready and run the process before either writes: the compare-and-set decides.
        results = race(db, engine, group_task.id, PURCHASE_MEMBERS, meet=True)
        assert_one_decision(db, engine, group_task.id, started.instance_id, results, decided_before=1)


def test_the_seed_processes_route_on_postgres(db: Engine, engine: SpiffEngine):
    with db.begin() as conn:
        seed(engine, conn)
        leave = engine.start(conn, "process_qingjia", requester="user_1",
                             data={"days": 5, "reason": "探亲", "nextUserId": "user_2"})
        expense = engine.start(conn, "process_baoxiao", requester="user_1",
                               data={"amount": 8000, "category": "办公", "reason": "显示器", "nextUserId": "user_2"})
        hr = engine.complete(conn, leave.tasks[0].id, user_id="user_2", approved=True, comment="同意").tasks
        finance = engine.complete(conn, expense.tasks[0].id, user_id="user_2", approved=True, comment="同意").tasks
        assert [t.id for t in engine.tasks_for(conn, "user_admin", tables.groups_of(conn, "user_admin"))] == [hr[0].id]
        assert [t.id for t in engine.tasks_for(conn, "user_4", tables.groups_of(conn, "user_4"))] == [finance[0].id]
