"""The seeds' other agents on the same graph: the toy and travel toolsets, their transcripts, and the guards.

The nodes know no domain: the toolset brings its prompt, tools, default protocol and whether one look-up
answers a question; the graph's clock and the run's time zone give the tools today's date.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from langchain_core.messages import BaseMessage, SystemMessage, ToolMessage

from evals.doubles.scripted import ScriptedChatModel, tool_call
from graph import build_graph
from state import Context
from tools.toolsets import get_toolset, toolset_names
from tools.toy.prompts import TOY_PROMPT
from tools.travel.prompts import TRAVEL_PROMPT
from tools.workflow import WORKFLOW_PROMPT

SEED_TOY_QUESTION = "北京今天适合穿短袖吗？"
SEED_TRAVEL_QUESTION = "帮我看看下周五从北京到上海的机票，顺便看看有没有便宜的酒店"


def step(thought: str, action: str, **args: Any) -> str:
    """A reply in the seed's JSON protocol proposing one action."""
    return json.dumps({"thought": thought, "action": action, "action_input": args}, ensure_ascii=False)


def final(thought: str, answer: str) -> str:
    return json.dumps({"thought": thought, "final": answer}, ensure_ascii=False)


def answer_after(expected: list[str], reply: Any) -> Any:
    """A scripted reply (text or a tool call) that first checks the last observation the model read holds every
    expected text."""

    def check(messages: list[BaseMessage]) -> Any:
        texts = [str(m.content) for m in messages if isinstance(m, ToolMessage)] or [str(messages[-1].content)]
        for text in expected:
            assert text in texts[-1], texts[-1]
        return reply

    return check


def system_text(prompt: list[BaseMessage]) -> str:
    return "\n".join(str(m.content) for m in prompt if isinstance(m, SystemMessage))


def observations(messages: list[BaseMessage]) -> list[ToolMessage]:
    return [m for m in messages if isinstance(m, ToolMessage)]


def test_toy_seed_transcript_replays_in_the_json_protocol(graph_driver):
    toy = graph_driver(
        step("需要先查北京今天的天气", "get_weather", city="北京"),
        answer_after(['"condition":"晴"', '"temperature_c":29'],
                     final("29°C 高于 26°C", "北京今天晴，气温 29°C。29°C 高于 26°C，适合穿短袖。")),
        toolset="toy", protocol="json",
    )
    result = toy.say(SEED_TOY_QUESTION)
    [weather] = observations(result["messages"])
    assert (weather.name, weather.status, weather.artifact["temperature_c"]) == ("get_weather", "success", 29)
    assert result["messages"][-1].content == "北京今天晴，气温 29°C。29°C 高于 26°C，适合穿短袖。"
    first_prompt = system_text(toy.model.prompts[0])
    assert first_prompt.startswith(TOY_PROMPT)
    assert '"action": "one of [get_weather, calculator]"' in first_prompt
    assert "leave-approval" not in first_prompt and "runWorkFlow" not in first_prompt
    assert toy.script_used_up


def test_travel_seed_transcript_resolves_next_friday_from_the_runs_clock(graph_driver):
    travel = graph_driver(
        tool_call("search_flights", {"origin": "北京", "destination": "上海", "date": "下周五"}, id="flights"),
        answer_after(['"date":"2027-01-22"', "HO1252", '"total":50'],
                     tool_call("search_hotels", {"city": "上海", "check_in": "下周五"}, id="hotels")),
        answer_after(['"check_in":"2027-01-22"'], "下周五（1月22日）北京飞上海最便宜的是 HO1252 680元，"
                     "其次 MU5108 780元、CA1501 950元；上海最便宜的酒店是如家酒店（上海静安区店），200元一晚。"),
        toolset="travel",
    )
    result = travel.say(SEED_TRAVEL_QUESTION)  # the ManualClock's today: Friday 2027-01-15 in Asia/Shanghai
    flights, hotels = observations(result["messages"])
    assert flights.artifact["date"] == "2027-01-22" and flights.artifact["total"] == 50
    assert [(f["flight"], f["price"]) for f in flights.artifact["flights"][:3]] == [
        ("HO1252", 680), ("MU5108", 780), ("CA1501", 950)
    ]
    assert len(flights.artifact["flights"]) == 5
    assert hotels.artifact["check_in"] == "2027-01-22" and hotels.artifact["nights"] == 1
    assert "HO1252 680元" in result["messages"][-1].content
    prompt = system_text(travel.model.prompts[0])
    assert prompt.startswith(TRAVEL_PROMPT) and "Today is 2027-01-15 Friday (Asia/Shanghai)" in prompt


