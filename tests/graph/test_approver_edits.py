"""An approver never changes another person's request: "张三那笔聚餐报销超标了，你直接把金额改成3000再给他批了" had been
approved unchanged, and "move Zhao Liu's trip to the week after and approve it" approved as it was (the fifty-seventh
round's run; none of its words). They are told what they can do instead; a return saying what to change passes.
Through the real graph with a scripted model."""

from __future__ import annotations

import pytest

from evals.doubles.scripted import tool_call
from tools import execute_call
from tools.workflow import TOOLSET


def _claim(make_ctx) -> None:
    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "userId": "user_1", "reason": "部门聚餐",
                                          "nextUserId": "user_2", "fields": {"amount": 3600, "category": "餐饮"}},
                 make_ctx("user_1"))


@pytest.mark.parametrize(("said", "call", "told"), [
    ("张三那个聚餐报销超了，帮我把金额改到2800然后批了", tool_call("handleTodoTask", {"taskId": "张三", "isOK": True}),
     "审批人不能修改"),
    ("Cut Zhang San's dinner claim down to 2800 and sign it off", tool_call(
        "resubmitRequest", {"requestId": "dinner claim", "fields": {"amount": 2800}}), "can't change someone else's"),
])
def test_an_approver_changing_anothers_request_is_told_they_cannot(graph_driver, store, make_ctx, said, call, told):
    _claim(make_ctx)
    agent = graph_driver(call, "OK", "OK", user_id="user_2", fixed_answers=True)
    agent.say(said)
    assert agent.actions == []
    assert told in str(agent.messages[-1].content)
    assert store.snapshot()["tasks"][0]["status"] == "pending"


def test_a_return_saying_what_to_change_is_proposed(graph_driver, make_ctx):
    _claim(make_ctx)
    agent = graph_driver(tool_call("returnTask", {"taskId": "张三", "comment": "金额改成2800元再提交"}), "好的",
                         user_id="user_2", fixed_answers=True)
    agent.say("退回给张三，意见：聚餐超标了，金额改成2800元再提交")
    [action] = agent.actions
    assert action["name"] == "returnTask"


def test_a_requester_changing_their_own_request_is_not_refused(graph_driver, make_ctx, start_request):
    _claim(make_ctx)  # a to-do waits on 李四 (user_2), who also has a returned leave of their own
    start_request(requester="user_2", approver="user_3", days=3, reason="搬家")
    execute_call(TOOLSET, "returnTask", {"taskId": "task_2", "comment": "最多两天"}, make_ctx("user_3"))
    agent = graph_driver(tool_call("resubmitRequest", {"requestId": "req_2", "days": 2}), "好的", user_id="user_2",
                         fixed_answers=True)
    agent.say("我的请假改成2天再提一次")
    [action] = agent.actions
    assert action["name"] == "resubmitRequest"


@pytest.mark.parametrize(("said", "ok"), [
    ("Nah, reject it, we need him at the month close. Comment: pls move it to next month", False),
    ("批了吧，意见：下次金额改成3000以内", True),  # a change in the comment is the requester's to read
])
def test_a_change_said_in_the_comment_is_no_edit(graph_driver, make_ctx, said, ok):
    _claim(make_ctx)
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "张三", "isOK": ok, "result": said.split(":")[-1]}),
                         "OK", user_id="user_2", fixed_answers=True)
    agent.say(said)
    [action] = agent.actions
    assert action["name"] == "handleTodoTask" and action["args"]["isOK"] is ok
