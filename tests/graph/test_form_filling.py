"""A form filled from the person's words, through the real graph with a scripted model that gets it wrong the way the
offline model did: a destination left out, a category in its own words or a wrong one, a text typed verbatim in
another script, a trip in the past. What the person said is filled and shown on the start card (inferred where a word
only implies it), never asked again; what cannot be done is refused before anything is asked.

The graph's clock says 2027-01-15, a Friday.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage

from evals.doubles.scripted import tool_call

APPROVE = {"decisions": [{"type": "approve"}]}


def final(result: dict[str, Any]) -> str:
    last = result["messages"][-1]
    assert isinstance(last, AIMessage) and not last.tool_calls, last
    return str(last.content)


def waiting(agent: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """The arguments of the one call waiting on its card, and where the person's values came from."""
    [action] = agent.actions
    [call] = [c for c in agent.values["step"]["calls"] if c["status"] == "needs_approval"]
    return action["args"], call.get("sources", {})


def expense(category: str | None, reason: str, amount: float, approver: str = "李四") -> AIMessage:
    fields: dict[str, Any] = {"amount": amount}
    if category is not None:
        fields["category"] = category
    return tool_call("runWorkFlow", {"processKey": "process_baoxiao", "reason": reason, "nextUserId": approver,
                                     "fields": fields})


def test_trip_destination_filled_from_request(graph_driver, store):
    # The model left the destination out of `fields`; the person had said where they go.
    trip = tool_call("runWorkFlow", {"processKey": "process_chuchai", "reason": "见客户", "nextUserId": "王五",
                                     "fields": {"startDate": "下周一", "endDate": "下周三"}})
    agent = graph_driver(trip, "已提交。")
    agent.say("下周一到周三去深圳见客户，出差申请，王五审批")
    args, sources = waiting(agent)  # no question: the card waits
    assert args["fields"] == {"destination": "深圳", "startDate": "2027-01-18", "endDate": "2027-01-20"}
    assert sources["fields.destination"] == {"how": "filled", "said": "深圳"}
    agent.resume(APPROVE)
    [request] = store.snapshot()["requests"]
    assert request["process_key"] == "process_chuchai"


@pytest.mark.parametrize(("said", "place"), [  # the seventy-ninth round's run; none of its words
    ("下周一到周三去苏州，去两家供应商那边验货，出差申请，王五审批", "苏州"),  # 两家 counts: no second place
    ("下周一到周三出差，先去三亚，到各门店巡检一遍，王五审批", "三亚"),  # 三亚 is a place, 各门店 none
    ("下周一到周三去九江见客户，王五审批", "九江"),
])
def test_a_destination_beside_whom_they_visit_is_the_place(graph_driver, said, place):
    trip = tool_call("runWorkFlow", {"processKey": "process_chuchai", "reason": "见客户", "nextUserId": "王五",
                                     "fields": {"startDate": "下周一", "endDate": "下周三"}})
    agent = graph_driver(trip, "已提交。")
    agent.say(said)
    args, sources = waiting(agent)
    assert args["fields"]["destination"] == place and sources["fields.destination"] == {"how": "filled", "said": place}


def test_trip_destination_in_english_is_filled_too(graph_driver):
    trip = tool_call("runWorkFlow", {"processKey": "process_chuchai", "reason": "to meet a client",
                                     "nextUserId": "Wang Wu", "fields": {"startDate": "2027-01-18",
                                                                         "endDate": "2027-01-20"}})
    agent = graph_driver(trip, "Filed.")
    agent.say("Business trip to New York from January 18 to January 20 to meet a client, Wang Wu approves")
    args, sources = waiting(agent)
    assert args["fields"]["destination"] == "New York"
    assert sources["fields.destination"]["how"] == "filled"


def test_a_destination_the_model_runs_on_past_the_place_is_ended_where_the_person_named_it(graph_driver):
    # The model took the branch for the place; the person's words name the city, and the card says what was replaced.
    trip = tool_call("runWorkFlow", {"processKey": "process_chuchai", "reason": "做季度审计", "nextUserId": "李四",
                                     "fields": {"destination": "杭州分公司", "startDate": "下周一", "endDate": "下周二"}})
    agent = graph_driver(trip, "已提交。")
    agent.say("下周一到周二去杭州分公司做季度审计，李四审批")
    args, sources = waiting(agent)
    assert args["fields"]["destination"] == "杭州"
    assert sources["fields.destination"] == {"how": "stated", "said": "杭州", "replaced": "杭州分公司"}


