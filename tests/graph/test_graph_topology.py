"""The graph's shape is pinned: its Mermaid drawing must equal tests/snapshots/graph.mmd exactly.

Run with FLOWAGENT_UPDATE_SNAPSHOTS=1 to rewrite the snapshot after an intended change of the topology.
"""

from __future__ import annotations

import os
from pathlib import Path

from evals.doubles.scripted import ScriptedChatModel
from graph import build_graph

SNAPSHOT = Path(__file__).parent / "snapshots" / "graph.mmd"


def test_graph_topology_matches_mermaid_snapshot(store):
    drawing = build_graph(model=ScriptedChatModel(), store=store).get_graph().draw_mermaid()
    if os.environ.get("FLOWAGENT_UPDATE_SNAPSHOTS") == "1":
        SNAPSHOT.write_text(drawing, encoding="utf-8")
    assert drawing == SNAPSHOT.read_text(encoding="utf-8")


def test_graph_schemas_build_for_studio(store):
    graph = build_graph(model=ScriptedChatModel(), store=store)
    assert set(graph.get_input_jsonschema()["properties"]) == {"messages"}
    assert {"messages", "budget", "audit", "summary", "wrap_up"} <= set(graph.get_output_jsonschema()["properties"])
    assert graph.get_context_jsonschema()["properties"]["user_id"]["default"] == "user_1"
