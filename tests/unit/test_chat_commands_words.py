"""The workflow's chat commands speak the person's language: columns, people by name, decisions and delivery states
in words, never raw status values (`/complete`, `/outbox`)."""

from __future__ import annotations

from tools import execute_call
from tools.workflow import TOOLSET
from tools.workflow.commands import complete, outbox


def _decided(store, make_ctx, start_request) -> None:
    started = start_request(requester="user_1", approver="user_2", days=1, reason="看牙医")
    execute_call(TOOLSET, "handleTodoTask", {"taskId": started["taskId"], "isOK": True, "result": "同意"},
                 make_ctx("user_2"))


def test_complete_names_people_and_decisions_in_chinese(store, make_ctx, start_request):
    _decided(store, make_ctx, start_request)
    [table] = complete(store, "user_1", "", "zh")
    assert table.columns[:6] == ("待办", "步骤", "申请人", "天数", "原因", "结果")
    [row] = table.rows
    assert (row[2], row[5], row[7]) == ("张三", "已批准", "李四")


def test_complete_in_english_names_people_as_an_english_reader_does(store, make_ctx, start_request):
    _decided(store, make_ctx, start_request)
    [table] = complete(store, "user_1", "", "en")
    [row] = table.rows
    assert (row[2], row[5], row[7]) == ("Zhang San", "approved", "Li Si")


def test_outbox_says_how_each_mail_stands_in_words(store, make_ctx, start_request):
    start_request(requester="user_1", approver="user_2", days=1, reason="看牙医")  # the approver is told: one queued
    [zh] = outbox(store, "user_1", "", "zh")
    [en] = outbox(store, "user_1", "", "en")
    assert zh.columns[4] == "状态" and {row[4] for row in zh.rows} == {"待发送"}
    assert {row[4] for row in en.rows} == {"waiting to be sent"}
