"""A request's life besides its decisions, in the engine: sent back to its requester, resubmitted with a changed form
and run through its steps again keeping its history, withdrawn, and its timeline; each a compare-and-set."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, select

from tests.support.engine import prepare, sqlite_engine
from tools.workflow.engine import EngineError, FormError, SpiffEngine, seed, tables

TODAY = date(2026, 12, 1)
LEAVE = {"days": 5, "reason": "回老家", "nextUserId": "user_2"}


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Engine]:
    engine = sqlite_engine(tmp_path / "engine.db")
    yield engine
    engine.dispose()


@pytest.fixture
def engine(db: Engine) -> SpiffEngine:
    spiff = SpiffEngine()
    prepare(db, spiff)
    with db.begin() as conn:
        seed(spiff, conn)
    return spiff


def started(db: Engine, engine: SpiffEngine, data: dict[str, Any] = LEAVE) -> Any:
    with db.begin() as conn:
        return engine.start(conn, "process_qingjia", requester="user_1", data=data, today=TODAY)


def test_returning_a_step_sends_the_request_back_with_its_comment(db: Engine, engine: SpiffEngine):
    first = started(db, engine).tasks[0]
    with db.begin() as conn:
        returned = engine.return_task(conn, first.id, user_id="user_2", comment="请写明回来的日期")
    assert returned.status == "returned" and returned.task.status == "returned"
    assert returned.task.comment == "请写明回来的日期" and returned.task.decided_by == "user_2"
    assert [(e.kind, e.requester, e.comment) for e in returned.events] == [
        ("request_returned", "user_1", "请写明回来的日期")]
    with db.connect() as conn:
        view = engine.instance(conn, returned.instance_id)
        assert view.status == "returned" and view.tasks == () and view.diagram.current == ()
        assert [(d.user, d.returned, d.comment) for d in view.history] == [("user_2", True, "请写明回来的日期")]
        assert engine.tasks_for(conn, "user_2", []) == []


def test_a_returned_step_cannot_be_decided_and_returning_needs_a_comment(db: Engine, engine: SpiffEngine):
    first = started(db, engine).tasks[0]
    with db.begin() as conn, pytest.raises(EngineError) as empty:
        engine.return_task(conn, first.id, user_id="user_2", comment="  ")
    assert empty.value.code == "comment_required"
    with db.begin() as conn, pytest.raises(EngineError) as other:
        engine.return_task(conn, first.id, user_id="user_3", comment="不行")
    assert other.value.code == "task_not_offered"
    with db.begin() as conn:
        engine.return_task(conn, first.id, user_id="user_2", comment="理由不清楚")
    with db.begin() as conn, pytest.raises(EngineError) as again:
        engine.complete(conn, first.id, user_id="user_2", approved=True, comment="算了，批准")
    assert again.value.code == "task_not_pending"


def test_a_resubmitted_request_keeps_its_id_and_history_and_runs_its_steps_again(db: Engine, engine: SpiffEngine):
    start = started(db, engine)
    with db.begin() as conn:
        engine.return_task(conn, start.tasks[0].id, user_id="user_2", comment="5 天太长，改成 2 天")
    with db.begin() as conn:
        again = engine.resubmit(conn, start.instance_id, user_id="user_1", changes={"days": 2}, today=TODAY)
    assert again.instance_id == start.instance_id and again.status == "running"
    assert again.changes == {"days": (5.0, 2.0)} and again.data["reason"] == "回老家"
    (task,) = again.tasks
    assert task.id != start.tasks[0].id and task.assignee == "user_2" and task.step == "审批人审批"
    assert [(e.kind, e.task_id) for e in again.events] == [("task_ready", task.id)]
    assert [h.returned for h in task.history] == [True]  # the new step's card shows the round before
    with db.begin() as conn:
        done = engine.complete(conn, task.id, user_id="user_2", approved=True, comment="可以")
    assert done.status == "approved"  # 2 days: no HR step on the new round
    with db.connect() as conn:
        kinds = [(h.kind, h.user) for h in engine.timeline(conn, start.instance_id)]
    assert kinds == [("started", "user_1"), ("returned", "user_2"), ("resubmitted", "user_1"), ("approved", "user_2")]


def test_only_a_returned_request_is_resubmitted_and_its_form_is_checked(db: Engine, engine: SpiffEngine):
    start = started(db, engine)
    with db.begin() as conn, pytest.raises(EngineError) as running:
        engine.resubmit(conn, start.instance_id, user_id="user_1", changes={"days": 2}, today=TODAY)
    assert running.value.code == "instance_not_returned"
    with db.begin() as conn:
        engine.return_task(conn, start.tasks[0].id, user_id="user_2", comment="天数不对")
    with db.begin() as conn, pytest.raises(FormError):
        engine.resubmit(conn, start.instance_id, user_id="user_1", changes={"days": -1}, today=TODAY)
    with db.connect() as conn:
        assert engine.instance(conn, start.instance_id).status == "returned"  # nothing stored


def test_withdrawing_cancels_the_waiting_steps_and_ends_the_request(db: Engine, engine: SpiffEngine):
    start = started(db, engine, {"days": 5, "reason": "回老家", "nextUserId": "user_2"})
    with db.begin() as conn:
        first = engine.complete(conn, start.tasks[0].id, user_id="user_2", approved=True, comment="同意")
    hr = first.tasks[0]
    with db.begin() as conn:
        withdrawn = engine.cancel(conn, start.instance_id, user_id="user_1", comment="不去了")
    assert withdrawn.previous == "running" and [t.id for t in withdrawn.cancelled] == [hr.id]
    assert [e.kind for e in withdrawn.events] == ["task_withdrawn", "instance_ended"]
    assert withdrawn.events[0].candidate_groups == ("hr",) and withdrawn.events[1].outcome == "withdrawn"
    with db.connect() as conn:
        assert engine.tasks_for(conn, "user_admin", ["hr"]) == []
        view = engine.instance(conn, start.instance_id)
        assert view.status == "withdrawn" and view.ended_at is not None
        assert engine.task(conn, hr.id).status == "cancelled"
        timeline = engine.timeline(conn, start.instance_id)
    assert [(h.kind, h.comment) for h in timeline][-1] == ("withdrawn", "不去了")
    with db.begin() as conn, pytest.raises(EngineError) as twice:
        engine.cancel(conn, start.instance_id, user_id="user_1")
    assert twice.value.code == "instance_not_pending"


def test_a_returned_request_can_be_withdrawn_and_not_after_it_ended(db: Engine, engine: SpiffEngine):
    start = started(db, engine, {"days": 1, "reason": "看病", "nextUserId": "user_2"})
    with db.begin() as conn:
        engine.return_task(conn, start.tasks[0].id, user_id="user_2", comment="补充病历")
    with db.begin() as conn:
        assert engine.cancel(conn, start.instance_id, user_id="user_1").previous == "returned"
    other = started(db, engine, {"days": 1, "reason": "看病", "nextUserId": "user_2"})
    with db.begin() as conn:
        engine.complete(conn, other.tasks[0].id, user_id="user_2", approved=False, comment="不行")
    with db.begin() as conn, pytest.raises(EngineError) as ended:
        engine.cancel(conn, other.instance_id, user_id="user_1")
    assert ended.value.code == "instance_not_pending"


def test_a_decision_after_a_withdraw_is_refused(db: Engine, engine: SpiffEngine):
    """The withdrawn request's step is gone: deciding it finds nothing pending, and nothing is written."""
    start = started(db, engine, {"days": 1, "reason": "看病", "nextUserId": "user_2"})
    with db.begin() as conn:
        engine.cancel(conn, start.instance_id, user_id="user_1")
    with db.begin() as conn, pytest.raises(EngineError) as late:
        engine.complete(conn, start.tasks[0].id, user_id="user_2", approved=True, comment="好")
    assert late.value.code == "task_not_pending"
    with db.connect() as conn:
        rows = conn.execute(select(tables.tasks.c.status)).scalars().all()
    assert rows == ["cancelled"]