@pytest.mark.parametrize(("said", "model_wrote", "filed"), [
    ("business trip to Shanghai next Wed through Fri, meeting a supplier. Wang Wu approves", "上海", "Shanghai"),
    ("Flying to Chengdu on Monday and Tuesday to train the new sales team, Li Si approves", "成都市", "Chengdu"),
    ("下周一到周二去杭州出差，见客户，李四审批", "Hangzhou", "杭州"),
    ("下周三至周五赴西安参加行业展会，王五审批", "西安市", "西安"),
])
def test_a_place_the_model_wrote_in_its_own_words_is_filed_as_the_person_wrote_it(graph_driver, said, model_wrote, filed):
    # The offline model wrote the city in the other language, or named it otherwise: the person's words are filed
    # (the fifth held-out round: "business trip to Shanghai" was filed as 上海, refused, and asked again).
    trip = tool_call("runWorkFlow", {"processKey": "process_chuchai", "reason": "meeting", "nextUserId": "王五",
                                     "fields": {"destination": model_wrote, "startDate": "2027-01-18",
                                                "endDate": "2027-01-19"}})
    agent = graph_driver(trip, "Filed.")
    agent.say(said)
    args, sources = waiting(agent)
    assert args["fields"]["destination"] == filed
    assert sources["fields.destination"] == {"how": "stated", "said": filed, "replaced": model_wrote}


def test_a_cue_shouted_in_a_pasted_notice_names_no_destination(graph_driver, store):
    # the forty-eighth round's run: "NOTE TO ANY AI ASSISTANT: …" in a pasted invitation filed 'ANY AI ASSISTANT'
    trip = tool_call("runWorkFlow", {"processKey": "process_chuchai", "reason": "supplier audit", "nextUserId": "Wang Wu",
                                     "fields": {"startDate": "2027-01-18", "endDate": "2027-01-19"}})
    agent = graph_driver(trip)
    said = ('The supplier sent this: "Audit days are January 18 to January 19. ATTENTION TO THE TRAVEL DESK: book '
            'rooms early." Please file the business trip for the supplier audit, Wang Wu approves.')
    assert final(agent.say(said)) == "What is the destination?"
    assert store.snapshot()["requests"] == []


def test_a_destination_nobody_said_is_still_asked(graph_driver, store):
    trip = tool_call("runWorkFlow", {"processKey": "process_chuchai", "reason": "见客户", "nextUserId": "王五",
                                     "fields": {"startDate": "下周一", "endDate": "下周三"}})
    agent = graph_driver(trip)
    assert final(agent.say("下周一到周三出差见客户，王五审批")) == "请问出差地点是什么？"
    assert store.snapshot()["requests"] == []


def test_category_jiaotong_maps_to_chailv_inferred(graph_driver):
    # "交通" is none of the form's categories: mapped, not refused back to the person; their own word decides.
    agent = graph_driver(expense("交通", "打车去机场", 65), "已提交。")
    agent.say("打车去机场花了65元，报销一下，李四审批")
    args, sources = waiting(agent)
    assert args["fields"]["category"] == "差旅"
    assert sources["fields.category"] == {"how": "inferred", "said": "打车", "replaced": "交通"}


def test_the_models_own_word_is_mapped_when_the_persons_words_say_nothing_of_it(graph_driver):
    # The person named no category and implied none: the model's "交通" maps to 差旅, which they still must give.
    agent = graph_driver(expense("交通", "团队活动用的", 65))
    assert final(agent.say("报销团队活动用的65元，李四审批")) == "请问报销类别是什么？可选：差旅、餐饮、办公、其他。"


def test_taxi_to_client_office_is_travel(graph_driver):
    # "office" is where the taxi went, not what was bought: the taxi says Travel, whatever the model chose.
    agent = graph_driver(expense("Office", "took a taxi to the client's office", 86, approver="Li Si"), "Filed.")
    agent.say("I took a taxi to the client's office, 86 yuan, please file the expense. Li Si approves.")
    args, sources = waiting(agent)
    assert args["fields"]["category"] == "差旅"
    assert sources["fields.category"]["how"] == "inferred" and sources["fields.category"]["said"] == "taxi"


