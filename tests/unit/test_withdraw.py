"""Withdrawing a request (撤回): only its requester, only while pending; the engine cancels it, its steps leave every
to-do list, the people who held them are told in the same transaction, and a reference by name finds only the
requester's own requests."""

from __future__ import annotations

import pytest

from tools import execute_call
from tools.errors import NeedsPersonError, NotFoundError, PolicyError
from tools.runtime import check_call
from tools.workflow import TOOLSET
from tools.workflow.withdraw import withdraw_card


def _withdraw(make_ctx, actor: str, request: str, **kwargs):
    return execute_call(TOOLSET, "withdrawRequest", {"requestId": request}, make_ctx(actor, **kwargs))


def test_withdrawing_cancels_the_request_and_tells_who_held_it(store, make_ctx, start_request):
    start_request(requester="user_1", approver="user_2", days=1, reason="看牙医")
    result = _withdraw(make_ctx, "user_1", "req_1")
    assert (result["status"], result["cancelledTasks"], result["told"]) == ("withdrawn", ["task_1"], ["李四"])
    snapshot = store.snapshot()
    assert snapshot["requests"][0]["status"] == "withdrawn" and snapshot["tasks"][0]["status"] == "cancelled"
    told = [n for n in snapshot["notifications"] if n["subject"].startswith("[flowagent] 已撤回")]
    assert [(n["recipient_id"], n["task_id"]) for n in told] == [("user_2", 1)]
    assert execute_call(TOOLSET, "queryTodoTask", {"userId": "user_2"}, make_ctx("user_2"))["total"] == 0
    line = TOOLSET.registry.get("withdrawRequest").describe(result, "zh")  # type: ignore[misc]
    assert line == "已撤回你的请假申请 req_1。已通知李四，其待办已取消。"


def test_only_the_requester_withdraws(store, make_ctx, start_request):
    start_request(requester="user_3", approver="user_2", days=1, reason="看病")
    with pytest.raises(PolicyError) as by_id:
        _withdraw(make_ctx, "user_1", "req_1")
    assert by_id.value.code == "not_requester"
    with pytest.raises(NotFoundError):  # by name, only the actor's own requests are looked at
        _withdraw(make_ctx, "user_1", "王五的请假")
    with pytest.raises(PolicyError) as approver:
        _withdraw(make_ctx, "user_2", "req_1")
    assert approver.value.code == "not_requester"
    assert store.snapshot()["requests"][0]["status"] == "pending"


def test_an_ended_request_is_not_withdrawn(store, make_ctx, start_request):
    start_request(requester="user_1", approver="user_2", days=1, reason="看牙医")
    execute_call(TOOLSET, "handleTodoTask", {"taskId": "task_1", "isOK": False, "result": "人手不够"}, make_ctx("user_2"))
    with pytest.raises(PolicyError) as ended:
        _withdraw(make_ctx, "user_1", "req_1")
    assert ended.value.code == "request_not_pending"


def test_a_request_named_by_its_process_is_the_requesters_own(store, make_ctx, start_request):
    start_request(requester="user_1", approver="user_2", days=1, reason="看牙医")
    checked = check_call(TOOLSET, "withdrawRequest", {"requestId": "我的请假"}, make_ctx("user_1"))
    assert checked.args.requestId == "req_1"  # type: ignore[attr-defined]
    with pytest.raises(NotFoundError):  # the leave is never the expense claim the person named
        check_call(TOOLSET, "withdrawRequest", {"requestId": "报销"}, make_ctx("user_1"))
    start_request(requester="user_1", approver="user_3", days=2, reason="搬家")
    with pytest.raises(NeedsPersonError) as which:
        check_call(TOOLSET, "withdrawRequest", {"requestId": "请假"}, make_ctx("user_1"))
    assert which.value.ask == "which_request" and len(which.value.choices) == 2
    with pytest.raises(NeedsPersonError) as english:
        check_call(TOOLSET, "withdrawRequest", {"requestId": "my leave"}, make_ctx("user_1", lang="en"))
    assert english.value.choices[0].startswith("req_1 (Leave request: Days of leave: 1 day")


def test_the_card_says_which_request_who_holds_it_and_what_happens(store, make_ctx, start_request):
    start_request(requester="user_1", approver="user_2", days=1, reason="看牙医")
    with store.read() as conn:
        zh = withdraw_card(conn, {"requestId": "req_1"}, "zh")
        en = withdraw_card(conn, {"requestId": "req_1"}, "en")
    assert zh["summary"] == "撤回你的请假申请 req_1（1 天）" and zh["held_by"] == "李四"
    assert "李四的待办随之取消" in zh["next"] and list(zh["labels"])[:3] == ["request", "process", "form"]
    assert en["summary"] == "Withdraw your leave request req_1 (1 day)" and "Li Si" in en["next"]


def test_a_withdrawn_request_is_replayed_not_withdrawn_twice(store, make_ctx, start_request):
    start_request(requester="user_1", approver="user_2", days=1, reason="看牙医")
    first = _withdraw(make_ctx, "user_1", "req_1", call_id="same")
    again = _withdraw(make_ctx, "user_1", "req_1", call_id="same")
    assert again == {**first, "replayed": True}
    assert len(store.snapshot()["notifications"]) == 2  # the approver told once when it began, once when withdrawn


def test_a_withdrawn_leave_gives_its_days_back(store, make_ctx, start_request):
    from datetime import date

    from tools.workflow.leave.balances import balance

    def left() -> float:
        with store.read() as conn:
            return balance(conn, "user_1", "年假", date.today().year).left

    before = left()
    annual = {"processKey": "process_qingjia", "userId": "user_1", "reason": "回老家", "days": 3, "nextUserId": "user_2",
              "fields": {"leaveType": "年假"}}
    execute_call(TOOLSET, "runWorkFlow", annual, make_ctx("user_1"))
    assert left() == before - 3  # held while it waits
    _withdraw(make_ctx, "user_1", "req_1")
    assert left() == before


def test_an_english_withdrawal_names_the_request_as_a_sentence_does(store, make_ctx, start_request):
    start_request(requester="user_1", approver="user_2", days=1, reason="dentist")
    result = _withdraw(make_ctx, "user_1", "req_1", lang="en")
    line = TOOLSET.registry.get("withdrawRequest").describe(result, "en")  # type: ignore[misc]
    assert line == "Your leave request req_1 is withdrawn. Li Si was told, and the step is gone from their list."


@pytest.mark.parametrize(("lang", "line"), [
    ("zh", "已撤回你的请假申请 req_1。已通知李四，其待办已取消。也已通知赵六。"),
    ("en", "Your leave request req_1 is withdrawn. Li Si was told, and the step is gone from their list. Zhao Liu was "
           "told too."),
])
def test_a_person_copied_is_told_without_a_step_said_gone(store, make_ctx, lang, line):
    # the thirtieth round's writer read that the copied administrator's task was gone: they held none
    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_qingjia", "userId": "user_1", "reason": "搬家",
                                          "days": 1, "nextUserId": "user_2", "cc": ["user_4"]}, make_ctx("user_1"))
    result = _withdraw(make_ctx, "user_1", "req_1", lang=lang)
    assert sorted(result["told"]) == sorted(["李四", "赵六"] if lang == "zh" else ["Li Si", "Zhao Liu"])
    assert TOOLSET.registry.get("withdrawRequest").describe(result, lang) == line  # type: ignore[misc]
