"""A request of the person's named by one of its values ("my Beijing trip", 广州那趟出差, 我那个事假) is the one with that
value, when several of theirs could be meant: before, the look-up asked which of all their pending requests, the leave
among them (the fifty-sixth round's writer; none of its words). Through the real graph with a scripted model;
phrasings written for these tests."""

from __future__ import annotations

import pytest

from evals.doubles.scripted import tool_call
from tools import execute_call
from tools.workflow import TOOLSET


def _trip(make_ctx, destination: str, approver: str) -> None:
    execute_call(TOOLSET, "runWorkFlow", {
        "processKey": "process_chuchai", "userId": "user_1", "reason": "客户拜访", "nextUserId": approver,
        "fields": {"destination": destination, "startDate": "next Wednesday", "endDate": "next Friday"}},
        make_ctx("user_1"))


def _claim(make_ctx, reason: str, amount: int, category: str) -> None:
    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "userId": "user_1", "reason": reason,
                                          "nextUserId": "user_2", "fields": {"amount": amount, "category": category}},
                 make_ctx("user_1"))


@pytest.mark.parametrize(("said", "model_said", "there", "elsewhere"), [
    ("The Shanghai trip is still sitting there, can you nudge whoever has it?", "business trip", "Shanghai", "Guangzhou"),
    ("Please chase the approver of my shanghai one", "trip", "Shanghai", "Guangzhou"),
    ("上海那趟出差还没批，帮我催一下", "出差", "上海", "广州"),
])
def test_the_request_whose_value_they_named_is_the_one_urged(graph_driver, store, make_ctx, start_request, said,
                                                             model_said, there, elsewhere):
    start_request(requester="user_1", approver="user_2", days=1, reason="看牙")
    _trip(make_ctx, elsewhere, "user_2")
    _trip(make_ctx, there, "user_3")
    agent = graph_driver(tool_call("urgeTask", {"requestId": model_said}), "done", fixed_answers=True)
    agent.say(said)
    [action] = agent.actions
    assert action["name"] == "urgeTask" and action["args"]["requestId"] == "req_3"
    agent.approve()
    [urge] = store.snapshot()["urges"]
    assert urge["task_id"] == 3  # the Shanghai trip's step, with user_3


def test_a_value_two_of_them_share_still_asks_which(graph_driver, store, make_ctx, start_request):
    _trip(make_ctx, "上海", "user_2")
    _trip(make_ctx, "上海", "user_3")
    agent = graph_driver(tool_call("urgeTask", {"requestId": "出差"}), "done", fixed_answers=True)
    agent.say("上海那趟出差还没批，帮我催一下")
    assert agent.actions == []
    answer = str(agent.messages[-1].content)
    assert "req_1" in answer and "req_2" in answer


@pytest.mark.parametrize("said", [
    "下周那个假不用请了，帮我把请假撤回，报销别动",  # the fifty-sixth round's run, none of its words
    "Withdraw my leave request please, leave the expense claim alone",
])
def test_the_one_of_the_process_they_name_less_what_they_leave_alone_is_withdrawn(graph_driver, store, make_ctx,
                                                                                   start_request, said):
    start_request(requester="user_1", approver="user_2", days=1, reason="家里装修要盯着")
    _claim(make_ctx, "打印纸", 450, "办公")
    agent = graph_driver(tool_call("withdrawRequest", {"requestId": "装修"}), "done", fixed_answers=True)
    agent.say(said)
    [action] = agent.actions
    assert action["name"] == "withdrawRequest" and action["args"]["requestId"] == "req_1"


@pytest.mark.parametrize("said", [
    "我西安出差那笔报销在财务那边卡了两天了，帮我催一下",  # the fifty-eighth round's run, none of its words
    "my claim from the Xi'an business trip is stuck, can you nudge whoever has it?",
])
def test_a_claim_named_by_the_trip_it_is_about_is_the_claim(graph_driver, store, make_ctx, said):
    _claim(make_ctx, "西安机票", 1800, "差旅")
    agent = graph_driver(tool_call("urgeTask", {"requestId": "出差"}), "done", fixed_answers=True)
    agent.say(said)
    [action] = agent.actions
    assert action["name"] == "urgeTask" and action["args"]["requestId"] == "req_1"


def _leave(make_ctx, start: str, end: str, reason: str, days: int) -> None:
    execute_call(TOOLSET, "runWorkFlow", {
        "processKey": "process_qingjia", "userId": "user_1", "reason": reason, "days": days, "nextUserId": "user_2",
        "fields": {"leaveType": "事假", "startDate": start, "endDate": end}}, make_ctx("user_1"))


@pytest.mark.parametrize("said", [  # the seventy-seventh round's note: "下周一那个假" of two leaves asked which
    "下周一那个假不请了，帮我撤回",
    "I don't need the leave on the 19th any more, withdraw it",
    "Cancel my leave for next Tuesday please",
])
def test_the_one_of_their_requests_on_the_day_they_named_is_the_one_meant(graph_driver, make_ctx, said):
    _leave(make_ctx, "2027-01-18", "2027-01-19", "搬家", 2)  # the graph tests' today is Friday 2027-01-15
    _leave(make_ctx, "2027-01-27", "2027-01-27", "看牙", 1)
    agent = graph_driver(tool_call("withdrawRequest", {"requestId": "请假" if said[0] > "z" else "leave"}), "done",
                         fixed_answers=True)
    agent.say(said)
    [action] = agent.actions
    assert action["name"] == "withdrawRequest" and action["args"]["requestId"] == "req_1"


def test_a_day_neither_request_has_still_asks_which(graph_driver, make_ctx):
    _leave(make_ctx, "2027-01-18", "2027-01-19", "搬家", 2)
    _leave(make_ctx, "2027-01-27", "2027-01-27", "看牙", 1)
    agent = graph_driver(tool_call("withdrawRequest", {"requestId": "leave"}), "done", fixed_answers=True)
    agent.say("Withdraw my leave on the 22nd")
    assert agent.actions == []
    answer = str(agent.messages[-1].content)
    assert "req_1" in answer and "req_2" in answer
