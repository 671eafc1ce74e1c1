"""One test per policy rule: each refusal has its exact code, and a refused call writes nothing but its audit entry.

Every refusal is checked on both paths that enforce policy: `check_call` (the validator's check, no side
effects) and `execute_call` (the executor: one transaction per call; a write the policy refuses is kept in the
audit log as `tool_refused`, and nothing else of it is).
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from tools import REGISTRY, CallContext, DomainError, Effect, InvalidArgumentsError, WorkflowStore, check_call, execute_call
from tools.workflow import TOOLSET
from tools.workflow.policy import DAYS_HINT

PATHS = (check_call, execute_call)


def assert_refused(store: WorkflowStore, ctx: CallContext, tool: str, args: Any, code: str) -> list[DomainError]:
    """Both paths refuse the call with `code`; the store is byte-for-byte what it was, but for the executor's one
    `tool_refused` audit entry when the policy (not the argument schema) refused a write."""
    errors = []
    for path in PATHS:
        before = store.snapshot()
        with pytest.raises(DomainError) as info:
            path(TOOLSET, tool, args, ctx)
        assert info.value.code == code, f"{path.__name__}({tool}, {args!r}) -> {info.value}"
        after = store.snapshot()
        added = after.pop("audit_log")[len(before["audit_log"]):]
        assert after == {k: v for k, v in before.items() if k != "audit_log"}, f"{path.__name__}({tool}) wrote"
        audited = path is execute_call and tool in REGISTRY and REGISTRY.get(tool).effect is Effect.WRITE
        audited = audited and not isinstance(info.value, InvalidArgumentsError)
        assert [(a["event"], json.loads(a["detail"])["error"]) for a in added] == (
            [("tool_refused", code)] if audited else []
        ), f"{path.__name__}({tool}, {args!r}) audit: {added}"
        errors.append(info.value)
    return errors


def leave(**overrides: Any) -> dict[str, Any]:
    """runWorkFlow arguments for user_1's one-day leave approved by user_2, with overrides."""
    args: dict[str, Any] = {
        "processKey": "process_qingjia",
        "userId": "user_1",
        "reason": "看牙医 / dentist",
        "days": 1,
        "nextUserId": "user_2",
    }
    args.update(overrides)
    return args


def decide(task_id: str, *, ok: bool = True, comment: str = "") -> dict[str, Any]:
    return {"taskId": task_id, "isOK": ok, "result": comment}


def test_request_started_only_by_requester_identity(store, make_ctx):
    errors = assert_refused(store, make_ctx("user_1"), "runWorkFlow", leave(userId="user_2", nextUserId="user_3"),
                            "not_actor")
    assert "session user user_1" in errors[0].message

    result = execute_call(TOOLSET, "runWorkFlow", leave(), make_ctx("user_1"))
    assert result["status"] == "pending"
    [row] = store.snapshot()["requests"]
    assert row["requester_id"] == "user_1"


def test_every_deployed_process_starts_with_its_own_form(store, make_ctx):
    assert_refused(store, make_ctx(), "runWorkFlow", leave(processKey="process_unknown"), "unknown_process")
    expense = leave(processKey="process_baoxiao", days=None, reason="客户晚餐", fields={"amount": 320, "category": "餐饮"})
    assert execute_call(TOOLSET, "runWorkFlow", expense, make_ctx())["status"] == "pending"
    trip = leave(processKey="process_chuchai", days=None, reason="见客户",
                 fields={"destination": "上海", "startDate": "2099-12-07", "endDate": "2099-12-09"})
    assert execute_call(TOOLSET, "runWorkFlow", trip, make_ctx())["status"] == "pending"
    assert [r["process_key"] for r in store.snapshot()["requests"]] == ["process_baoxiao", "process_chuchai"]


