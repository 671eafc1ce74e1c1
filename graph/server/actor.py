"""The served graph's own guard: when LangGraph's server names a signed-in user, that user is the run's actor.

The auth hooks already write the identity into every run's context (`graph.server.auth`); this second check sits
in the graph, so a run that reaches it some other way (a handler bypassed or changed) still cannot act for
anyone else. Trusted in-process callers (tests, evals, the terminal chat) use `build_graph(...)` directly and
keep choosing the actor in their `Context`.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.graph.state import CompiledStateGraph

logger = logging.getLogger(__name__)

AUTH_USER_KEY = "langgraph_auth_user"
"""Where LangGraph's server puts the authenticated user in a run's `configurable`."""


def signed_in_user_id(config: RunnableConfig | None) -> str | None:
    """The identity of the user LangGraph's server authenticated for this run, or None (no sign-in, trusted code)."""
    configurable = (config or {}).get("configurable") or {}
    user = configurable.get(AUTH_USER_KEY)
    if user is None:
        return None
    identity = getattr(user, "identity", None)
    if identity is None and isinstance(user, Mapping):
        identity = user.get("identity")
    return str(identity) if identity else None


def with_actor(context: Any, user_id: str) -> Any:
    """`context` (a dict, a Context, or None) with `user_id` as the actor."""
    if context is None:
        return {"user_id": user_id}
    is_mapping = isinstance(context, Mapping)
    if not is_mapping and not (dataclasses.is_dataclass(context) and not isinstance(context, type)):
        raise TypeError(f"cannot set the actor on a run context of type {type(context).__name__}")
    sent = context.get("user_id") if is_mapping else getattr(context, "user_id", None)
    if sent is not None and sent != user_id:
        logger.warning("run context names user %r; the signed-in user %r acts instead", str(sent)[:64], user_id)
    return {**context, "user_id": user_id} if is_mapping else dataclasses.replace(context, user_id=user_id)


def actor_context(config: RunnableConfig | None, context: Any) -> Any:
    """The run's context, its `user_id` replaced by the signed-in user when the server names one."""
    user_id = signed_in_user_id(config)
    return context if user_id is None else with_actor(context, user_id)


class SignedInGraph(CompiledStateGraph):
    """The compiled graph; every run (`stream`/`astream`, which `invoke`, `ainvoke` and the event streams call)
    acts for the signed-in user when LangGraph's server names one."""

    def stream(self, input: Any, config: RunnableConfig | None = None, *, context: Any = None, **kwargs: Any) -> Any:  # type: ignore[override]
        return super().stream(input, config, context=actor_context(config, context), **kwargs)

    def astream(self, input: Any, config: RunnableConfig | None = None, *, context: Any = None, **kwargs: Any) -> Any:  # type: ignore[override]
        return super().astream(input, config, context=actor_context(config, context), **kwargs)


def signed_in(graph: CompiledStateGraph) -> SignedInGraph:
    """The same compiled graph (nodes, channels, schemas, name) as a `SignedInGraph`, built as `graph.copy()` is."""
    return SignedInGraph(**{name: value for name, value in vars(graph).items() if name != "__orig_class__"})
