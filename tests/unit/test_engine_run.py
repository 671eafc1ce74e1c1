"""Running processes: start forms, routing through gateways, group tasks, decisions, versions and diagram marks."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine

from tests.support.engine import PURCHASE_KEY, prepare, purchase_bpmn, sqlite_engine
from tools.workflow.engine import EngineError, FormError, SpiffEngine, create_tables, seed, tables

TODAY = date(2026, 12, 1)


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


def start(db: Engine, engine: SpiffEngine, key: str, data: dict[str, Any], requester: str = "user_1") -> Any:
    with db.begin() as conn:
        return engine.start(conn, key, requester=requester, data=data, today=TODAY)


def complete(db: Engine, engine: SpiffEngine, task_id: str, user: str, approved: bool = True, comment: str = "同意") -> Any:
    with db.begin() as conn:
        return engine.complete(conn, task_id, user_id=user, approved=approved, comment=comment)


def tasks_for(db: Engine, engine: SpiffEngine, user: str) -> list[Any]:
    with db.connect() as conn:
        return engine.tasks_for(conn, user, tables.groups_of(conn, user))


def instance(db: Engine, engine: SpiffEngine, instance_id: str) -> Any:
    with db.connect() as conn:
        return engine.instance(conn, instance_id)


ORDER = {"item": "笔记本电脑", "quantity": "3", "unitPrice": "6999.5", "channel": "供应商", "nextUserId": "user_2"}


# ---------------------------------------------------------------- the fourth process, from BPMN written in the test


def test_a_process_deployed_from_bpmn_starts_routes_to_its_group_and_ends(db: Engine, engine: SpiffEngine):
    started = start(db, engine, PURCHASE_KEY, ORDER)
    assert started.status == "running" and started.version == 1
    assert started.data == {
        "item": "笔记本电脑", "quantity": 3, "unitPrice": 6999.5, "urgent": False, "channel": "supplier", "neededBy": None,
        "nextUserId": "user_2", "requester": "user_1",
    }
    (first,) = started.tasks
    assert (first.step, first.assignee, first.requester, first.form["quantity"]) == ("主管审批", "user_2", "user_1", 3)
    assert [(e.kind, e.task_id, e.assignees) for e in started.events] == [("task_ready", first.id, ("user_2",))]
    assert [t.id for t in tasks_for(db, engine, "user_2")] == [first.id]
    assert tasks_for(db, engine, "user_3") == []

    decided = complete(db, engine, first.id, "user_2", comment="预算内")
    (second,) = decided.tasks
    assert decided.status == "running" and decided.task.status == "completed" and decided.task.approved is True
    assert (second.step, second.assignee, second.candidate_groups) == ("采购部审批", None, ("purchasing",))
    assert [(e.kind, e.task_id, e.assignees, e.candidate_groups) for e in decided.events] == [
        ("task_ready", second.id, (), ("purchasing",))
    ]
    for member in ("user_3", "user_4"):  # every member of the group sees the group's task, with the earlier decision
        (seen,) = tasks_for(db, engine, member)
        assert seen.id == second.id and [(h.user, h.comment) for h in seen.history] == [("user_2", "预算内")]
    assert tasks_for(db, engine, "user_2") == []

    ended = complete(db, engine, second.id, "user_4", comment="已下单")
    assert ended.status == "approved" and ended.tasks == ()
    assert [(e.kind, e.requester, e.outcome) for e in ended.events] == [("instance_ended", "user_1", "approved")]
    view = instance(db, engine, started.instance_id)
    assert view.status == "approved" and view.ended_at
    assert [(h.step, h.user, h.approved, h.comment) for h in view.history] == [
        ("主管审批", "user_2", True, "预算内"), ("采购部审批", "user_4", True, "已下单"),
    ]
    assert (view.data["approved"], view.data["comment"], len(view.data["history"])) == (True, "已下单", 2)
    assert tasks_for(db, engine, "user_3") == []


def test_a_small_order_ends_after_the_first_approval(db: Engine, engine: SpiffEngine):
    started = start(db, engine, PURCHASE_KEY, {**ORDER, "quantity": 1, "unitPrice": 100})
    decided = complete(db, engine, started.tasks[0].id, "user_2")
    assert decided.status == "approved" and decided.tasks == ()


def test_a_rejection_ends_the_instance_as_rejected(db: Engine, engine: SpiffEngine):
    started = start(db, engine, PURCHASE_KEY, ORDER)
    decided = complete(db, engine, started.tasks[0].id, "user_2", approved=False, comment="预算不足")
    assert decided.status == "rejected" and decided.tasks == ()
    assert [(e.kind, e.outcome) for e in decided.events] == [("instance_ended", "rejected")]
    assert instance(db, engine, started.instance_id).data["comment"] == "预算不足"


def test_deploying_version_2_leaves_a_running_version_1_instance_on_version_1(db: Engine, engine: SpiffEngine):
    old = start(db, engine, PURCHASE_KEY, {**ORDER, "quantity": 2, "unitPrice": 7000})  # 14,000: over v1's 10,000 limit
    with db.begin() as conn:
        assert engine.deploy(conn, purchase_bpmn(name="采购申请 v2", limit=50000)).version == 2
    new = start(db, engine, PURCHASE_KEY, {**ORDER, "quantity": 2, "unitPrice": 7000})
    assert (old.version, new.version) == (1, 2)

    old_decided = complete(db, engine, old.tasks[0].id, "user_2")
    new_decided = complete(db, engine, new.tasks[0].id, "user_2")
    assert [t.step for t in old_decided.tasks] == ["采购部审批"]  # v1: over 10,000 goes on to purchasing
    assert new_decided.status == "approved"  # v2: 14,000 is under its 50,000 limit
    old_view = instance(db, engine, old.instance_id)
    assert (old_view.version, old_view.process_name) == (1, "采购申请")
    assert 'limit' not in old_view.bpmn_xml and "&gt; 10000" in old_view.bpmn_xml
    assert old_decided.tasks[0].process_version == 1


def test_a_group_task_is_offered_only_to_members_and_an_assigned_one_only_to_its_assignee(db: Engine, engine: SpiffEngine):
    started = start(db, engine, PURCHASE_KEY, ORDER)
    with db.begin() as conn, pytest.raises(EngineError) as refused:
        engine.complete(conn, started.tasks[0].id, user_id="user_3", approved=True, comment="")
    assert refused.value.code == "task_not_offered"
    group_task = complete(db, engine, started.tasks[0].id, "user_2").tasks[0]
    for outsider in ("user_2", "user_1", "user_admin"):
        with db.begin() as conn, pytest.raises(EngineError) as refused:
            engine.complete(conn, group_task.id, user_id=outsider, approved=True, comment="")
        assert refused.value.code == "task_not_offered"
    with db.begin() as conn:  # groups given by the caller count, instead of the engine's own group tables
        assert engine.complete(conn, group_task.id, user_id="user_9", approved=True, comment="", groups=["purchasing"])


def test_a_decided_task_cannot_be_decided_again(db: Engine, engine: SpiffEngine):
    started = start(db, engine, PURCHASE_KEY, ORDER)
    task_id = started.tasks[0].id
    complete(db, engine, task_id, "user_2")
    with db.begin() as conn, pytest.raises(EngineError) as refused:
        engine.complete(conn, task_id, user_id="user_2", approved=False, comment="改主意了")
    assert refused.value.code == "task_not_pending"
    with db.connect() as conn:
        task = engine.task(conn, task_id)
    assert (task.status, task.approved, task.comment) == ("completed", True, "同意")


def test_unknown_ids_are_refused_readably(db: Engine, engine: SpiffEngine):
    with db.begin() as conn:
        for call, code in (
            (lambda: engine.task(conn, "task_999"), "task_not_found"),
            (lambda: engine.task(conn, "bogus"), "task_not_found"),
            (lambda: engine.instance(conn, "req_999"), "unknown_instance"),
            (lambda: engine.start(conn, "process_nope", requester="user_1", data={}), "unknown_process"),
        ):
            with pytest.raises(EngineError) as refused:
                call()
            assert refused.value.code == code


def test_the_diagram_marks_done_current_and_next(db: Engine, engine: SpiffEngine):
    started = start(db, engine, PURCHASE_KEY, ORDER)
    marks = instance(db, engine, started.instance_id).diagram
    assert (marks.done, marks.current) == (("Start_caigou", "Flow_start"), ("Task_manager",))
    assert set(marks.next) == {"Task_purchasing", "End_done"}
    complete(db, engine, started.tasks[0].id, "user_2")
    view = instance(db, engine, started.instance_id)
    assert view.current_steps == ("采购部审批",)
    assert view.diagram.done == ("Start_caigou", "Task_manager", "Gateway_amount", "Flow_start", "Flow_decided", "Flow_big")
    assert view.diagram.current == ("Task_purchasing",) and view.diagram.next == ("End_done",)


# ---------------------------------------------------------------- start forms


@pytest.mark.parametrize(
    ("data", "code", "field"),
    [
        ({k: v for k, v in ORDER.items() if k != "item"}, "missing_field", "item"),
        ({**ORDER, "quantity": "2.5"}, "invalid_field", "quantity"),
        ({**ORDER, "quantity": 0}, "out_of_range", "quantity"),
        ({**ORDER, "quantity": 1001}, "out_of_range", "quantity"),
        ({**ORDER, "unitPrice": 0}, "out_of_range", "unitPrice"),
        ({**ORDER, "unitPrice": "很多"}, "invalid_field", "unitPrice"),
        ({**ORDER, "channel": "淘宝"}, "not_a_choice", "channel"),
        ({**ORDER, "urgent": "maybe"}, "invalid_field", "urgent"),
        ({**ORDER, "neededBy": "下周五"}, "invalid_field", "neededBy"),
        ({**ORDER, "color": "red"}, "unknown_field", "color"),
    ],
)
def test_the_start_form_refuses_bad_values_and_nothing_is_stored(db: Engine, engine: SpiffEngine, data, code, field):
    with db.begin() as conn, pytest.raises(FormError) as refused:
        engine.start(conn, PURCHASE_KEY, requester="user_1", data=data, today=TODAY)
    assert (refused.value.code, refused.value.field) == (code, field)
    with db.connect() as conn:
        assert engine.tasks_for(conn, "user_2", []) == []


def test_a_missing_field_is_named_by_its_labels_so_the_caller_can_ask_for_it(db: Engine, engine: SpiffEngine):
    with db.begin() as conn, pytest.raises(FormError) as refused:
        data = {"category": "差旅", "reason": "出差", "nextUserId": "user_2"}
        engine.start(conn, "process_baoxiao", requester="user_1", data=data)
    assert (refused.value.field, refused.value.label, refused.value.label_en) == ("amount", "报销金额", "Amount (yuan)")


def test_a_start_without_the_approver_its_assignee_rule_names_stores_nothing(db: Engine, engine: SpiffEngine):
    with db.begin() as conn, pytest.raises(EngineError) as refused:
        engine.start(conn, "process_qingjia", requester="user_1", data={"days": 2, "reason": "家里有事"})
    assert refused.value.code == "no_assignee" and "nextUserId" in refused.value.message
    with db.connect() as conn:
        assert conn.execute(tables.instances.select()).first() is None


# ---------------------------------------------------------------- the seed processes


def leave(days: float) -> dict[str, Any]:
    return {"days": days, "reason": "家里有事", "nextUserId": "user_2"}


def test_leave_over_3_days_goes_on_to_hr_after_the_approver(db: Engine, engine: SpiffEngine):
    started = start(db, engine, "process_qingjia", leave(3.5))
    assert [(t.step, t.assignee) for t in started.tasks] == [("审批人审批", "user_2")]
    decided = complete(db, engine, started.tasks[0].id, "user_2")
    assert [(t.step, t.candidate_groups) for t in decided.tasks] == [("人事审批", ("hr",))]
    assert [t.step for t in tasks_for(db, engine, "user_admin")] == ["人事审批"]  # 管理员 is hr
    ended = complete(db, engine, decided.tasks[0].id, "user_admin")
    assert ended.status == "approved"


def test_leave_of_3_days_or_less_ends_with_the_approver(db: Engine, engine: SpiffEngine):
    started = start(db, engine, "process_qingjia", leave(3))
    assert complete(db, engine, started.tasks[0].id, "user_2").status == "approved"
    assert tasks_for(db, engine, "user_admin") == []


def test_hr_rejecting_a_long_leave_ends_it_as_rejected(db: Engine, engine: SpiffEngine):
    started = start(db, engine, "process_qingjia", leave(10))
    hr_task = complete(db, engine, started.tasks[0].id, "user_2").tasks[0]
    ended = complete(db, engine, hr_task.id, "user_admin", approved=False, comment="人手不足")
    assert ended.status == "rejected"
    assert [e.outcome for e in ended.events if e.kind == "instance_ended"] == ["rejected"]


def test_a_rejected_long_leave_does_not_go_on_to_hr(db: Engine, engine: SpiffEngine):
    started = start(db, engine, "process_qingjia", leave(10))
    assert complete(db, engine, started.tasks[0].id, "user_2", approved=False).status == "rejected"
    assert tasks_for(db, engine, "user_admin") == []


@pytest.mark.parametrize(
    ("days", "code"), [(0, "out_of_range"), (-1, "out_of_range"), (1.3, "out_of_range"), ("十", "invalid_field")]
)
def test_leave_days_are_positive_half_days(db: Engine, engine: SpiffEngine, days, code):
    with db.begin() as conn, pytest.raises(FormError) as refused:
        engine.start(conn, "process_qingjia", requester="user_1", data=leave(days), today=TODAY)
    assert (refused.value.code, refused.value.field) == (code, "days")


def expense(amount: float, category: str = "差旅") -> dict[str, Any]:
    return {"amount": amount, "category": category, "reason": "客户拜访", "nextUserId": "user_2"}


def test_an_expense_over_5000_goes_on_to_finance(db: Engine, engine: SpiffEngine):
    started = start(db, engine, "process_baoxiao", expense(5000.01))
    decided = complete(db, engine, started.tasks[0].id, "user_2")
    assert [(t.step, t.candidate_groups) for t in decided.tasks] == [("财务审批", ("finance",))]
    assert [t.id for t in tasks_for(db, engine, "user_4")] == [decided.tasks[0].id]  # 赵六 is finance
    assert tasks_for(db, engine, "user_admin") == []
    assert complete(db, engine, decided.tasks[0].id, "user_4").status == "approved"


def test_an_expense_of_5000_or_less_ends_with_the_approver(db: Engine, engine: SpiffEngine):
    started = start(db, engine, "process_baoxiao", expense(5000, "餐饮"))
    assert started.data["category"] == "餐饮"
    assert complete(db, engine, started.tasks[0].id, "user_2").status == "approved"


@pytest.mark.parametrize(("amount", "category", "code", "field"), [
    (0, "差旅", "out_of_range", "amount"), (12.345, "差旅", "out_of_range", "amount"), (100, "旅游", "not_a_choice", "category"),
])
def test_expense_amounts_are_positive_yuan_and_categories_fixed(db: Engine, engine: SpiffEngine, amount, category, code, field):
    with db.begin() as conn, pytest.raises(FormError) as refused:
        engine.start(conn, "process_baoxiao", requester="user_1", data=expense(amount, category), today=TODAY)
    assert (refused.value.code, refused.value.field) == (code, field)


def trip(start_date: str, end_date: str) -> dict[str, Any]:
    return {"destination": "上海", "startDate": start_date, "endDate": end_date, "reason": "客户拜访", "nextUserId": "user_3"}


def test_a_trip_is_approved_by_its_approver(db: Engine, engine: SpiffEngine):
    started = start(db, engine, "process_chuchai", trip("2026-12-01", "2026-12-03"))
    assert [(t.step, t.assignee) for t in started.tasks] == [("审批人审批", "user_3")]
    assert complete(db, engine, started.tasks[0].id, "user_3").status == "approved"


@pytest.mark.parametrize(("start_date", "end_date", "field"), [
    ("2026-12-05", "2026-12-04", "endDate"),  # the end before the start
    ("2026-11-30", "2026-12-04", "startDate"),  # the start in the past (today is 2026-12-01)
])
def test_trip_dates_are_in_order_and_not_past(db: Engine, engine: SpiffEngine, start_date, end_date, field):
    with db.begin() as conn, pytest.raises(FormError) as refused:
        engine.start(conn, "process_chuchai", requester="user_1", data=trip(start_date, end_date), today=TODAY)
    assert (refused.value.code, refused.value.field) == ("out_of_range", field)


def test_the_groups_seed_leaves_an_edited_group_alone(tmp_path: Path):
    db = sqlite_engine(tmp_path / "groups.db")
    with db.begin() as conn:
        create_tables(conn)
        tables.seed_groups(conn)
        tables.set_group(conn, "hr", "人事", ["user_admin", "user_3"])
        tables.seed_groups(conn)
        assert tables.members_of(conn, "hr") == ["user_3", "user_admin"]
        assert tables.groups_of(conn, "user_4") == ["finance"]
    db.dispose()


# ---------------------------------------------------------------- parallel branches

PARALLEL_BPMN = """<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
    xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="Definitions_huiqian" targetNamespace="http://bpmn.io/schema/bpmn">
  <bpmn:process id="process_huiqian" name="会签" isExecutable="true">
    <bpmn:startEvent id="Start_huiqian">
      <bpmn:extensionElements>
        <camunda:formData><camunda:formField id="topic" label="事项" type="string" /></camunda:formData>
      </bpmn:extensionElements>
    </bpmn:startEvent>
    <bpmn:parallelGateway id="Split" />
    <bpmn:userTask id="Task_legal" name="法务会签" camunda:candidateUsers="user_2, ${nextUserId}" />
    <bpmn:userTask id="Task_finance" name="财务会签" camunda:candidateGroups="finance" />
    <bpmn:parallelGateway id="Join" />
    <bpmn:endEvent id="End_huiqian" />
    <bpmn:sequenceFlow id="Flow_split" sourceRef="Start_huiqian" targetRef="Split" />
    <bpmn:sequenceFlow id="Flow_legal" sourceRef="Split" targetRef="Task_legal" />
    <bpmn:sequenceFlow id="Flow_finance" sourceRef="Split" targetRef="Task_finance" />
    <bpmn:sequenceFlow id="Flow_legal_done" sourceRef="Task_legal" targetRef="Join" />
    <bpmn:sequenceFlow id="Flow_finance_done" sourceRef="Task_finance" targetRef="Join" />
    <bpmn:sequenceFlow id="Flow_end" sourceRef="Join" targetRef="End_huiqian" />
  </bpmn:process>
</bpmn:definitions>
"""


def test_parallel_branches_wait_for_each_other_and_candidate_users_resolve_expressions(db: Engine, engine: SpiffEngine):
    with db.begin() as conn:
        engine.deploy(conn, PARALLEL_BPMN)
    started = start(db, engine, "process_huiqian", {"topic": "合同", "nextUserId": "user_3"})
    legal, finance = started.tasks
    assert (legal.candidate_users, finance.candidate_groups) == (("user_2", "user_3"), ("finance",))
    assert [t.id for t in tasks_for(db, engine, "user_3")] == [legal.id]
    first = complete(db, engine, legal.id, "user_3")
    assert first.status == "running" and first.events == () and [t.id for t in first.tasks] == [finance.id]
    marks = instance(db, engine, started.instance_id).diagram
    assert "Flow_legal_done" in marks.done and marks.current == ("Task_finance",)
    second = complete(db, engine, finance.id, "user_4", comment="预算已核")
    assert second.status == "approved"
    view = instance(db, engine, started.instance_id)
    assert [h.step for h in view.history] == ["法务会签", "财务会签"]
    assert {"Flow_legal_done", "Flow_finance_done", "Join", "End_huiqian"} <= set(view.diagram.done)
