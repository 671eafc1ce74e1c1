"""The graph's state: the narrow input schema and the full agent state."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Annotated, Any, cast

from langchain_core.messages import AnyMessage, BaseMessage, RemoveMessage, convert_to_messages
from langgraph.channels import DeltaChannel
from langgraph.graph.message import add_messages
from typing_extensions import TypedDict

from state.records import Ask, AuditRecord, OutcomeLine, Plan, RunBudget, Step, WrapUp
from tools.request import Request

DELTA_SNAPSHOT_EVERY = 100_000
"""Updates between full snapshots of a delta channel: effectively never, so each checkpoint stores only
its own new messages and checkpoint bytes grow linearly with turns (LangGraph still snapshots every
5,000 supersteps to bound replay)."""

SUMMARY_MAX_CHARS = 2000
"""Size of the rolling summary (characters, line breaks included)."""


def _stable_id(position: int, message: Any) -> str:
    """An id that depends only on where a message lands and what it says."""
    digest = hashlib.sha1(f"{position}:{message.type}:{message.content!r}".encode()).hexdigest()
    return f"msg-{digest[:20]}"


def append_messages(current: list[AnyMessage], batches: Sequence[Any]) -> list[AnyMessage]:
    """`add_messages` folded over batches of writes, in linear time, with deterministic ids.

    A delta channel rebuilds the history by replaying every stored write through this reducer in one
    call, so it must be linear in the number of messages (folding `add_messages`, which re-indexes the
    whole list per batch, is quadratic) and give the same messages every time (`add_messages` draws a
    fresh random id for id-less messages, also for message-like tuples or dicts such as `update_state`
    accepts). Same semantics otherwise: a known id replaces its message; `RemoveMessage` removes.
    """
    messages: list[Any] = list(current)
    index = {m.id: i for i, m in enumerate(messages)}
    for batch in batches:
        items = batch if isinstance(batch, list) else [batch]
        prepared: list[Any] = []
        for offset, msg in enumerate(items):
            converted = msg if isinstance(msg, BaseMessage) else convert_to_messages([msg])[0]
            if converted.id is None:
                converted = converted.model_copy(update={"id": _stable_id(len(messages) + offset, converted)})
            prepared.append(converted)
        if any(isinstance(m, RemoveMessage) for m in prepared):
            messages = cast(list[Any], add_messages(messages, prepared))
            index = {m.id: i for i, m in enumerate(messages)}
            continue
        for msg in prepared:
            at = index.get(msg.id)
            if at is None:
                index[msg.id] = len(messages)
                messages.append(msg)
            else:
                messages[at] = msg
    return messages


def keep_recent_lines(current: list[str], batches: Sequence[Any]) -> list[str]:
    """Append summary lines, keeping only the newest that fit in SUMMARY_MAX_CHARS.

    Batching-invariant (keeping the longest fitting suffix twice equals keeping it once), as a delta
    channel's reducer must be.
    """
    lines = append_records(current, batches)
    start, size = len(lines), 0
    while start > 0 and size + len(lines[start - 1]) + 1 <= SUMMARY_MAX_CHARS:
        start -= 1
        size += len(lines[start]) + 1
    return lines[start:]


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


class OutputState(InputState, total=False):
    """What a run gives back (`invoke`, a run's `values` stream, an MCP tool's result): the conversation and what
    became of the run's writes. The rest of the state is the graph's own; a thread's full state is read with
    `get_state`."""

    outcome: list[OutcomeLine]
    """What became of every write of the last finished run: executed, refused, rejected or failed. Set
    with the run's final answer, shown after it by the chat and read by the evals."""


class AgentState(OutputState, total=False):
    """The full state of a conversation thread."""

    step: Step | None
    """The step under way: its calls, from proposal through validation, approval and execution to their results,
    and what it spent (`state.records.Step`); None between steps (budget_check closes it)."""
    summary: Annotated[list[str], DeltaChannel(keep_recent_lines, snapshot_frequency=DELTA_SNAPSHOT_EVERY)]
    """The rolling summary of the turns folded out of the prompt: one line per folded message, oldest first,
    only the newest that fit in SUMMARY_MAX_CHARS. Stored as deltas, so it is not re-stored in every
    checkpoint."""
    summarized_upto: int
    """Number of leading messages the summary covers (they are kept in `messages`, not sent to the model)."""
    budget: RunBudget
    """Counters of the current run, up to its last closed step."""
    request: Request | None
    """The person's request of the current run, read once when the run starts (`read_request`): its language, what
    it asks for and the values it states."""
    wrap_up: WrapUp | None
    """Why the run must end now (budget exhausted, repeated action, failures, a write or look-up that answers),
    decided by budget_check; None while it may go on."""
    ask: Ask | None
    """What the graph itself tells the person to end the turn (`ask_person`): a question about a value only they
    can give, or that the action cannot be done. Kept until the next run starts, whose first message may answer it
    (the answer is then filled in by code)."""
    plan: Plan | None
    """The steps the current run follows (plan and chain strategies); None when the model decides each step
    (react, or a run the reasoner leads)."""
    audit: Annotated[list[AuditRecord], DeltaChannel(append_records, snapshot_frequency=DELTA_SNAPSHOT_EVERY)]
    """Every decision taken at an approval, oldest first."""