def test_a_withdraw_and_a_decision_at_once_one_wins(db: Engine, engine: SpiffEngine):
    """Two transactions at once, one withdrawing a one-day leave, one approving its only step: exactly one of them
    takes effect, and the other is refused by the compare-and-set (or by the status it then finds)."""
    start = started(db, engine, {"days": 1, "reason": "看病", "nextUserId": "user_2"})
    gate = threading.Barrier(2)
    results: dict[str, Any] = {}

    def act(name: str) -> None:
        gate.wait()
        try:
            with db.begin() as conn:
                if name == "withdraw":
                    results[name] = engine.cancel(conn, start.instance_id, user_id="user_1")
                else:
                    results[name] = engine.complete(conn, start.tasks[0].id, user_id="user_2", approved=True,
                                                    comment="好")
        except EngineError as exc:
            results[name] = exc

    threads = [threading.Thread(target=act, args=(name,)) for name in ("withdraw", "approve")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    refused = {name for name, r in results.items() if isinstance(r, EngineError)}
    assert len(results) == 2 and len(refused) == 1
    assert {r.code for r in results.values() if isinstance(r, EngineError)} <= {"instance_not_pending", "task_not_pending"}
    with db.connect() as conn:
        status = engine.instance(conn, start.instance_id).status
    assert status == ("approved" if "withdraw" in refused else "withdrawn")
