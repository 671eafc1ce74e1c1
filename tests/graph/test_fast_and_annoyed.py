"""What the fifty-first and fifty-second rounds' trials showed (people who type fast, people who are annoyed), each as
the rule a person would state, tested on phrasings written for these tests, none from those rounds: the answer to a
start names the leave type filed; days listed for a leave are its dates beside another length said of something else;
an answer that is only a person's name answers no question about a place; "did I set someone to approve for me?" asks
for the deputies; "开始请" tells no why; digits written as an amount are no request's id.
"""

from __future__ import annotations

from datetime import date

import pytest

from evals.doubles.scripted import tool_call
from tools import execute_call
from tools.readers import read_account
from tools.request import read_request
from tools.words import only_names
from tools.workflow import TOOLSET
from tools.workflow.approver_specs import MY_DEPUTIES
from tools.workflow.form_dates import range_end
from tools.workflow.readable import started


@pytest.mark.parametrize(("lang", "kind"), [("zh", "病假"), ("en", "sick leave")])
def test_the_answer_to_a_start_names_the_leave_type(store, make_ctx, lang, kind):
    args = {"processKey": "process_qingjia", "userId": "user_1", "reason": "flu", "days": 2, "nextUserId": "user_2",
            "fields": {"leaveType": "病假", "startDate": "2026-12-14", "endDate": "2026-12-15"}}
    result = execute_call(TOOLSET, "runWorkFlow", args, make_ctx("user_1", lang=lang, today=date(2026, 12, 7)))
    assert kind in started(result, lang)


@pytest.mark.parametrize("texts", [
    ["腿伤了半个月了，下周四、周五请两天病假"],
    ["My knee has been bad for three weeks, I need sick leave Thursday and Friday next week", "Zhao Liu"],
])
def test_days_listed_for_a_leave_are_its_dates_beside_another_length(texts):
    request = read_request(texts, index=0, today=date(2026, 12, 7))
    assert (range_end("start", ranges_only=True)(request), range_end("end", ranges_only=True)(request)) == (
        "2026-12-17", "2026-12-18")


@pytest.mark.parametrize(("text", "only"), [
    ("王五把", True), ("Zhao Liu then", True), ("成都，王五那边的项目", False), ("to Zhao Liu's hometown", False),
])
def test_an_answer_of_only_a_name_is_a_person(text, only):
    assert only_names(text, ["王五", "Wang Wu", "赵六", "Zhao Liu"]) is only


def test_a_name_answering_where_a_trip_goes_is_not_its_destination(graph_driver):
    trip = tool_call("runWorkFlow", {"processKey": "process_chuchai", "reason": "见客户", "nextUserId": "王五",
                                     "fields": {"startDate": "下周二", "endDate": "下周三"}})
    agent = graph_driver(trip, trip, "好", user_id="user_1", fixed_answers=True)
    agent.say("下周二到周三出差见客户")
    agent.say("王五把")
    assert agent.actions == [] or agent.actions[0]["args"]["fields"].get("destination") != "王五把"


@pytest.mark.parametrize("said", [
    "Going on holiday Monday. Have I set anybody up to approve for me while I'm gone?",
    "下周我不在，是不是设了人帮我审批？",
])
def test_asking_whether_someone_approves_for_them_asks_for_their_deputies(said):
    assert MY_DEPUTIES.answers_question(said)


@pytest.mark.parametrize("said", [  # the seventy-fourth round's writer; written for this test
    "年假那几天是谁在替我审批？", "出差这周谁在帮我批报销的？",
])
def test_who_approved_for_them_while_away_asks_for_their_deputies_not_their_requests(said):
    assert MY_DEPUTIES.answers_question(said)
    assert not TOOLSET.registry.get("queryMyRequests").answers_question(said)


@pytest.mark.parametrize(("said", "why"), [
    ("嗓子发炎了，下周二开始请3天病假", "嗓子发炎"), ("老家有事，从周四起请两天事假", "老家有事"),
])
def test_the_words_that_start_a_leave_tell_no_why(said, why):
    assert read_account([said], names=[], form_words=["请假", "病假", "事假"], choice_words=["病假", "事假"],
                        today=date(2026, 12, 7)) == why


def test_digits_written_as_an_amount_are_no_requests_id(graph_driver, make_ctx):
    claim = {"processKey": "process_baoxiao", "userId": "user_1", "reason": "客户午餐", "nextUserId": "user_2",
             "fields": {"amount": 2350, "category": "餐饮"}}
    execute_call(TOOLSET, "runWorkFlow", claim, make_ctx("user_1"))
    agent = graph_driver(tool_call("urgeTask", {"requestId": "2350"}), "好", user_id="user_1")
    agent.say("我那笔2350的报销怎么还没批，帮我催一下李四")
    [action] = agent.actions
    assert action["name"] == "urgeTask" and action["args"]["requestId"] in ("req_1", "1")


@pytest.mark.parametrize("said", [  # the seventy-fifth round's run; written for this test
    "Who's really looking at my leave request now?", "who is handling my expense claim at the moment",
    "现在是谁在审我的报销？",
])
def test_who_holds_their_request_asks_for_their_requests(said):
    assert TOOLSET.registry.get("queryMyRequests").answers_question(said)
    assert not MY_DEPUTIES.answers_question(said)


@pytest.mark.parametrize("said", [  # the seventy-fifth and seventy-sixth rounds' runs; written for this test
    "why did my trip request get bounced back?", "why was my expense claim declined?", "我的出差怎么又被打回来了？",
    "为什么我的报销给驳回了", "Zhao Liu kicked something back to me, what's wrong with it?", "王五退给我一个单子，说啥了",
])
def test_why_their_request_came_back_asks_for_their_requests(said):
    assert TOOLSET.registry.get("queryMyRequests").answers_question(said)
