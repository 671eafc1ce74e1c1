"""A requester's message that asks two things has both done, for a model whose answers are not trusted: such a run
ends after a write, and the thirty-first round (read after its run) had only the first done. A question beside the
write ("…提交完告诉我年假还剩几天", "…how much annual leave have I got left?") is looked up once the write is made, and
a withdrawal that asks for a new request in its place ("撤回，重新报一笔 580 元的") brings the new request's card, with
the old request's values and what the message says differently. Phrasings written for these tests, none from a
scenario."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage

from evals.doubles.scripted import tool_call
from tools import execute_call
from tools.workflow.toolset import TOOLSET


def final(result: dict[str, Any]) -> str:
    last = result["messages"][-1]
    assert isinstance(last, AIMessage) and not last.tool_calls, last
    return str(last.content)


@pytest.mark.parametrize(("said", "left"), [
    ("下周一请一天年假去办护照，李四审批。弄好之后跟我说一下年假还剩多少天", "9"),
    ("两天调休，后天和大后天，家里装修，王五批就行；顺便问下我调休还剩几天？", "0"),  # no why said: asked (a question is none)
    ("Put in one day of annual leave next Monday for a dentist visit, Li Si signs off. And how many days of annual "
     "leave do I have left after that?", "9"),
])
def test_a_question_beside_a_start_is_looked_up_once_it_is_filed(graph_driver, store, said, left):
    leave_type = "调休" if "调休" in said else "年假"
    days = 2 if "两天" in said else 1
    approver = "王五" if "王五" in said else "李四"
    agent = graph_driver(tool_call("runWorkFlow", {"processKey": "process_qingjia", "reason": "办事", "days": days,
                                                   "nextUserId": approver, "fields": {"leaveType": leave_type}}),
                         "模型不会再被问。", user_id="user_1", fixed_answers=True)
    agent.say(said)
    [card] = agent.actions
    assert card["name"] == "runWorkFlow"
    answer = final(agent.approve())
    assert len(agent.model.prompts) == 1  # the look-up was made as the person asked, with no model call
    assert f"剩余 {left} 天" in answer or f"{left} days left" in answer, answer
    assert "req_1" in answer and agent.actions == []


@pytest.mark.parametrize("said", [
    "请一天年假，下周一，李四审批，备注：年假余额够的",  # a comment, no question: nothing looked up
    "File one day of annual leave next Monday, Li Si approves. I know I have enough leave left.",
])
def test_words_of_a_balance_that_ask_nothing_bring_no_look_up(graph_driver, store, said):
    agent = graph_driver(tool_call("runWorkFlow", {"processKey": "process_qingjia", "reason": "办事", "days": 1,
                                                   "nextUserId": "李四", "fields": {"leaveType": "年假"}}),
                         "模型不会再被问。", user_id="user_1", fixed_answers=True)
    agent.say(said)
    answer = final(agent.approve())
    assert "余额" not in answer and "balance" not in answer.casefold()


def _claim(make_ctx, amount: float, reason: str = "打车去客户那") -> None:  # type: ignore[no-untyped-def]
    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "userId": "user_1", "reason": reason,
                                          "nextUserId": "user_2", "fields": {"amount": amount, "category": "差旅"}},
                 make_ctx("user_1"))


@pytest.mark.parametrize(("said", "reason"), [
    ("那笔打车的报销金额写错了，先撤回，重新提一笔 460 元的，还是李四审批", "打车去客户那"),
    ("Pull back my taxi claim, the amount is wrong. Submit a corrected one for 460 yuan, Li Si again.",
     "taxi to the client's office"),
])
def test_a_withdrawal_that_asks_for_a_new_one_brings_its_card(graph_driver, store, make_ctx, said, reason):
    _claim(make_ctx, 380, reason)
    agent = graph_driver(tool_call("withdrawRequest", {"requestId": "req_1"}), "模型不会再被问。", user_id="user_1",
                         fixed_answers=True)
    agent.say(said)
    assert agent.actions[0]["name"] == "withdrawRequest"
    r = agent.approve()
    print([(type(m).__name__, str(m.content)[:300], getattr(m,'tool_calls',None)) for m in r['messages']][-2:])
    [card] = agent.actions
    assert card["name"] == "runWorkFlow"
    assert card["args"]["fields"] == {"amount": 460.0, "category": "差旅"}  # the stated amount over the old 380
    assert card["args"]["nextUserId"] == "user_2" and card["args"]["reason"] == reason  # the old request's
    answer = final(agent.approve())
    assert len(agent.model.prompts) == 1
    rows = store.snapshot()["requests"]
    assert [r["status"] for r in rows] == ["withdrawn", "pending"] and '"amount": 460.0' in rows[1]["form"]
    assert "req_1" in answer and "req_2" in answer


def test_the_approver_of_the_new_one_is_asked_when_the_message_names_none(graph_driver, store, make_ctx):
    # who decides is the person's to say (the approver guard): the withdrawn request's approver is not taken for them
    _claim(make_ctx, 380)
    agent = graph_driver(tool_call("withdrawRequest", {"requestId": "req_1"}), "模型不会再被问。", user_id="user_1",
                         fixed_answers=True)
    agent.say("打车那笔报销填错了，撤回，重新报 460")
    result = agent.approve()
    assert agent.actions == [] and "审批" in final(result)
    agent.say("王五")
    [card] = agent.actions
    assert card["name"] == "runWorkFlow" and card["args"]["nextUserId"] == "user_3"
    assert card["args"]["fields"]["amount"] == 460.0


@pytest.mark.parametrize("said", ["把打车那笔报销撤回吧，回头我自己重新提", "Withdraw my taxi claim. I'll file a new one later."])
def test_a_new_one_left_for_later_is_not_proposed(graph_driver, store, make_ctx, said):
    _claim(make_ctx, 380)
    agent = graph_driver(tool_call("withdrawRequest", {"requestId": "req_1"}), "模型不会再被问。", user_id="user_1",
                         fixed_answers=True)
    agent.say(said)
    agent.approve()
    assert agent.actions == []
    assert [r["status"] for r in store.snapshot()["requests"]] == ["withdrawn"]


def test_a_question_about_an_earlier_request_is_answered_with_who_decided_and_is_no_reason(graph_driver, store,
                                                                                            start_request, make_ctx):
    # read after the thirty-third round's run: the question was filed as the claim's reason, and the answer never
    # said who had approved the leave (phrasing written for this test)
    start_request(requester="user_1", approver="user_2", days=1, reason="拔牙")
    execute_call(TOOLSET, "handleTodoTask", {"taskId": "task_1", "isOK": True, "result": "好好休息"}, make_ctx("user_2"))
    agent = graph_driver(tool_call("runWorkFlow", {"processKey": "process_baoxiao", "reason": "拔牙的假", "nextUserId": "王五",
                                                   "fields": {"amount": 42, "category": "差旅"}}),
                         "模型不会再被问。", user_id="user_1", fixed_answers=True)
    agent.say("昨天坐出租车去机场接客户花了42元，报一下，王五审批。对了，我上次请的拔牙的假批了没有？")
    [card] = agent.actions
    assert card["args"]["reason"] == "坐出租车去机场接客户"  # the date is a date, not why
    answer = final(agent.approve())
    assert "已批准（李四：好好休息）" in answer and "req_2" in answer


@pytest.mark.parametrize("said", ["我刚提的请假撤回吧，搬家改到下个月了，到时候再说",
                                  "Withdraw the leave I just filed, the move got pushed to next month."])
def test_a_withdrawal_that_says_what_changed_but_files_nothing_brings_no_new_request(graph_driver, store, start_request,
                                                                                    said):
    start_request(requester="user_1", approver="user_2", days=2, reason="搬家")
    agent = graph_driver(tool_call("withdrawRequest", {"requestId": "req_1"}), "模型不会再被问。", user_id="user_1",
                         fixed_answers=True)
    agent.say(said)
    answer = final(agent.approve())
    assert agent.actions == [] and [r["status"] for r in store.snapshot()["requests"]] == ["withdrawn"]
    assert "?" not in answer and "？" not in answer, answer  # no new request begun, nothing asked for one


def test_a_question_of_a_message_asked_which_is_looked_up_once_its_answer_is_done(graph_driver, store, start_request):
    start_request(requester="user_1", approver="user_2", days=1, reason="a check-up")
    start_request(requester="user_1", approver="user_2", days=2, reason="going home for a wedding")
    agent = graph_driver(tool_call("withdrawRequest", {"requestId": "leave"}), "模型不会再被问。", user_id="user_1",
                         fixed_answers=True)
    agent.say("Withdraw my leave request, and how many days of annual leave do I have left?")
    assert agent.actions == []  # which of the two: asked
    agent.say("the one for going home")
    [card] = agent.actions
    assert card["name"] == "withdrawRequest" and card["args"]["requestId"] == "req_2"
    answer = final(agent.approve())
    assert "req_2" in answer and "10 days left" in answer
