"""The graph that LangGraph's server and Studio load (see `langgraph.json`), built from the environment.

The server brings its own checkpointer, so this graph is compiled without one. The model is loaded on
first use, from FLOWAGENT_MODEL / OPENAI_BASE_URL / OPENAI_API_KEY, or the offline local model.
"""

from graph.builder import build_graph
from graph.model import EnvModel
from tools import WorkflowStore

graph = build_graph(model=EnvModel(), store=WorkflowStore())
