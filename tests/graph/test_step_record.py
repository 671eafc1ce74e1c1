"""A step's calls travel in one record, and the run's budget is written once a step (`state.records.Step`).

Each LangGraph channel a node writes is stored in the checkpoint of every step after it, so the state's shape is what a
ReAct iteration costs beyond its work: these tests pin which node writes what.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from langchain_core.messages import HumanMessage

from evals.doubles.scripted import tool_call


def writes_by_node(agent: Any, text: str) -> dict[str, list[set[str]]]:
    """The channels each node wrote, visit by visit, in one run of `agent`'s graph."""
    written: dict[str, list[set[str]]] = defaultdict(list)
    for update in agent.graph.stream(
        {"messages": [HumanMessage(content=text)]}, agent.config, context=agent.context, stream_mode="updates"
    ):
        for node, fields in update.items():
            written[node].append(set(fields or {}))
    return dict(written)


def test_a_read_step_writes_the_step_once_a_node_and_the_budget_once(graph_driver):
    agent = graph_driver(tool_call("getAllUser", id="c1"), tool_call("queryTodoTask", id="c2"), "都查到了。")
    written = writes_by_node(agent, "有哪些用户？我有哪些待办？")

    assert written["tool_validator"] == [{"step"}, {"step"}]
    assert written["executor"] == [{"step"}, {"step"}]
    assert written["observation_summarizer"] == [{"messages"}, {"messages"}]
    assert written["budget_check"] == [{"budget", "step"}, {"budget", "step"}]
    *steps, final = written["reasoner"]
    assert steps == [{"messages", "step"}, {"messages", "step"}]
    assert {"budget", "step"} <= final  # the step that ends the run is added to the counters by its own node
    # A new thread's run writes no field it finds clear already (a channel never written is in no checkpoint).
    assert written["read_request"] == [{"request", "budget"}]


def test_the_closed_steps_add_up_to_the_runs_counters(graph_driver):
    agent = graph_driver(tool_call("getAllUser", id="c1"), tool_call("getAllUser", id="c2"), "共有5位用户。")
    agent.say("有哪些用户？")

    budget = agent.values["budget"]
    assert agent.values["step"] is None
    assert budget["model_calls"] == agent.model.position == 3
    assert budget["tool_calls"] == {"getAllUser": 1}  # the repeat was answered with the first result, not run
    assert list(budget["proposals"].values()) == [2]  # proposed twice, counted in two steps


def test_a_run_clears_what_the_last_one_left_and_only_that(graph_driver):
    agent = graph_driver("您好。", "再见。", max_model_calls=1)
    agent.say("你好")
    agent.graph.update_state(agent.config, {"wrap_up": {"code": "done", "text": "done"}}, as_node="budget_check")

    written = writes_by_node(agent, "再见")

    assert written["read_request"] == [{"request", "budget", "wrap_up"}]
    assert agent.values["wrap_up"] is None
