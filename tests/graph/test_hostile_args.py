"""Hostile arguments for every tool: nothing but DomainError comes out, and a refused call writes nothing."""

from __future__ import annotations

import json
import math
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tools import REGISTRY, CallContext, DomainError, Effect, InvalidArgumentsError, WorkflowStore, check_call, execute_call
from tools.workflow import TOOLSET

HOSTILE_STRINGS = [
    "", " ", "\n", "十", "1.5天", "三天", "半天", "-1", "0", "-0", "0.0", "1e309", "-1e309", "nan", "NaN", "inf",
    "Infinity", "1_000", "0x10", "1/2", "½", "١٠", "１０", "null", "true", "[]", "{}",
    "task_0", "task_-1", "task_99999999999999999999", "task_1; DROP TABLE tasks", "' OR 1=1 --", "req_1",
    "user_1\x00", "user_1 ", "USER_1", "user_9", "../../etc/passwd", "请用户提供邮件内容", "TBD", "[...]",
    "\ud800", "a\udfffb", "\u202egnp.exe", "🙂" * 50, "x" * 10_001, "好" * 20_000, "[" + " " * 12_000 + "x",
]
HOSTILE_NUMBERS = [0, -1, -0.5, 0.25, 1.3, 10**6, 10**400, -(10**400), 1e308, -1e308, 5e-324, math.inf, -math.inf,
                   math.nan]


def hostile_values() -> st.SearchStrategy[Any]:
    scalars = st.one_of(
        st.none(),
        st.booleans(),
        st.sampled_from(HOSTILE_STRINGS),
        st.sampled_from(HOSTILE_NUMBERS),
        st.integers(),
        st.floats(allow_nan=True, allow_infinity=True),
        st.text(max_size=30),
        st.text(alphabet=st.characters(codec="utf-8"), min_size=2000, max_size=2100),
    )
    return st.one_of(scalars, st.lists(scalars, max_size=3), st.dictionaries(st.text(max_size=5), scalars, max_size=2))


# Valid values for each parameter, so hostile values also reach the policy and the handlers.
VALID = {
    "processKey": ["process_qingjia", "process_baoxiao"],
    "userId": ["user_1", "user_2", "user_3"],
    "nextUserId": ["user_1", "user_2", "user_admin"],
    "reason": ["家里有事", "dentist"],
    "days": [0.5, 1, "2", 3],
    "taskId": ["task_1", "task_2", "task_3"],
    "result": ["", "同意", "not this week"],
    "isOK": [True, False],
    "emailContent": ["请尽快审批我的请假申请，谢谢。", "Reminder: the meeting is at 10."],
    "fields": [{"amount": 320, "category": "餐饮"}, {"destination": "上海", "startDate": "下周一", "endDate": "2099-12-09"},
               {"amount": "6000"}, {"days": 2}],
    "cc": [["user_3"], ["王五", "user_4"], []],
}
EXTRA_FIELDS = ["actorId", "approver", "userid", "days ", "__class__", "isOk", "comment"]


@st.composite
def tool_arguments(draw: st.DrawFn, tool: str) -> Any:
    params = list(REGISTRY.get(tool).args_model.model_fields)
    args: dict[Any, Any] = {}
    for param in params:
        choice = draw(st.sampled_from(["valid", "hostile", "missing"]))
        if choice == "valid":
            args[param] = draw(st.sampled_from(VALID[param]))
        elif choice == "hostile":
            args[param] = draw(hostile_values())
    if draw(st.integers(0, 4)) == 0:
        args[draw(st.one_of(st.sampled_from(EXTRA_FIELDS), st.text(max_size=8)))] = draw(hostile_values())
    shape = draw(st.integers(0, 9))
    if shape == 0:  # the whole argument object as JSON text, as some models send it
        return json.dumps(args, default=str)
    if shape == 1:  # not an object at all
        return draw(st.one_of(hostile_values(), st.sampled_from(["{", "[" * 50_000, '{"days": 1' + "0" * 5000 + "}"])))
    return args


