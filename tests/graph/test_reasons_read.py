"""The reason read from the person's words when the model leaves it out is the part that says why (through the real
graph with a scripted model; phrasings written for these tests, none from the evaluation sets):
- a terse leave's type and length named anywhere in a clause ("annual leave" too), a dash or brackets around why, and
  a word that implies the type (发烧, "flu") are no hindrance;
- greetings, pleasantries, polite frames and a closing with its signature are left out (`tools.courtesy`), and "take
  [two days of annual leave] to …" starts after what it takes. Before, "I hope this finds you well, …, Kind regards,
  Zhang San" was filed as the reason (the thirtieth round's writer's report); and a greeting is no half day."""

from __future__ import annotations

import pytest

from evals.doubles.scripted import tool_call


@pytest.mark.parametrize(("said", "reason"), [
    # terse
    ("俩天事假 搬家，李四批", "搬家"),
    ("调休一天 孩子开家长会 李四审批", "孩子开家长会"),
    ("两天病假 发烧了 李四批", "发烧"),
    ("明天请一天病假，感冒，李四", "感冒"),
    ("请2天事假（装修验收），李四审批", "装修验收"),
    ("2 days annual leave, family wedding, Li Si approves", "family wedding"),
    ("sick leave 2 days - flu, li si to approve", "flu"),
    ("Personal leave, 2 days (moving flats). Li Si approves", "moving flats"),
    # courteous (the thirtieth round's writer's report)
    ("王经理您好，不好意思又来打扰您了。下周一、周二想请两天事假，去办理房产过户，审批人李四。谢谢！张三",
     "去办理房产过户"),
    ("您好！烦请帮我提交两天年假（下周一至周二），孩子幼儿园毕业典礼，李四审批，多谢", "孩子幼儿园毕业典礼"),
    ("下午好，劳驾提个事假两天，下周一周二，老家房子漏水要回去修，顺便，李四审批", "老家房子漏水要回去修"),
    ("Dear assistant, I hope all is well with you. Would it be possible to take two days of personal leave next Monday "
     "and Tuesday to sit my driving test? Li Si approves. Best regards, Zhang San", "to sit my driving test"),
    ("Hello there, sorry to trouble you. I was wondering whether I could have next Monday and Tuesday off as personal "
     "leave; my passport needs renewing in person. Li Si would approve. Many thanks, Zhang San",
     "my passport needs renewing in person"),
])
def test_the_reason_is_what_says_why(graph_driver, said, reason):
    call = tool_call("runWorkFlow", {"processKey": "process_qingjia", "reason": "", "nextUserId": "李四", "days": 2,
                                     "fields": {}})
    agent = graph_driver(call, "done.", fixed_answers=True)
    agent.say(said)
    [action] = agent.actions
    assert action["args"]["reason"] == reason


@pytest.mark.parametrize("said", [
    "下午好，劳驾提个事假两天，下周一周二，老家房子漏水要回去修，李四审批",
    "早上好！下周一到周二请两天事假，陪老人复查，李四审批",
    "Good afternoon! Two days of personal leave next Monday and Tuesday please, to take my mother to a check-up. "
    "Li Si approves",
])
def test_a_greeting_is_no_half_day(graph_driver, said):
    call = tool_call("runWorkFlow", {"processKey": "process_qingjia", "reason": "", "nextUserId": "李四", "days": 2,
                                     "fields": {}})
    agent = graph_driver(call, "done.", fixed_answers=True)
    agent.say(said)
    [action] = agent.actions
    assert action["args"]["days"] == 2
    assert not action["args"]["fields"].get("startHalf") and not action["args"]["fields"].get("endHalf")
