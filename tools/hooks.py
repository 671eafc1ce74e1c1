"""What a tool's hooks run with and return: the call's context (`CallContext`), the records its references name
(`Found`), its check's `Verdict` with where the person's values came from (`Source`), and each hook's signature."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Any, Literal, NotRequired

from typing_extensions import TypedDict

if TYPE_CHECKING:
    from tools.backend import Backend
    from tools.kept import KnownRecords


@dataclass(frozen=True)
class CallContext:
    """Who makes a call, in which conversation, under which call id (never taken from tool arguments), and what the
    toolset's handlers run against."""

    backend: Backend
    """The toolset's backend: its read handles and write transactions (`tools.backend`)."""
    actor_id: str
    thread_id: str = "default"
    call_id: str = "call"
    today: date | None = None
    """The run's date in its time zone (the graph's clock and `Context.timezone`): what "明天" or "next Friday"
    counts from. None outside a run (a script's call): the tool uses the system's date."""
    deps: Any = None
    """What the toolset's handlers need beyond the backend (the workflow: its mailer), from `Toolset.deps`."""
    limits: Mapping[str, int] = field(default_factory=dict)
    """The toolset's limits for this run (`Toolset.limits`, overridden by `Context.limits`)."""
    lang: str = "zh"
    """The language of the person the run serves: notes a card shows are written in it."""
    actor: Mapping[str, Any] | None = None
    """The actor's record when the caller has it already (the graph keeps it for a minute): checks and reads use it;
    a write reads the actor again inside its own transaction."""
    known: KnownRecords | None = None
    """Records of stable kinds the caller keeps (the graph: for a minute): checks and reads use them; a write looks its
    records up again inside its own transaction."""

    @property
    def idempotency_key(self) -> str:
        return f"{self.thread_id}:{self.call_id}"

    def limit(self, name: str) -> int:
        """One of the toolset's limits; a name the toolset did not declare is a bug in its code."""
        return int(self.limits[name])


Found = dict[str, dict[str, Any]]
"""The records a call's references name, by parameter, and the session user's under "actor" (looked up once per path
by the runtime)."""


class Source(TypedDict):
    """Where one of the person's values came from: what a card shows beside it, in the person's language."""

    how: Literal["stated", "filled", "inferred"]
    """stated: the person's value, read from their words; filled: a value the model left out that code filled in from
    their words; inferred: a choice mapped from a word that implies it (打车 → 差旅), for the person to confirm."""
    said: str
    """The words it was read from ("6千8百元", "打车", "深圳"), or "" when they are not known."""
    replaced: NotRequired[str]
    """The model's own value that the person's replaced (the English note for the model says the same)."""


@dataclass(frozen=True)
class Verdict:
    """A tool's policy check allowed a call: notes for the reviewer, and the records the effect acts on."""

    notes: list[str] = field(default_factory=list)
    """For the model and the audit, in English; a person reads the card, which words `sources` in their language."""
    found: Found = field(default_factory=dict)
    """The referenced records (by parameter) and whatever else the check looked up for the effect."""
    sources: dict[str, Source] = field(default_factory=dict)
    """Where each of the person's values came from, by parameter path (`fields.category`); empty on a path without a
    person's request (the executor's, a script's)."""


Check = Callable[[Any, CallContext, Any, Found], Verdict]
"""A tool's own policy rules, without side effects, given the backend's handle and the records its references name."""
Handler = Callable[[Any, CallContext, Any, Verdict], dict[str, Any]]
"""The tool's effect (or read), given the backend's handle and what its check allowed; it checks nothing itself."""
Sources = Mapping[str, Mapping[str, str]]
"""Where each of the person's values came from, by parameter path: `{"how": "stated" | "filled" | "inferred", "said":
the words it was read from}` (what the card shows beside each value)."""
Card = Callable[[Any, dict[str, Any], str, Sources], dict[str, Any]]
"""What a reviewer decides on, read through the backend's handle for a call's (validated) arguments, in the person's
language ("zh" or "en"), with where the person's values came from: a `summary`, fields, and `labels` (the fields a
person reads, each with its label in their language, in display order; the others are for clients and the audit)."""
AfterCommit = Callable[[CallContext, dict[str, Any]], dict[str, Any]]
"""What happens once a write's transaction has committed (delivering an e-mail); returns the result to report."""
Describe = Callable[[dict[str, Any], str], str]
"""Turns a tool's successful result into one readable line in a language ("zh" or "en")."""