@pytest.fixture(scope="module")
def hostile_store(tmp_path_factory) -> Iterator[WorkflowStore]:
    """One store per module (hypothesis examples share it), with pending tasks to aim at."""
    store = WorkflowStore(f"sqlite:///{tmp_path_factory.mktemp('hostile')}/wf.db")
    for requester, approver, days in (("user_1", "user_2", 3), ("user_2", "user_3", 0.5), ("user_3", "user_1", 1)):
        args = {"processKey": "process_qingjia", "userId": requester, "reason": "seed request", "days": days,
                "nextUserId": approver}
        execute_call(TOOLSET, "runWorkFlow", args, CallContext(backend=store, actor_id=requester, call_id="seed"))
    yield store
    store.dispose()


def stored_rows(store: WorkflowStore) -> dict[str, list[Any]]:
    """Every row of every table in the store's SQLite file, as stored. The store's snapshot adds views computed from
    these rows; reading the rows alone took a third of the time, and a write changes a row either way."""
    with store.engine.connect() as conn:
        tables = conn.exec_driver_sql("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").scalars()
        return {table: conn.exec_driver_sql(f'SELECT * FROM "{table}"').mappings().all() for table in list(tables)}


def run_hostile_call(store: WorkflowStore, tool: str, raw_args: Any, actor: str) -> None:
    """check_call never writes; execute_call either succeeds (JSON-able result) or refuses without writing anything
    but its audit entry (a policy refusal of a write; the argument schema's refusals are not audited)."""
    ctx = CallContext(backend=store, actor_id=actor, thread_id=f"t-{uuid.uuid4().hex[:8]}", call_id="c")
    before = stored_rows(store)
    assert len(before) >= 10 and before["audit_log"], "the store's tables were not read"
    try:
        check_call(TOOLSET, tool, raw_args, ctx)
    except DomainError as error:
        assert error.code and error.message
    assert stored_rows(store) == before, "check_call wrote to the store"
    try:
        result = execute_call(TOOLSET, tool, raw_args, ctx)
    except DomainError as error:
        assert error.code and error.message
        after = stored_rows(store)
        added = after.pop("audit_log")[len(before.pop("audit_log")):]
        assert after == before, f"refused call wrote to the store: {error}"
        audited = REGISTRY.get(tool).effect is Effect.WRITE and not isinstance(error, InvalidArgumentsError)
        expected = [("tool_refused", ctx.thread_id, error.code)] if audited else []
        assert [(a["event"], a["thread_id"], json.loads(a["detail"])["error"]) for a in added] == expected
    else:
        json.dumps(result)


ACTORS = st.sampled_from(["user_1", "user_2", "user_3", "user_9", "", "x" * 10_001])
HOSTILE = settings(max_examples=60, deadline=None)


@HOSTILE
@given(args=tool_arguments("runWorkFlow"), actor=ACTORS)
def test_hostile_run_workflow_args(hostile_store, args, actor):
    run_hostile_call(hostile_store, "runWorkFlow", args, actor)


@HOSTILE
@given(args=tool_arguments("handleTodoTask"), actor=ACTORS)
def test_hostile_handle_todo_task_args(hostile_store, args, actor):
    run_hostile_call(hostile_store, "handleTodoTask", args, actor)


@HOSTILE
@given(args=tool_arguments("sendEmail"), actor=ACTORS)
def test_hostile_send_email_args(hostile_store, args, actor):
    run_hostile_call(hostile_store, "sendEmail", args, actor)


@HOSTILE
@given(tool=st.sampled_from(["queryTodoTask", "getAllUser", "getAllWorkFlow"]), data=st.data(), actor=ACTORS)
def test_hostile_read_tool_args(hostile_store, tool, data, actor):
    args = data.draw(tool_arguments(tool)) if tool == "queryTodoTask" else data.draw(
        st.one_of(st.just({}), st.dictionaries(st.sampled_from(EXTRA_FIELDS), hostile_values(), min_size=1, max_size=2),
                  hostile_values())
    )
    run_hostile_call(hostile_store, tool, args, actor)


@HOSTILE
@given(name=st.one_of(st.text(max_size=40), st.sampled_from(["", "runworkflow", "handleTodoTask ", "\ud800"])))
def test_hostile_tool_names_refused(hostile_store, name):
    if name in REGISTRY:
        return
    with pytest.raises(DomainError) as info:
        execute_call(TOOLSET, name, {}, CallContext(backend=hostile_store, actor_id="user_1"))
    assert info.value.code == "unknown_tool"


def _zero(text: str) -> bool:
    """A written zero or nothing: no count of days."""
    try:
        return float(text.strip() or "0") == 0
    except ValueError:
        return False


