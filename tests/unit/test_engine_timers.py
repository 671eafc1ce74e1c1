"""Timers in the engine: a step's due date and timer boundary events, checked at deploy, planned in working time when
the step gets ready, fired once each with the engine's clock (a reminder, then an escalation to a group), cancelled
with their step, in the request's timeline, and kept by requests started on an older version."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import Engine, select, update

from tests.support.engine import sqlite_engine
from tests.support.timers import FRIDAY_MORNING, REMIND_KEY, UtcClock, remind_bpmn
from tools.workflow.engine import DeployError, SpiffEngine, create_tables, seed_groups, tables
from tools.workflow.engine.timers import next_due
from tools.workflow.engine.working_time import DurationError, due_after, parse_duration, weekdays

SHANGHAI = timedelta(hours=8)


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Engine]:
    engine = sqlite_engine(tmp_path / "engine.db")
    with engine.begin() as conn:
        create_tables(conn)
        seed_groups(conn)
    yield engine
    engine.dispose()


@pytest.fixture
def clock() -> UtcClock:
    return UtcClock()


@pytest.fixture
def engine(db: Engine, clock: UtcClock) -> SpiffEngine:
    spiff = SpiffEngine(clock=clock)
    with db.begin() as conn:
        spiff.deploy(conn, remind_bpmn())
    return spiff


def start(db: Engine, engine: SpiffEngine) -> str:
    with db.begin() as conn:
        started = engine.start(conn, REMIND_KEY, requester="user_1", data={"reason": "合同", "nextUserId": "user_2"})
    return started.tasks[0].id


def timers_of(db: Engine) -> list[tuple[str, str, str]]:
    t = tables.timers
    with db.connect() as conn:
        return [(r.action, r.due_at, r.status) for r in conn.execute(select(t).order_by(t.c.id))]


def fire_due(db: Engine, engine: SpiffEngine, by: str = "service-a") -> list[object]:
    fired = []
    with db.begin() as conn:
        for timer_id in engine.due_timers(conn):
            fired.append(engine.fire_timer(conn, timer_id, by=by))
    return fired


def test_durations_are_iso_8601_and_working_time_skips_the_weekend():
    assert parse_duration("PT1H") == timedelta(hours=1) and parse_duration("P1DT12H") == timedelta(days=1.5)
    assert parse_duration("p2w") == timedelta(weeks=2)
    for bad in ("P1M", "P1Y", "1D", "PT", "P", "P0D", "P400D"):
        with pytest.raises(DurationError):
            parse_duration(bad)
    friday_3pm = datetime(2026, 12, 4, 15, 0) - SHANGHAI
    friday_3pm = friday_3pm.replace(tzinfo=UTC)
    assert due_after(friday_3pm, timedelta(days=1), working_time=False) == friday_3pm + timedelta(days=1)
    monday_3pm = friday_3pm + timedelta(days=3)
    assert due_after(friday_3pm, timedelta(days=1), working_time=True) == monday_3pm
    assert due_after(friday_3pm, timedelta(hours=10), working_time=True) == monday_3pm - timedelta(hours=14)
    saturday = friday_3pm + timedelta(days=1)
    monday_midnight = datetime(2026, 12, 7, 0, 0).replace(tzinfo=UTC) - SHANGHAI
    assert due_after(saturday, timedelta(days=1), working_time=True) == monday_midnight + timedelta(days=1)
    # a calendar of the caller's: Monday 7 December a holiday, the count goes on Tuesday
    holiday = date(2026, 12, 7)
    assert due_after(friday_3pm, timedelta(days=1), working_time=True,
                     working_day=lambda d: weekdays(d) and d != holiday) == monday_3pm + timedelta(days=1)


def test_a_step_gets_its_due_date_and_timers_in_working_time_when_it_is_ready(db: Engine, engine: SpiffEngine):
    start(db, engine)
    monday_10am = FRIDAY_MORNING + timedelta(days=3)
    assert timers_of(db) == [
        ("due", (monday_10am + timedelta(days=2)).isoformat(timespec="microseconds"), "waiting"),
        ("remind", monday_10am.isoformat(timespec="microseconds"), "waiting"),
        ("escalate", (monday_10am + timedelta(days=1)).isoformat(timespec="microseconds"), "waiting"),
    ]


def test_in_plain_time_the_weekend_counts(db: Engine, clock: UtcClock):
    engine = SpiffEngine(clock=clock)
    with db.begin() as conn:
        engine.deploy(conn, remind_bpmn(remind="PT1H", escalate="PT2H", due="PT3H", working=False))
    start(db, engine)
    assert [due for _, due, _ in timers_of(db)] == [
        (FRIDAY_MORNING + timedelta(hours=h)).isoformat(timespec="microseconds") for h in (3, 1, 2)]


def test_a_reminder_then_an_escalation_fire_once_each_at_their_time(db: Engine, engine: SpiffEngine, clock: UtcClock):
    task_id = start(db, engine)
    assert fire_due(db, engine) == []
    clock.advance_to(FRIDAY_MORNING + timedelta(days=3))  # Monday 10:00: one working day
    [reminded] = fire_due(db, engine)
    assert reminded is not None and reminded.action == "remind" and reminded.holders == ("user_2",)
    assert reminded.task_id == task_id and reminded.requester == "user_1" and reminded.form == {"reason": "合同"}
    assert fire_due(db, engine) == []  # fired once
    with db.connect() as conn:
        assert [t.id for t in engine.tasks_for(conn, "user_2", [])] == [task_id]
    clock.advance_to(FRIDAY_MORNING + timedelta(days=4, seconds=30))  # Tuesday: two working days
    [escalated] = fire_due(db, engine, by="service-b")
    assert escalated is not None and escalated.action == "escalate"
    assert escalated.holders == ("user_2",) and escalated.escalated_to == ("hr",)
    with db.connect() as conn:
        assert engine.tasks_for(conn, "user_2", []) == []
        [moved] = engine.tasks_for(conn, "user_admin", ["hr"])
        assert moved.id == task_id and moved.assignee is None and moved.candidate_groups == ("hr",)
        timeline = engine.timeline(conn, moved.instance_id)
    assert [(h.kind, h.to, h.step) for h in timeline] == [
        ("started", (), ""), ("reminded", ("user_2",), "审批人审批"), ("escalated", ("user_admin",), "审批人审批")]
    rows = {action: (status, fired_at, by) for action, status, fired_at, by in _fired(db)}
    assert rows["remind"][0] == rows["escalate"][0] == "fired" and rows["escalate"][2] == "service-b"


def _fired(db: Engine) -> list[tuple[str, str, str, str]]:
    t = tables.timers
    with db.connect() as conn:
        return [(r.action, r.status, r.fired_at, r.fired_by) for r in conn.execute(select(t))]


def test_the_escalated_step_is_decided_by_the_group_and_its_last_timer_is_cancelled(
    db: Engine, engine: SpiffEngine, clock: UtcClock
):
    task_id = start(db, engine)
    clock.advance_to(FRIDAY_MORNING + timedelta(days=4, seconds=1))
    assert [f.action for f in fire_due(db, engine) if f is not None] == ["remind", "escalate"]
    with db.begin() as conn:
        done = engine.complete(conn, task_id, user_id="user_admin", approved=True, comment="同意", groups=["hr"])
    assert done.status == "approved"
    # the decided step's due date is cancelled in the decision's transaction, not left waiting until it is due
    assert [(a, s) for a, s, _, _ in _fired(db)] == [("due", "cancelled"), ("remind", "fired"), ("escalate", "fired")]
    clock.advance_to(FRIDAY_MORNING + timedelta(days=6))
    assert fire_due(db, engine) == []


def test_a_step_sent_back_or_withdrawn_has_its_timers_cancelled_at_once(db: Engine, engine: SpiffEngine):
    returned, withdrawn = start(db, engine), start(db, engine)
    with db.begin() as conn:
        engine.return_task(conn, returned, user_id="user_2", comment="写清楚事由")
        engine.cancel(conn, engine.task(conn, withdrawn).instance_id, user_id="user_1")
    assert {s for _, _, s in timers_of(db)} == {"cancelled"}
    with db.connect() as conn:
        assert engine.due_timers(conn) == [] and next_due(conn) is None


def test_an_older_row_left_waiting_for_a_decided_step_is_cancelled_when_due(
    db: Engine, engine: SpiffEngine, clock: UtcClock
):
    task_id = start(db, engine)
    with db.begin() as conn:
        engine.complete(conn, task_id, user_id="user_2", approved=True, comment="同意")
        conn.execute(update(tables.timers).values(status="waiting", fired_at=None))  # as a store written before
    clock.advance_to(FRIDAY_MORNING + timedelta(days=6))
    assert fire_due(db, engine) == [None, None, None]
    assert {s for _, _, s in timers_of(db)} == {"cancelled"}


def test_a_timer_claimed_by_another_service_is_not_fired_again(db: Engine, engine: SpiffEngine, clock: UtcClock):
    start(db, engine)
    clock.advance_to(FRIDAY_MORNING + timedelta(days=3))
    with db.connect() as conn:
        [timer_id] = engine.due_timers(conn)
    with db.begin() as conn:
        assert engine.fire_timer(conn, timer_id, by="a") is not None
    with db.begin() as conn:
        assert engine.fire_timer(conn, timer_id, by="b") is None
    assert [(a, s, by) for a, s, _, by in _fired(db) if s == "fired"] == [("remind", "fired", "a")]


def test_requests_keep_the_timers_of_the_version_they_started_on(db: Engine, engine: SpiffEngine, clock: UtcClock):
    first = start(db, engine)
    with db.begin() as conn:
        assert engine.deploy(conn, remind_bpmn(remind="P3D", escalate="P5D")).version == 2
    second = start(db, engine)
    t = tables.timers
    with db.connect() as conn:
        rows = conn.execute(select(t.c.task_id, t.c.action, t.c.due_at).where(t.c.action == "remind")).all()
    monday = FRIDAY_MORNING + timedelta(days=3)
    by_task = {f"task_{r.task_id}": r.due_at for r in rows}
    assert by_task == {first: monday.isoformat(timespec="microseconds"),
                       second: (monday + timedelta(days=2)).isoformat(timespec="microseconds")}
    clock.advance_to(monday)
    [fired] = fire_due(db, engine)
    assert fired is not None and fired.task_id == first


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        (('cancelActivity="false">\n      <bpmn:timerEventDefinition><bpmn:timeDuration>P1D',
          'cancelActivity="true">\n      <bpmn:timerEventDefinition><bpmn:timeDuration>P1D'), "interrupting"),
        (("<bpmn:timeDuration>P1D</bpmn:timeDuration>", "<bpmn:timeDate>2026-12-08T10:00:00</bpmn:timeDate>"),
         "duration"),
        (("<bpmn:timeDuration>P1D</bpmn:timeDuration>", "<bpmn:timeDuration>P1M</bpmn:timeDuration>"), "months"),
        (('<camunda:property name="escalateTo" value="hr" />', ""), "escalateTo"),
        (('name="escalateTo" value="hr"', 'name="escalateTo" value="${manager}"'), "else hr"),
        (('value="escalate"', 'value="shout"'), "shout"),
        (('targetRef="End_timer" />\n    <bpmn:sequenceFlow id="Flow_escalated"',
          'targetRef="Task_approve" />\n    <bpmn:sequenceFlow id="Flow_escalated"'), "end event"),
        (('camunda:dueDate="P3D"', 'camunda:dueDate="next week"'), "dueDate"),
        (('attachedToRef="Task_approve" cancelActivity="false">\n      <bpmn:timerEventDefinition>',
          'attachedToRef="End_done" cancelActivity="false">\n      <bpmn:timerEventDefinition>'), "no user task"),
    ],
)
def test_timers_this_engine_cannot_run_are_refused_at_deploy(db: Engine, engine: SpiffEngine, change, fragment):
    bpmn = remind_bpmn()
    assert change[0] in bpmn
    with db.begin() as conn, pytest.raises(DeployError) as refused:
        engine.deploy(conn, bpmn.replace(change[0], change[1], 1))
    assert refused.value.code in ("bad_timer", "bad_flow") and fragment in refused.value.message
    assert refused.value.element_id


def test_fired_timers_are_recorded_with_who_was_told(db: Engine, engine: SpiffEngine, clock: UtcClock):
    start(db, engine)
    clock.advance_to(FRIDAY_MORNING + timedelta(days=4))
    fire_due(db, engine)
    with db.connect() as conn:
        details = [json.loads(r.detail) for r in conn.execute(select(tables.timers).where(tables.timers.c.status == "fired"))]
    assert details == [
        {"holders": ["user_2"], "escalated_to": [], "moved_to": []},
        {"holders": ["user_2"], "escalated_to": ["hr"], "moved_to": ["user_admin"]},
    ]


def test_an_escalation_to_a_group_of_only_the_requester_leaves_the_step_and_reminds_instead(
    db: Engine, engine: SpiffEngine, clock: UtcClock
):
    with db.begin() as conn:  # 管理员, hr's only member, asks: hr cannot decide their own request
        task_id = engine.start(conn, REMIND_KEY, requester="user_admin",
                               data={"reason": "合同", "nextUserId": "user_2"}).tasks[0].id
    clock.advance_to(FRIDAY_MORNING + timedelta(days=4))
    reminded, escalation = fire_due(db, engine)
    assert escalation is not None and escalation.action == "escalate"
    assert (escalation.escalated_to, escalation.moved_to, escalation.holders) == ((), (), ("user_2",))
    with db.connect() as conn:
        assert [t.id for t in engine.tasks_for(conn, "user_2", [])] == [task_id]
        timeline = engine.timeline(conn, escalation.instance_id)
    assert [(h.kind, h.to) for h in timeline][1:] == [("reminded", ("user_2",)), ("reminded", ("user_2",))]
