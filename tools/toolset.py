"""A toolset: one domain the graph can run, as three small interfaces.

- **The domain** (`Toolset`, this record): the tools and what the engine reaches the domain through: where the tools'
  data lives (`backend`), what else their handlers need (`deps`), who the signed-in actor is (`actor`), which people a
  person may name (`people`), how references are looked up (`resolvers`), its policy hooks, limits and guards.
- **Its language** (`Toolset.language`, `tools.language.Language`): what the domain is called, what it can do, the
  questions the graph asks for it and why its tools refused, in the person's language.
- **Its surfaces** (`Toolset.surfaces`, `tools.surfaces.Surfaces`): `/help`, the chat's slash commands, the page's
  panels and `flowagent`'s subcommands, which only the apps (`flowagent/`) take; the graph and the runtime never do.

A new domain is one new package that declares a `Toolset`; one declared in the flat form of one record still builds
through `Toolset.flat`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from tools.backend import Backend, MemoryBackend
from tools.language import Language
from tools.spec import CallContext, Reference, ToolRegistry
from tools.surfaces import ChatCommand, CliCommand, HelpSection, Surfaces

DefaultProtocol = Literal["native", "react", "json"]


class Resolver(Protocol):
    """Looks up the record an argument names: returns it and the argument's canonical value (an id for a name).

    Raises a `DomainError` when there is none (`NotFoundError`), or `NeedsPersonError` when the name fits several
    and the person must say which; `asking` is True on the validator's path, where the person can still be asked.
    May return `(None, value)` when the value names no record and that is allowed (an e-mail to a user, not a task).
    """

    def __call__(
        self, handle: Any, value: Any, ctx: CallContext, ref: Reference, /, *, asking: bool
    ) -> tuple[dict[str, Any] | None, Any]: ...


@dataclass(frozen=True)
class Limit:
    """A limit of the domain a run may set (`Context.limits`), with its default."""

    default: int
    description: str


def anyone(handle: Any, actor_id: str) -> dict[str, Any]:
    """The actor of a toolset with no directory of users: whoever signed in, by id."""
    return {"id": actor_id, "name": actor_id}


def no_deps() -> Any:
    return None


@dataclass(frozen=True)
class Toolset:
    """One domain the graph can run: its tools, the system prompt's role and rules, its defaults and its hooks; with
    its language (`language`) and the apps' surfaces (`surfaces`)."""

    name: str
    """The toolset's name, as it is registered (`tools.toolsets`) and chosen (`--toolset`)."""
    registry: ToolRegistry
    """The domain's tools."""
    prompt: str
    """The fixed start of the system prompt: who the assistant is, for whom it acts, and its rules (the tool
    list, the format and the worked examples follow, from the registry)."""
    language: Language = field(default_factory=Language)
    """Its language: what the domain is called, what it can do, the questions the graph asks for it, its refusals."""
    surfaces: Surfaces = field(default_factory=Surfaces)
    """What the apps show of it besides the conversation: `/help`, slash commands, the page's panels, subcommands. The
    graph and the runtime never read them."""
    protocol: DefaultProtocol | None = None
    """The protocol runs on this toolset use unless the run (or FLOWAGENT_PROTOCOL) says otherwise; None: the
    model's default (native for an endpoint, react for the offline model)."""
    lookup_answers: bool = False
    """Whether one successful look-up answers a question that asks for information only ("我有哪些待办？"). For a
    model whose answers are not trusted (`Context.fixed_answers`), the run then ends with what the look-up found.
    False where a question needs several look-ups (flights, then hotels) or an answer that reasons over the result."""
    record_ids: str = ""
    """A regular expression for the record ids of this domain (the workflow's user_2, task_1, req_3; travel's flight
    numbers): an answer that names one no observation or person showed is replaced by the answer built from the tools'
    results. Empty: the domain has no ids an answer could make up, and no answer is checked for them."""

    backend: Callable[[], Backend] = MemoryBackend
    """Opens the toolset's default backend (the workflow: its store at FLOWAGENT_DB); a caller may pass its own."""
    deps: Callable[[], Any] = no_deps
    """Makes what the handlers need beyond the backend from the environment (the workflow: the SMTP mailer)."""
    actor: Callable[[Any, str], dict[str, Any]] = anyone
    """The signed-in actor's record, read through a backend handle; raises `PolicyError` ("unknown_actor") for an
    actor the domain does not know."""
    people: Callable[[Any], Sequence[dict[str, Any]]] | None = None
    """The people a person may name (records with `id`, `name`, and optionally `alias` and `email`), read through a
    backend handle; None for a domain without people."""
    stored_rules: Callable[[Any], str] | None = None
    """The rules the store holds, as text (the workflow: its deployed processes' routing, "同意且超过 5000 元", and the
    leave types' limits), read through a backend handle: a bound an answer states from them ("超过5000元的转财务") is
    no invented figure. None: the prompt states all the domain's rules."""
    people_kind: str | None = None
    """The reference kind whose records `people` returns, when it returns them whole (the workflow: "user"): the people
    a run reads at its start are then known by id (`tools.kept.KnownRecords`) for its checks and reads."""
    actor_kind: str | None = None
    """The reference kind of the actor's record, when `actor` returns one of the records `people` returns whole (the
    workflow: "user"): the run's directory then gives the actor's record too, without reading it again."""
    resolvers: Mapping[str, Resolver] = field(default_factory=dict)
    """How each reference kind of the tools' specs is looked up."""
    stable_kinds: tuple[str, ...] = ()
    """Reference kinds whose records rarely change (the workflow: users): one found by its id may be kept for a minute
    (`tools.kept.KnownRecords`) for checks and reads; a write always looks it up again."""
    named_record: Callable[[Any, str, Sequence[str]], str | None] | None = None
    """The one record of a reference kind the person's messages name (the workflow: the process, by its words:
    请假, "time off", 报销): (backend handle, reference kind, the request's messages, latest last) → its id, or None
    when they name none or several. The model's choice gives way to it, as it does to the person named as approver."""
    pick_person: Callable[[str, str, list[dict[str, Any]]], list[dict[str, Any]]] | None = None
    """Of several people one message names, those meant for a parameter (the workflow: the one named as approver,
    "Li Si rejected it; Wang Wu approves"): (param, text, named) → the ones meant; none: the message names nobody for
    it (the workflow: "抄送王五" names no approver)."""
    asked_next: Callable[[Any, Any, str, Sequence[tuple[str, dict[str, Any]]]], dict[str, Any] | None] | None = None
    """The next write the person's latest message asks for that is still to make, once one was made (the workflow:
    "张三和赵六的都批了" decides two to-dos; the first one decided, the other is next; "撤回，重新报一笔 580 的": the new
    request once the old one is withdrawn): (backend handle, the run's request, actor id, what the run's calls returned
    so far as (tool, result)) → a call (`name`, `args`), or None. For a model whose answers are not trusted, a write then
    does not end the run: the call is proposed as the person said, to the same checks and card. None: every write
    ends such a run."""
    limits: Mapping[str, Limit] = field(default_factory=dict)
    """The domain's limits, by name (the workflow: e-mails per thread per hour)."""
    guards: Sequence[Callable[[Any], None]] | None = None
    """The pipeline every call is admitted through (`tools.guards.Guard`s, in order); None: `tools.guards.STANDARD`.
    A deployment adds its own guard (a rate limit, a PII check) without touching the others:
    `dataclasses.replace(toolset, guards=tools.guards.added(MyGuard(), after="identity"))`."""
    graph_id: str = ""
    """The compiled graph's name, as LangGraph's server and Studio show it (`langgraph.json`; the workflow, the default
    toolset: `flowagent`); empty: `flowagent_<name>`."""

    @property
    def graph_name(self) -> str:
        """The compiled graph's name: the declared `graph_id`, else `flowagent_<name>`."""
        return self.graph_id or f"flowagent_{self.name}"

    @classmethod
    def flat(cls, **fields: Any) -> Toolset:
        """A toolset declared in the flat form of one record, as toolsets were written before the three interfaces:
        the language's keywords (`title`, `titles`, `intro`, `questions`, `refusals`) become its `language`, the
        surfaces' (`help`, `commands`, `panels`, `cli`) its `surfaces`, and the rest stay the domain's. `card_labels`, which
        nothing reads (a card carries its own labels), is dropped."""
        language = {f.name: fields.pop(f.name) for f in dataclasses.fields(Language) if f.name in fields}
        surfaces = {f.name: fields.pop(f.name) for f in dataclasses.fields(Surfaces) if f.name in fields}
        fields.pop("card_labels", None)
        return cls(**fields, language=Language(**language), surfaces=Surfaces(**surfaces))

    def with_registry(self, registry: ToolRegistry) -> Toolset:
        """This toolset's prompt and hooks with other tools (a test's extra tool)."""
        return dataclasses.replace(self, registry=registry)

    def run_limits(self, overrides: Mapping[str, int] | None = None) -> dict[str, int]:
        """The limits of a run: the declared defaults, with the run's own values for those it sets."""
        limits = {name: limit.default for name, limit in self.limits.items()}
        for name, value in (overrides or {}).items():
            if name in limits:
                limits[name] = int(value)
        return limits

    def open_backend(self, url: str | None = None) -> Backend:
        """The toolset's backend, at `url` when given (the workflow's store URL)."""
        return self.backend(url) if url else self.backend()  # type: ignore[call-arg]

    def directory(self, handle: Any) -> list[dict[str, Any]]:
        """The people a person may name (empty for a domain without people)."""
        return [dict(p) for p in self.people(handle)] if self.people is not None else []


__all__ = [
    "ChatCommand",  # the surfaces' records, importable from here as before (`tools.surfaces`)
    "CliCommand",
    "DefaultProtocol",
    "HelpSection",
    "Language",
    "Limit",
    "Resolver",
    "Surfaces",
    "Toolset",
    "anyone",
    "no_deps",
]
