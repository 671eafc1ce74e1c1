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


def test_dates_of_a_new_request_are_not_those_of_the_one_asked_about_before(graph_driver, make_ctx):
    # the fifty-sixth round's run, none of its words: Monday and Tuesday asked about, then Wednesday and Thursday
    # filed; all four dates were read as the new leave's, and it was filed with none
    from tools import execute_call
    from tools.workflow import TOOLSET

    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_qingjia", "userId": "user_1", "reason": "a wedding",
                                          "days": 2, "nextUserId": "user_2", "fields": {"leaveType": "年假",
                                          "startDate": "2027-01-18", "endDate": "2027-01-19"}}, make_ctx("user_1"))
    execute_call(TOOLSET, "handleTodoTask", {"taskId": "task_1", "isOK": False, "result": "release week"},
                 make_ctx("user_2"))
    agent = graph_driver(tool_call("queryMyRequests", {}), user_id="user_1", fixed_answers=True)
    agent.say("Did my leave for next Monday and Tuesday get turned down?")
    agent.script(tool_call("runWorkFlow", {"processKey": "process_qingjia", "reason": "a wedding", "days": 2,
                                           "fields": {"leaveType": "年假"}}), "OK")
    agent.say("Then file next Wednesday and Thursday instead, 2 days of annual leave for a wedding.")
    agent.say("Li Si")
    [card] = agent.actions
    fields = card["args"]["fields"]
    assert (fields["startDate"], fields["endDate"], card["args"]["nextUserId"]) == ("2027-01-20", "2027-01-21", "user_2")
