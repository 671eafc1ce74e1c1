"""The graph's shape is pinned per strategy: its Mermaid drawing must equal tests/graph/snapshots/graph.mmd (react),
graph_plan.mmd or graph_chain.mmd exactly.

Run with FLOWAGENT_UPDATE_SNAPSHOTS=1 to rewrite the snapshot after an intended change of the topology.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from evals.doubles.scripted import ScriptedChatModel
from graph import build_graph

SNAPSHOTS = Path(__file__).parent / "snapshots"
SNAPSHOT_OF = {"react": "graph.mmd", "plan": "graph_plan.mmd", "chain": "graph_chain.mmd"}


@pytest.mark.parametrize("strategy", list(SNAPSHOT_OF))
def test_graph_topology_matches_mermaid_snapshot(store, strategy):
    drawing = build_graph(model=ScriptedChatModel(), store=store, strategy=strategy).get_graph().draw_mermaid()
    snapshot = SNAPSHOTS / SNAPSHOT_OF[strategy]
    if os.environ.get("FLOWAGENT_UPDATE_SNAPSHOTS") == "1":
        snapshot.write_text(drawing, encoding="utf-8")
    assert drawing == snapshot.read_text(encoding="utf-8")


def test_unknown_strategy_is_refused(store):
    with pytest.raises(ValueError, match="react, plan, chain"):
        build_graph(model=ScriptedChatModel(), store=store, strategy="tree")  # type: ignore[arg-type]


def test_graph_schemas_build_for_studio(store):
    graph = build_graph(model=ScriptedChatModel(), store=store)
    assert set(graph.get_input_jsonschema()["properties"]) == {"messages"}
    # A run gives back the conversation and its outcome; the graph's own records are in the thread's state.
    assert set(graph.get_output_jsonschema()["properties"]) == {"messages", "outcome"}
    assert {"messages", "budget", "audit", "summary", "wrap_up", "step"} <= set(graph.builder.schemas[graph.builder.state_schema])
    assert graph.get_context_jsonschema()["properties"]["user_id"]["default"] == "user_1"


def test_every_node_is_wired_with_exactly_one_way_out():
    from langgraph.graph import END, StateGraph

    from graph.strategies import Wiring
    from state.agent import AgentState

    def nothing(state):
        return {}

    wiring = Wiring({"a": nothing, "b": nothing})
    wiring.start("a")
    wiring.edge("a", "b")
    with pytest.raises(ValueError, match="a is given two ways out"):
        wiring.route("a", lambda state: "b", {"b": "b"})
    with pytest.raises(ValueError, match="b has no way out"):
        wiring.add_to(StateGraph(AgentState))
    with pytest.raises(ValueError, match="no node 'c'"):
        wiring.edge("c", END)


def test_a_router_decides_on_the_state_its_nodes_update_leaves():
    from langchain_core.messages import AIMessage, HumanMessage

    from graph.strategies import after

    state = {"messages": [HumanMessage(content="hi")], "wrap_up": {"code": "done"}, "ask": None}
    reply = AIMessage(content="hello")
    view = after(state, {"messages": [reply], "wrap_up": None})  # type: ignore[arg-type]
    assert view["messages"] == [*state["messages"], reply] and view["wrap_up"] is None and view["ask"] is None
    assert state["wrap_up"] == {"code": "done"} and len(state["messages"]) == 1  # what the node read is unchanged
