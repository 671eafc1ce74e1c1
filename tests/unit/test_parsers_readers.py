"""The form fields' readers of what the person stated (tools.workflow.forms): the one amount, with a currency or else
the one bare number of the request; the one date range; and `Request.said`, each value with the words it was read from."""

from __future__ import annotations

from datetime import date

import pytest

from tools.grounding import stated_value
from tools.request import read_request, stated_numbers
from tools.workflow.forms import person_values
from tools.workflow.seed import USERS
from tools.workflow.store import WorkflowStore

TUESDAY = date(2026, 12, 1)
FIELDS = {"money": ("process_baoxiao", ("fields.amount",)), "days": ("process_qingjia", ("days",)),
          "range": ("process_chuchai", ("fields.startDate", "fields.endDate"))}


@pytest.fixture(scope="module")
def fields(tmp_path_factory):
    """The shipped processes' form fields, by kind: the amount (报销金额), the days (请假天数), the trip's dates."""
    store = WorkflowStore(f"sqlite:///{tmp_path_factory.mktemp('forms') / 'workflow.db'}")
    with store.read() as conn:
        definitions = {d.key: d for d in store.process_engine.definitions(conn)}
    store.dispose()
    found = {}
    for kind, (key, params) in FIELDS.items():
        values = {v.param: v for v in person_values(definitions[key])}
        found[kind] = [values[param] for param in params]
    return found


def stated(fields, kind: str, *texts: str, today: date = TUESDAY, answering: str = ""):
    request = read_request(list(texts), index=0, today=today, people=USERS, actor_id="user_1", answering=answering)
    read = tuple(stated_value(value, request) for value in fields[kind])
    return read[0] if len(read) == 1 else read


# The misreadings of the issue that a form field reads.


@pytest.mark.parametrize(("text", "amount"), [("报销两千三", 2300), ("报销一万二", 12000)])
def test_amount_liangqiansan_with_no_currency_is_the_money_fields_amount(fields, text, amount):
    """A number with no unit was asked again: a form that asks for money reads the one bare number as yuan."""
    assert stated(fields, "money", text) == amount


def test_amount_spent_6800_on_flights_is_the_money_fields_amount(fields):
    assert stated(fields, "money", "spent 6800 on flights") == 6800


def test_amount_1_2k_without_a_currency_is_1200_for_the_money_field(fields):
    assert stated(fields, "money", "报销1.2k的打车费") == 1200


@pytest.mark.parametrize(("text", "amount"), [("报销6千8百元差旅费", 6800), ("一共八十六块五", 86.5),
                                              ("claim ¥1.2k for taxis", 1200), ("430 bucks for the taxi", 430)])
def test_amount_with_a_currency_is_the_money_fields_amount(fields, text, amount):
    assert stated(fields, "money", text) == amount


@pytest.mark.parametrize("text", ["请-1天假", "请负一天假"])
def test_days_minus_one_reaches_the_days_field_for_the_form_to_refuse(fields, text):
    assert stated(fields, "days", text) == -1


@pytest.mark.parametrize(
    ("texts", "amount"),
    [
        (["报销两千三，还有一笔500"], None),  # two numbers: asked
        (["打车5次，一共花了380"], 380),  # 5次 counts rides
        (["我想报销一下上个月的打车费"], None),
        (["I took 3 taxis last week, total came to 214"], 214),
        (["expense the hotel, 3 nights, 1,350 altogether"], 1350),
        (["报销1200元的机票，另外还有300"], 1200),  # an amount with a currency wins over bare numbers
        (["报销1200元机票和300元餐费"], None),  # two amounts: asked
        (["spent 6800 on flights", "and 200 on the taxi"], None),
    ],
)
def test_the_money_field_reads_one_bare_number_only_when_no_amount_has_a_currency(fields, texts, amount):
    assert stated(fields, "money", *texts) == amount


def test_the_money_field_reads_the_answer_to_its_question(fields):
    assert stated(fields, "money", "报销打车费", "两千三", answering="yuan") == 2300


@pytest.mark.parametrize(
    ("texts", "expected"),
    [
        (["下周二到周四出差上海"], ("2026-12-08", "2026-12-10")),
        (["12月8日至10日去北京"], ("2026-12-08", "2026-12-10")),
        (["trip to Shenzhen from Dec 8 to Dec 10"], ("2026-12-08", "2026-12-10")),
        (["next Tuesday to Thursday in Hangzhou"], ("2026-12-08", "2026-12-10")),
        (["下周二到周四出差上海", "就是下周二到周四"], ("2026-12-08", "2026-12-10")),  # the same range twice is one
        # two ranges: the later message's, which says the dates anew (the thirty-seventh round, read after its run)
        (["下周二到周四出差上海", "不对，12月15日到17日"], ("2026-12-15", "2026-12-17")),
        (["下周二到周四出差上海，或者12月15日到17日"], (None, None)),  # two in one message: asked
    ],
)
def test_the_date_range_fields_read_the_one_range_stated(fields, texts, expected):
    assert stated(fields, "range", *texts) == expected


def test_request_said_keeps_each_value_with_its_words():
    request = read_request(["报销6千8百元差旅费，下周二到周四出差"], index=0, today=TUESDAY, people=USERS)
    assert request["said"] == [
        {"kind": "amount", "value": 6800, "text": "6千8百元", "message": 0},
        {"kind": "range", "value": "2026-12-08/2026-12-10", "text": "下周二到周四", "message": 0},
        {"kind": "days", "value": 3, "text": "下周二到周四", "message": 0},
        {"kind": "date", "value": "2026-12-08", "text": "下周二到周四", "message": 0},
        {"kind": "date", "value": "2026-12-10", "text": "下周二到周四", "message": 0},
    ]


def test_request_said_has_the_answer_to_the_graphs_question_in_its_unit():
    request = read_request(["报销打车费", "2300"], answering="yuan", index=1, today=TUESDAY)
    assert request["said"] == [{"kind": "amount", "value": 2300, "text": "2300", "message": 1}]


def test_the_numbers_stated_with_a_unit_are_its_days_its_amounts_or_every_number():
    request = read_request(["请3天假，报销200元，工号3021"], index=0, today=TUESDAY)
    assert stated_numbers(request, "day") == [3]
    assert stated_numbers(request, "yuan") == [200]
    assert stated_numbers(request, "none") == request["numbers"] and 3021 in request["numbers"]
    assert stated_numbers(request["last"], "yuan") == [200]


def test_request_said_gives_a_week_as_five_and_seven_days_and_a_bare_number_as_a_number():
    request = read_request(["请一周假，工号3021"], index=0, today=TUESDAY)
    assert [(s["kind"], s["value"], s["text"]) for s in request["said"]] == [("days", 5, "一周"), ("days", 7, "一周")]
    request = read_request(["报销两千三"], index=0, today=TUESDAY)
    assert request["said"] == [{"kind": "number", "value": 2300, "text": "两千三", "message": 0}]


def test_request_said_has_the_day_a_lone_date_gives():
    request = read_request(["Can I take Thursday off? Dentist."], index=0, today=TUESDAY)
    assert request["days"] == [1.0]
    assert request["said"] == [{"kind": "date", "value": "2026-12-03", "text": "Thursday", "message": 0},
                               {"kind": "days", "value": 1.0, "text": "Thursday", "message": 0}]
