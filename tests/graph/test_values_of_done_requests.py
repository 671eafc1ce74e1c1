"""What the person said for a request that was carried out was that request's: a later request in the same thread
gets none of its dates or amounts, and asks for its own (the twenty-ninth round's writer found a dateless trip filed
with the dates of the deputy set just before). Messages before a request that was not carried out (a question
answered) still count. Through the real graph with a scripted model; phrasings written for these tests."""

from __future__ import annotations

import pytest
from langchain_core.messages import ToolMessage

from evals.doubles.scripted import tool_call


def _trip(**fields):
    return tool_call("runWorkFlow", {"processKey": "process_chuchai", "reason": "客户年会", "nextUserId": "李四",
                                     "fields": {"destination": "苏州", **fields}})


@pytest.mark.parametrize(("first", "second"), [
    ("1月18号到22号我出去培训，这几天让王五替我审批", "顺便提个出差，去苏州参加客户年会，李四审批"),
    ("Jan 18 to 22 I'm on a course; Wang Wu covers my approvals", "And a business trip to Suzhou for a client's "
     "annual party please, Li Si approves"),
])
def test_a_later_request_asks_for_its_dates_not_the_deputys(graph_driver, store, first, second):
    deputy = tool_call("setDeputy", {"deputyUserId": "王五", "startDate": "2027-01-18", "endDate": "2027-01-22"})
    # the model copies the deputy's days into the trip: nobody said them of it
    agent = graph_driver(deputy, _trip(startDate="2027-01-18", endDate="2027-01-22"), "done.", fixed_answers=True)
    agent.say(first)
    agent.approve()
    agent.say(second)
    assert agent.actions == []
    assert store.snapshot()["requests"] == []
    assert agent.values["ask"] is not None  # the dates are asked


def test_a_later_claim_asks_for_its_amount_not_the_last_ones(graph_driver, store):
    taxi = tool_call("runWorkFlow", {"processKey": "process_baoxiao", "reason": "打车去机场", "nextUserId": "李四",
                                     "fields": {"amount": 96, "category": "差旅"}})
    meal = tool_call("runWorkFlow", {"processKey": "process_baoxiao", "reason": "请供应商吃饭", "nextUserId": "李四",
                                     "fields": {"amount": 96, "category": "餐饮"}})
    agent = graph_driver(taxi, meal, "done.", fixed_answers=True)
    agent.say("打车去机场花了96块，报销，李四审批")
    agent.approve()
    agent.say("还有一笔请供应商吃饭的也报了，李四审批")
    assert agent.actions == []
    assert len(store.snapshot()["requests"]) == 1
    assert "金额" in str(agent.values["messages"][-1].content)


def test_the_dates_of_a_question_answered_still_count(graph_driver, store):
    # nothing was carried out after the first message: its dates are the request's
    balance = tool_call("getLeaveBalance", {})
    leave = tool_call("runWorkFlow", {"processKey": "process_qingjia", "reason": "回老家", "nextUserId": "李四",
                                      "days": 2, "fields": {"leaveType": "年假", "startDate": "2027-01-18",
                                                            "endDate": "2027-01-19"}})
    agent = graph_driver(balance, "你还有年假。", leave, "done.")
    agent.say("我想1月18号到19号请年假回老家，我还有几天年假？")
    agent.say("够的话就帮我提交吧，李四审批")
    [action] = agent.actions
    assert action["args"]["fields"]["startDate"] == "2027-01-18"


@pytest.mark.parametrize("again", ["照原样再提一次，这次王五审批", "Put the same one in again, Wang Wu approving this time"])
def test_the_same_request_again_says_its_values_again(graph_driver, store, again):
    def leave(approver: str):
        return tool_call("runWorkFlow", {"processKey": "process_qingjia", "reason": "陪家人看病", "nextUserId": approver,
                                         "days": 3, "fields": {"leaveType": "事假"}})
    agent = graph_driver(leave("李四"), leave("王五"), "done.", fixed_answers=True)
    agent.say("请3天事假陪家人看病，李四审批")
    agent.approve()
    agent.say(again)
    [action] = agent.actions
    assert action["args"]["days"] == 3 and action["args"]["nextUserId"] == "user_3"


@pytest.mark.parametrize(("asked", "then"), [
    ("Who signs off on expense claims? It's only 380 for a desk lamp", "ok, then file it, Li Si approves"),
    ("报销是谁批？就是上周买台灯花的380", "行，那就报了吧，李四审批"),
])
def test_a_message_that_acts_on_what_was_asked_before_takes_its_values(graph_driver, store, asked, then):
    # the thirty-seventh round's writer's report (none of its words): "file it" after a question about a claim is that
    # claim, its amount without a unit and what was bought said in the question before
    answer = "Li Si approves expense claims." if asked.isascii() else "报销由李四审批。"
    claim = tool_call("runWorkFlow", {"processKey": "process_baoxiao", "reason": "desk lamp", "nextUserId": "李四",
                                      "fields": {"amount": 380, "category": "办公"}})
    agent = graph_driver(answer, claim, "done.")
    agent.say(asked)
    agent.say(then)
    [action] = agent.actions
    assert action["args"]["fields"] == {"amount": 380, "category": "办公"}


def test_a_message_that_goes_on_from_an_answer_takes_the_why_said_before_and_asks_nothing_again(graph_driver, store):
    # the thirty-eighth round's writer's report (none of its words): "ok then put me down for …" after a balance
    # question was filed with the reason "ok then put me down"; the why was in the question's message
    balance = tool_call("getLeaveBalance", {})
    leave = tool_call("runWorkFlow", {"processKey": "process_qingjia", "reason": "annual leave", "nextUserId": "Li Si",
                                      "days": 2, "fields": {"leaveType": "年假", "startDate": "2027-01-14",
                                                            "endDate": "2027-01-15"}})
    agent = graph_driver(balance, "You have 10 days left.", leave, "done.", fixed_answers=True)
    agent.say("How much annual leave is left on my account? My sister is getting married in Shanghai")
    agent.say("alright then, book me off 14 and 15 January, Li Si approves")
    [card] = agent.actions
    assert card["args"]["reason"] == "My sister is getting married in Shanghai"
    agent.approve()
    tools = [m.name for m in agent.values["messages"] if isinstance(m, ToolMessage)]
    assert tools == ["getLeaveBalance", "runWorkFlow"]  # the balance asked before is not looked up again