def test_the_seeds_days_and_reason_are_left_out_for_a_process_without_them(store, make_ctx):
    """A trip has no `days` field: a model that says how long it lasts changes nothing (the card says so)."""
    trip = leave(processKey="process_chuchai", days=3, fields={"destination": "上海", "startDate": "2099-12-09",
                                                               "endDate": "2099-12-11"})
    checked = check_call(TOOLSET, "runWorkFlow", trip, make_ctx())
    assert "[form] days is not a field of process_chuchai: left out" in checked.notes
    started = execute_call(TOOLSET, "runWorkFlow", trip, make_ctx())
    assert "days" not in started and started["form"]["destination"] == "上海"
    [request] = store.snapshot()["requests"]
    assert request["days"] is None and request["flagged"] is True  # three calendar days, from its dates


def test_a_form_value_out_of_range_is_refused_in_the_forms_words(store, make_ctx):
    cases = [
        (leave(processKey="process_baoxiao", days=None, fields={"amount": -5, "category": "餐饮"}), "out_of_range",
         "报销金额"),
        (leave(processKey="process_baoxiao", days=None, fields={"amount": 5, "category": "娱乐"}), "not_a_choice",
         "差旅, 餐饮, 办公, 其他"),
        (leave(processKey="process_chuchai", days=None, fields={"destination": "上海", "startDate": "2099-12-09",
                                                                "endDate": "2099-12-07"}), "out_of_range", "before"),
        (leave(processKey="process_chuchai", days=None, fields={"destination": "上海", "startDate": "2000-01-03",
                                                                "endDate": "2000-01-04"}), "out_of_range", "past"),
        (leave(fields={"color": "red"}), "unknown_field", "color"),
    ]
    for args, code, words in cases:
        errors = assert_refused(store, make_ctx(), "runWorkFlow", args, code)
        assert words in errors[0].message, (args, errors[0].message)


def test_days_must_be_positive_half_day_steps(store, make_ctx):
    # what no process takes is the schema's (not a finite number); the rest is the leave form's (a claim's form takes
    # no days at all, so 1200 put there by a model is left out, not refused: test below)
    for days in (math.inf, -math.inf, math.nan, "nan", "inf"):
        assert_refused(store, make_ctx(), "runWorkFlow", leave(days=days), "invalid_arguments")
    for days in (-1, -0.5, "-2", -400):
        [error, _] = assert_refused(store, make_ctx(), "runWorkFlow", leave(days=days), "out_of_range")
        assert "days" in error.message
    for days in (0.25, 1.3, "2.7"):
        [error, _] = assert_refused(store, make_ctx(), "runWorkFlow", leave(days=days), "out_of_range")
        assert "multiple of 0.5" in error.message
    for days in (365.5, 366, 1200, 1e9):  # more than a year: the leave form's own bound
        [error, _] = assert_refused(store, make_ctx(), "runWorkFlow", leave(days=days), "out_of_range")
        assert "days" in error.message

    accepted = {"10": 10.0, "0.5": 0.5, " 2 ": 2.0, 1.5: 1.5, 3: 3.0, 365: 365.0}
    for given, expected in accepted.items():
        assert check_call(TOOLSET, "runWorkFlow", leave(days=given), make_ctx()).args.days == expected
        assert execute_call(TOOLSET, "runWorkFlow", leave(days=given), make_ctx())["days"] == expected
    assert [r["days"] for r in store.snapshot()["requests"]] == list(accepted.values())


def test_days_a_process_does_not_take_are_left_out_whatever_they_are(store, make_ctx):
    # A model that reads 1.2万 as 1.2 days, or writes -1 for "no days", on an expense claim: its form has no days.
    claim = {"processKey": "process_baoxiao", "userId": "user_2", "reason": "陪客户去杭州考察", "nextUserId": "user_3",
             "fields": {"amount": 12000, "category": "差旅"}}
    for days in (1.2, -1, 0.3, 12000):  # 12000: the claim's amount put in `days` (a model did, with 1200 yuan)
        assert execute_call(TOOLSET, "runWorkFlow", dict(claim, days=days), make_ctx("user_2"))["status"] == "pending"
    assert [r["days"] for r in store.snapshot()["requests"]] == [None, None, None, None]


