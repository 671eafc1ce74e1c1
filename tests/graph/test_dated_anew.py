"""A leave said again with other dates, after its card was declined or it was refused, is filed with the dates said
last ("那就先请2天病假，下周一和下周二" after Monday to Wednesday; "a full day next Tuesday" after its afternoon): the
earlier message's dates had been kept, and the request refused as its days not matching them (the fifty-seventh
round's writer; none of its words). Through the real graph with a scripted model; the graph's clock reads Friday
2027-01-15, so next week's Monday is the 18th."""

from __future__ import annotations

from evals.doubles.scripted import tool_call


def _leave(days: float, start: str, end: str, kind: str = "事假", **fields: str) -> object:
    return tool_call("runWorkFlow", {"processKey": "process_qingjia", "reason": "家里有事", "days": days,
                                     "nextUserId": "李四", "fields": {"leaveType": kind, "startDate": start,
                                                                    "endDate": end, **fields}})


def test_dates_said_again_after_a_declined_card_are_the_ones_filed(graph_driver):
    agent = graph_driver(_leave(3, "下周一", "下周三"), "好的", user_id="user_1")
    agent.say("下周一到周三请3天事假，家里有事，李四批")
    assert agent.actions[0]["args"]["fields"]["startDate"] == "2027-01-18"
    agent.resume({"decisions": [{"type": "reject", "message": "太长了"}]})
    agent.script(_leave(2, "下周一", "下周二"), "好的")
    agent.say("那就先请2天事假吧，下周一和下周二，还是李四批")
    [card] = agent.actions
    fields = card["args"]["fields"]
    assert (fields["startDate"], fields["endDate"], card["args"]["days"]) == ("2027-01-18", "2027-01-19", 2)


def test_a_whole_day_said_after_its_afternoon_is_a_whole_day(graph_driver):
    agent = graph_driver(_leave(0.5, "next Tuesday", "next Tuesday", startHalf="下午"), "OK", user_id="user_1")
    agent.say("half a day off next Tuesday afternoon for a family matter, Li Si approves")
    assert agent.actions[0]["args"]["fields"].get("startHalf") == "下午"
    agent.resume({"decisions": [{"type": "reject", "message": "wait"}]})
    agent.script(_leave(1, "next Tuesday", "next Tuesday"), "OK")
    agent.say("actually make it a full day next Tuesday, Li Si approves")
    [card] = agent.actions
    fields = card["args"]["fields"]
    assert (fields["startDate"], fields["endDate"], card["args"]["days"]) == ("2027-01-19", "2027-01-19", 1)
    assert not fields.get("startHalf") and not fields.get("endHalf")
