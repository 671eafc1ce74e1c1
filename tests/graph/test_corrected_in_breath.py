"""A number the person takes back in the same message is filed as the one after it, whatever the model chose: "320
yuan, no wait, 350" had been filed as 320, the code's reading put over the model's right value and shown as the
person's words (the thirty-first round's writer's report). Phrasings written for these tests."""

from __future__ import annotations

import pytest

from evals.doubles.scripted import tool_call


@pytest.mark.parametrize(("said", "model", "filed"), [
    ("Claim the client lunch, 420 yuan, no wait, 460, meals, Li Si approves", 460, 460),
    ("报销客户午餐420元，哦不对，是460，餐饮，李四审批", 420, 460),
    ("taxi to the airport 96 RMB - sorry, I mean 69. Travel, Li Si signs off", 96, 69),
])
def test_the_number_after_a_correction_is_filed(graph_driver, said, model, filed):
    call = tool_call("runWorkFlow", {"processKey": "process_baoxiao", "reason": "客户午餐", "nextUserId": "李四",
                                     "fields": {"amount": model}})
    agent = graph_driver(call, "done.", fixed_answers=True)
    agent.say(said)
    [action] = agent.actions
    assert action["args"]["fields"]["amount"] == filed
