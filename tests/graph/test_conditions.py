"""Decisions and copies said under conditions (the fifty-fourth round's writer: approvers with conditions): each to-do
is decided by the clause whose bound its length or amount meets, a CC under a condition on the request's length is
made only where it is met, a resend that changes a value carries no note, and a filtered plural asks for several.
Phrasings written for these tests, none from that round.
"""

from __future__ import annotations

import pytest

from evals.doubles.scripted import tool_call
from tools import execute_call
from tools.workflow import TOOLSET
from tools.workflow.batch_words import asks_for_several
from tools.workflow.cc import cc_spans
from tools.workflow.conditions import conditional_rules, decision_for


@pytest.mark.parametrize(("said", "two_days", "four_days"), [
    ("两天以内的都批了，超过两天的退回去让他们补材料", "approve", "return"),
    ("leaves of up to 2 days: approve. Anything over 2 days: reject, we are short-staffed", "approve", "reject"),
])
def test_each_to_do_is_decided_by_the_clause_its_length_meets(said, two_days, four_days):
    rules = conditional_rules(said)
    assert decision_for(rules, {"form": {}}, 2) == two_days and decision_for(rules, {"form": {}}, 4) == four_days


def test_the_rest_is_decided_by_the_clause_that_names_no_bound():
    rules = conditional_rules("3000元以上的都驳回，其余的通过")
    assert decision_for(rules, {"form": {"amount": 4200}}, None) == "reject"
    assert decision_for(rules, {"form": {"amount": 800}}, None) == "approve"


@pytest.mark.parametrize("said", ["批准张三的请假，意见：同意", "approve the one-day leaves", "reject anything over 5000"])
def test_one_decision_is_no_condition(said):
    assert conditional_rules(said) == []


def _two_leaves(start_request):
    start_request(requester="user_1", approver="user_2", days=1, reason="看牙")
    start_request(requester="user_3", approver="user_2", days=4, reason="回老家")


def test_an_approval_its_condition_gives_stands_beside_a_send_back(graph_driver, start_request):
    _two_leaves(start_request)
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "task_1", "isOK": True}), "好", user_id="user_2")
    agent.say("一天以内的直接批，超过三天的都退回去让他们拆开请")
    [action] = agent.actions
    assert action["name"] == "handleTodoTask" and action["args"]["isOK"] is True


def test_a_decision_against_its_condition_is_refused_for_the_one_it_says(graph_driver, start_request):
    _two_leaves(start_request)
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "task_2", "isOK": True, "result": "ok"}), "好",
                         user_id="user_2")
    agent.say("一天以内的直接批，超过三天的都退回去让他们拆开请")
    refusals = [str(m.content) for m in agent.messages if type(m).__name__ == "ToolMessage"]
    assert agent.actions == [] and any("as_its_condition_says" in r and "returnTask" in r for r in refusals)


@pytest.mark.parametrize(("days", "copied"), [(2, False), (4, True)])
def test_a_copy_under_a_condition_on_the_length_is_made_where_it_is_met(graph_driver, store, days, copied):
    start = tool_call("runWorkFlow", {"processKey": "process_qingjia", "reason": "搬家", "days": days,
                                      "nextUserId": "李四", "fields": {"leaveType": "事假"}, "cc": ["赵六"]})
    agent = graph_driver(start, "好", user_id="user_1")
    agent.say(f"下周请{days}天事假搬家，李四审批，如果超过三天的话抄送赵六")
    [action] = agent.actions
    assert ("user_4" in (action["args"].get("cc") or [])) is copied


def test_a_copy_under_a_condition_the_code_cannot_judge_copies_nobody(graph_driver):
    start = tool_call("runWorkFlow", {"processKey": "process_qingjia", "reason": "moving", "days": 1,
                                      "nextUserId": "Li Si", "fields": {"leaveType": "事假"}, "cc": ["Zhao Liu"]})
    agent = graph_driver(start, "OK", user_id="user_1")
    agent.say("Personal leave next Friday for moving, Li Si approves; cc Zhao Liu if he's back from his trip by then")
    [action] = agent.actions
    assert not action["args"].get("cc")