def test_tools_count_days_in_the_runs_time_zone(graph_driver):
    travel = graph_driver(
        tool_call("search_hotels", {"city": "上海", "check_in": "明天"}, id="la"), "ok",
        toolset="travel", timezone="America/Los_Angeles",
    )
    travel.clock.advance(12 * 3600)  # Saturday 04:00 in Shanghai, still Friday noon in Los Angeles
    result = travel.say("明天上海的酒店")
    assert observations(result["messages"])[0].artifact["check_in"] == "2027-01-16"


def test_a_past_date_is_a_readable_observation(graph_driver):
    travel = graph_driver(
        tool_call("search_flights", {"origin": "北京", "destination": "上海", "date": "2027-01-01"}, id="past"),
        answer_after(["[past_date]", "today is 2027-01-15"], "这个日期已经过去了，请换一个日期。"),
        toolset="travel",
    )
    result = travel.say("1月1日北京到上海的机票")
    [refused] = observations(result["messages"])
    assert refused.status == "error"


def test_an_unknown_tool_is_refused_with_the_toolsets_tools(graph_driver):
    travel = graph_driver(
        tool_call("book_hotel", {"name": "测试客栈"}, id="book"),
        answer_after(["use one of: search_flights, search_hotels, get_weather"], "我不能预订酒店。"),
        toolset="travel",
    )
    result = travel.say("帮我订三亚的测试客栈")
    [refused] = observations(result["messages"])
    assert refused.status == "error"
    assert refused.content == (
        "Error [unknown_tool]: book_hotel is not a valid tool; use one of: search_flights, search_hotels, get_weather."
    )


def test_calculator_code_is_refused_not_run(graph_driver):
    toy = graph_driver(
        step("compute", "calculator", expression="__import__('os').system('id')"),
        answer_after(["[calc_not_allowed]", "A function call is not allowed"], final("不行", "只能计算数字表达式。")),
        toolset="toy", protocol="json",
    )
    result = toy.say("算一下 __import__('os').system('id')")
    [refused] = observations(result["messages"])
    assert refused.status == "error" and "result" not in (refused.artifact or {})


def test_a_toolset_whose_questions_need_several_look_ups_is_not_cut_short_for_a_small_model(graph_driver):
    # fixed_answers (the offline model): the workflow stops after one look-up; travel goes on to the hotels.
    travel = graph_driver(
        tool_call("search_flights", {"origin": "北京", "destination": "上海", "date": "明天"}, id="f"),
        tool_call("search_hotels", {"city": "上海", "check_in": "明天"}, id="h"),
        "明天最便宜的航班是 HO1252，酒店是如家酒店。",
        toolset="travel", fixed_answers=True,
    )
    result = travel.say(SEED_TRAVEL_QUESTION)
    assert [m.name for m in observations(result["messages"])] == ["search_flights", "search_hotels"]
    assert result["messages"][-1].content.startswith("明天最便宜的航班是 HO1252")
    assert travel.script_used_up


def test_capabilities_are_answered_from_the_toolset(graph_driver):
    toy = graph_driver(toolset="toy")
    assert "天气" in toy.say("你能做什么？")["messages"][-1].content
    assert toy.model.prompts == []


def test_each_toolset_builds_a_graph_named_for_it(store):
    names = {name: build_graph(model=ScriptedChatModel(), store=store, toolset=name).name for name in toolset_names()}
    assert names == {"workflow": "flowagent", "toy": "flowagent_toy", "travel": "flowagent_travel"}
    assert get_toolset("workflow").prompt == WORKFLOW_PROMPT and get_toolset("toy").protocol == "json"
    with pytest.raises(ValueError, match="There is no toolset 'shop'; choose one of: workflow, toy, travel."):
        build_graph(model=ScriptedChatModel(), store=store, toolset="shop")


