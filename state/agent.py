"""The graph's state: the narrow input schema and the full agent state."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Annotated, Any, TypedDict

from langchain_core.messages import AnyMessage
from langgraph.channels import DeltaChannel
from langgraph.graph.message import add_messages

from state.records import AuditRecord, Outcome, RunBudget, ToolCallRecord

DELTA_SNAPSHOT_EVERY = 100_000
"""Updates between full snapshots of a delta channel: effectively never, so each checkpoint stores only
its own new messages and checkpoint bytes grow linearly with turns (LangGraph still snapshots every
5,000 supersteps to bound replay)."""


def _stable_id(position: int, message: Any) -> str:
    digest = hashlib.sha1(f"{position}:{message.type}:{message.content!r}".encode()).hexdigest()
    return f"msg-{digest[:20]}"


def append_messages(current: list[AnyMessage], batches: Sequence[Any]) -> list[AnyMessage]:
    """`add_messages` folded over a batch of writes, with deterministic ids for id-less messages.

    A delta channel rebuilds state by replaying stored writes through this reducer, so it must give the
    same messages every time: `add_messages` would draw a fresh random id on each replay.
    """
    messages = list(current)
    for batch in batches:
        items = batch if isinstance(batch, list) else [batch]
        prepared = []
        for offset, msg in enumerate(items):
            converted = add_messages([], [msg])[0] if not hasattr(msg, "type") else msg
            if converted.id is None:
                converted = converted.model_copy(update={"id": _stable_id(len(messages) + offset, converted)})
            prepared.append(converted)
        messages = add_messages(messages, prepared)
    return messages


def append_records(current: list[Any], batches: Sequence[Any]) -> list[Any]:
    """Concatenate batches of records (an append-only log)."""
    out = list(current)
    for batch in batches:
        out.extend(batch if isinstance(batch, list) else [batch])
    return out


class InputState(TypedDict):
    """What a caller sends: new messages."""

    messages: Annotated[list[AnyMessage], DeltaChannel(append_messages, snapshot_frequency=DELTA_SNAPSHOT_EVERY)]
    """The conversation. Stored as deltas: each checkpoint keeps only the messages it added."""


class AgentState(InputState, total=False):
    """The full state of a conversation thread."""

    proposed: list[ToolCallRecord]
    """Calls waiting for the validator (from the model, or edited by the reviewer)."""
    pending: list[ToolCallRecord]
    """Validated calls waiting for approval or execution."""
    outcomes: list[Outcome]
    """Results of the last execution step, waiting for the summariser."""
    summary: str
    """Rolling summary of the turns folded out of the prompt."""
    summarized_upto: int
    """Number of leading messages the summary covers (they are kept in `messages`, not sent to the model)."""
    budget: RunBudget
    """Counters of the current run."""
    wrap_up: str
    """Why the run must end now (budget exhausted, repeated action, failures); empty while it may go on."""
    audit: Annotated[list[AuditRecord], DeltaChannel(append_records, snapshot_frequency=DELTA_SNAPSHOT_EVERY)]
    """Every decision taken at an approval, oldest first."""