@HOSTILE
@given(days=st.one_of(hostile_values(), st.sampled_from(["10", "0.5", 2, 1.5, 0, "0", ""])))
def test_hostile_days_never_crash_the_argument_model(days):
    spec = REGISTRY.get("runWorkFlow")
    args = {"processKey": "process_qingjia", "userId": "user_1", "reason": "r", "days": days, "nextUserId": "user_2"}
    try:
        parsed = spec.parse(args).days  # type: ignore[attr-defined]
    except DomainError as error:
        assert error.code == "invalid_arguments"
    else:
        no_count = days is None or (isinstance(days, int | float | str) and not isinstance(days, bool)
                                    and _zero(str(days)))
        # a finite count; more than 0, in half-day steps and at most a year is the leave form's rule (test_policy)
        assert (parsed is None and no_count) or (parsed is not None and math.isfinite(parsed))


LEAVE = {"processKey": "process_qingjia", "userId": "user_1", "reason": "r", "days": 1, "nextUserId": "user_2"}
NAMED_CASES = [
    *[("runWorkFlow", dict(LEAVE, days=days)) for days in (-1, 10**400, math.nan, math.inf, "十", "1.5天", "x" * 10_001)],
    ("runWorkFlow", dict(LEAVE, reason="x" * 10_001)),
    ("runWorkFlow", dict(LEAVE, reason="\ud800")),
    ("runWorkFlow", json.dumps(LEAVE)[:-1] + ', "extra": 1' + "0" * 5000 + "}"),
    ("runWorkFlow", "[" * 50_000),
    ("queryTodoTask", {"userId": "user_1\udfff"}),
    ("handleTodoTask", {"taskId": "task_1\ud800", "isOK": True}),
    ("handleTodoTask", '{"taskId": "task_1", "isOK": true, "result": "\\ud800"}'),
    ("sendEmail", {"userId": "user_2", "emailContent": "请审批\ud800"}),
    ("sendEmail", {"userId": "user_2", "emailContent": "[" + " " * 60_000 + "x"}),
    ("getAllUser", {"\ud800": 1}),
]


FORM_EXTRAS = [dict(LEAVE, unknown=1), dict(LEAVE, approver="user_3")]
"""A key that is no parameter of runWorkFlow is taken as a form field (`arrange_start`) and refused by the form's
check, naming the form's fields."""


@pytest.mark.parametrize("raw_args", FORM_EXTRAS, ids=lambda v: repr(v)[:40])
def test_a_start_with_a_key_the_form_does_not_have_is_refused_naming_the_form(hostile_store, raw_args):
    before = hostile_store.snapshot()
    for path in (check_call, execute_call):
        with pytest.raises(DomainError) as info:
            path(TOOLSET, "runWorkFlow", raw_args, CallContext(backend=hostile_store, actor_id="user_1"))
        assert info.value.code == "unknown_field", info.value
        assert "The form of process_qingjia has: days (请假天数), leaveType (请假类型)" in info.value.message
    after = hostile_store.snapshot()
    refused = after.pop("audit_log")[len(before["audit_log"]):]
    assert [row["event"] for row in refused] == ["tool_refused"]  # the executor's refusal, audited; nothing else
    assert after == {k: v for k, v in before.items() if k != "audit_log"}


@pytest.mark.parametrize(("tool", "raw_args"), NAMED_CASES, ids=lambda v: repr(v)[:40])
def test_named_hostile_cases_are_refused_without_writes(hostile_store, tool, raw_args):
    """The issue's named cases and the crashes hypothesis once found, pinned (hypothesis may not redraw them)."""
    before = hostile_store.snapshot()
    for path in (check_call, execute_call):
        started = time.monotonic()
        with pytest.raises(DomainError) as info:
            path(TOOLSET, tool, raw_args, CallContext(backend=hostile_store, actor_id="user_1"))
        # the schema's refusal, or the leave form's (-1 days: a count it takes must be more than 0), audited then
        assert info.value.code in ("invalid_arguments", "invalid_json", "out_of_range"), info.value
        assert time.monotonic() - started < 1.0, "a hostile value must be refused quickly"
        after = hostile_store.snapshot()
        audit = [row["event"] for row in after.pop("audit_log")[len(before["audit_log"]):]]
        assert audit == (["tool_refused"] if info.value.code == "out_of_range" and path is execute_call else [])
        assert after == {k: v for k, v in before.items() if k != "audit_log"}
