"""A message that decides another's to-do and asks for the person's own request to be approved beside it: the decision
is made, and the answer says, beside it, that nobody approves their own request and who it waits on
(tools/workflow/own_approval.py). Read after the thirty-sixth round's run, where the own part got no word; the
phrasings were written for this test."""

from __future__ import annotations

import pytest

from evals.doubles.scripted import tool_call
from tools import execute_call
from tools.workflow import TOOLSET


@pytest.mark.parametrize(("said", "holder"), [
    ("张三那个假我批了，意见：注意休息。对了，我自己报的那笔打印费你也帮我通过一下吧", "管理员"),
    ("Zhang San's leave is approved, comment: rest well. And approve my own printing claim too while you're at it",
     "Administrator"),
])
def test_the_own_request_asked_beside_a_decision_is_said_to_wait_on_its_approver(graph_driver, store, make_ctx,
                                                                                  start_request, said, holder):
    start_request(requester="user_1", approver="user_3", days=1, reason="看牙医")  # task_1 for 王五
    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "userId": "user_3", "reason": "打印合同",
                                          "fields": {"amount": 120, "category": "办公"}, "nextUserId": "user_admin"},
                 make_ctx("user_3"))
    comment = "注意休息" if holder == "管理员" else "rest well"
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "task_1", "isOK": True, "result": comment}), "x",
                         user_id="user_3", fixed_answers=True)
    agent.say(said)
    agent.approve()
    answer = str(agent.values["messages"][-1].content)
    assert ("张三" in answer or "Zhang San" in answer) and holder in answer, answer
    tasks = {t["id"]: t["status"] for t in store.snapshot()["tasks"]}
    assert tasks == {1: "approved", 2: "pending"}, tasks  # the own claim still waits on its approver


@pytest.mark.parametrize(("said", "other"), [  # the forty-third round's writer's report; none of these is from it
    ("人事这边还有几条没批的？我自己那条年假应该也在里面，顺手帮我批了吧，意见写同意", "张三"),
    ("How many are waiting on HR right now? Mine should be in there too, approve it, comment: 同意", "Zhang San"),
])
def test_what_the_look_up_found_is_said_before_the_own_request_is_refused(graph_driver, store, make_ctx,
                                                                          start_request, said, other):
    # 管理员 (hr) has a five-day leave of their own at HR's step, and 张三's waits there too
    own = start_request(requester="user_admin", approver="user_2", days=5)["taskId"]
    theirs = start_request(requester="user_1", approver="user_2", days=5)["taskId"]
    hr_steps = [execute_call(TOOLSET, "handleTodoTask", {"taskId": t, "isOK": True, "result": "同意"},
                             make_ctx("user_2"))["next"][0]["taskId"] for t in (own, theirs)]
    agent = graph_driver(tool_call("queryTodoTask", {"userId": "user_admin"}),
                         tool_call("handleTodoTask", {"taskId": hr_steps[0], "isOK": True, "result": "同意"}),
                         user_id="user_admin", fixed_answers=True)
    answer = str(agent.say(said)["messages"][-1].content)
    assert other in answer and ("自己" in answer or "your own" in answer), answer
    assert [t["status"] for t in store.snapshot()["tasks"] if t["id"] in {int(h.split("_")[1]) for h in hr_steps}] == [
        "pending", "pending"]
