"""The served graph's own guard: when LangGraph's server names a signed-in user, that user is the run's actor, and
clients write no state the graph owns.

- The auth hooks already write the identity into every run's context (`flowagent.server.auth`); this second check sits
  in the graph, so a run that reaches it some other way (a handler bypassed or changed) still cannot act for
  anyone else. A served run's `approval_tools` are the tools' specs': a client cannot switch a card off.
- A state write from a client (`POST /threads/{id}/state`, the SDK's `update_state`, the bulk form; the server calls
  the graph's `aupdate_state` / `abulk_update_state` for them and for nothing else) may carry `messages` only: a
  message the graph then reads like any other, through the same validator and review. A field the graph manages
  (proposed and pending calls and their status, budgets, outcome, audit, wrap-up, plan, summary, its questions)
  or a `Command` is refused with 403 and the reason, before anything is written.

Trusted in-process callers (tests, evals, the terminal chat) use `build_graph(...)` directly and keep choosing the
actor and the approval tools in their `Context`, and may write any state.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Command, StateUpdate
from starlette.exceptions import HTTPException

logger = logging.getLogger(__name__)

AUTH_USER_KEY = "langgraph_auth_user"
"""Where LangGraph's server puts the authenticated user in a run's `configurable`."""

CLIENT_WRITABLE = frozenset({"messages"})
"""The state fields a client may write: messages. Everything else is the graph's own."""
STATE_WRITE_REFUSED = (
    "the graph owns {fields}: a client may write only {allowed} to a thread's state "
    "(calls, their approval, budgets, outcome and audit are written by the graph's nodes; answer a card by resuming "
    "the thread with a decision)"
)
COMMAND_WRITE_REFUSED = (
    "a state write may not carry a command: write {allowed} as values, and answer a card by resuming the thread"
)


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


def with_spec_approvals(context: Any) -> Any:
    """`context` (a dict or a Context) with no `approval_tools` override: the tools' specs decide what needs a card."""
    if isinstance(context, Mapping):
        if context.get("approval_tools") is None:
            return context
        logger.warning("a served run's approval_tools %r ignored: the tools' specs decide", context.get("approval_tools"))
        return {**context, "approval_tools": None}
    if getattr(context, "approval_tools", None) is None:
        return context
    return dataclasses.replace(context, approval_tools=None)


def actor_context(config: RunnableConfig | None, context: Any) -> Any:
    """The run's context, its `user_id` replaced by the signed-in user when the server names one (and then with the
    specs' approval tools)."""
    user_id = signed_in_user_id(config)
    return context if user_id is None else with_spec_approvals(with_actor(context, user_id))


def check_client_write(values: Any) -> None:
    """Refuse (403, with the reason) a client's state write that carries anything but messages."""
    allowed = ", ".join(sorted(CLIENT_WRITABLE))
    if values is None:
        return
    if isinstance(values, Command):
        raise HTTPException(status_code=403, detail=COMMAND_WRITE_REFUSED.format(allowed=allowed))
    if not isinstance(values, Mapping):
        raise HTTPException(status_code=403, detail=STATE_WRITE_REFUSED.format(fields="this state", allowed=allowed))
    owned = sorted(str(key) for key in values if key not in CLIENT_WRITABLE)
    if owned:
        raise HTTPException(status_code=403, detail=STATE_WRITE_REFUSED.format(fields=", ".join(owned), allowed=allowed))


def check_client_supersteps(supersteps: Any) -> None:
    for superstep in supersteps:
        for update in superstep:
            check_client_write(update.values if isinstance(update, StateUpdate) else update)


class SignedInGraph(CompiledStateGraph):
    """The compiled graph; every run (`stream`/`astream`, which `invoke`, `ainvoke` and the event streams call)
    acts for the signed-in user when LangGraph's server names one."""

    def stream(self, input: Any, config: RunnableConfig | None = None, *, context: Any = None, **kwargs: Any) -> Any:  # type: ignore[override]
        return super().stream(input, config, context=actor_context(config, context), **kwargs)

    def astream(self, input: Any, config: RunnableConfig | None = None, *, context: Any = None, **kwargs: Any) -> Any:  # type: ignore[override]
        return super().astream(input, config, context=actor_context(config, context), **kwargs)

    # LangGraph's server writes a thread's state through these only for a client's request (update_state calls them).
    def bulk_update_state(self, config: RunnableConfig, supersteps: Any) -> RunnableConfig:  # type: ignore[override]
        check_client_supersteps(supersteps)
        return super().bulk_update_state(config, supersteps)

    async def abulk_update_state(self, config: RunnableConfig, supersteps: Any) -> RunnableConfig:  # type: ignore[override]
        check_client_supersteps(supersteps)
        return await super().abulk_update_state(config, supersteps)


def signed_in(graph: CompiledStateGraph) -> SignedInGraph:
    """The same compiled graph (nodes, channels, schemas, name) as a `SignedInGraph`, built as `graph.copy()` is."""
    return SignedInGraph(**{name: value for name, value in vars(graph).items() if name != "__orig_class__"})
