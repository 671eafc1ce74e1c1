"""Small helpers shared by the nodes: call ids, the run's thread id and date, stable hashes of actions, token estimates."""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AnyMessage
from langgraph.config import get_config

from state.context import Context
from state.records import ToolCallRecord
from tools.backend import Backend
from tools.errors import DomainError
from tools.kept import KeptMap, KnownRecords
from tools.runtime import CheckedCall
from tools.spec import CallContext
from tools.toolset import Toolset

ModelSource = BaseChatModel | Callable[[Context], BaseChatModel]
"""A chat model, or a function of the run's `Context` that returns one (`build_graph(model=...)`)."""


def new_call_id() -> str:
    """A tool call id no other call uses (half of a write's idempotency key, with the thread id)."""
    return f"call_{uuid.uuid4().hex[:24]}"


def args_hash(name: str, args: dict[str, Any]) -> str:
    """SHA-256 of one exact action: the tool name and its canonical JSON arguments (shown on approval cards)."""
    canonical = json.dumps({"tool": name, "args": args}, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def action_hash(name: str, args: dict[str, Any]) -> str:
    """A short form of `args_hash`, to recognise repeated actions within a run."""
    return args_hash(name, args)[:16]


def proposed_calls(message: AIMessage) -> list[ToolCallRecord]:
    """The tool calls of a message (the model's reply, or one code wrote in its place) as the step's proposed calls."""
    return [
        ToolCallRecord(id=c["id"] or "", name=c["name"], args=dict(c["args"]), status="proposed")
        for c in message.tool_calls
    ]


def thread_id_of_run() -> str:
    """The thread id of the running graph (the first half of every idempotency key)."""
    return str(get_config().get("configurable", {}).get("thread_id", "default"))


def run_today(clock: Callable[[], float], timezone: str) -> date:
    """Today's date for a run: the graph's clock read in the run's time zone (`Context.timezone`)."""
    return datetime.fromtimestamp(clock(), ZoneInfo(timezone)).date()


MESSAGE_OVERHEAD_CHARS = 20
"""What a message costs beyond its text, in characters, in the offline token estimate."""
CHARS_PER_TOKEN = 3


_CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")


def text_weight(text: str) -> int:
    """A text's length in the offline estimate's characters: a Chinese character (or full-width sign) costs about a
    token, as three Latin letters do, so it counts three (a queried request in Chinese read as a third of its tokens,
    and a three-turn conversation overflowed the local model's window unfolded)."""
    return len(text) + 2 * len(_CJK.findall(text))


def estimate_tokens(messages: list[AnyMessage]) -> int:
    """Offline token estimate: about 3 Latin characters, or one Chinese character, a token (`text_weight`)."""
    return tokens_of_chars(sum(text_weight(str(m.content)) + MESSAGE_OVERHEAD_CHARS for m in messages))


def tokens_of_chars(chars: int) -> int:
    """The offline token estimate of a count of characters (`graph.history.char_index` keeps one up to date)."""
    return chars // CHARS_PER_TOKEN + 1


def model_of(source: ModelSource, context: Context) -> BaseChatModel:
    """The run's chat model."""
    return source if isinstance(source, BaseChatModel) else source(context)


def tokens_used(raw: Any, prompt: list[AnyMessage]) -> int:
    """Tokens a model call read and wrote: as the model reported them, else estimated."""
    usage = getattr(raw, "usage_metadata", None)
    if usage and usage.get("total_tokens"):
        return int(usage["total_tokens"])
    return estimate_tokens(prompt) + estimate_tokens([raw])



ACTOR_TTL_S = 60.0
"""How long the graph reuses an actor's record (name, e-mail) before reading it again: one look-up per tool call
cost a tenth of a step. A write always reads the actor again, inside its transaction."""


class Actors:
    """The signed-in actors' records, read through the toolset at most once every ACTOR_TTL_S seconds; and the records
    of the toolset's stable kinds that calls found by id (`known`, kept as long)."""

    MAX_ACTORS = 4096

    def __init__(self, toolset: Toolset, backend: Backend) -> None:
        self._toolset = toolset
        self._backend = backend
        self._kept: KeptMap[str, dict[str, Any]] = KeptMap(self.MAX_ACTORS, ACTOR_TTL_S)
        self.known = KnownRecords(ACTOR_TTL_S)

    def get(self, actor_id: str) -> dict[str, Any] | None:
        """The actor's record, or None when the toolset does not know them (never kept: the check says why). A run
        that read the toolset's people has the actor among them (`Toolset.actor_kind`)."""
        kept = self._kept.get(actor_id)
        if kept is not None:
            return kept
        kind = self._toolset.actor_kind
        known = self.known.get(kind, actor_id) if kind is not None else None
        if known is not None:
            self._kept.put(actor_id, known)
            return known
        try:
            with self._backend.read() as handle:
                record = dict(self._toolset.actor(handle, actor_id))
        except DomainError:
            return None
        self._kept.put(actor_id, record)
        return record


CHECKED_READ_TTL_S = 5.0
"""How long a read the validator checked waits for the executor to run it on that check (the next step, in the same
process: milliseconds); after that, or in another process, the executor checks it again."""


@dataclass(frozen=True)
class KeptRead:
    """A read the validator checked, as the executor runs it: the check, the arguments it passes on, the call context
    the check ran with and the action hash of those arguments."""

    checked: CheckedCall
    args: dict[str, Any]
    ctx: CallContext
    action: str


class CheckedReads:
    """Reads the validator has just checked, by thread and call id, for the executor to run without checking them
    again: the validator's check read the records the call names, and a read has no effect that a store changed in
    between could spoil (a write is always checked again inside its transaction). The executor runs the read in the
    check's call context (the same run's, under the call's own id) and under its action hash, so neither is made
    twice."""

    MAX_ENTRIES = 1024

    def __init__(self) -> None:
        self._checked: KeptMap[tuple[str, str], KeptRead] = KeptMap(self.MAX_ENTRIES, CHECKED_READ_TTL_S)

    def keep(self, thread_id: str, call_id: str, read: KeptRead) -> None:
        """Keep the check of a read that runs next (as the validator passes it on)."""
        self._checked.put((thread_id, call_id), read)

    def take(self, thread_id: str, call_id: str, args: dict[str, Any]) -> KeptRead | None:
        """The kept check of this read with exactly these arguments, if still fresh (taken once)."""
        kept = self._checked.take((thread_id, call_id))
        return kept if kept is not None and kept.args == args else None


def call_context(
    toolset: Toolset,
    backend: Backend,
    deps: Any,
    context: Context,
    clock: Callable[[], float],
    thread_id: str,
    *,
    call_id: str = "call",
    lang: str = "zh",
    actors: Actors | None = None,
) -> CallContext:
    """What a tool call runs with in a run: the toolset's backend and dependencies, the actor (and their record, and
    the records known by id, when `actors` has them), the thread and call ids (the idempotency key), the run's date,
    the toolset's limits as the run sets them, the person's language."""
    return CallContext(
        backend=backend,
        actor=actors.get(context.user_id) if actors is not None else None,
        known=actors.known if actors is not None else None,
        actor_id=context.user_id,
        thread_id=thread_id,
        call_id=call_id,
        today=run_today(clock, context.timezone),
        deps=deps,
        limits=toolset.run_limits(context.limits),
        lang=lang,
    )
