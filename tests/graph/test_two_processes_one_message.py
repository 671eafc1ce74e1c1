"""One message that asks for two requests of two processes has both filed, each read from its own part: the leave's
reason is the leave's words, and the claim is proposed once the leave is filed, to its own card, its values from its
own sentence (read after the thirty-third round's run: the claim was dropped and its words joined the leave's reason).
Phrasings written for these tests, none from a scenario."""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage

from evals.doubles.scripted import tool_call


@pytest.mark.parametrize(("said", "leave_reason", "amount", "category"), [
    ("Sprained my ankle at football, so one day of sick leave tomorrow please, Li Si approves. Also claim the 64 yuan "
     "taxi to the hospital, Li Si signs that too.", "Sprained my ankle at football", 64.0, "差旅"),
    ("明天请一天病假，昨晚崴了脚，李四批。另外把去医院的打车费64元也报销了，也是李四批。", "昨晚崴了脚", 64.0, "差旅"),
])
def test_a_leave_and_a_claim_in_one_message_are_both_filed_each_from_its_own_words(graph_driver, store, said,
                                                                                  leave_reason, amount, category):
    agent = graph_driver(tool_call("runWorkFlow", {"processKey": "process_qingjia", "reason": "ankle injury", "days": 1,
                                                   "nextUserId": "李四", "fields": {"leaveType": "病假"}}),
                         "模型不会再被问。", user_id="user_1", fixed_answers=True)
    agent.say(said)
    [leave] = agent.actions
    assert leave["args"]["reason"] == leave_reason
    agent.approve()
    [claim] = agent.actions
    assert claim["name"] == "runWorkFlow" and claim["args"]["processKey"] == "process_baoxiao"
    assert claim["args"]["fields"] == {"amount": amount, "category": category}
    assert claim["args"]["nextUserId"] == "user_2"
    result = agent.approve()
    assert isinstance(result["messages"][-1], AIMessage) and len(agent.model.prompts) == 1
    assert [r["process_key"] for r in store.snapshot()["requests"]] == ["process_qingjia", "process_baoxiao"]


def test_a_sentence_that_names_two_processes_is_read_whole_and_nothing_more_is_proposed(graph_driver, store):
    agent = graph_driver(tool_call("runWorkFlow", {"processKey": "process_qingjia", "reason": "看病", "days": 1,
                                                   "nextUserId": "李四", "fields": {"leaveType": "病假"}}),
                         "模型不会再被问。", user_id="user_1", fixed_answers=True)
    agent.say("明天请一天病假去看病，看病的钱回头再报销，李四批")
    agent.approve()
    assert agent.actions == [] and len(store.snapshot()["requests"]) == 1
