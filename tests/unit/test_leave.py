"""Leave through the real runWorkFlow and handleTodoTask on a SQLite file: types as data in step with the form, dates
counted in working days against the days stated, the type's rules, and a balance held at start, used at the final
approval and given back on rejection, with every change in the ledger."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from tools import CallContext, DomainError, WorkflowStore, check_call, execute_call
from tools.errors import CannotError
from tools.workflow import TOOLSET
from tools.workflow.leave import release_for_instance
from tools.workflow.leave.balances import allocate, balance, ledger_of
from tools.workflow.leave.requests import hold_again
from tools.workflow.leave.types import LEAVE_TYPE_FIELD, leave_types, read_types

YEAR = date.today().year
"""The seed allocates for this year and the next (the seed users: user_1 年假 10, user_2 年假 5)."""


def leave(requester: str = "user_1", approver: str = "user_2", days: float = 3, **fields: Any) -> dict[str, Any]:
    return {"processKey": "process_qingjia", "userId": requester, "reason": "回老家看看", "days": days,
            "nextUserId": approver, "fields": fields or None}


def refused(ctx: CallContext, args: dict[str, Any], code: str) -> CannotError:
    """Both paths refuse it with `code` and words for the person."""
    errors = []
    for path in (check_call, execute_call):
        with pytest.raises(DomainError) as info:
            path(TOOLSET, "runWorkFlow", args, ctx)
        assert info.value.code == code, info.value
        errors.append(info.value)
    assert isinstance(errors[0], CannotError)
    return errors[0]


def decide(store: WorkflowStore, make_ctx: Any, task_id: str, actor: str, ok: bool) -> dict[str, Any]:
    return execute_call(TOOLSET, "handleTodoTask", {"taskId": task_id, "isOK": ok, "result": "看过了，同意" if ok else "不行"},
                        make_ctx(actor))


def left(store: WorkflowStore, user: str = "user_1", type_id: str = "年假", year: int = YEAR) -> tuple[float, ...]:
    with store.read() as conn:
        now = balance(conn, user, type_id, year)
    return now.allocated, now.held, now.used


def test_the_types_file_and_the_leave_forms_choices_are_the_same_types(store):
    with store.read() as conn:
        definition = store.process_engine.definition(conn, "process_qingjia")
    [field] = [f for f in definition.fields if f.id == LEAVE_TYPE_FIELD]
    types = leave_types()
    assert [(c.id, c.name_en) for c in field.choices] == [(t.id, t.name_en) for t in types.types]
    assert field.default == types.default == "事假"
    assert not types.require("事假").balance  # the default takes nothing from anyone's allocation


def test_a_types_file_with_a_default_that_is_no_type_is_refused(tmp_path):
    bad = tmp_path / "types.toml"
    bad.write_text('default = "产假"\n[[type]]\nid = "年假"\ncode = "annual"\nname_en = "Annual leave"\n'
                   "paid = true\nbalance = true\nhalf_days = true\n", encoding="utf-8")
    with pytest.raises(ValueError, match="default must be one of 年假"):
        read_types(bad)


def test_a_leave_with_no_type_is_personal_leave_and_takes_no_balance(store, make_ctx):
    result = execute_call(TOOLSET, "runWorkFlow", leave(), make_ctx())
    assert result["form"][LEAVE_TYPE_FIELD] == "事假"
    assert left(store) == (10, 0, 0)


def test_annual_leave_holds_its_days_and_the_card_says_the_balance(store, make_ctx):
    ctx = make_ctx()
    args = leave(days=3, leaveType="年假")
    card = TOOLSET.registry.get("runWorkFlow").card
    assert card is not None
    with store.read() as conn:
        shown = card(conn, args, "zh", {})
        shown_en = card(conn, args, "en", {})
    assert f"年假余额 10 天（{YEAR} 年），本次 3 天，剩余 7 天" in shown["leave"]
    assert f"Annual leave balance ({YEAR}): 10 days, this request 3 days, 7 days left" in shown_en["leave"]
    assert shown["labels"]["leave"] == "假期"
    result = execute_call(TOOLSET, "runWorkFlow", args, ctx)
    assert result["leave"] == {"type": "年假", "days": 3.0, "year": YEAR, "left_before": 10.0, "left_after": 7.0}
    assert left(store) == (10, 3, 0)
    with store.read() as conn:
        kinds = [(e["kind"], e["days"], e["instance_id"]) for e in ledger_of(conn, "user_1") if e["kind"] != "allocate"]
    assert kinds == [("hold", 3.0, result["requestId"])]


def test_a_request_over_the_balance_is_refused_naming_it(store, make_ctx):
    error = refused(make_ctx("user_2"), leave("user_2", "user_3", days=6, leaveType="年假"), "leave_balance_short")
    assert error.say["zh"].startswith(f"年假余额不足：{YEAR} 年还剩 5 天，这次要 6 天")
    assert f"5 days left for {YEAR}" in error.say["en"]
    assert left(store, "user_2") == (5, 0, 0)


def test_a_second_request_finds_what_the_first_holds_gone(store, make_ctx):
    execute_call(TOOLSET, "runWorkFlow", leave("user_2", "user_3", days=4, leaveType="年假"), make_ctx("user_2"))
    error = refused(make_ctx("user_2"), leave("user_2", "user_3", days=2, leaveType="年假"), "leave_balance_short")
    assert "还剩 1 天" in error.say["zh"]


def test_a_rejected_request_gives_its_days_back_and_an_approved_one_uses_them(store, make_ctx):
    first = execute_call(TOOLSET, "runWorkFlow", leave(days=2, leaveType="年假"), make_ctx())
    second = execute_call(TOOLSET, "runWorkFlow", leave(days=3, leaveType="年假"), make_ctx())
    assert left(store) == (10, 5, 0)
    decide(store, make_ctx, first["taskId"], "user_2", ok=False)
    assert left(store) == (10, 3, 0)
    decide(store, make_ctx, second["taskId"], "user_2", ok=True)  # 3 days: the approver's decision is the last
    assert left(store) == (10, 0, 3)
    with store.transaction() as conn:  # given back once: a second release (a withdraw hook) gives nothing
        assert release_for_instance(conn, first["requestId"]) == 0
    with store.read() as conn:
        kinds = [e["kind"] for e in ledger_of(conn, "user_1") if e["kind"] != "allocate"]
    assert kinds == ["hold", "hold", "release", "use"]


def test_dates_are_counted_in_working_days_and_shown(store, make_ctx):
    args = leave(days=2, startDate="2025-12-31", endDate="2026-01-04")
    result = execute_call(TOOLSET, "runWorkFlow", args, make_ctx())
    assert result["leave"]["counted"]["makeup"] == ["2026-01-04"]
    card = TOOLSET.registry.get("runWorkFlow").card
    assert card is not None
    with store.read() as conn:
        shown = card(conn, args, "zh", {})
    assert "2025年12月31日–2026年1月4日：2 个工作日；1月1日至3日放假，1月4日（周日）调休上班" in shown["leave"]


def test_days_that_disagree_with_the_dates_are_refused_saying_both(make_ctx):
    error = refused(make_ctx(), leave(days=5, startDate="2025-12-31", endDate="2026-01-04"), "leave_days_mismatch")
    assert error.say["zh"].startswith("请假天数 5 天，和日期对不上：2025年12月31日–2026年1月4日：2 个工作日")
    assert error.say["en"].startswith("5 days of leave does not match the dates: 31 Dec 2025 – 4 Jan 2026: 2 working")


def test_half_days_at_the_ends_count_half(store, make_ctx):
    args = leave(days=1.5, startDate="2026-12-08", startHalf="下午", endDate="2026-12-09")
    assert execute_call(TOOLSET, "runWorkFlow", args, make_ctx())["leave"]["days"] == 1.5
    one_morning = leave(days=0.5, startDate="2026-12-08", startHalf="上午", endDate="2026-12-08", endHalf="上午")
    assert execute_call(TOOLSET, "runWorkFlow", one_morning, make_ctx())["leave"]["days"] == 0.5


def test_an_end_before_the_start_is_refused(make_ctx):
    error = refused(make_ctx(), leave(days=1, startDate="2026-12-09", endDate="2026-12-08"), "end_before_start")
    assert "早于开始时间" in error.say["zh"]


def test_a_type_s_rules_refuse_half_days_and_too_many_days(make_ctx):
    assert "只能按整天请" in refused(make_ctx(), leave(days=1.5, leaveType="婚假"), "leave_whole_days").say["zh"]
    assert "每次最多 3 天" in refused(make_ctx(), leave(days=4, leaveType="丧假"), "leave_too_long").say["zh"]


def test_a_document_over_its_days_is_asked_for_on_the_card(store):
    card = TOOLSET.registry.get("runWorkFlow").card
    assert card is not None
    with store.read() as conn:
        long_sick = card(conn, leave(days=3, leaveType="病假"), "zh", {})["leave"]
        short_sick = card(conn, leave(days=1, leaveType="病假"), "en", {})["leave"]
    assert "病假超过 2 天需要提供医院证明（病假条），请交给审批人" in long_sick
    assert short_sick == ["Sick leave: paid, takes no balance"]


def test_a_year_the_calendar_does_not_know_is_said_on_the_card(store):
    card = TOOLSET.registry.get("runWorkFlow").card
    assert card is not None
    with store.read() as conn:
        lines = card(conn, leave(days=1, startDate="2027-01-05", endDate="2027-01-05"), "zh", {})["leave"]
    assert any("2027 年的放假安排日历中还没有，按周一至周五计算，请确认" in line for line in lines)


def test_an_allocation_keeps_its_history_and_never_goes_below_what_is_taken(store, make_ctx):
    execute_call(TOOLSET, "runWorkFlow", leave(days=4, leaveType="年假"), make_ctx())
    annual = leave_types().require("annual")
    with store.transaction() as conn:
        allocate(conn, "user_1", annual, YEAR, 12, actor_id="user_admin", note="5 years of service")
        with pytest.raises(ValueError, match="allocate at least that many"):
            allocate(conn, "user_1", annual, YEAR, 3)
        with pytest.raises(ValueError, match="not counted against a balance"):
            allocate(conn, "user_1", leave_types().require("事假"), YEAR, 3)
    with store.read() as conn:
        changes = [(e["days"], e["note"]) for e in ledger_of(conn, "user_1")
                   if e["kind"] == "allocate" and e["leave_type"] == "年假" and e["year"] == YEAR]
    assert changes == [(10.0, "seed"), (2.0, "5 years of service")]
    assert left(store) == (12, 4, 0)


def test_a_request_sent_again_holds_its_new_days_instead_of_its_old(store, make_ctx):
    started = execute_call(TOOLSET, "runWorkFlow", leave(days=4, leaveType="年假"), make_ctx())
    with store.transaction() as conn:
        definition = store.process_engine.definition(conn, "process_qingjia")
        hold_again(conn, started["requestId"], "user_1", definition, {"days": 9, LEAVE_TYPE_FIELD: "年假"}, date.today())
    assert left(store) == (10, 9, 0)  # 9 fits: the request's own 4 were given back first
    with pytest.raises(CannotError), store.transaction() as conn:
        hold_again(conn, started["requestId"], "user_1", definition, {"days": 11, LEAVE_TYPE_FIELD: "年假"}, date.today())
    assert left(store) == (10, 9, 0)  # refused whole: the old hold stays


def test_the_final_approval_checks_the_balance_again_in_the_decisions_transaction(store, make_ctx):
    # a request that holds nothing (started before balances, or given back meanwhile) takes its days at the final
    # approval, from what is left; when less is left the approval is refused, naming the balance, and nothing changes
    started = execute_call(TOOLSET, "runWorkFlow", leave(days=3, leaveType="年假"), make_ctx())
    with store.transaction() as conn:
        release_for_instance(conn, started["requestId"])
        allocate(conn, "user_1", leave_types().require("年假"), YEAR, 2)
    with pytest.raises(CannotError) as info:
        decide(store, make_ctx, started["taskId"], "user_2", ok=True)
    assert info.value.code == "leave_balance_short" and "还剩 2 天" in info.value.say["zh"]
    assert [t["status"] for t in store.snapshot()["tasks"]] == ["pending"]
    assert left(store) == (2, 0, 0)
    with store.transaction() as conn:
        allocate(conn, "user_1", leave_types().require("年假"), YEAR, 5)
    decide(store, make_ctx, started["taskId"], "user_2", ok=True)
    assert left(store) == (5, 0, 3)
