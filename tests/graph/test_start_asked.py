"""A message that asks a question and asks for the request to be filed as well gets both: the look-up, then the start
to its card (tools/workflow/start_asked.py). Read after the thirty-seventh round's run; phrasings written for the test."""

from __future__ import annotations

import pytest

from evals.doubles.scripted import tool_call


@pytest.mark.parametrize("said", [
    "Planning annual leave from next Wednesday to next Friday for a family trip - do I have enough left? If so just "
    "put it in, Li Si approves",
    "想下周三到周五请年假陪家人出去玩，年假还够吗？够的话就帮我提交，李四审批",
])
def test_a_start_asked_beside_a_question_is_proposed_after_the_look_up(graph_driver, store, said):
    agent = graph_driver(tool_call("getLeaveBalance", {}), "You have 10 days left.", user_id="user_1",
                         fixed_answers=True)
    agent.say(said)
    [card] = agent.actions
    assert card["name"] == "runWorkFlow" and card["args"]["processKey"] == "process_qingjia"
    assert card["args"]["fields"]["leaveType"] == "年假" and card["args"]["days"] == 3


def test_a_question_alone_files_nothing(graph_driver, store):
    agent = graph_driver(tool_call("getLeaveBalance", {}), "You have 10 days left.", user_id="user_1",
                         fixed_answers=True)
    agent.say("Do I have enough annual leave left for next Wednesday to Friday?")
    assert agent.actions == []
