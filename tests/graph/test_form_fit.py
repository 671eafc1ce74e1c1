"""Which process a start is and which form it files, through the real graph with a scripted model that gets it
wrong the way the offline model did: a trip started for "出差…报销" (a claim for a trip already made), a leave given
an expense claim's amount. The claim the person named is started; a field no form of the process has is left out.
Phrasings written for these tests, none from the evaluation sets.

The graph's clock says 2027-01-15, a Friday.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from evals.doubles.scripted import tool_call
from tools.workflow.engine import Definition
from tools.workflow.form_fit import processes_they_named
from tools.workflow.lookup import engine_of

APPROVE = {"decisions": [{"type": "approve"}]}


def waiting(agent: Any) -> dict[str, Any]:
    [action] = agent.actions
    return action["args"]


@pytest.mark.parametrize(("said", "amount"), [
    ("上周出差去成都，机票住宿加起来两千四，帮我报销一下，李四审批", 2400),
    ("前两天去苏州出差打车花了一百二，报销，审批人李四", 120),
])
def test_a_claim_for_a_trip_already_made_is_a_claim(graph_driver, store, said, amount):
    trip = tool_call("runWorkFlow", {"processKey": "process_chuchai", "reason": "出差", "nextUserId": "李四",
                                     "fields": {"destination": "成都", "startDate": "上周一", "endDate": "上周三"}})
    agent = graph_driver(trip, "已提交。")
    agent.say(said)
    args = waiting(agent)
    assert args["processKey"] == "process_baoxiao"
    assert args["fields"]["amount"] == amount
    assert args["fields"]["category"] == "差旅"
    assert "destination" not in args["fields"] and "startDate" not in args["fields"]
    agent.resume(APPROVE)
    [request] = store.snapshot()["requests"]
    assert request["process_key"] == "process_baoxiao" and json.loads(request["form"])["amount"] == amount


def test_a_claim_for_a_business_trip_in_english_is_a_claim(graph_driver):
    trip = tool_call("runWorkFlow", {"processKey": "process_chuchai", "reason": "hotel", "nextUserId": "Li Si",
                                     "fields": {"destination": "Nanjing"}})
    agent = graph_driver(trip, "Filed.")
    agent.say("Please reimburse the hotel from my business trip to Nanjing, 860 yuan. Li Si approves.")
    args = waiting(agent)
    assert args["processKey"] == "process_baoxiao"
    assert args["fields"] == {"amount": 860, "category": "差旅"}


def test_a_trip_named_alone_stays_a_trip(graph_driver):
    # 酒店 is what a claim is about, but the person names no claim: the trip they named is started.
    trip = tool_call("runWorkFlow", {"processKey": "process_chuchai", "reason": "见客户", "nextUserId": "李四",
                                     "fields": {"destination": "成都", "startDate": "下周一", "endDate": "下周三"}})
    agent = graph_driver(trip, "已提交。")
    agent.say("下周一到周三出差去成都见客户，住公司协议酒店，李四审批")
    args = waiting(agent)
    assert args["processKey"] == "process_chuchai"
    assert args["fields"]["destination"] == "成都"


@pytest.mark.parametrize(("said", "extra"), [
    ("Need Monday off for a dentist appointment, Li Si approves", {"amount": 0, "category": "其他"}),
    ("下周一请一天病假，去医院复查，李四审批", {"destination": "医院"}),
])
def test_a_field_of_another_form_is_left_out(graph_driver, store, said, extra):
    leave = tool_call("runWorkFlow", {"processKey": "process_qingjia", "reason": "dentist", "nextUserId": "李四",
                                      "days": 1, "fields": {"startDate": "2027-01-18", "endDate": "2027-01-18",
                                                            **extra}})
    agent = graph_driver(leave, "Filed.")
    agent.say(said)
    args = waiting(agent)
    assert args["processKey"] == "process_qingjia"
    assert not set(extra) & set(args["fields"])
    agent.resume(APPROVE)
    [request] = store.snapshot()["requests"]
    assert request["process_key"] == "process_qingjia" and not set(extra) & set(json.loads(request["form"]))


def _definitions(store: Any) -> list[Definition]:
    with store.engine.connect() as conn:
        return list(engine_of(conn).definitions(conn))


@pytest.mark.parametrize(("text", "named"), [
    ("下周出差去北京", ["process_chuchai"]),
    ("出差的机票要报销", ["process_baoxiao"]),
    ("claim my business trip taxi fares", ["process_baoxiao"]),
    ("expense the flights of my business trip", ["process_baoxiao"]),
    ("请两天假，顺便报销上个月的打印纸", ["process_baoxiao", "process_qingjia"]),  # two requests: nothing is picked
    # a part of a day off names a leave (the twenty-first round, read; written after the data)
    ("can I get the morning off on the 9th for a parent-teacher meeting?", ["process_qingjia"]),
    ("need a half day off next week, plumber coming", ["process_qingjia"]),
    # everyday words for getting money back (the twenty-fourth round's writer's report; none from it)
    ("上个月出差住酒店花了八百，找财务报掉", ["process_baoxiao"]), ("出差垫了不少钱，能不能报", ["process_baoxiao"]),
    ("I'd like the costs back for last week's business trip", ["process_baoxiao"]),
    ("跟王五汇报一下出差的情况", ["process_chuchai"]),
])
def test_processes_they_named(store, text, named):
    assert sorted(d.key for d in processes_they_named(_definitions(store), text)) == named


@pytest.mark.parametrize(("said", "day", "days", "half"), [
    ("那下周三用调休歇一天，陪家里老人去复查，李四审批", "2027-01-20", 1, None),
    ("下周一请一天事假，去办护照，李四审批", "2027-01-18", 1, None),
    ("Taking next Friday off as a personal day to move house, Li Si approves", "2027-01-22", 1, None),
    ("周四上午请半天假去银行办事，李四审批", "2027-01-21", 0.5, "上午"),
    ("I want Wednesday afternoon off for a dentist appointment, Li Si approves", "2027-01-20", 0.5, "下午"),
])
def test_a_leave_of_a_day_or_half_of_one_on_the_one_date_said_is_that_date(graph_driver, said, day, days, half):
    # The model left the dates out; the one date the person said, with one day or half a day, is the leave's first and
    # last day (and the half they named, at both ends).
    leave = tool_call("runWorkFlow", {"processKey": "process_qingjia", "reason": "x", "nextUserId": "李四",
                                      "fields": {}})
    agent = graph_driver(leave, "已提交。")
    agent.say(said)
    args = waiting(agent)
    assert (args["fields"]["startDate"], args["fields"]["endDate"]) == (day, day)
    assert args["days"] == days and args["fields"].get("startHalf") == half


@pytest.mark.parametrize("said", [
    "I need all of next week off, Monday through Friday, for my sister's wedding. Li Si approves",
    "下周一整周请年假，周一到周五，出去旅游，李四审批",
])
def test_a_week_said_twice_over_is_one_leave_of_its_working_days(graph_driver, said):
    leave = tool_call("runWorkFlow", {"processKey": "process_qingjia", "reason": "x", "nextUserId": "李四",
                                      "days": 5, "fields": {"startDate": "2027-01-17", "endDate": "2027-01-21"}})
    agent = graph_driver(leave, "Filed.")
    agent.say(said)
    args = waiting(agent)
    assert (args["fields"]["startDate"], args["fields"]["endDate"]) == ("2027-01-18", "2027-01-22")


@pytest.mark.parametrize(("said", "first", "last"), [  # written after the rule (the twelfth round); none from it
    ("下周二、周三这两天请年假，去参加同学婚礼，李四审批", "2027-01-19", "2027-01-20"),
    ("Off next Thursday and Friday to help my parents move, annual leave, Li Si approves", "2027-01-21", "2027-01-22"),
    ("下周五和下下周一请两天事假，回老家办事，李四审批", "2027-01-22", "2027-01-25"),
])
def test_working_days_listed_one_after_another_are_one_leave(graph_driver, said, first, last):
    # the model left the dates out; the days listed, with no working day between them left out, are its first and last
    leave = tool_call("runWorkFlow", {"processKey": "process_qingjia", "reason": "x", "nextUserId": "李四", "days": 2,
                                      "fields": {}})
    agent = graph_driver(leave, "已提交。")
    agent.say(said)
    args = waiting(agent)
    assert (args["fields"]["startDate"], args["fields"]["endDate"]) == (first, last)


def test_working_days_listed_apart_are_no_one_leave(graph_driver):
    leave = tool_call("runWorkFlow", {"processKey": "process_qingjia", "reason": "x", "nextUserId": "李四", "days": 2,
                                      "fields": {"startDate": "2027-01-18", "endDate": "2027-01-20"}})
    agent = graph_driver(leave, "已提交。")
    agent.say("下周一、周三各请一天假去医院复查，李四审批")
    assert agent.actions == [] or agent.actions[0]["args"]["fields"].get("endDate") != "2027-01-20"


@pytest.mark.parametrize(("said", "leave_type"), [
    ("Taking a day in lieu next Wednesday for the overtime, Li Si approves", "调休"),
    ("下周三补休一天，上周末加班了，李四审批", "调休"),
    ("I'll need a personal day next Wednesday for the movers, Li Si approves", "事假"),
])
def test_a_leave_named_by_its_type_alone_is_a_leave(graph_driver, said, leave_type):
    # written after the rule (the ninth round: "a comp day" started a trip or a claim); none from a scenario
    trip = tool_call("runWorkFlow", {"processKey": "process_chuchai", "reason": "x", "nextUserId": "李四", "days": 1})
    agent = graph_driver(trip, "OK.")
    agent.say(said)
    [action] = agent.actions
    assert action["args"]["processKey"] == "process_qingjia"
    assert action["args"]["fields"]["leaveType"] == leave_type


def test_every_leave_type_names_the_leave_process(store):
    # the process's words are data: every type a leave can be filed as names the leave, in either language
    definitions = _definitions(store)
    leave = next(d for d in definitions if d.key == "process_qingjia")
    [types] = [f for f in leave.fields if f.id == "leaveType"]
    for choice in types.choices:
        for name in (choice.name, choice.name_en):
            assert [d.key for d in processes_they_named(definitions, f"{name} next week")] == ["process_qingjia"], name


@pytest.mark.parametrize("said", [  # written after the rule (the thirteenth round: a client visit filed as a claim)
    "Have to fly to Shenzhen to see a supplier next Tuesday to Thursday, Li Si approves",
    "下周二到周四要去深圳拜访供应商，李四审批",
    # a count of things states no money (written after the fourteenth round's re-run)
    "下周一到周三去南京参加一个技术大会，王五审批",
    "Off to Xi'an Tuesday to Thursday for two client meetings, Wang Wu approves",
    "the 3 of us go to Wuhan next Monday to Wednesday for the trade show, Li Si approves",
])
def test_a_start_naming_no_money_and_no_process_is_no_expense_claim(graph_driver, said):
    claim = tool_call("runWorkFlow", {"processKey": "process_baoxiao", "reason": "see a supplier", "nextUserId": "李四"})
    agent = graph_driver(claim, "Filed.")
    agent.say(said)
    [action] = agent.actions
    assert action["args"]["processKey"] == "process_chuchai"


def test_a_claim_whose_money_is_not_said_yet_is_still_a_claim(graph_driver):
    claim = tool_call("runWorkFlow", {"processKey": "process_baoxiao", "reason": "taxi", "nextUserId": "李四"})
    agent = graph_driver(claim, "Filed.")
    result = agent.say("took a taxi to the client yesterday, Li Si approves")
    assert agent.actions == [] and "amount" in str(result["messages"][-1].content).lower()


@pytest.mark.parametrize("said", ["上周在南京花了两千三，李四审批", "spent 430 in Xi'an last week, Li Si approves"])
def test_money_without_its_unit_keeps_the_claim(graph_driver, said):
    # a bare number may be the money (its unit asked or read on the card): the start is no trip for it
    claim = tool_call("runWorkFlow", {"processKey": "process_baoxiao", "reason": "南京", "nextUserId": "李四"})
    agent = graph_driver(claim, "Filed.")
    result = agent.say(said)
    assert all(a["args"]["processKey"] == "process_baoxiao" for a in agent.actions)
    assert "no_money_no_claim" not in " ".join(str(m.content) for m in result["messages"])


@pytest.mark.parametrize(("said", "marriage"), [  # written after the rule (the seventeenth round's writer); none from it
    ("My brother is getting married next Friday, I need that day off, Li Si approves", False),
    ("I'm getting married on the 5th of February, 10 days off from then, Li Si approves", True),
])
def test_marriage_leave_is_for_ones_own_wedding(graph_driver, said, marriage):
    leave = tool_call("runWorkFlow", {"processKey": "process_qingjia", "reason": "wedding", "nextUserId": "李四"})
    agent = graph_driver(leave, "OK.")
    result = agent.say(said)
    types = [a["args"].get("fields", {}).get("leaveType") for a in agent.actions]
    asked = str(result["messages"][-1].content)
    assert ("婚假" in types) is marriage, (types, asked)


@pytest.mark.parametrize("said", [  # written after the rule (the seventeenth round, read); none from it
    "前天陪客户跑了三个地方，打了好几趟车，帮我报一下，王五审批",
    "这周去仓库盘点来回打了两趟车，给我报一下吧，王五审批",
])
def test_asking_to_have_money_paid_back_colloquially_is_a_claim(graph_driver, said):
    trip = tool_call("runWorkFlow", {"processKey": "process_chuchai", "reason": "见客户", "nextUserId": "王五"})
    agent = graph_driver(trip, "OK.")
    result = agent.say(said)
    asked = str(result["messages"][-1].content)
    assert "金额" in asked and "出差地点" not in asked and "类别" not in asked  # the taxi says the category


def test_a_to_do_call_naming_the_person_themself_from_someone_nothing_waits_on_is_their_start(graph_driver):
    # written after the rule (the fifteenth round's re-run, read: a transfer of "赵六" from 赵六); none from it
    transfer = tool_call("transferTask", {"taskId": "赵六", "nextUserId": "管理员"})
    agent = graph_driver(transfer, "OK.", user_id="user_4")
    agent.say("最近几个周末都在加班，下周三调休一天，管理员批就行")
    [action] = agent.actions
    assert action["name"] == "runWorkFlow" and action["args"]["processKey"] == "process_qingjia"
    assert action["args"]["fields"]["leaveType"] == "调休" and action["args"]["fields"]["startDate"] == "2027-01-20"


@pytest.mark.parametrize(("said", "process", "amount"), [  # written after the rule; none from a round
    ("把攒下来的打车票报一下，一共326块，李四审批", "process_chuchai", 326),
    ("上个月给客户买的茶叶，花了480元，李四审批", "process_qingjia", 480),
    ("I've got ¥212 of parking receipts from last month, Li Si approves", "process_chuchai", 212),
])
def test_a_sum_of_money_with_no_other_process_named_is_a_claim(graph_driver, said, process, amount):
    # A start of a process that files no money, where the person states a sum and names no such process, is the one
    # process that files money (a taxi claim had been filed as a trip to "打车").
    wrong = tool_call("runWorkFlow", {"processKey": process, "reason": "x", "nextUserId": "李四"})
    agent = graph_driver(wrong, "OK.", "OK.", fixed_answers=True)
    result = agent.say(said)
    if agent.actions:
        [action] = agent.actions
        assert action["args"]["processKey"] == "process_baoxiao"
        assert action["args"]["fields"]["amount"] == amount
    else:  # the tea names no category: the claim asks for it, and only for it
        assert "报销类别" in str(result["messages"][-1].content), result["messages"][-1].content


@pytest.mark.parametrize("said", ["下周去成都出差三天，住宿预算大概两千块，李四审批",
                                  "Business trip to Xi'an next week, about 3,000 yuan all in, Li Si approves"])
def test_a_trip_named_with_its_budget_stays_a_trip(graph_driver, said):
    trip = tool_call("runWorkFlow", {"processKey": "process_chuchai", "reason": "出差", "nextUserId": "李四"})
    agent = graph_driver(trip, "OK.", fixed_answers=True)
    result = agent.say(said)
    assert "amount_is_a_claim" not in " ".join(str(m.content) for m in result["messages"])
    assert all(a["args"]["processKey"] == "process_chuchai" for a in agent.actions)