def test_meal_is_canyin(graph_driver):
    agent = graph_driver(expense(None, "团队聚餐", 480, approver="王五"), "已提交。")
    agent.say("报销团队聚餐480元，王五审批")
    args, sources = waiting(agent)
    assert args["fields"]["category"] == "餐饮"
    assert sources["fields.category"] == {"how": "inferred", "said": "聚餐"}
    english = graph_driver(expense(None, "team dinner with the client", 300, approver="Wang Wu"), "Filed.",
                           thread_id="en")
    english.say("Claim 300 yuan for the team dinner with the client, Wang Wu approves")
    args, _ = waiting(english)
    assert args["fields"]["category"] == "餐饮"


def test_a_category_the_person_names_beats_what_their_words_imply(graph_driver):
    agent = graph_driver(expense("办公", "打印纸", 300), "已提交。")
    agent.say("报销打印纸300元，差旅，李四审批")
    args, sources = waiting(agent)
    assert args["fields"]["category"] == "差旅"
    assert sources["fields.category"] == {"how": "stated", "said": "差旅", "replaced": "办公"}


def test_words_that_imply_two_categories_are_asked_about(graph_driver, store):
    agent = graph_driver(expense("餐饮", "聚餐打车", 120))
    question = final(agent.say("报销聚餐和打车一共120元，李四审批"))
    assert question == "请问报销类别是什么？可选：差旅、餐饮、办公、其他。"
    assert store.snapshot()["requests"] == []


CAR_BPMN = """<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
    xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="Definitions_yongche" targetNamespace="http://bpmn.io/schema/bpmn">
  <bpmn:process id="process_yongche" name="用车申请" isExecutable="true">
    <bpmn:extensionElements>
      <camunda:properties><camunda:property name="words" value="用车,car" /></camunda:properties>
    </bpmn:extensionElements>
    <bpmn:startEvent id="Start_yongche">
      <bpmn:extensionElements>
        <camunda:formData>
          <camunda:formField id="useDate" label="用车日期" type="string">
            <camunda:validation><camunda:constraint name="required" /></camunda:validation>
          </camunda:formField>
          <camunda:formField id="reason" label="用车事由" type="string">
            <camunda:validation><camunda:constraint name="required" /></camunda:validation>
          </camunda:formField>
        </camunda:formData>
      </bpmn:extensionElements>
    </bpmn:startEvent>
    <bpmn:userTask id="Task_approve" name="审批人审批" camunda:assignee="${nextUserId}" />
    <bpmn:endEvent id="End_done" />
    <bpmn:sequenceFlow id="Flow_start" sourceRef="Start_yongche" targetRef="Task_approve" />
    <bpmn:sequenceFlow id="Flow_end" sourceRef="Task_approve" targetRef="End_done" />
  </bpmn:process>
</bpmn:definitions>
"""


def test_verbatim_date_text_is_theirs(graph_driver, store, tmp_path: Path):
    # A text field the person typed as a date: "2026-12-05" is not Chinese, but it is verbatim what they wrote.
    path = tmp_path / "yongche.bpmn"
    path.write_text(CAR_BPMN, encoding="utf-8")
    store.deploy(path)
    call = tool_call("runWorkFlow", {"processKey": "process_yongche", "reason": "去机场接客户", "nextUserId": "李四",
                                     "fields": {"useDate": "2026-12-05"}})
    agent = graph_driver(call, "已提交。")
    agent.say("申请用车，日期2026-12-05，去机场接客户，李四审批")
    args, sources = waiting(agent)
    assert args["fields"] == {"useDate": "2026-12-05"}
    assert sources["fields.useDate"] == {"how": "stated", "said": "2026-12-05"}


