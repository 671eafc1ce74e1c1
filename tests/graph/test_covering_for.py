"""An approver covering for a colleague deals with the to-do themselves: "李四这几天休假，我替他处理一下张三的请假" is no
transfer (the model passed it back to 李四), and its "这几天" asks for no batch; their decision in a later message that
names nobody ("没问题，批了吧") is the one to-do waiting on them, not a batch of every leave (the fifty-sixth round's run;
none of its words). Through the real graph with a scripted model."""

from __future__ import annotations

import pytest

from evals.doubles.scripted import tool_call
from tools.workflow.batch_words import asks_for_several


@pytest.mark.parametrize("said", [
    "李四这几天休假，我替他处理一下张三的请假",
    "I'm covering for Li Si this week, I'll handle Zhang San's leave request",
])
def test_dealing_with_it_oneself_is_no_transfer(graph_driver, store, start_request, said):
    start_request(requester="user_1", approver="user_4", days=1, reason="看病")
    agent = graph_driver(tool_call("transferTask", {"taskId": "张三", "nextUserId": "李四"}), "好的", "OK",
                         user_id="user_4", fixed_answers=True)
    agent.say(said)
    assert [a["name"] for a in agent.actions] in ([], ["handleTodoTask"])
    assert store.snapshot()["tasks"][0]["assignee_id"] == "user_4"
    asked = str(agent.messages[-1].content)
    assert ("批准" in asked and "驳回" in asked) or ("approve" in asked.lower() and "reject" in asked.lower())


@pytest.mark.parametrize("said", ["张三的请假转给李四吧", "pass Zhang San's leave over to Li Si, I'll handle the rest"])
def test_a_transfer_they_ask_for_is_still_proposed(graph_driver, start_request, said):
    start_request(requester="user_1", approver="user_4", days=1, reason="看病")
    agent = graph_driver(tool_call("transferTask", {"taskId": "张三", "nextUserId": "李四"}), "好的", user_id="user_4",
                         fixed_answers=True)
    agent.say(said)
    [action] = agent.actions
    assert action["name"] == "transferTask" and action["args"]["nextUserId"] == "user_2"


def test_these_few_days_ask_for_no_batch_but_these_few_requests_do():
    assert not asks_for_several("李四这几天休假，我替他处理一下张三的出差申请")
    assert not asks_for_several("那几天我在外地，张三的报销你先帮我看看")
    assert asks_for_several("这几个请假都批了吧")


@pytest.mark.parametrize("said", ["没问题，批了吧，意见：同意", "fine, approve it. Comment: ok"])
def test_a_decision_naming_nobody_is_the_one_todo_not_a_batch(graph_driver, store, start_request, said):
    start_request(requester="user_1", approver="user_3", days=1, reason="看病")
    batch = tool_call("decideTasks", {"isOK": True, "processKey": "process_qingjia", "maxDays": 1})
    agent = graph_driver(batch, "好的", user_id="user_3", fixed_answers=True)
    agent.say(said)
    [action] = agent.actions
    assert action["name"] == "handleTodoTask" and action["args"]["taskId"] == "task_1" and action["args"]["isOK"] is True
    agent.approve()
    assert store.snapshot()["tasks"][0]["status"] == "approved"
