"""Someone nothing waits on who asks to approve another's request ("Approve Zhang San's 6200 yuan travel claim,
finance is fine with it") is told who holds it, in their language's name for the requester: the imperative "Approve"
before the name had read him as its approver and the person was offered to file a claim of their own; and an English
answer named 张三 (the fifty-seventh round's run; none of its words). Through the real graph with a scripted model."""

from __future__ import annotations

import pytest

from evals.doubles.scripted import tool_call
from tools import execute_call
from tools.workflow import TOOLSET


@pytest.mark.parametrize(("said", "told"), [
    ("Approve Zhang San's 4300 yuan hotel claim, the receipts look fine to me.", "Zhang San's request waits on Li Si"),
    ("把张三那笔4300的住宿报销批了吧，票据我看过了", "张三的申请在李四那里等审批"),
])
def test_approving_anothers_request_held_by_someone_else_is_told_who_holds_it(graph_driver, store, make_ctx, said,
                                                                             told):
    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "userId": "user_1", "reason": "住宿",
                                          "nextUserId": "user_2", "fields": {"amount": 4300, "category": "差旅"}},
                 make_ctx("user_1"))
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "Zhang San", "isOK": True}), "OK", "OK",
                         user_id="user_4", fixed_answers=True)
    agent.say(said)
    assert agent.actions == []
    answer = str(agent.messages[-1].content)
    assert told in answer and ("张三" not in answer if said.isascii() else True)
    assert store.snapshot()["tasks"][0]["status"] == "pending"