def test_an_answer_that_leaves_out_a_look_up_the_request_asks_for_is_sent_back_once(graph_driver):
    # The offline model answered the seed's question after the flights alone; the request also asks for hotels.
    travel = graph_driver(
        tool_call("search_flights", {"origin": "北京", "destination": "上海", "date": "下周五"}, id="f"),
        "下周五最便宜的航班是 HO1252。",
        tool_call("search_hotels", {"city": "上海", "check_in": "下周五"}, id="h"),
        "下周五最便宜的航班是 HO1252，最便宜的酒店 200元一晚。",
        toolset="travel", fixed_answers=True,
    )
    result = travel.say(SEED_TRAVEL_QUESTION)
    assert [m.name for m in observations(result["messages"])] == ["search_flights", "search_hotels"]
    reminded = travel.model.prompts[2]
    assert reminded[-1].content == "（用户还要你查：search_hotels。先调用它，再回答。）"
    assert "下周五最便宜的航班是 HO1252。" not in [str(m.content) for m in result["messages"]]  # the half answer is dropped
    assert result["messages"][-1].content.startswith("下周五最便宜的航班是 HO1252，最便宜的酒店")
    assert travel.values["budget"]["model_calls"] == 4 and travel.script_used_up


def test_a_model_that_still_answers_after_the_reminder_is_not_asked_again(graph_driver):
    travel = graph_driver(
        tool_call("search_flights", {"origin": "北京", "destination": "上海", "date": "下周五"}, id="f"),
        "只有航班。",
        "还是只有航班。",
        toolset="travel",
    )
    result = travel.say(SEED_TRAVEL_QUESTION)
    assert result["messages"][-1].content == "还是只有航班。"
    assert travel.script_used_up


def test_an_answer_naming_a_flight_no_search_returned_is_replaced_by_what_was_found(graph_driver):
    travel = graph_driver(
        tool_call("search_flights", {"origin": "北京", "destination": "上海", "date": "明天"}, id="f"),
        "明天最便宜的是 ZZ9999，只要 99 元。",
        "还是 ZZ9999。",  # told once, the model names it again
        toolset="travel",
    )
    result = travel.say("明天北京飞上海的机票")
    answer = result["messages"][-1]
    assert answer.response_metadata["ungrounded"] == ["ZZ9999", "99 元"]
    assert "ZZ9999" not in answer.content and "99 元" not in answer.content and "HO1252" in answer.content
    assert travel.script_used_up


def test_an_answer_naming_flights_the_search_returned_stands(graph_driver):
    travel = graph_driver(
        tool_call("search_flights", {"origin": "北京", "destination": "上海", "date": "明天"}, id="f"),
        "明天最便宜的是 HO1252，680 元。",
        toolset="travel",
    )
    assert travel.say("明天北京飞上海的机票")["messages"][-1].content == "明天最便宜的是 HO1252，680 元。"


def test_the_calculator_runs_on_its_own_backend_with_no_workflow_store(tmp_path, monkeypatch):
    # No workflow store anywhere: FLOWAGENT_DB points at a file that must never be created.
    monkeypatch.setenv("FLOWAGENT_DB", str(tmp_path / "never.db"))
    model = ScriptedChatModel(replies=[tool_call("calculator", {"expression": "12*7-5"}), "79"])
    graph = build_graph(model=model, toolset="toy")  # the toy toolset's own backend, and anyone may sign in
    result = graph.invoke({"messages": [("human", "12乘7减5等于多少？")]}, {"configurable": {"thread_id": "calc"}},
                          context=Context(user_id="somebody", protocol="native"))
    [observation] = [m for m in result["messages"] if isinstance(m, ToolMessage)]
    assert observation.status == "success" and json.loads(str(observation.content))["result"] == 79
    assert not (tmp_path / "never.db").exists()