def test_a_resend_that_changes_a_value_under_a_condition_has_no_note(graph_driver, make_ctx, start_request):
    start_request(requester="user_1", approver="user_2", days=4, reason="回老家")
    execute_call(TOOLSET, "returnTask", {"taskId": "task_1", "comment": "太长了"}, make_ctx("user_2"))
    agent = graph_driver(tool_call("resubmitRequest", {"requestId": "req_1", "days": 3}), "好", user_id="user_1")
    agent.say("如果李四退回来了，就改成3天重新提交；没退的话就别动")
    [action] = agent.actions
    assert action["args"]["days"] == 3 and not action["args"].get("note")


@pytest.mark.parametrize(("said", "several"), [
    ("approve her claims that are under 800 yuan", True), ("approve her claim", False),
])
def test_a_filtered_plural_asks_for_several(said, several):
    assert asks_for_several(said) is several


@pytest.mark.parametrize(("said", "answer", "told"), [
    ("王五这周要是没请过别的假，他的事假就批了吧", "王五这周没有请过别的假，所以已经批准了。",
     "这件事没有办成：这次什么都没有改动。"),
    ("If Wang Wu finished his report, approve his leave", "Wang Wu finished his report, so his leave has been approved.",
     "That was not done: nothing was changed."),
])
def test_an_answer_saying_done_what_no_write_did_is_told_plainly(graph_driver, start_request, said, answer, told):
    # a condition no tool can judge, and a model that judged it itself and said the decision was made: nothing was
    start_request(requester="user_3", approver="user_2", days=1, reason="搬家")
    agent = graph_driver(answer, answer, user_id="user_2")
    agent.say(said)
    assert agent.messages[-1].content == told


def test_a_decision_names_what_it_decided(graph_driver, make_ctx):
    # the fifty-fourth round: "要是去北京，我自己批了" was approved, and the answer never said it was the Beijing trip
    trip = {"processKey": "process_chuchai", "userId": "user_3", "reason": "客户培训", "nextUserId": "user_2",
            "fields": {"destination": "北京", "startDate": "2027-01-20", "endDate": "2027-01-21"}}
    execute_call(TOOLSET, "runWorkFlow", trip, make_ctx("user_3"))
    agent = graph_driver(tool_call("handleTodoTask", {"taskId": "task_1", "isOK": True}), "好", user_id="user_2",
                         fixed_answers=True)
    agent.say("王五去北京那个出差批了，意见：路上注意安全")
    assert "北京" in str(agent.approve()["messages"][-1].content)


def test_a_look_ups_account_of_what_happened_before_stands(graph_driver, start_request):
    start_request(requester="user_3", approver="user_2", days=1, reason="搬家")
    answer = "Wang Wu's leave request req_1 was filed and is waiting for your decision (task_1)."
    agent = graph_driver(tool_call("viewTask", {"taskId": "task_1"}), answer, user_id="user_2")
    agent.say("show me the timeline of Wang Wu's request before I decide")
    assert agent.messages[-1].content == answer


@pytest.mark.parametrize(("days", "carded"), [(1, True), (4, False)])
def test_one_decision_under_a_condition_is_made_only_where_it_is_met(graph_driver, store, start_request, days, carded):
    # the fifty-fourth round: "张三那个年假，要是不超过三天就直接批了吧" was approved whatever its length
    start_request(requester="user_1", approver="user_2", days=days, reason="回老家")
    approve = tool_call("handleTodoTask", {"taskId": "task_1", "isOK": True, "result": "注意交接"})
    agent = graph_driver(approve, "好", user_id="user_2", fixed_answers=True)
    agent.say("张三的请假要是不超过两天就批了吧，意见写：注意交接")
    assert bool(agent.actions) is carded
    if not carded:
        assert "不符合你说的条件" in agent.messages[-1].content and store.snapshot()["tasks"][0]["status"] == "pending"


def test_a_batch_filter_is_no_condition():
    assert conditional_rules("approve all the one-day leaves, comment: ok") == []


@pytest.mark.parametrize(("said", "copied"), [
    ("请两天事假，李四审批，如果可以的话抄送王五", True), ("Li Si approves; if you can, cc Wang Wu too", True),
    ("请两天事假，李四审批，要是他出差回来了就抄送王五", False),
])
def test_a_courtesy_if_is_no_condition_on_a_copy(said, copied):
    assert bool(cc_spans(said)) is copied
