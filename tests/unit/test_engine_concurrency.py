"""Two workers completing one task at once on SQLite: exactly one decision; the other gets `task_not_pending`."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from tests.support.engine import (
    ORDER_OVER_LIMIT,
    PURCHASE_KEY,
    PURCHASE_MEMBERS,
    assert_one_decision,
    prepare,
    race,
    sqlite_engine,
)
from tools.workflow.engine import SpiffEngine


def test_two_group_members_deciding_one_task_at_once_make_one_decision(tmp_path: Path):
    db = sqlite_engine(tmp_path / "race.db")
    engine = SpiffEngine()
    prepare(db, engine)
    try:
        for _ in range(3):  # a few rounds: whichever thread gets in first, the outcome is the same
            with db.begin() as conn:
                started = engine.start(conn, PURCHASE_KEY, requester="user_1", data=ORDER_OVER_LIMIT, today=date(2026, 12, 1))
                group_task = engine.complete(conn, started.tasks[0].id, user_id="user_2", approved=True, comment="同意").tasks[0]
            results = race(db, engine, group_task.id, PURCHASE_MEMBERS, meet=False)
            assert_one_decision(db, engine, group_task.id, started.instance_id, results, decided_before=1)
    finally:
        db.dispose()
