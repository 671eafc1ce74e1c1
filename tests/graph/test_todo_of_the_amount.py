"""Of two to-dos from one requester, the one the deciding sentence names by its amount is decided, even where the
message names the other's amount too ("张三那笔一千二的报销驳回吧…¥2,350那笔我再看看"; the seventy-third round's run asked
which, or answered a batch refusal with nonsense). Phrasings written for these tests, none from the evaluation sets."""

from __future__ import annotations

import pytest

from evals.doubles.scripted import tool_call
from tools import execute_call
from tools.workflow import TOOLSET


def _two_claims(make_ctx):
    for amount, reason in ((960, "打印机墨盒"), (4180, "去成都的机票")):
        execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "userId": "user_1", "reason": reason,
                                              "nextUserId": "user_2", "fields": {"amount": amount, "category": "办公"}},
                     make_ctx("user_1"))


@pytest.mark.parametrize(("said", "call", "task"), [
    ("张三那笔九百六的先驳回，墨盒型号买错了。四千一百八那笔我晚点再看",
     {"taskId": "张三", "isOK": False, "result": "墨盒型号买错了"}, "task_1"),
    ("Approve Zhang San's 4,180 one, the flight is fine. Leave the 960 claim for now.",
     {"taskId": "Zhang San", "isOK": True, "result": "the flight is fine"}, "task_2"),
])
def test_the_amount_in_the_deciding_sentence_picks_the_to_do(graph_driver, make_ctx, said, call, task):
    _two_claims(make_ctx)
    agent = graph_driver(tool_call("handleTodoTask", call), "ok", user_id="user_2", fixed_answers=True)
    agent.say(said)
    [action] = agent.actions
    assert action["args"]["taskId"] == task


def test_a_batch_proposed_for_one_to_do_named_by_amount_names_that_one(graph_driver, make_ctx):
    _two_claims(make_ctx)
    batch = tool_call("decideTasks", {"isOK": True, "processKey": "process_baoxiao", "maxDays": 1})
    agent = graph_driver(batch, "ok", user_id="user_2", fixed_answers=True)
    agent.say("Approve Zhang San's 4,180 one, comment: flight is fine. Hold the other.")
    refused = [str(m.content) for m in agent.messages if getattr(m, "status", "") == "error"]
    assert refused and "task_2" in refused[0]