def test_nonsense_days_refused_with_valid_example(store, make_ctx):
    for days in ("十", "1.5天", "three days", "半天", True, False, [1], {"days": 1}):
        errors = assert_refused(store, make_ctx(), "runWorkFlow", leave(days=days), "invalid_arguments")
        for error in errors:
            assert DAYS_HINT in error.message, (days, error.message)
            assert "such as 0.5, 1, 3 or 10" in error.message
    # Left out, or zero or blank (no count: a small model writes 0 for "I don't know"), the leave form's required
    # days are missing: asked for in the graph, refused here.
    for days in (None, 0, "0", 0.0, "", "   "):
        errors = assert_refused(store, make_ctx(), "runWorkFlow", leave(days=days), "missing_days")
        assert "请假天数" in errors[0].message


def test_reason_required(store, make_ctx):
    for reason in ("", "   ", "\n\t "):
        errors = assert_refused(store, make_ctx(), "runWorkFlow", leave(reason=reason), "invalid_arguments")
        assert "reason must not be empty" in errors[0].message
    args = leave()
    del args["reason"]
    errors = assert_refused(store, make_ctx(), "runWorkFlow", args, "missing_reason")
    assert "is required" in errors[0].message


def test_approver_must_exist(store, make_ctx):
    for approver in ("user_9", "孙七", ""):
        assert_refused(store, make_ctx(), "runWorkFlow", leave(nextUserId=approver), "unknown_user")
    errors = assert_refused(store, make_ctx(), "runWorkFlow", leave(nextUserId="user_9"), "unknown_user")
    assert all("nextUserId user_9 does not exist; call getAllUser" in e.message for e in errors)


def test_approver_is_not_requester(store, make_ctx):
    errors = assert_refused(store, make_ctx("user_1"), "runWorkFlow", leave(nextUserId="user_1"), "self_approver")
    assert "someone other than the requester" in errors[0].message


def test_only_assignee_decides(store, make_ctx, start_request):
    task_id = start_request(requester="user_1", approver="user_2")["taskId"]
    for outsider in ("user_3", "user_admin"):
        errors = assert_refused(store, make_ctx(outsider), "handleTodoTask", decide(task_id), "not_assignee")
        assert "offered to user_2" in errors[0].message

    assert execute_call(TOOLSET, "handleTodoTask", decide(task_id), make_ctx("user_2"))["status"] == "approved"
    [task] = store.snapshot()["tasks"]
    assert task["decided_by"] == "user_2"


def test_requester_never_decides_own_request(store, make_ctx, start_request):
    task_id = start_request(requester="user_1", approver="user_2")["taskId"]
    assert_refused(store, make_ctx("user_1"), "handleTodoTask", decide(task_id), "self_approval")

    # Even when a task is (wrongly) assigned to its own requester, the requester cannot decide it.
    with store.transaction() as conn:
        started = store.process_engine.start(conn, "process_qingjia", requester="user_3",
                                             data={"days": 1, "reason": "legacy row", "nextUserId": "user_3"})
    assert_refused(store, make_ctx("user_3"), "handleTodoTask", decide(started.tasks[0].id), "self_approval")


