"""Admission is an ordered pipeline of guards: the standard order, a deployment's own guard added without touching
the others (on the validator's path and again in the write's transaction), the guards that need the person's request
left out where there is none, and what the guards record for the card (`Verdict.sources`)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from tools import DomainError, PolicyError, check_call, execute_call
from tools.guards import STANDARD, Call, added
from tools.spec import PersonValue
from tools.workflow import TOOLSET

LEAVE = {"processKey": "process_qingjia", "reason": "看牙医", "days": 1, "nextUserId": "李四"}


class AtMostPerThread:
    """A deployment's rate limit: at most `limit` writes admitted per thread (counted in memory, for the test)."""

    name = "rate_limit"
    needs_request = False
    asks_together = False

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.seen: list[tuple[str, str]] = []

    def __call__(self, call: Call) -> None:
        self.seen.append((call.spec.name, call.ctx.thread_id))
        if call.spec.effect == "write" and self.seen.count((call.spec.name, call.ctx.thread_id)) > self.limit:
            raise PolicyError("rate_limited", f"at most {self.limit} {call.spec.name} calls per conversation")


def test_the_standard_order_is_the_one_a_person_would_be_told():
    assert [g.name for g in STANDARD] == [
        "identity", "references", "filled", "dates", "refused", "missing", "usable", "schema", "people", "policy",
        "grounded",
    ]
    assert [g.name for g in STANDARD if g.needs_request] == ["filled", "refused", "missing", "usable", "grounded"]


def test_a_deployment_adds_a_guard_without_touching_the_others(store, make_ctx, person_request):
    limit = AtMostPerThread(2)
    toolset = dataclasses.replace(TOOLSET, guards=added(limit, after="identity"))
    assert [g.name for g in toolset.guards or ()][:3] == ["identity", "rate_limit", "references"]
    request = person_request("明天看牙医，请1天假，李四审批")
    check_call(toolset, "runWorkFlow", LEAVE, make_ctx(), request=request)  # the validator's path
    execute_call(toolset, "runWorkFlow", LEAVE, make_ctx())  # and again in the write's transaction
    assert limit.seen == [("runWorkFlow", "thread-test")] * 2
    with pytest.raises(PolicyError) as refused:
        check_call(toolset, "runWorkFlow", LEAVE, make_ctx(), request=request)
    assert refused.value.code == "rate_limited"
    assert len(store.snapshot()["requests"]) == 1
    # The toolset without it is unchanged.
    check_call(TOOLSET, "runWorkFlow", LEAVE, make_ctx(), request=request)


def test_a_guard_is_added_only_after_or_before_one_that_exists():
    with pytest.raises(ValueError, match="no guard 'throttle'"):
        added(AtMostPerThread(1), after="throttle")
    with pytest.raises(ValueError, match="no guard 'throttle' to add 'rate_limit' before"):
        added(AtMostPerThread(1), before="throttle")
    with pytest.raises(ValueError, match="one of them"):
        added(AtMostPerThread(1), after="identity", before="identity")
    assert [g.name for g in added(AtMostPerThread(1), before="identity")][:2] == ["rate_limit", "identity"]


def test_the_wrong_tool_is_refused_as_such_before_its_arguments_are_judged(make_ctx, person_request):
    # Someone else's copies list for "my claim": the refusal sends the model to the person's own requests, rather
    # than to fix a userId on a list that is not what the person asked about.
    request = person_request("我那个报销怎么又被打回来了？", actor="user_3")
    with pytest.raises(PolicyError) as refused:
        check_call(TOOLSET, "queryCcRequests", {"userId": "user_1"}, make_ctx("user_3"), request=request)
    assert refused.value.code == "own_request" and "queryMyRequests" in str(refused.value)
    assert [g.name for g in TOOLSET.guards or ()][:19] == [
        "each_own_decision", "each_own_request", "approver_edits", "anothers_request", "not_theirs_to_withdraw",
        "resend_not_withdraw", "withdraw_kept", "deputy_not_transfer", "own_request", "approval_not_urge", "nothing_to_do",
        "decided_not_started", "deputy_not_started", "work_not_approvals", "start_not_deputy", "start_not_email",
        "return_or_reject", "decision_held", "decided_not_passed"]


def test_the_guards_that_need_the_persons_request_run_only_on_the_validators_path(make_ctx, person_request):
    # The model's made-up reason: asked about where the person can be asked; a script's call is not judged by it.
    args = {**LEAVE, "reason": "个人原因"}
    with pytest.raises(DomainError) as asked:
        check_call(TOOLSET, "runWorkFlow", args, make_ctx(), request=person_request("明天请1天假，李四审批"))
    assert asked.value.code == "reason_not_given"
    assert check_call(TOOLSET, "runWorkFlow", args, make_ctx()).verdict.sources == {}


def test_the_guards_record_where_each_value_came_from(make_ctx, person_request):
    checked = check_call(TOOLSET, "runWorkFlow", {**LEAVE, "nextUserId": "王五", "days": 2}, make_ctx(),
                         request=person_request("明天看牙医，请1天假，李四审批"))
    assert checked.args.days == 1 and checked.args.nextUserId == "user_2"
    assert checked.verdict.sources["days"]["how"] == "stated"
    assert checked.verdict.sources["days"]["replaced"] == "2"
    assert checked.verdict.sources["nextUserId"] == {"how": "stated", "said": "李四", "replaced": "王五"}
    assert checked.verdict.sources["reason"] == {"how": "stated", "said": "看牙医"}
    # The same replacements, in English, for the model and the audit.
    assert any(note.startswith("[person_stated] nextUserId") for note in checked.notes)


def test_a_number_the_fields_own_reader_states_is_the_persons(make_ctx, person_request, monkeypatch):
    # A money reader that reads "报销两千三" as 2300 where no amount with a currency is stated: grounding takes its
    # value, not only the request's amounts.
    from tools.workflow import forms

    def reads_liangqiansan(request: Any) -> float | None:
        return 2300.0 if "两千三" in request["texts"][-1] else None

    real = forms.person_values

    def with_reader(definition: Any) -> tuple[PersonValue, ...]:
        return tuple(dataclasses.replace(v, stated=reads_liangqiansan) if v.param == "fields.amount" else v
                     for v in real(definition))

    monkeypatch.setattr(forms, "person_values", with_reader)
    args = {"processKey": "process_baoxiao", "reason": "打车去客户那里", "nextUserId": "李四",
            "fields": {"amount": 2300, "category": "差旅"}}
    checked = check_call(TOOLSET, "runWorkFlow", args, make_ctx(), request=person_request("打车去客户那里，报销两千三，李四审批"))
    assert checked.args.fields == {"amount": 2300, "category": "差旅"}
    assert checked.verdict.sources["fields.amount"]["how"] == "stated"
    assert checked.verdict.sources["fields.category"] == {"how": "inferred", "said": "打车"}
