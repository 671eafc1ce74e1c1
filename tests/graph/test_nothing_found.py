"""A question that asks for nothing the tools look up, where every look-up the model chose found nothing, is told that
it is not known here, before what was found ("what's the daily meal allowance on a trip?" had the requests copied to
the person looked up, and the answer told of those: the forty-first and forty-second rounds, read after their run).
None of these phrasings is from a scenario."""

from __future__ import annotations

import pytest

from evals.doubles.scripted import tool_call
from graph.prompts import NOT_KNOWN


@pytest.mark.parametrize(("said", "lookup", "lang"), [
    ("is there a dress code when I visit clients?", "queryCcRequests", "en"),
    ("what's the mileage rate if I drive my own car to a client?", "queryMyDeputies", "en"),
    ("办公室的无线网密码是多少？", "queryMyRequests", "zh"),  # 年会 is told by its own unknown now
])
def test_a_question_no_look_up_answers_is_told_not_known(graph_driver, said, lookup, lang):
    agent = graph_driver(tool_call(lookup, {"userId": "user_3"}), "There are no requests copied to you.", user_id="user_3",
                         fixed_answers=True)
    answer = str(agent.say(said)["messages"][-1].content)
    assert answer.startswith(NOT_KNOWN[lang]["alone"]), answer


@pytest.mark.parametrize(("said", "lookup"), [
    ("what's been copied to me lately?", "queryCcRequests"), ("我的申请都到哪一步了？", "queryMyRequests"),
    # the fiftieth round's writer's report: none found was told "I don't know" first (none of these is its words)
    ("do I have anybody covering for me while I'm off?", "queryMyDeputies"), ("我现在有代理人吗", "queryMyDeputies"),
    ("how many claims have I submitted so far?", "queryMyRequests"), ("我今年提过几个申请？", "queryMyRequests"),
])
def test_a_question_its_look_up_answers_is_answered_by_it_even_when_it_finds_nothing(graph_driver, said, lookup):
    agent = graph_driver(tool_call(lookup, {"userId": "user_3"}), "Nothing yet.", user_id="user_3", fixed_answers=True)
    answer = str(agent.say(said)["messages"][-1].content)
    assert not any(answer.startswith(text["alone"]) for text in NOT_KNOWN.values()), answer
