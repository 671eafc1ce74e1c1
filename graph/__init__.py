"""The guarded ReAct state graph of flowagent: `build_graph(model=..., store=..., checkpointer=...)`."""

from graph.builder import build_graph

__all__ = ["build_graph"]
