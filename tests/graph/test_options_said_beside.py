"""What a message names beside the request being filed is not that request's choice: a question about the person's
own earlier request ("…toner. And what happened to my taxi claim?") names no category of the new claim, and two claims
in one message each name their own ("吃饭花了860元，另外买打印纸花了320元"). Both were asked about "which category?"
(the thirty-third round's writer found them). One claim whose words imply two categories is still asked. Phrasings
written for these tests, none from a scenario."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage

from evals.doubles.scripted import tool_call
from tools import execute_call
from tools.workflow.toolset import TOOLSET


def claim(category: str, reason: str, amount: float) -> Any:
    return tool_call("runWorkFlow", {"processKey": "process_baoxiao", "reason": reason, "nextUserId": "王五",
                                     "fields": {"amount": amount, "category": category}})


def test_a_question_about_an_earlier_claim_names_no_category_of_the_new_one(graph_driver, store, make_ctx):
    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "userId": "user_1", "reason": "taxi to the airport",
                                          "nextUserId": "user_2", "fields": {"amount": 88, "category": "差旅"}},
                 make_ctx("user_1"))
    agent = graph_driver(claim("办公", "printer paper", 45), "模型不会再被问。", user_id="user_1", fixed_answers=True)
    agent.say("Please claim 45 yuan for printer paper, Wang Wu approves. Also, what happened to my taxi claim?")
    [card] = agent.actions
    assert card["args"]["fields"]["category"] == "办公"
    result = agent.approve()
    answer = str(result["messages"][-1].content)
    assert isinstance(result["messages"][-1], AIMessage) and "req_2" in answer
    assert "taxi to the airport" in answer  # the earlier claim, looked up as asked, with no model call
    assert len(agent.model.prompts) == 1


def test_two_claims_in_one_message_each_name_their_category(graph_driver, store):
    agent = graph_driver(claim("餐饮", "周二请供应商吃饭", 860), "好的", user_id="user_1")
    agent.say("两笔报销：周二请供应商吃饭花了860元，另外买打印纸花了320元，王五审批")
    [card] = agent.actions
    assert card["args"]["fields"] == {"amount": 860.0, "category": "餐饮"}


def test_one_claim_whose_words_imply_two_categories_is_still_asked(graph_driver, store):
    agent = graph_driver(claim("餐饮", "聚餐打车", 120), "好的", user_id="user_1")
    result = agent.say("报销聚餐打车的钱，一共120元，王五审批")
    assert agent.actions == [] and "类别" in str(result["messages"][-1].content)
