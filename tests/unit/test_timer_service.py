"""The timer service on the workflow store (a real SQLite file, a test clock): a step is reminded, then escalated, each
once however often it polls, with e-mails in the outbox in the same transaction, an audit entry and a line in the
requester's timeline; `flowagent timers --once` fires what is due."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.support.timers import FRIDAY_MORNING, REMIND_KEY, UtcClock, remind_bpmn
from tools.workflow.mine import my_requests
from tools.workflow.store import WorkflowStore, workflow_engine
from tools.workflow.timer_service import MAX_LATE_S, TimerService, timers_run


@pytest.fixture
def clock() -> UtcClock:
    return UtcClock()


@pytest.fixture
def timed_store(tmp_path: Path, clock: UtcClock) -> Iterator[WorkflowStore]:
    store = WorkflowStore(f"sqlite:///{tmp_path / 'timers.db'}",
                          process_engine=workflow_engine(clock))
    with store.transaction() as conn:
        store.process_engine.deploy(conn, remind_bpmn())
    yield store
    store.dispose()


def start(store: WorkflowStore) -> str:
    with store.transaction() as conn:
        started = store.process_engine.start(conn, REMIND_KEY, requester="user_1",
                                             data={"reason": "合同审核", "nextUserId": "user_2"})
    return started.tasks[0].id


def mails(store: WorkflowStore) -> list[tuple[str, str]]:
    return [(r["recipient_id"], r["subject"]) for r in store.snapshot()["outbox"]]


def test_a_reminder_then_an_escalation_each_once_with_their_emails(timed_store: WorkflowStore, clock: UtcClock):
    task_id = start(timed_store)
    service = TimerService(timed_store, name="a")
    assert service.run_once() == []
    monday = FRIDAY_MORNING + timedelta(days=3)
    clock.advance_to(monday + timedelta(seconds=15))  # a poll 15 s after the reminder was due
    [reminded] = service.run_once()
    assert reminded.action == "remind" and reminded.task_id == task_id
    assert service.run_once() == [] and TimerService(timed_store, name="b").run_once() == []
    assert mails(timed_store) == [("user_2", f"[flowagent] 催办提醒 / Reminder: {task_id}")]
    body = timed_store.snapshot()["outbox"][0]["body"]
    assert "张三的督办申请（合同审核）自 12月4日 10:00 起等待您审批" in body
    assert "Zhang San's follow-up (合同审核) has been waiting for your decision since 4 Dec 10:00" in body
    clock.advance_to(monday + timedelta(days=1, seconds=40))
    [escalated] = TimerService(timed_store, name="b").run_once()
    assert escalated.action == "escalate" and escalated.moved_to == ("user_admin",)
    assert mails(timed_store)[1:] == [("user_admin", f"[flowagent] 超时转交 / Moved to you: {task_id}"),
                                      ("user_2", f"[flowagent] 已转交 / Moved on: {task_id}")]
    fired = {e["detail"]["action"]: e["detail"] for e in timed_store.audit_entries("timer_fired")}
    for detail in fired.values():  # at most a minute late, on the clock the timers count by
        late = clock().fromisoformat(detail["fired_at"]) - clock().fromisoformat(detail["due_at"])
        assert timedelta(0) <= late <= timedelta(seconds=MAX_LATE_S)
    with timed_store.read() as conn:
        [item] = my_requests(conn, "user_1", "zh")
    assert item["timeline"][1:] == ["12月7日 10:00 审批人审批：超时未处理，已提醒李四",
                                    "12月8日 10:00 审批人审批：超时未处理，已转给管理员"]


def test_a_step_decided_before_its_timer_is_not_reminded(timed_store: WorkflowStore, clock: UtcClock):
    task_id = start(timed_store)
    with timed_store.transaction() as conn:
        timed_store.process_engine.complete(conn, task_id, user_id="user_2", approved=True, comment="好")
    clock.advance_to(FRIDAY_MORNING + timedelta(days=10))
    assert TimerService(timed_store).run_once() == []
    assert [m for m in mails(timed_store) if "Reminder" in m[1]] == []


def test_two_services_polling_together_fire_each_timer_once(timed_store: WorkflowStore, clock: UtcClock):
    for _ in range(6):
        start(timed_store)
    clock.advance_to(FRIDAY_MORNING + timedelta(days=6))
    results: list[list[object]] = [[], []]
    services = [TimerService(timed_store, name=name) for name in ("a", "b")]

    def poll(index: int) -> None:
        results[index] = list(services[index].run_once())

    threads = [threading.Thread(target=poll, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    fired = [e for found in results for e in found]
    assert len(fired) == 18 and len({e.timer_id for e in fired}) == 18  # type: ignore[attr-defined]
    assert len([m for m in mails(timed_store) if "Reminder" in m[1]]) == 6


def test_flowagent_timers_once_fires_what_is_due(timed_store: WorkflowStore, clock: UtcClock):
    args = SimpleNamespace(db=str(timed_store.url), interval=None, once=True)
    assert timers_run(args) == "no timer was due"
    clock.advance_to(datetime(2020, 1, 3, 2, 0, tzinfo=UTC))  # a request started in 2020: its timers are long due
    task_id = start(timed_store)
    lines = timers_run(args).splitlines()
    assert [line.split(" fired ")[1].split(" of ")[0] for line in lines] == ["remind", "escalate", "due"]
    assert all(f"of {task_id} " in line for line in lines)
    assert timers_run(args) == "no timer was due"


SHANGHAI = timedelta(hours=8)


def start_leave(store: WorkflowStore, requester: str = "user_1", approver: str = "user_2") -> str:
    with store.transaction() as conn:
        started = store.process_engine.start(conn, "process_qingjia", requester=requester,
                                             data={"days": 1, "reason": "家里有事", "nextUserId": approver})
    return started.tasks[0].id


def leave_timers(store: WorkflowStore) -> dict[str, dict[str, str]]:
    rows = store.snapshot()["process_timers"]
    found: dict[str, dict[str, str]] = {}
    for row in rows:
        found.setdefault(f"task_{row['task_id']}", {})[row["action"]] = row["due_at"]
    return found


def test_the_leaves_first_approver_is_reminded_after_a_working_day_and_it_moves_to_their_manager_after_two(
    timed_store: WorkflowStore, clock: UtcClock
):
    clock.advance_to(datetime(2026, 9, 30, 10, 0, tzinfo=UTC) - SHANGHAI)  # the Wednesday before National Day
    task_id = start_leave(timed_store)
    after_the_holiday = datetime(2026, 10, 8, 10, 0, tzinfo=UTC) - SHANGHAI  # 1 to 7 October are no working days
    assert leave_timers(timed_store)[task_id] == {
        "remind": after_the_holiday.isoformat(timespec="microseconds"),
        "escalate": (after_the_holiday + timedelta(days=1)).isoformat(timespec="microseconds"),
    }
    clock.advance_to(after_the_holiday - timedelta(seconds=1))
    assert TimerService(timed_store).run_once() == []
    clock.advance_to(after_the_holiday + timedelta(days=1))
    assert [(e.action, e.holders, e.moved_to) for e in TimerService(timed_store).run_once()] == [
        ("remind", ("user_2",), ()), ("escalate", ("user_2",), ("user_3",))]  # 李四's manager, 王五
    with timed_store.read() as conn:
        assert timed_store.process_engine.tasks_for(conn, "user_2", []) == []
        [task] = timed_store.process_engine.tasks_for(conn, "user_3", [])
        [item] = my_requests(conn, "user_1", "zh")
    assert (task.id, task.step, task.assignee, task.candidate_groups) == (task_id, "审批人审批", "user_3", ())
    assert item["timeline"][1:] == ["10月9日 10:00 审批人审批：超时未处理，已提醒李四",  # one poll fired both
                                    "10月9日 10:00 审批人审批：超时未处理，已转给王五"]
    assert [(m, s.split(": ")[0]) for m, s in mails(timed_store)] == [
        ("user_2", "[flowagent] 催办提醒 / Reminder"), ("user_3", "[flowagent] 超时转交 / Moved to you"),
        ("user_2", "[flowagent] 已转交 / Moved on")]


@pytest.mark.parametrize(
    ("requester", "approver", "without_manager", "moved_to"),
    [
        ("user_1", "user_2", "user_2", ("user_admin",)),  # 李四 has no manager here: to hr (管理员)
        ("user_3", "user_2", None, ("user_admin",)),  # 李四's manager 王五 asked: never their own request, to hr
        ("user_1", "user_3", None, ("user_admin",)),  # 王五's manager is 管理员, who gets it as a person, not as hr
    ],
)
def test_a_leave_escalates_to_hr_when_the_approver_has_no_manager_who_may_take_it(
    timed_store: WorkflowStore, clock: UtcClock, requester, approver, without_manager, moved_to
):
    from sqlalchemy import delete

    from tools.workflow.managers import reporting_lines

    if without_manager:
        with timed_store.transaction() as conn:
            conn.execute(delete(reporting_lines).where(reporting_lines.c.user_id == without_manager))
    task_id = start_leave(timed_store, requester, approver)
    clock.advance_to(FRIDAY_MORNING + timedelta(days=4, seconds=5))
    [_, escalated] = TimerService(timed_store).run_once()
    assert (escalated.task_id, escalated.moved_to) == (task_id, moved_to)
    with timed_store.read() as conn:
        [task] = timed_store.process_engine.tasks_for(conn, moved_to[0], ["hr"])
    to_hr = approver == "user_2"
    assert (task.assignee, task.candidate_groups) == ((None, ("hr",)) if to_hr else ("user_admin", ()))


def test_a_new_version_deployed_from_the_command_line_changes_only_the_requests_started_after_it(
    timed_store: WorkflowStore, clock: UtcClock, tmp_path: Path
):
    from tools.workflow.commands import processes_run
    from tools.workflow.engine import PROCESSES_DIR

    old = start_leave(timed_store)
    slower = tmp_path / "qingjia.bpmn"
    slower.write_text((PROCESSES_DIR / "qingjia.bpmn").read_text().replace(
        "<bpmn:timeDuration xsi:type=\"bpmn:tFormalExpression\">P1D</bpmn:timeDuration>",
        "<bpmn:timeDuration xsi:type=\"bpmn:tFormalExpression\">P3D</bpmn:timeDuration>"))
    with timed_store.read() as conn:
        version = timed_store.process_engine.definition(conn, "process_qingjia").version
    said = processes_run(SimpleNamespace(action="deploy", file=slower, db=str(timed_store.url)))
    assert said == f"deployed process_qingjia version {version + 1}"
    new = start_leave(timed_store)
    due = leave_timers(timed_store)
    monday = FRIDAY_MORNING + timedelta(days=3)
    assert due[old]["remind"] == monday.isoformat(timespec="microseconds")  # version n's one working day
    assert due[new]["remind"] == (monday + timedelta(days=2)).isoformat(timespec="microseconds")  # n + 1's three
    assert due[old]["escalate"] == due[new]["escalate"]
    clock.advance_to(monday)
    assert [(e.action, e.task_id) for e in TimerService(timed_store).run_once()] == [("remind", old)]


def test_a_request_started_on_v1_is_reminded_and_escalated_by_v1_after_v2_is_deployed_and_v2s_by_v2(
    timed_store: WorkflowStore, clock: UtcClock
):
    # v1 (the fixture's): reminded after 1 working day, moved to hr after 2, due after 3. v2: reminded after 3, moved to finance
    # after 4, due after 5. A request started on v1 keeps v1's timers, however long after v2's deploy they come due.
    on_v1 = start(timed_store)
    clock.advance_to(FRIDAY_MORNING + timedelta(hours=1))
    with timed_store.transaction() as conn:
        v2 = timed_store.process_engine.deploy(conn, remind_bpmn(remind="P3D", escalate="P4D", due="P5D").replace(
            '<camunda:property name="escalateTo" value="hr" />', '<camunda:property name="escalateTo" value="finance" />'))
    assert v2.version == 2
    on_v2 = start(timed_store)
    service = TimerService(timed_store, name="a")
    monday = FRIDAY_MORNING + timedelta(days=3)  # Friday 10:00 + one working day
    clock.advance_to(monday + timedelta(days=1, seconds=5))  # Tuesday: v1's two working days
    assert [(e.action, e.task_id, e.escalated_to) for e in service.run_once()] == [
        ("remind", on_v1, ()), ("escalate", on_v1, ("hr",))]
    clock.advance_to(monday + timedelta(days=2, hours=1))  # Wednesday 11:00: v2's three working days from Friday 11:00
    assert [(e.action, e.task_id) for e in service.run_once()] == [("due", on_v1), ("remind", on_v2)]
    clock.advance_to(monday + timedelta(days=3, hours=1))  # Thursday 11:00: v2's four
    assert [(e.action, e.task_id, e.moved_to) for e in service.run_once()] == [("escalate", on_v2, ("user_4",))]
    with timed_store.read() as conn:
        assert [t.id for t in timed_store.process_engine.tasks_for(conn, "user_4", ["finance"])] == [on_v2]
        assert [t.id for t in timed_store.process_engine.tasks_for(conn, "user_admin", ["hr"])] == [on_v1]


def test_an_approvers_to_do_list_shows_when_each_step_is_due_in_their_language(
    timed_store: WorkflowStore, clock: UtcClock
):
    # The leave has no due date of its own: it is due when it moves on, two working days after it came (Tuesday).
    from tools import CallContext, execute_call
    from tools.workflow import TOOLSET
    from tools.workflow.panels import tasks_of
    from tools.workflow.readable import todo

    task_id = start_leave(timed_store)

    def listed(lang: str, user: str = "user_2") -> dict:
        ctx = CallContext(backend=timed_store, actor_id=user, lang=lang)
        return execute_call(TOOLSET, "queryTodoTask", {}, ctx)

    [zh], [en] = listed("zh")["tasks"], listed("en")["tasks"]
    assert (zh["taskId"], zh["due"], en["due"]) == (task_id, "12月8日 10:00", "8 Dec 10:00")
    assert "；截止 12月8日 10:00）" in todo(listed("zh"), "zh") and "; due 8 Dec 10:00)" in todo(listed("en"), "en")
    with timed_store.read() as conn:
        [row] = tasks_of(conn, "user_2")["todo"]
    assert row["due"] == {"zh": "12月8日 10:00", "en": "8 Dec 10:00"}
    clock.advance_to(FRIDAY_MORNING + timedelta(days=4, seconds=5))  # moved on to 王五: no due date left
    TimerService(timed_store).run_once()
    [moved] = listed("zh", "user_3")["tasks"]
    assert moved["taskId"] == task_id and "due" not in moved
    with timed_store.read() as conn:
        assert [r["due"] for r in tasks_of(conn, "user_3")["todo"]] == [None]


def test_a_reminder_and_an_escalation_reach_each_person_in_their_language(timed_store: WorkflowStore,
                                                                         clock: UtcClock):
    from tools.workflow.languages import keep_language

    with timed_store.transaction() as conn:
        keep_language(conn, "user_2", "en", "2026-12-01T00:00:00+00:00")  # 李四 writes English; the admin never wrote
    task_id = start(timed_store)
    monday = FRIDAY_MORNING + timedelta(days=3)
    clock.advance_to(monday + timedelta(days=1, seconds=40))
    TimerService(timed_store, name="a").run_once()
    assert mails(timed_store) == [("user_2", f"[flowagent] Reminder: {task_id}"),
                                  ("user_admin", f"[flowagent] 超时转交 / Moved to you: {task_id}"),
                                  ("user_2", f"[flowagent] Moved on: {task_id}")]
    english = [r["body"] for r in timed_store.snapshot()["outbox"] if r["recipient_id"] == "user_2"]
    assert english[0].startswith("Reminder: Zhang San's follow-up (合同审核) has been waiting") and "\n" not in english[0]
