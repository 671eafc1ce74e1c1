"""A decision the person holds for now is not made: "OK, leave it for now, I'll ask him for a budget first" had been
carded as an approval (its "OK" read as one), 先放着 asked "approve or reject?", and 先不批 read as a rejection (the
sixtieth round's run). Phrasings written for these tests, none from a scenario; the graph's clock reads Friday
2027-01-15."""

from __future__ import annotations

import pytest

from evals.doubles.scripted import tool_call
from tools import execute_call
from tools.workflow import TOOLSET
from tools.workflow.words import decision_in


def _trip_waiting_on_wang_wu(make_ctx) -> None:
    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_chuchai", "userId": "user_2", "reason": "supplier audit",
                                          "nextUserId": "user_3", "fields": {"destination": "苏州", "startDate": "2027-01-19",
                                                                             "endDate": "2027-01-21"}}, make_ctx("user_2"))


@pytest.mark.parametrize(("said", "isok", "told"), [
    ("好的，这个先搁着，等我跟他聊完再说", True, "还在你的待办里"),
    ("先不批，等财务把预算核一下再定", False, "还在你的待办里"),
    ("Sure - leave it pending for now, I want a word with him first", True, "stays in your to-dos"),
    ("Alright, park it. I'll check the numbers with finance", False, "stays in your to-dos"),
])
def test_a_decision_held_for_now_is_not_made(graph_driver, make_ctx, store, said, isok, told):
    _trip_waiting_on_wang_wu(make_ctx)
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "task_1", "isOK": isok, "result": "x"}), "OK",
                         user_id="user_3")
    answer = str(agent.say(said)["messages"][-1].content)
    assert agent.actions == [] and told in answer
    assert [t["status"] for t in store.snapshot()["tasks"]] == ["pending"]


@pytest.mark.parametrize(("said", "decision"), [
    ("OK, approve it", True), ("好的，批了吧", True), ("okay, reject it, the budget is gone", False),
    ("李四的先别批，赵六的批了", True),  # one held, the other decided: a decision is stated
    ("先放着吧", None), ("hold off on it until Monday", None), ("not yet, I'm still reading it", None),
])
def test_a_held_decision_states_none(said, decision):
    assert decision_in(said) is decision


def test_a_decision_said_beside_the_word_okay_is_carded(graph_driver, make_ctx):
    _trip_waiting_on_wang_wu(make_ctx)
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "task_1", "isOK": True, "result": "fine"}), "OK",
                         user_id="user_3")
    agent.say("OK, approve it, comment: fine")
    [card] = agent.actions
    assert card["args"]["isOK"] is True


@pytest.mark.parametrize(("said", "decision"), [  # the oracle's own scenarios caught both; written after
    ("李四的请假先不批了，月底太忙，让他下个月再请", False),  # 先不批了: decided, a rejection
    ("这个先不批，等他把发票补齐再定", None),
])
def test_not_approving_it_for_now_with_le_has_decided(said, decision):
    assert decision_in(said) is decision


def test_a_reason_that_puts_it_off_answers_the_comment_of_a_decision_stated_before(graph_driver, make_ctx):
    _trip_waiting_on_wang_wu(make_ctx)
    graph_driver(tool_call("handleTodoTask", {"taskId": "task_1", "isOK": False}), user_id="user_3").say(
        "李四这个出差驳回吧")
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "task_1", "isOK": False, "result": "预算紧张，等下季度再说"}),
                         "OK", user_id="user_3")
    agent.say("预算紧张，等下季度再说")
    [card] = agent.actions
    assert card["args"]["isOK"] is False and "下季度" in card["args"]["result"]
