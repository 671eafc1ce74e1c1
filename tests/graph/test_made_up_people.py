"""A person the model made up for a value the person named nobody for (a deputy called "Deputy", an approver called
"经理") is asked for, with the people to choose from, as a colleague the model chose is; a name the person wrote
themselves that nobody has is still told as unknown. Through the real graph with a scripted model; phrasings written
for these tests, none from the evaluation sets."""

from __future__ import annotations

import pytest

from evals.doubles.scripted import tool_call


def _deputy(who: str):
    return tool_call("setDeputy", {"deputyUserId": who, "startDate": "2027-01-18", "endDate": "2027-01-20"})


def _leave(approver: str):
    return tool_call("runWorkFlow", {"processKey": "process_qingjia", "reason": "家里有事", "nextUserId": approver,
                                     "days": 1, "fields": {"startDate": "2027-01-18", "endDate": "2027-01-18"}})


@pytest.mark.parametrize(("call", "said", "asked"), [
    (_deputy("Deputy"), "Out of office Jan 18 through 20 — please put a deputy on my approvals", "Who should decide"),
    (_deputy("代理人"), "1月18号到20号我不在，审批找个人替我", "由谁代你审批"),
    (_deputy("My Backup"), "I'm travelling the 18th to the 20th of January, someone needs to cover my sign-offs",
     "Who should decide"),
    (_leave("经理"), "1月18号请一天事假，家里有事", "谁来审批"),
    (_leave("Manager"), "Need Jan 18 off for a family thing, personal leave", "approve"),
])
def test_a_person_the_model_made_up_is_asked_for(graph_driver, store, call, said, asked):
    agent = graph_driver(call, "done.", fixed_answers=True)
    agent.say(said)
    assert agent.actions == []
    answer = str(agent.values["messages"][-1].content)
    assert asked in answer
    assert "Li Si" in answer or "李四" in answer  # the people to choose from
    assert store.snapshot()["requests"] == []


@pytest.mark.parametrize("said", ["让小明1月18号到20号替我审批", "Make Bob my deputy from Jan 18 to Jan 20"])
def test_a_name_the_person_wrote_that_nobody_has_is_told_as_unknown(graph_driver, said):
    who = "小明" if "小明" in said else "Bob"
    agent = graph_driver(_deputy(who), "done.", fixed_answers=True)
    agent.say(said)
    assert agent.actions == []
    assert "unknown_user" in str(agent.values["messages"][-2].content)
