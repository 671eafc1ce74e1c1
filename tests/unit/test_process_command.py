"""The chat's `/process`: a request's steps as text, marked as the page's diagram marks them, for those it concerns."""

from __future__ import annotations

from tools import execute_call
from tools.workflow import TOOLSET


def test_a_request_waiting_for_hr_reads_as_text_in_both_languages(store, make_ctx, start_request):
    started = start_request(requester="user_1", approver="user_2", days=5, reason="回老家")
    execute_call(TOOLSET, "handleTodoTask", {"taskId": started["taskId"], "isOK": True, "result": "同意"}, make_ctx("user_2"))
    process = TOOLSET.surfaces.commands["process"].run
    assert process(store, "user_1", "", "zh") == "\n".join([
        "req_1 请假流程 v1 — 进行中",
        "  ✓ 发起请假",
        "  ✓ 审批人审批 — 李四 批准（同意）",
        "  ▶ 人事审批 — 等待 人事（task_2）",
        "  ○ 已批准",
        "  ○ 已驳回",
    ])
    english = process(store, "user_admin", "req_1", "en")  # 管理员 is offered its HR step
    assert english.splitlines()[0] == "req_1 Leave request v1 — in progress"
    assert "  ✓ Approver's decision — Li Si approved (同意)" in english
    assert "  ▶ HR's decision — waiting for HR (task_2)" in english
    assert process(store, "user_3", "req_1", "zh") == "申请 req_1 与你无关。"  # 王五 sees nothing of it
    assert process(store, "user_3", "", "zh") == "你还没有发起过申请。"