def test_past_trip_refused_before_asking(graph_driver, store):
    # Last week's trip, destination left out: the person hears it cannot be filed, not "where to?".
    trip = tool_call("runWorkFlow", {"processKey": "process_chuchai", "reason": "见客户", "nextUserId": "王五",
                                     "fields": {"startDate": "上周一", "endDate": "上周三"}})
    agent = graph_driver(trip)
    answer = final(agent.say("上周一到周三出差见客户，王五审批"))
    assert answer == "出发日期2027年1月4日已经过去了（今天是2027年1月15日），这个申请无法发起。"
    assert agent.interrupts == [] and store.snapshot()["requests"] == []
    english = graph_driver(tool_call("runWorkFlow", {"processKey": "process_chuchai", "reason": "client visit",
                                                     "nextUserId": "Wang Wu", "fields": {}}), thread_id="en")
    answer = final(english.say("Business trip from last Monday to last Wednesday for a client visit, Wang Wu approves"))
    # "last Monday" said on a Friday is the Monday four days back (`date_phrases._last_en`); 上周一 is the week before
    assert answer == "The start date 11 Jan 2027 is in the past (today is 15 Jan 2027), so this request cannot be filed."


def test_a_date_range_answering_the_question_fills_both_dates_without_the_model(graph_driver, store):
    trip = tool_call("runWorkFlow", {"processKey": "process_chuchai", "reason": "去西安分公司做季度审计",
                                     "nextUserId": "李四", "fields": {"destination": "西安"}})
    agent = graph_driver(trip, "已提交。")
    asked = final(agent.say("要去西安分公司做季度审计，出差申请帮我提一下，李四审批"))
    assert "日期" in asked and store.snapshot()["requests"] == []
    agent.say("下周二到下周四")  # the answer: one range, no model call (the script holds only the final answer)
    args, _ = waiting(agent)
    assert (args["fields"]["startDate"], args["fields"]["endDate"]) == ("2027-01-19", "2027-01-21")
    agent.resume(APPROVE)
    assert agent.script_used_up and len(store.snapshot()["requests"]) == 1  # two model calls: the proposal, the answer


@pytest.mark.parametrize(
    ("said", "reason", "days", "approver"),
    [
        ("我想请5天年假出去旅游，审批人李四", "出去旅游", 5, "李四"),
        ("I'd like 3 days of annual leave to visit my parents, Wang Wu approves", "visit my parents", 3, "Wang Wu"),
    ],
    ids=["zh", "en"],
)
def test_dates_nobody_said_are_left_out_not_held_against_the_days_they_did(graph_driver, store, said, reason, days,
                                                                          approver):
    # The model put in dates of its own that count another number of working days than the person's.
    leave = tool_call("runWorkFlow", {"processKey": "process_qingjia", "reason": reason, "days": days,
                                      "nextUserId": approver, "fields": {"leaveType": "年假", "startDate": "2027-01-18",
                                                                         "endDate": "2027-01-19"}})
    agent = graph_driver(leave, "OK.")
    agent.say(said)
    args, _ = waiting(agent)  # no refusal and no question: the card waits, with the days they said
    assert args["days"] == days
    assert not args["fields"].get("startDate") and not args["fields"].get("endDate")
    assert store.snapshot()["requests"] == []


@pytest.mark.parametrize(("said", "start", "end"), [
    ("下下周三去武汉参会，周五回来，王五审批", "2027-01-27", "2027-01-29"),
    ("Off to Xi'an on the 26th for a client workshop, back Thursday. Wang Wu approves", "2027-01-26", "2027-01-28"),
])
def test_a_trips_return_day_said_after_its_start_is_read_after_it(graph_driver, said, start, end):
    # written after the rule (the tenth round's author found "back on Thursday" read as this week's); none from a scenario
    trip = tool_call("runWorkFlow", {"processKey": "process_chuchai", "reason": "x", "nextUserId": "王五",
                                     "fields": {}})
    agent = graph_driver(trip, "OK.")
    agent.say(said)
    args, _ = waiting(agent)
    assert (args["fields"]["startDate"], args["fields"]["endDate"]) == (start, end)


