"""A requester's own requests: where each stands in words (the tool, the chat's `/requests`, the page's list), only
their own, with who holds it since when and its timeline."""

from __future__ import annotations

import pytest

from tools import execute_call
from tools.errors import PolicyError
from tools.workflow import TOOLSET
from tools.workflow.commands import requests
from tools.workflow.panels import tasks_of


def test_my_requests_say_where_each_stands_and_who_holds_it(store, make_ctx, start_request):
    start_request(requester="user_1", approver="user_2", days=5, reason="回老家")
    execute_call(TOOLSET, "handleTodoTask", {"taskId": "task_1", "isOK": True, "result": "同意"}, make_ctx("user_2"))
    start_request(requester="user_3", approver="user_2", days=1, reason="看病")  # someone else's: never listed
    result = execute_call(TOOLSET, "queryMyRequests", {}, make_ctx("user_1"))
    assert result["total"] == 1
    [mine] = result["requests"]
    assert (mine["requestId"], mine["process"], mine["status"], mine["step"]) == ("req_1", "请假流程", "审批中", "人事审批")
    assert mine["heldBy"] == "人事（管理员）" and mine["summary"] == "请假天数：5 天；请假类型：事假；请假原因：回老家"
    assert "月" in mine["since"] and "T" not in mine["since"]
    assert [line.split(" ", 2)[2] for line in mine["timeline"]] == ["张三 发起申请", "审批人审批：李四 批准（同意）"]


def test_my_requests_in_english_name_people_and_groups_as_an_english_reader_does(store, make_ctx, start_request):
    start_request(requester="user_1", approver="user_2", days=1, reason="dentist")
    result = execute_call(TOOLSET, "queryMyRequests", {}, make_ctx("user_1", lang="en"))
    [mine] = result["requests"]
    assert (mine["process"], mine["status"], mine["heldBy"]) == ("Leave request", "waiting for a decision", "Li Si")
    assert mine["timeline"][0].endswith("Zhang San started the request")
    line = TOOLSET.registry.get("queryMyRequests").describe(result, "en")  # type: ignore[misc]
    assert line.startswith("You have 1 request: req_1 Leave request") and "held by Li Si" in line


def test_my_requests_are_only_the_signed_in_users(store, make_ctx, start_request):
    start_request(requester="user_3", approver="user_2", days=1, reason="看病")
    with pytest.raises(PolicyError) as other:
        execute_call(TOOLSET, "queryMyRequests", {"userId": "user_3"}, make_ctx("user_1"))
    assert other.value.code == "not_actor"
    assert execute_call(TOOLSET, "queryMyRequests", {}, make_ctx("user_1"))["total"] == 0


def test_the_chat_lists_my_requests_with_their_timeline(store, make_ctx, start_request):
    assert requests(store, "user_1", "", "zh") == "你还没有发起过申请。"
    start_request(requester="user_1", approver="user_2", days=1, reason="看牙医")
    text = requests(store, "user_1", "", "zh")
    assert isinstance(text, str)
    assert text.splitlines()[0] == "req_1 请假流程 · 请假天数：1 天；请假类型：事假；请假原因：看牙医"
    assert "状态：审批中" in text and "处理人：李四" in text and "张三 发起申请" in text
    english = requests(store, "user_1", "", "en")
    assert isinstance(english, str) and "held by Li Si" in english and "pending" not in english


def test_the_page_lists_my_requests_with_who_holds_them_and_their_timeline(store, make_ctx, start_request):
    start_request(requester="user_1", approver="user_2", days=1, reason="看牙医")
    with store.read() as conn:
        [row] = tasks_of(conn, "user_1")["requests"]
    assert row["held_by"] == {"zh": "李四", "en": "Li Si"} and row["status"] == "pending"
    assert row["timeline"]["zh"][0].endswith("张三 发起申请") and row["diagram"]["current"] == ("Task_approve",)


