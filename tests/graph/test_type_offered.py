"""A leave type the company does not have (陪产假, "paternity leave") is told as such, with the types there are: its
balance is not answered with the person's annual leave (the fifty-ninth round's run: "陪产假可以休 5 天", a figure of
something else), and a leave asked for as one is not filed as personal leave, the default, as if no type were said.
Phrasings written for these tests, none from a scenario; the graph's clock reads Friday 2027-01-15."""

from __future__ import annotations

import re

import pytest

from evals.doubles.scripted import tool_call

_DIGIT = re.compile(r"\d")


@pytest.mark.parametrize(("said", "named"), [
    ("我爱人快生了，陪产假一共给几天？", "陪产假"),
    ("休完产假回来，育儿假还能休多少天", "育儿假"),
    ("How much maternity leave would my wife's colleague... no, would I be entitled to here?", "maternity leave"),
    ("Do we get any parental leave when the baby arrives? How many days?", "parental leave"),
])
def test_a_balance_of_a_type_not_offered_is_told_so(graph_driver, said, named):
    agent = graph_driver(tool_call("getLeaveBalance", {}), "你有 5 天。", user_id="user_2")
    answer = str(agent.say(said)["messages"][-1].content)
    assert named in answer and not _DIGIT.search(answer)
    assert ("年假" in answer) != ("annual leave" in answer)  # the types there are, in their language
    assert [m.name for m in agent.values["messages"] if m.type == "tool"] == ["getLeaveBalance"]


@pytest.mark.parametrize("said", ["产假早就休完了，我今年年假还剩几天？",
                                  "Back from paternity leave - how much annual leave have I got left?"])
def test_a_type_of_ours_named_beside_it_is_answered(graph_driver, said):
    agent = graph_driver(tool_call("getLeaveBalance", {}), "OK", user_id="user_2", fixed_answers=True)
    answer = str(agent.say(said)["messages"][-1].content)
    assert "annual leave: 5 days left" in answer or "年假剩余 5 天" in answer  # the seed's, for Li Si


@pytest.mark.parametrize(("said", "named"), [
    ("下周一开始请5天陪产假，李四审批", "陪产假"),
    ("I'd like three days of paternity leave from next Monday, Li Si approves", "paternity leave"),
])
def test_a_leave_asked_as_a_type_not_offered_is_asked_which(graph_driver, said, named):
    call = tool_call("runWorkFlow", {"processKey": "process_qingjia", "reason": "baby", "days": 3, "nextUserId": "李四",
                                     "fields": {"leaveType": "事假", "startDate": "下周一"}})
    agent = graph_driver(call, "好", user_id="user_1")
    answer = str(agent.say(said)["messages"][-1].content)
    assert named in answer and ("事假" in answer or "personal leave" in answer) and agent.actions == []