def test_a_group_member_who_is_the_requester_decides_no_step(store, make_ctx, start_request):
    """管理员 is the hr group: their own 5-day leave goes on to hr after 李四 approves, and they cannot take it."""
    first = start_request(requester="user_admin", approver="user_2", days=5)["taskId"]
    hr = execute_call(TOOLSET, "handleTodoTask", decide(first, comment="同意"), make_ctx("user_2"))["next"]
    assert [(n["step"], n["groups"]) for n in hr] == [("人事审批", ["hr"])]
    errors = assert_refused(store, make_ctx("user_admin"), "handleTodoTask", decide(hr[0]["taskId"], comment="同意"),
                            "self_approval")
    assert "own request" in errors[0].message
    # told who holds it by the group's name, never its id (the forty-third round's writer read "它在等finance审批")
    assert "人事" in errors[0].say["zh"] and "hr" not in errors[0].say["zh"] and "HR" in errors[0].say["en"]
    # The first approver cannot decide the HR step either: it is offered to hr only.
    assert_refused(store, make_ctx("user_2"), "handleTodoTask", decide(hr[0]["taskId"], comment="同意"), "not_assignee")
    assert execute_call(TOOLSET, "queryTodoTask", {"userId": "user_admin"}, make_ctx("user_admin"))["total"] == 0


def test_task_decided_only_while_pending(store, make_ctx, start_request):
    task_id = start_request()["taskId"]
    assert execute_call(TOOLSET, "handleTodoTask", decide(task_id, ok=False), make_ctx("user_2"))["status"] == (
        "rejected"
    )
    for ok in (True, False):
        errors = assert_refused(store, make_ctx("user_2"), "handleTodoTask", decide(task_id, ok=ok), "task_not_pending")
        assert "already rejected" in errors[0].message
    [task] = store.snapshot()["tasks"]
    assert task["status"] == "rejected"


def test_request_over_one_day_needs_comment_and_is_flagged(store, make_ctx, start_request):
    long_leave = start_request(days=3)
    short_leave = start_request(days=1)
    assert long_leave["flagged"] is True and long_leave["notes"]
    assert short_leave["flagged"] is False and short_leave["notes"] == []
    flags = {f"req_{r['id']}": r["flagged"] for r in store.snapshot()["requests"]}
    assert flags == {long_leave["requestId"]: True, short_leave["requestId"]: False}

    for comment in ("", "   "):
        errors = assert_refused(store, make_ctx("user_2"), "handleTodoTask", decide(long_leave["taskId"], comment=comment),
                                "comment_required")
        assert "decision comment" in errors[0].message

    checked = check_call(TOOLSET, "handleTodoTask", decide(long_leave["taskId"], comment="同意"), make_ctx("user_2"))
    assert any("请判断理由是否足以支持这个时长" in note for note in checked.notes)  # in the person's language
    checked = check_call(TOOLSET, "handleTodoTask", decide(long_leave["taskId"], comment="ok"), make_ctx("user_2", lang="en"))
    assert any("judge whether the reason" in note for note in checked.notes)
    done = execute_call(TOOLSET, "handleTodoTask", decide(long_leave["taskId"], comment="同意"), make_ctx("user_2"))
    assert done["status"] == "approved"
    # One day or less needs no comment.
    assert execute_call(TOOLSET, "handleTodoTask", decide(short_leave["taskId"]), make_ctx("user_2"))["status"] == (
        "approved"
    )


def test_decision_comment_does_not_overwrite_reason(store, make_ctx, start_request):
    started = start_request(days=2, reason="带孩子看病 / child's doctor visit")
    execute_call(TOOLSET, "handleTodoTask", decide(started["taskId"], ok=False, comment="本周人手不足，请改期"),
                 make_ctx("user_2"))
    snap = store.snapshot()
    [request] = snap["requests"]
    [task] = snap["tasks"]
    assert request["reason"] == "带孩子看病 / child's doctor visit"
    assert request["status"] == "rejected"
    assert task["comment"] == "本周人手不足，请改期"


def test_email_only_to_known_users(store, make_ctx):
    for user in ("user_9", "nobody@example.com", "孙七"):
        errors = assert_refused(store, make_ctx(), "sendEmail", {"userId": user, "emailContent": "周五下午开会。"},
                                "unknown_user")
        assert "call getAllUser" in errors[0].message
    assert_refused(store, make_ctx(), "sendEmail", {"emailContent": "周五下午开会。"}, "missing_recipient")

    sent = execute_call(TOOLSET, "sendEmail", {"userId": "user_3", "emailContent": "周五下午开会。"}, make_ctx())
    assert sent["to"] == "user_3"
    [mail] = store.snapshot()["outbox"]
    assert (mail["recipient_id"], mail["recipient_email"], mail["status"]) == ("user_3", "wangwu@example.com", "queued")


