"""A person named only as away ("李四这两周都在外地", "Li Si is off this week") is no approver: the claim the sixty-third
round's writer refiled was carded for the colleague they said was away. Phrasings written for these tests, none from
a scenario."""

from __future__ import annotations

import pytest

from evals.doubles.scripted import tool_call


@pytest.mark.parametrize("said", [
    "王五这周都出差了，这笔重新报一下：480元，买会议室白板，办公类",
    "Wang Wu is away all week, so file it again: 480 yuan for a whiteboard, office supplies",
])
def test_a_person_named_only_as_away_is_asked_about_not_filed_as_approver(graph_driver, said):
    call = tool_call("runWorkFlow", {"processKey": "process_baoxiao", "reason": "whiteboard",
                                     "fields": {"amount": 480, "category": "办公"}})
    agent = graph_driver(call, "OK", user_id="user_1")
    answer = str(agent.say(said)["messages"][-1].content)
    assert agent.actions == [] and ("谁" in answer or "Who" in answer)


@pytest.mark.parametrize("said", [
    "王五这周不在，让赵六审批吧：480元，买白板，办公类",
    "Wang Wu is away, Zhao Liu approves: 480 yuan for a whiteboard, office supplies",
])
def test_the_one_named_as_approver_beside_one_away_is_the_approver(graph_driver, said):
    call = tool_call("runWorkFlow", {"processKey": "process_baoxiao", "reason": "whiteboard",
                                     "fields": {"amount": 480, "category": "办公"}})
    agent = graph_driver(call, "OK", user_id="user_1")
    agent.say(said)
    [card] = agent.actions
    assert card["args"]["nextUserId"] == "user_4"


@pytest.mark.parametrize("said", [  # the eighty-second round's writer: the travel companion was filed as approver
    "下周三到周五和李四一起去杭州见供应商，帮我走个出差",
    "Flying to Chengdu with Li Si next Wednesday to Friday for the audit, put the trip in for me",
    "王五说这笔可以报：480元，买会议室白板，办公类",  # who told them, no approver
    "Li Si covers my desk while I'm out next Monday, one day of annual leave for a family matter please",
])
def test_a_person_named_in_passing_is_asked_about_not_filed_as_approver(graph_driver, said):
    calls = {"下": ("process_chuchai", {}), "F": ("process_chuchai", {}), "王": ("process_baoxiao", {"amount": 480,
             "category": "办公"}), "L": ("process_qingjia", {"leaveType": "年假"})}
    key, fields = calls[said[0]]
    agent = graph_driver(tool_call("runWorkFlow", {"processKey": key, "reason": "x", "fields": fields}), "OK",
                         user_id="user_1")
    agent.say(said)
    assert all(a["args"].get("nextUserId") not in ("user_2", "user_3") for a in agent.actions)


@pytest.mark.parametrize("said", ["下周三到周五和李四一起去杭州见供应商，王五审批",
                                  "Flying to Chengdu with Li Si next Wednesday, back Friday, for the audit; Wang Wu approves"])
def test_the_approver_named_beside_a_companion_is_the_approver(graph_driver, said):
    agent = graph_driver(tool_call("runWorkFlow", {"processKey": "process_chuchai", "reason": "x", "fields": {}}), "OK",
                         user_id="user_1")
    agent.say(said)
    [action] = agent.actions
    assert action["args"]["nextUserId"] == "user_3"


@pytest.mark.parametrize(("said", "text"), [  # the eighty-second round's writer; none of its words
    ("赵六说李四这几天在深圳出差，帮我给李四发封邮件，内容是：样品明天到，请安排人签收。", "样品明天到，请安排人签收。"),
    ("Zhao Liu mentioned Li Si is travelling, so e-mail Li Si for me, content: samples arrive tomorrow.",
     "samples arrive tomorrow."),
    ("给李四发邮件，内容：赵六那边的样品明天到", "赵六那边的样品明天到"),
])
def test_an_emails_recipient_is_not_one_who_told_them_nor_one_in_its_text(graph_driver, said, text):
    agent = graph_driver(tool_call("sendEmail", {"userId": "李四" if said[0] > "z" else "Li Si", "emailContent": text}),
                         "OK", user_id="user_1")
    agent.say(said)
    [action] = agent.actions
    assert action["args"]["userId"] == "user_2"