@pytest.mark.parametrize(("first", "second", "amount"), [
    ("报销昨天的打车费一百二十块，王五审批", "不对，打车费是一百五十块，我看错了", 150),
    ("claim 86 yuan for office supplies, Wang Wu approves", "sorry, it was 68 yuan, typo", 68),
])
def test_an_amount_corrected_in_a_later_message_is_the_one_filed(graph_driver, first, second, amount):
    # written after the rule (the eleventh round: a corrected amount was filed as first said); none from a scenario
    claim = {"processKey": "process_baoxiao", "reason": "x", "nextUserId": "王五"}
    agent = graph_driver(tool_call("runWorkFlow", {**claim, "fields": {"amount": 1}}), "OK.",
                         tool_call("runWorkFlow", {**claim, "fields": {"amount": 1}}), "OK.")
    agent.say(first)
    agent.resume({"decisions": [{"type": "reject", "message": "wait"}]})
    agent.say(second)
    args, _ = waiting(agent)
    assert args["fields"]["amount"] == amount


@pytest.mark.parametrize("answer", [  # written after the rule (the fifteenth round's writer found it; none from it)
    "26号出发，28号回来", "26号走，28号回", "set off on the 26th, back on the 28th", "out the 26th, return the 28th",
    "the 26th to the 28th",
])
def test_a_trips_start_and_end_asked_are_filled_from_two_days_answered(graph_driver, answer):
    trip = tool_call("runWorkFlow", {"processKey": "process_chuchai", "reason": "见客户", "nextUserId": "王五",
                                     "fields": {"destination": "武汉"}})
    agent = graph_driver(trip, "OK.")
    asked = agent.say("出差去武汉见客户，王五审批")
    assert "出发日期" in str(asked["messages"][-1].content) and agent.actions == []
    agent.say(answer)
    args, _ = waiting(agent)  # filled in code: the script has no second call
    assert (args["fields"]["startDate"], args["fields"]["endDate"]) == ("2027-01-26", "2027-01-28")


@pytest.mark.parametrize(("said", "amount"), [  # written after a writer's report (the twenty-fifth round's); none from it
    ("报销上周的交通费：地铁卡充了100，滴滴花了68，加起来168，王五审批", 168),
    ("Claim travel: train 412 yuan, cabs 76 yuan, 488 yuan in total. Wang Wu approves", 488),
    ("claim a total of 930 for the offsite, 600 venue and 330 food, Wang Wu approves", 930),
])
def test_the_total_said_among_several_amounts_is_the_one_filed(graph_driver, said, amount):
    agent = graph_driver(tool_call("runWorkFlow", {"processKey": "process_baoxiao", "reason": "x", "nextUserId": "王五",
                                                   "fields": {"amount": 100, "category": "差旅"}}), "OK.")
    agent.say(said)
    args, _ = waiting(agent)
    assert args["fields"]["amount"] == amount


@pytest.mark.parametrize(("said", "asked"), [  # written after a writer's report (the twenty-fifth round's); none from it
    ("下周二去青岛出差，待四天左右，王五审批", "返回日期"), ("26号去青岛出差，要待好几天，王五审批", "返回日期"),
    ("Trip to Qingdao from the 26th, I'll be there for a few days. Wang Wu approves", "end date"),
    # its one date said as the day they set off (the forty-first round's writer's report, "leaving tmrw"; none from it)
    ("下周一出发去武汉参加培训，王五审批", "返回日期"), ("26号动身去厦门，王五批", "返回日期"),
    ("Flying out to Chengdu next Monday for the audit, Wang Wu approves", "end date"),
    ("heading off to xiamen on the 26th for the fair, wang wu signs off", "end date"),
    # its one date alone, with no word of coming back that day (ho43's writer asked for it; phrasings written later)
    ("26号去苏州见客户，王五审批", "返回日期"), ("I need to visit the Suzhou plant on the 26th, Wang Wu approves", "end date"),
])
def test_a_trip_longer_than_its_one_date_said_has_its_return_asked(graph_driver, store, said, asked):
    trip = tool_call("runWorkFlow", {"processKey": "process_chuchai", "reason": "x", "nextUserId": "王五",
                                     "fields": {"destination": "青岛", "startDate": "2027-01-26", "endDate": "2027-01-26"}})
    agent = graph_driver(trip, "OK.")
    result = agent.say(said)
    assert asked in str(result["messages"][-1].content).lower() and agent.actions == []
    assert store.snapshot()["requests"] == []


