"""A leave said from its first day with no length ("我想从下周一开始请假", "starting next Monday") is asked how many
days: its date is the first of several, not a day's leave (the forty-ninth round's writer found a one-day card), and
"starting" tells no why. Phrasings written for these tests, none from a scenario."""

from __future__ import annotations

import pytest

from evals.doubles.scripted import tool_call


@pytest.mark.parametrize(("said", "asked"), [
    ("下周三起请年假，回老家办点事，李四批", "请问要请几天假？"),
    ("I want to be off on personal leave from next Wednesday on, sorting out my visa, Li Si approves",
     "How many days of leave do you need?"),
])
def test_a_leave_said_from_its_first_day_alone_is_asked_its_length(graph_driver, said, asked):
    call = tool_call("runWorkFlow", {"processKey": "process_qingjia", "reason": "visa", "days": 1, "nextUserId": "李四",
                                     "fields": {"leaveType": "事假", "startDate": "下周三", "endDate": "下周三"}})
    agent = graph_driver(call, "好", user_id="user_1")
    assert str(agent.say(said)["messages"][-1].content) == asked and agent.actions == []


def test_the_word_that_starts_it_tells_no_why(graph_driver):
    call = tool_call("runWorkFlow", {"processKey": "process_qingjia", "days": 2, "nextUserId": "Li Si",
                                     "fields": {"leaveType": "事假", "startDate": "next Wednesday"}})
    agent = graph_driver(call, "OK", user_id="user_1")
    agent.say("Two days of personal leave starting next Wednesday, moving flats, Li Si approves")
    [card] = agent.actions
    assert card["args"]["reason"] == "moving flats"


@pytest.mark.parametrize("said", ["下周三请一天事假，去办签证，李四批",
                                  "personal leave next Wednesday for my visa, Li Si approves"])
def test_a_leave_said_on_one_day_is_that_day(graph_driver, said):
    assert _one_day_card(graph_driver, said, "下周三")["days"] == 1


@pytest.mark.parametrize("said", [  # the forty-ninth round's writer: 别按事假 read as naming 事假 too, and asked which
    "下周四请一天假回老家，别算事假，走年假，李四批",
    "a day off next Thursday to see my parents - don't file it as personal leave, use annual leave. Li Si approves",
])
def test_a_type_said_not_to_be_it_is_not_chosen(graph_driver, said):
    assert _one_day_card(graph_driver, said, "下周四")["fields"]["leaveType"] == "年假"


def _one_day_card(graph_driver, said: str, day: str) -> dict:
    """The arguments of the start card a model's one-day personal leave on `day` gets for what the person said."""
    call = tool_call("runWorkFlow", {"processKey": "process_qingjia", "reason": "x", "days": 1, "nextUserId": "李四",
                                     "fields": {"leaveType": "事假", "startDate": day, "endDate": day}})
    agent = graph_driver(call, "好", user_id="user_1")
    agent.say(said)
    [card] = agent.actions
    return card["args"]


@pytest.mark.parametrize(("first", "answer", "day"), [  # the fifty-second round's writer: the dates were dropped
    ("My back has been bad for two weeks, I need sick leave to see a physio, Zhao Liu approves", "one day, next Friday",
     "2027-01-22"),
    ("腰疼了快一个月了，想请病假去做理疗，赵六审批", "一天，下周五", "2027-01-22"),
])
def test_the_length_an_answer_gives_is_the_one_its_dates_are_read_with(graph_driver, first, answer, day):
    call = tool_call("runWorkFlow", {"processKey": "process_qingjia", "reason": "physio", "nextUserId": "赵六",
                                     "fields": {"leaveType": "病假"}})
    agent = graph_driver(call, "OK", user_id="user_1", fixed_answers=True)
    agent.say(first)
    agent.say(answer)
    [card] = agent.actions
    assert card["args"]["days"] == 1 and card["args"]["fields"]["startDate"] == day == card["args"]["fields"]["endDate"]


@pytest.mark.parametrize(("said", "first", "last"), [  # the fifty-ninth round's run: no first day was filed for either
    ("我妹妹下周五出嫁，我从下周二起请3天事假回去帮忙，李四批", "2027-01-19", "2027-01-21"),
    ("My cousin graduates next Friday, so I'd like 2 days of personal leave starting next Thursday, Li Si approves",
     "2027-01-21", "2027-01-22"),
    ("The movers come next Tuesday, so please book 2 days of personal leave starting next Tuesday, Li Si approves",
     "2027-01-19", "2027-01-20"),
])
def test_the_date_said_as_its_first_day_starts_it_beside_another(graph_driver, said, first, last):
    """Its first day is the date said as where it starts, beside the date of its occasion (a wedding, a graduation)
    or the same day said again; its last is counted from its length."""
    call = tool_call("runWorkFlow", {"processKey": "process_qingjia", "reason": "x", "nextUserId": "李四",
                                     "days": 3 if "3天" in said else 2})
    agent = graph_driver(call, "好", user_id="user_1")
    agent.say(said)
    [card] = agent.actions
    fields = card["args"]["fields"]
    assert (fields["startDate"], fields["endDate"]) == (first, last)


@pytest.mark.parametrize(("said", "start", "end"), [  # the fifty-ninth round's run asked for a last day never said
    ("I need 2 days of personal leave from next Tuesday to look after my dad, Li Si approves", "下周一", "下周三"),
    ("下周二起请两天事假，陪我爸做检查，李四批", "下周二", "下周四"),
])
def test_a_last_day_the_model_made_up_is_counted_from_the_first_and_the_days(graph_driver, said, start, end):
    call = tool_call("runWorkFlow", {"processKey": "process_qingjia", "reason": "dad", "days": 2, "nextUserId": "李四",
                                     "fields": {"leaveType": "事假", "startDate": start, "endDate": end}})
    agent = graph_driver(call, "好", user_id="user_1")
    agent.say(said)
    [card] = agent.actions
    fields = card["args"]["fields"]
    assert (fields["startDate"], fields["endDate"]) == ("2027-01-19", "2027-01-20")