def test_with_no_requests_of_their_own_an_approver_is_told_which_tasks_wait_for_them(store, make_ctx, start_request):
    # "我手上有啥" / "what's on my plate" may be read as the person's own requests: an approver with none still
    # learns what waits for their decision, in their language, by requester, process and what it is (its days, an
    # amount: "Do I have anything waiting?" had been answered without them, the sixty-first round's run); nobody
    # else's tasks.
    start_request(requester="user_1", approver="user_2", days=2, reason="搬家")
    start_request(requester="user_3", approver="user_4", days=1, reason="看病")
    describe = TOOLSET.registry.get("queryMyRequests").describe  # type: ignore[union-attr]
    zh = execute_call(TOOLSET, "queryMyRequests", {}, make_ctx("user_2"))
    assert describe(zh, "zh") == "你还没有发起过申请。等你审批的：张三的请假（2 天，task_1）。"  # type: ignore[misc]
    en = execute_call(TOOLSET, "queryMyRequests", {}, make_ctx("user_2", lang="en"))
    assert describe(en, "en") == (  # type: ignore[misc]
        "You have not started any request yet. Waiting for your decision: Zhang San's leave request (2 days; task_1).")
    nobody = execute_call(TOOLSET, "queryMyRequests", {}, make_ctx("user_admin"))
    assert describe(nobody, "zh") == "你还没有发起过申请。"  # type: ignore[misc]


def test_with_no_to_dos_a_requester_is_told_which_of_their_own_requests_wait_on_others(store, make_ctx,
                                                                                      start_request):
    # "what have I got pending?" may be read as the to-dos (the twentieth round, read): a requester with none still
    # learns which of their own requests wait, on whom; only when the list is their own, and never another's requests
    start_request(requester="user_3", approver="user_2", days=2, reason="搬家")
    start_request(requester="user_1", approver="user_4", days=1, reason="看病")
    describe = TOOLSET.registry.get("queryTodoTask").describe  # type: ignore[union-attr]
    zh = execute_call(TOOLSET, "queryTodoTask", {"userId": "user_3"}, make_ctx("user_3"))
    assert describe(zh, "zh") == "王五没有待办任务。你自己还在审批中的申请：你的请假流程（req_1）在李四那里。"  # type: ignore[misc]
    en = execute_call(TOOLSET, "queryTodoTask", {"userId": "user_3"}, make_ctx("user_3", lang="en"))
    assert describe(en, "en") == (  # type: ignore[misc]
        "Wang Wu has no pending tasks. Your own requests still waiting: your leave request (req_1), with Li Si.")
    nothing = execute_call(TOOLSET, "queryTodoTask", {"userId": "user_admin"}, make_ctx("user_admin"))
    assert describe(nothing, "zh") == "管理员没有待办任务。"  # type: ignore[misc]


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "approved; approved by Li Si, then by Zhao Liu (receipts match)"),
    ("zh", "已批准，李四已批准，再由赵六批准（赵六：票据相符）"),
])
def test_a_two_step_request_says_who_approved_each_step(store, make_ctx, lang, said):
    # "Who signed it off?" of a claim past its finance step named only finance (the sixty-eighth round's run)
    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "reason": "client visit", "nextUserId": "user_2",
                                          "fields": {"amount": 6200, "category": "差旅"}}, make_ctx("user_1"))
    execute_call(TOOLSET, "handleTodoTask", {"taskId": "task_1", "isOK": True, "result": "ok"}, make_ctx("user_2"))
    comment = "receipts match" if lang == "en" else "票据相符"
    execute_call(TOOLSET, "handleTodoTask", {"taskId": "task_2", "isOK": True, "result": comment}, make_ctx("user_4"))
    result = execute_call(TOOLSET, "queryMyRequests", {}, make_ctx("user_1", lang=lang))
    line = TOOLSET.registry.get("queryMyRequests").describe(result, lang)  # type: ignore[misc]
    assert said in line, line
