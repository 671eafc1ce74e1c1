"""What no tool knows, asked about, is said to be unknown before what the look-ups found: payments, salaries and
bonuses (the workflow ends at a decision). Phrasings written for these tests after the rule (the sixteenth round's
"when will the money land in my bank account?", read); none from a scenario."""

from __future__ import annotations

import pytest

from evals.doubles.scripted import tool_call
from tools.workflow import TOOLSET


@pytest.mark.parametrize(("text", "unknown"), [
    ("我的打车报销批了，钱啥时候到账？", True),
    ("年终奖什么时候发？", True),
    ("When do I get reimbursed for the hotel?", True),
    ("how soon does the refund show up in my account?", True),
    ("what's Li Si's salary?", True),
    ("我的报销到哪一步了", False),
    ("When does finance see a claim?", False),
    ("how much annual leave do I have left?", False),
    ("When was my claim approved?", False),
    ("报销多少钱以上要财务审批？", False),
    ("出差去上海一天餐补是多少？", True),
    ("What's the per diem for a trip to Shenzhen?", True),
    ("how much can I spend a night on a hotel?", True),
    ("How much annual leave can I take per year?", False),
])
def test_questions_of_payments_and_pay_are_of_what_no_tool_knows(text, unknown):
    assert (TOOLSET.language.unknown(text, "en") is not None) is unknown


@pytest.mark.parametrize(("said", "told"), [
    ("My hotel claim got approved, so when does the money hit my account?", "I don't know when money is paid out"),
    ("报销批下来了，钱大概几号到账？", "不知道"),
])
def test_a_question_of_a_payment_is_told_it_is_unknown_then_what_was_found(graph_driver, make_ctx, said, told):
    from tools import execute_call

    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "userId": "user_1", "reason": "hotel",
                                          "nextUserId": "user_2", "fields": {"amount": 600, "category": "差旅"}},
                 make_ctx("user_1"))
    agent = graph_driver(tool_call("queryMyRequests", {}), "never asked", fixed_answers=True)
    answer = str(agent.say(said)["messages"][-1].content)
    assert answer.startswith(told) or told in answer.split("\n")[0]
    assert "req_1" in answer  # what the look-up found follows