def test_email_placeholder_text_refused(store, make_ctx):
    placeholders = ("请用户提供邮件内容", "TBD", "[...]", "", "   ", "[邮件内容]", "<email content>", "待补充",
                    "Please provide the email content", "…", "{content}")
    for text in placeholders:
        errors = assert_refused(store, make_ctx(), "sendEmail", {"userId": "user_2", "emailContent": text},
                                "invalid_arguments")
        assert "placeholder" in errors[0].message, (text, errors[0].message)
    real = "李四你好：我的请假申请 [task_1] 还在等你审批，麻烦今天处理一下。谢谢！"
    assert execute_call(TOOLSET, "sendEmail", {"userId": "user_2", "emailContent": real}, make_ctx())["status"] == (
        "queued"
    )


def emails(store: WorkflowStore) -> list[dict[str, Any]]:
    """The e-mails people sent (the system's notifications left out)."""
    return store.snapshot()["emails"]


def test_email_rate_limit_per_thread(store, make_ctx):
    mail = {"userId": "user_2", "emailContent": "提醒：明天上午十点开会。"}
    for _ in range(3):
        execute_call(TOOLSET, "sendEmail", mail, make_ctx(thread_id="t-busy", limits={"mail_rate_limit": 3}))
    errors = assert_refused(store, make_ctx(thread_id="t-busy", limits={"mail_rate_limit": 3}), "sendEmail", mail, "rate_limited")
    assert "limit 3" in errors[0].message
    # The limit is per thread: another conversation may still send.
    execute_call(TOOLSET, "sendEmail", mail, make_ctx(thread_id="t-quiet", limits={"mail_rate_limit": 3}))
    assert len(emails(store)) == 4


def test_reminder_by_task_goes_to_assignee(store, make_ctx, start_request):
    task_id = start_request(requester="user_1", approver="user_2")["taskId"]
    reminder = {"taskId": task_id, "emailContent": "李四你好，我的请假申请还在等你审批。"}
    checked = check_call(TOOLSET, "sendEmail", reminder, make_ctx("user_1"))
    assert any("lisi@example.com" in note for note in checked.notes)
    assert_refused(store, make_ctx("user_1"), "sendEmail", dict(reminder, userId="user_3"), "recipient_mismatch")

    sent = execute_call(TOOLSET, "sendEmail", reminder, make_ctx("user_1"))
    assert (sent["to"], sent["taskId"]) == ("user_2", task_id)
    [mail] = emails(store)
    assert (mail["recipient_id"], mail["sender_id"], mail["task_id"]) == ("user_2", "user_1", int(task_id[5:]))

    execute_call(TOOLSET, "handleTodoTask", decide(task_id), make_ctx("user_2"))
    assert_refused(store, make_ctx("user_1"), "sendEmail", reminder, "task_not_pending")


def test_unknown_ids_name_the_tool_to_call(store, make_ctx):
    cases = [
        ("runWorkFlow", leave(processKey="process_qingjia2", userId="user_2", nextUserId="user_1"), "unknown_process",
         "call getAllWorkFlow"),
        ("runWorkFlow", leave(userId="user_2", nextUserId="user_9"), "unknown_user",
         "nextUserId user_9 does not exist; call getAllUser"),
        ("queryTodoTask", {"userId": "user_9"}, "unknown_user", "call getAllUser"),
        ("handleTodoTask", decide("task_999"), "unknown_task", "call queryTodoTask"),
        ("handleTodoTask", decide("req_1"), "unknown_task", "call queryTodoTask"),
        ("handleTodoTask", decide("审批单"), "unknown_task", "call queryTodoTask"),
        ("sendEmail", {"taskId": "task_42", "emailContent": "请审批。"}, "unknown_task", "call queryTodoTask"),
        ("sendEmail", {"userId": "user_9", "emailContent": "请审批。"}, "unknown_user", "call getAllUser"),
    ]
    for tool, args, code, hint in cases:
        errors = assert_refused(store, make_ctx("user_2"), tool, args, code)
        assert all(hint in e.message for e in errors), (tool, args, [e.message for e in errors])
    errors = assert_refused(store, make_ctx(), "approveTask", {}, "unknown_tool")
    assert "handleTodoTask" in errors[0].message