@pytest.mark.parametrize("said", [
    "26号一早出发去苏州见客户，当天回，王五审批", "Day trip to Suzhou on the 26th, leaving at 7, Wang Wu approves",
])
def test_a_trip_said_to_end_the_day_it_starts_is_that_day(graph_driver, said):
    trip = tool_call("runWorkFlow", {"processKey": "process_chuchai", "reason": "x", "nextUserId": "王五", "fields": {}})
    agent = graph_driver(trip, "OK.")
    agent.say(said)
    args, _ = waiting(agent)
    assert (args["fields"]["startDate"], args["fields"]["endDate"]) == ("2027-01-26", "2027-01-26")


@pytest.mark.parametrize(("said", "asked"), [
    ("去苏州见客户，26号回来，王五审批", "出发日期"),
    ("Suzhou for the supplier audit, back on the 26th, Wang Wu approves", "start date"),
])
def test_a_trip_whose_one_date_is_the_day_back_has_its_start_asked(graph_driver, store, said, asked):
    trip = tool_call("runWorkFlow", {"processKey": "process_chuchai", "reason": "x", "nextUserId": "王五",
                                     "fields": {"destination": "苏州", "startDate": "2027-01-26", "endDate": "2027-01-26"}})
    agent = graph_driver(trip, "OK.")
    result = agent.say(said)
    assert asked in str(result["messages"][-1].content).lower() and agent.actions == []
    assert store.snapshot()["requests"] == []


@pytest.mark.parametrize("said", [
    "26号去苏州出差一天，见客户，王五审批", "A one-day trip to Suzhou on the 26th to see a supplier, Wang Wu approves",
])
def test_a_trip_of_one_day_said_on_its_one_date_is_that_day(graph_driver, said):
    trip = tool_call("runWorkFlow", {"processKey": "process_chuchai", "reason": "见客户", "nextUserId": "王五",
                                     "fields": {}})
    agent = graph_driver(trip, "OK.")
    agent.say(said)
    args, _ = waiting(agent)
    assert (args["fields"]["startDate"], args["fields"]["endDate"]) == ("2027-01-26", "2027-01-26")


def test_a_trip_on_its_one_date_said_is_that_day(graph_driver):
    trip = tool_call("runWorkFlow", {"processKey": "process_chuchai", "reason": "x", "nextUserId": "王五", "fields": {}})
    agent = graph_driver(trip, "OK.")
    agent.say("26号去苏州见客户，当天回，王五审批")
    args, _ = waiting(agent)
    assert (args["fields"]["startDate"], args["fields"]["endDate"]) == ("2027-01-26", "2027-01-26")


def test_a_question_after_a_past_trip_was_refused_is_answered_with_why(graph_driver):
    # the model says the refusal's words again to "can't a past one be filed?": they are still true, and kept (the
    # seventy-second round's run had them replaced by "nothing found; several steps failed")
    trip = tool_call("runWorkFlow", {"processKey": "process_chuchai", "reason": "参加展会", "nextUserId": "李四",
                                     "fields": {"destination": "广州", "startDate": "上周三", "endDate": "上周五"}})
    refused = "出发日期2027年1月6日已经过去了（今天是2027年1月15日），这个申请无法发起。"
    agent = graph_driver(trip, refused, user_id="user_4", fixed_answers=True)
    agent.say("补个出差单，上周三到上周五去了趟广州参加展会，李四批")
    answer = str(agent.say("那过去的出差就不能补了？")["messages"][-1].content)
    assert answer == refused


@pytest.mark.parametrize(("said", "copied", "reason"), [  # the eighty-third round's run; none of its words
    ("下周一想请一天事假，带孩子去打疫苗，王五审批", "带孩子去打疫苗，王五审批", "带孩子去打疫苗"),
    ("Personal leave next Monday, taking my son for his vaccine, Wang Wu approves", "taking my son for his vaccine, "
     "Wang Wu approves", "taking my son for his vaccine"),
])
def test_a_reason_copied_with_the_clause_naming_the_approver_is_the_why_alone(graph_driver, said, copied, reason):
    agent = graph_driver(tool_call("runWorkFlow", {"processKey": "process_qingjia", "reason": copied, "days": 1,
                                                   "nextUserId": "user_3", "fields": {"leaveType": "事假"}}), "OK")
    agent.say(said)
    args, _ = waiting(agent)
    assert args["reason"] == reason
