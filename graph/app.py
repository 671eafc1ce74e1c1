"""The graph that LangGraph's server and Studio load (see `langgraph.json`), built from the environment.

The server brings its own checkpointer, so this graph is compiled without one. The model comes from
FLOWAGENT_MODEL / OPENAI_BASE_URL / OPENAI_API_KEY; with no endpoint the offline local model starts in the
background as the server starts, and reads its fixed prompt then, so the first question does not wait. The
runs' defaults (protocol, fixed answers) follow the model, as in the terminal chat; a run's context may
still set them.

Served, the graph is a `SignedInGraph`: when the server has signed a user in (`graph/server/auth.py`), that user
is the actor of the run, whatever `user_id` the run's context names.
"""

from graph.builder import build_graph
from graph.models.endpoint import EnvModel, run_defaults, settings_from_env
from graph.server.actor import signed_in
from state.context import Context
from tools import WorkflowStore

model = EnvModel()
model.preload()
graph = signed_in(
    build_graph(
        model=model, store=WorkflowStore(), context_schema=Context.with_defaults(**run_defaults(settings_from_env()))
    )
)