def test_actor_comes_from_session_not_args(store, make_ctx, start_request):
    # Arguments cannot name the actor: no tool has such a parameter, and identity params must match.
    task_id = start_request(requester="user_1", approver="user_2")["taskId"]
    assert_refused(store, make_ctx("user_1"), "handleTodoTask", dict(decide(task_id), actorId="user_2"),
                   "invalid_arguments")
    assert_refused(store, make_ctx("user_3"), "runWorkFlow", leave(userId="user_1", nextUserId="user_2"), "not_actor")
    # An unknown session user can do nothing, whatever the arguments say.
    assert_refused(store, make_ctx("user_9"), "runWorkFlow", leave(userId="user_9"), "unknown_actor")
    assert_refused(store, make_ctx("user_9"), "sendEmail", {"userId": "user_2", "emailContent": "你好，开会。"},
                   "unknown_actor")

    execute_call(TOOLSET, "handleTodoTask", decide(task_id), make_ctx("user_2"))
    execute_call(TOOLSET, "sendEmail", {"userId": "user_3", "emailContent": "已审批。"}, make_ctx("user_2"))
    snap = store.snapshot()
    assert [t["decided_by"] for t in snap["tasks"]] == ["user_2"]
    assert [m["sender_id"] for m in snap["emails"]] == ["user_2"]
    assert {e["actor_id"] for e in snap["tool_executions"]} == {"user_1", "user_2"}


def test_approver_must_be_named_by_the_person(make_ctx, person_request):
    args = {"processKey": "process_qingjia", "reason": "看牙医", "days": 1, "nextUserId": "user_2"}
    for said in (["请1天假看牙医，李四审批"], ["请1天假看牙医，审批人 user_2"], ["请1天假看牙医", "李 四吧"]):
        check_call(TOOLSET, "runWorkFlow", args, make_ctx("user_1"), request=person_request(*said))
    english = {**args, "reason": "the dentist"}
    said = person_request("1 day off for the dentist, Li Si approves")
    check_call(TOOLSET, "runWorkFlow", english, make_ctx("user_1"), request=said)
    for said in (["请1天假看牙医"], ["请1天假看牙医，user_22 审批"]):
        with pytest.raises(DomainError) as info:
            check_call(TOOLSET, "runWorkFlow", args, make_ctx("user_1"), request=person_request(*said))
        assert info.value.code == "approver_not_named", said
    # The one person the person named is the approver, whoever the model chose; the card says it was replaced.
    checked = check_call(TOOLSET, "runWorkFlow", args, make_ctx("user_1"), request=person_request("请1天假看牙医，王五审批"))
    assert checked.args.nextUserId == "user_3"
    assert any("[person_stated] nextUserId" in note for note in checked.notes)


def test_the_signed_in_users_own_name_is_their_identity(store, make_ctx):
    # written after the rule: 赵六 asking for his copies, the model wrote his name for userId
    for own in ("赵六", "Zhao Liu", "zhaoliu@example.com"):
        result = execute_call(TOOLSET, "queryCcRequests", {"userId": own}, make_ctx("user_4"))
        assert result["total"] == 0
    with pytest.raises(DomainError) as refused:
        check_call(TOOLSET, "queryCcRequests", {"userId": "王五"}, make_ctx("user_4"))
    assert refused.value.code == "not_actor"
