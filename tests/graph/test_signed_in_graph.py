"""The served graph's own guard (`flowagent.server.actor`): when the server names a signed-in user, that user acts,
whatever the run's context says; without one (trusted in-process code) the context's user_id acts as before.

No server here: the config carries `langgraph_auth_user` as LangGraph's server puts it there.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import pytest
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from evals.doubles.scripted import ScriptedChatModel, tool_call
from flowagent.server.actor import SignedInGraph, actor_context, signed_in
from graph import build_graph
from state import Context

LEAVE = {"processKey": "process_qingjia", "reason": "家里有事", "days": 1, "nextUserId": "王五"}
QUESTION = {"messages": [HumanMessage("我想请1天假，家里有事，王五审批")]}
APPROVE = Command(resume={"decisions": [{"type": "approve"}]})


@dataclass
class ServerUser:
    """Shaped like the server's user object: an `identity` attribute."""

    identity: str
    display_name: str = ""


def served(store: Any, checkpointer: Any) -> SignedInGraph:
    model = ScriptedChatModel(replies=[tool_call("runWorkFlow", LEAVE), "已提交。"])
    return signed_in(build_graph(model=model, store=store, checkpointer=checkpointer))


def requesters(store: Any) -> list[str]:
    return [r["requester_id"] for r in store.snapshot()["requests"]]


def start_card_requester(graph: Any, config: dict[str, Any]) -> str:
    """Who the pending start card says is asking (nothing is filed while it waits)."""
    [interrupt] = graph.get_state(config).interrupts
    [action] = interrupt.value["action_requests"]
    assert action["name"] == "runWorkFlow"
    return str(action["card"]["requester"])


@pytest.mark.parametrize("user", [ServerUser("user_1"), {"identity": "user_1"}], ids=["object", "dict"])
@pytest.mark.parametrize("context", [Context(user_id="user_2"), {"user_id": "user_2"}, None], ids=["Context", "dict", "none"])
def test_the_signed_in_user_acts_whatever_the_context_names(store, checkpointer, user, context):
    graph = served(store, checkpointer)
    config = {"configurable": {"thread_id": "t1", "langgraph_auth_user": user}}
    graph.invoke(QUESTION, config, context=context)
    assert start_card_requester(graph, config) == "张三 (user_1)" and requesters(store) == []
    graph.invoke(APPROVE, config, context=context)  # the confirming run names user_2 again: user_1 still acts
    assert requesters(store) == ["user_1"]


def test_the_signed_in_user_acts_in_async_runs_too(store):
    graph = served(store, InMemorySaver())  # the SQLite saver is sync only; the server's runs are async
    config = {"configurable": {"thread_id": "t1", "langgraph_auth_user": ServerUser("user_1")}}
    asyncio.run(graph.ainvoke(QUESTION, config, context={"user_id": "user_2"}))
    assert start_card_requester(graph, config) == "张三 (user_1)"
    asyncio.run(graph.ainvoke(APPROVE, config, context={"user_id": "user_2"}))
    assert requesters(store) == ["user_1"]


def test_without_a_signed_in_user_the_context_names_the_actor(store, checkpointer):
    graph = served(store, checkpointer)
    config = {"configurable": {"thread_id": "t1", "langgraph_auth_user": None}}
    graph.invoke(QUESTION, config, context=Context(user_id="user_2"))
    assert start_card_requester(graph, config) == "李四 (user_2)"
    graph.invoke(APPROVE, config, context=Context(user_id="user_2"))
    assert requesters(store) == ["user_2"]


def test_the_served_graph_keeps_the_graphs_shape_name_and_schemas(store):
    graph = build_graph(model=ScriptedChatModel(), store=store)
    guarded = signed_in(graph)
    assert guarded.get_graph().draw_mermaid() == graph.get_graph().draw_mermaid()
    assert guarded.name == graph.name == "flowagent"
    assert guarded.get_context_jsonschema() == graph.get_context_jsonschema()
    assert isinstance(guarded.copy({"name": "copy"}), SignedInGraph)  # what the server does before each run


def test_actor_context_leaves_other_fields_alone():
    config: Any = {"configurable": {"langgraph_auth_user": ServerUser("user_3")}}
    assert actor_context(config, {"user_id": "user_2", "locale": "en"}) == {"user_id": "user_3", "locale": "en"}
    assert actor_context(config, Context(user_id="user_2", locale="en")) == Context(user_id="user_3", locale="en")
    assert actor_context({"configurable": {}}, {"user_id": "user_2"}) == {"user_id": "user_2"}
