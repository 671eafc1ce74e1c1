"""The graphs that LangGraph's server and Studio load (see `langgraph.json`), built from the environment.

One graph per toolset on the same engine: `graph` (flowagent, the leave approvals), `toy_graph`
(flowagent_toy, weather and arithmetic) and `travel_graph` (flowagent_travel, flights, hotels, weather).
The server brings its own checkpointer, so they are compiled without one. The model comes from
FLOWAGENT_MODEL / OPENAI_BASE_URL / OPENAI_API_KEY; with no endpoint the offline local model starts in the
background as the server starts, and reads its fixed prompt then, so the first question does not wait. The
runs' defaults (protocol, fixed answers) follow the model and the toolset, as in the terminal chat; a run's
context may still set them.

Served, each graph is a `SignedInGraph`: when the server has signed a user in (`flowagent/server/auth.py`), that user
is the actor of the run, whatever `user_id` the run's context names.
"""

import os
from typing import Any

from flowagent.models.endpoint import EnvModel, run_defaults, settings_from_env
from flowagent.server.actor import signed_in
from graph.builder import build_graph
from state.context import Context
from tools.toolset import Toolset
from tools.toolsets import approval_registry, get_toolset

model = EnvModel()
model.preload()
settings = settings_from_env()


def _graph(toolset: Toolset) -> Any:
    defaults = run_defaults(settings, toolset=toolset)
    # The deployment's own list of tools that stop for a person (the workflow's; the read-only toolsets have none).
    setting = os.environ.get("FLOWAGENT_APPROVAL_TOOLS", "") if toolset.name == "workflow" else ""
    registry = approval_registry(toolset, setting)
    return signed_in(
        build_graph(model=model, toolset=toolset, registry=registry, context_schema=Context.with_defaults(**defaults))
    )


graph = _graph(get_toolset("workflow"))
toy_graph = _graph(get_toolset("toy"))
travel_graph = _graph(get_toolset("travel"))
