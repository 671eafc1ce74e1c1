"""A requester whose request came back, asking to "update my Shenzhen trip to those dates and send it back to Li Si"
(把日期改一下再发给李四), resends it: the model had called the approver's return on their own request, was sent to look
it up, and then said it was updated and sent when nothing was (the fifty-sixth round's run; none of its words).
Through the real graph with a scripted model; the graph's clock reads Friday 2027-01-15."""

from __future__ import annotations

import pytest

from evals.doubles.scripted import tool_call
from tools import execute_call
from tools.workflow import TOOLSET
from tools.workflow.resubmit import RESEND


@pytest.mark.parametrize("said", [
    "Li Si sent my Hangzhou trip back. Update it to next Wednesday through Thursday and send it back to Li Si please",
    "杭州那个出差李四退回来了，日期改成下周三到周四再发给李四",
])
def test_update_and_send_it_back_is_a_resend(graph_driver, store, make_ctx, said):
    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_chuchai", "userId": "user_1", "reason": "客户会议",
                                          "nextUserId": "user_2", "fields": {"destination": "杭州",
                                          "startDate": "2027-01-18", "endDate": "2027-01-19"}}, make_ctx("user_1"))
    execute_call(TOOLSET, "returnTask", {"taskId": "task_1", "comment": "会议改期了，日期再确认一下"}, make_ctx("user_2"))
    agent = graph_driver(tool_call("returnTask", {"taskId": "Hangzhou trip", "comment": "new dates"}), "Done.",
                         user_id="user_1", fixed_answers=True)
    agent.say(said)
    [action] = agent.actions
    assert action["name"] == "resubmitRequest" and action["args"]["requestId"] == "req_1"
    fields = action["args"]["fields"]
    assert (fields["startDate"], fields["endDate"]) == ("2027-01-20", "2027-01-21")


def test_an_approvers_send_back_to_the_requester_is_no_resend():
    assert not RESEND.search("Return it, send it back to the requester for the receipts")
    assert not RESEND.search("退回给张三，让他补发票")


@pytest.mark.parametrize("said", [  # the sixtieth round's run: the blank reason was refused as "must not be empty"
    "I dropped the hotel invoice off with Li Si just now. Resend it unchanged, note: invoice delivered by hand",
    "发票已经当面交给李四了，原样再提交一次，备注：发票已当面交",
])
def test_a_blank_reason_and_no_days_beside_a_resend_change_nothing(graph_driver, make_ctx, said):
    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "userId": "user_1", "reason": "hotel in Hangzhou",
                                          "nextUserId": "user_2", "fields": {"amount": 880, "category": "差旅"}},
                 make_ctx("user_1"))
    execute_call(TOOLSET, "returnTask", {"taskId": "task_1", "comment": "invoice please"}, make_ctx("user_2"))
    call = tool_call("resubmitRequest", {"requestId": "req_1", "days": 0, "reason": " ", "fields": {}, "note": "by hand"})
    agent = graph_driver(call, "Done.", user_id="user_1")
    agent.say(said)
    [action] = agent.actions
    assert action["name"] == "resubmitRequest" and "reason" not in action["args"] and "days" not in action["args"]
