"""Tool specs (everything about one tool) and the registry that renders them for models (OpenAI schemas and a
plain-text list).

What a spec is made of lives beside it and is importable from here too: the hooks' context, verdict and signatures
(`tools.hooks`), the values only the person gives (`tools.person_values`), reading and explaining raw arguments
(`tools.arguments`)."""

from __future__ import annotations

import dataclasses
import functools
import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ValidationError

from tools import arguments
from tools.arguments import describe_validation_error
from tools.errors import InvalidArgumentsError
from tools.hooks import AfterCommit, CallContext, Card, Check, Describe, Found, Handler, Source, Sources, Verdict
from tools.patterns import compiled
from tools.person_values import PersonValue, PersonValuesFor, Refuse, ValueKind, get_param, set_param

__all__ = [
    "DEFAULT_LIST_LIMIT",
    "UNKNOWN_TOOL_TEMPLATE",
    "AfterCommit",
    "CallContext",
    "Card",
    "Chain",
    "Check",
    "Describe",
    "Effect",
    "Found",
    "Handler",
    "ObservationShape",
    "PersonValue",
    "PersonValuesFor",
    "RefKind",
    "Reference",
    "Refuse",
    "Source",
    "Sources",
    "ToolExample",
    "ToolRegistry",
    "ToolSpec",
    "ValueKind",
    "Verdict",
    "describe_validation_error",
    "get_param",
    "set_param",
]

UNKNOWN_TOOL_TEMPLATE = "{name} is not a valid tool; use one of: {available}."


class Effect(StrEnum):
    """Whether a tool only reads the store or changes it."""

    READ = "read"
    WRITE = "write"


RefKind = str
"""A kind of record the toolset resolves (the workflow's "user", "task", "process"): `Toolset.resolvers` by kind."""


@dataclass(frozen=True)
class Reference:
    """An argument that names a record which must exist (checked before the tool runs)."""

    param: str
    kind: RefKind
    resolve: str = "id"
    """How else the record may be named, as the kind's resolver understands it (the workflow's tasks: "requester",
    by its requester's name among the tasks the actor decides; "own", the task of the actor's own request)."""


@dataclass(frozen=True)
class ToolExample:
    """A worked example of one question answered with this tool, shown to text-protocol models as a real
    exchange (small models copy an exchange far better than a description)."""

    question: str
    args: dict[str, Any]
    observation: str
    """The tool's (compact) result, as the model would read it. It carries no record ids: a small model copies an
    example's ids into later calls ("remind Li Si about my request" → taskId req_7), and the ids a real result
    shows are the only ones it should use."""
    answer: str
    lang: str = "zh"
    """The language of the question and answer: a person writing English is shown the English example, so the
    model copies English values (a reason in a Chinese example is copied as a translation, which is not theirs)."""


DEFAULT_LIST_LIMIT = 10
"""Items of a list a model reads when its tool sets no limit for it."""


@dataclass(frozen=True)
class ObservationShape:
    """Which parts of a tool's result the model reads as its observation (the full result stays the artifact)."""

    drop: frozenset[str] = frozenset()
    """Fields a decision never needs (an e-mail address, a creation time)."""
    list_limits: Mapping[str, int] = field(default_factory=dict)
    """Items kept of a list field, by field name (others keep `DEFAULT_LIST_LIMIT`)."""

    def limit(self, key: str | None) -> int:
        return self.list_limits.get(key or "", DEFAULT_LIST_LIMIT)


@dataclass(frozen=True)
class ToolSpec:
    """Everything the graph needs to know about one tool."""

    name: str
    description: str
    args_model: type[BaseModel]
    effect: Effect
    handler: Handler
    requires_approval: bool = False
    references: tuple[Reference, ...] = ()
    identity_params: tuple[str, ...] = ()
    """Arguments that must equal the session's actor: filled in by code and not shown to the model."""
    card_params: tuple[str, ...] = ()
    """Arguments only the person sets, by an edit on the review card (a batch's per-task decisions): not shown to the
    model; the toolset's guards refuse them from it."""
    actor_defaults: tuple[str, ...] = ()
    """Arguments that default to the session's actor when the model leaves them out."""
    person_values: tuple[PersonValue, ...] = ()
    """Arguments only the person can give (the approver, the days, the reason, an e-mail's text)."""
    person_values_for: PersonValuesFor | None = None
    """The values only the person can give that depend on the call (a process's start form): read through the
    backend's handle once the call's references are found, added to `person_values` (replacing one of the same
    param). Their params may be dotted paths into an argument (`fields.amount`)."""
    answers: tuple[str, ...] = ()
    """Patterns of a request this look-up answers ("酒店|hotel"): a final answer given while the request matches
    and the run has not looked it up is sent back once, with a reminder (a small model answers half of
    "flights, and cheap hotels too")."""
    answered_by: tuple[str, ...] = ()
    """Other look-ups whose result answers the same requests (where a colleague's request stands: the copies, the
    to-dos, a task's view show it as well as the person's own requests): once one of them ran, this one is not sent
    back for."""
    check: Check | None = None
    """The tool's own policy rules: run read-only on the validator's path and, on the executor's, in the write's
    transaction right before the effect (the store may have changed since approval)."""
    card: Card | None = None
    """Builds the reviewer's card from the store (without it, the card says only which tool runs)."""
    observation: ObservationShape = ObservationShape()
    """What of a result the model reads."""
    after_commit: AfterCommit | None = None
    """Runs after a fresh write committed (never for a replayed one); may update the result."""
    describe: Describe | None = None
    """A readable line for a successful result: what a fixed answer and the run's outcome say."""
    model_description: str = ""
    """What the model reads about the tool (defaults to `description`): only what it needs to call it."""
    backend_bound: bool = False
    """A read whose handler waits on nothing but the backend's handle (no network, no lock of its own): on a backend
    that stops its work at a deadline (`tools.backend.StopsAtDeadline`) the executor runs it on the node's own thread,
    stopped at the call's timeout, instead of on a pool thread. Leave it False for a handler that can wait on anything
    else: only a pool thread can give that up."""
    arrange: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    """Puts decoded arguments where the tool takes them before any check (a start form's field the model passed as a
    parameter of its own goes into `fields`); it judges nothing: the checks after it refuse what is wrong."""
    title: Mapping[str, str] = field(default_factory=dict)
    """What the action is called where a person reads it, by language ("zh": "发起申请", "en": "start a request"): card
    titles, fixed answers and outcome lines name the action by it, never by the tool's name."""
    examples: tuple[ToolExample, ...] = ()
    """Worked examples for text-protocol models, at most one per language: each tool's example in the person's
    language is shown (else its first), in registry order."""

    def title_in(self, lang: str) -> str:
        """The action's name in a language, for a person; a tool without a title is called by what it does."""
        if self.title:
            return self.title.get(lang) or next(iter(self.title.values()))
        return "this action" if lang == "en" else "这个操作"

    def with_actor(self, raw: dict[str, Any], actor_id: str) -> dict[str, Any]:
        """The arguments with the actor filled in where the model may (or must) leave it out."""
        filled = dict(raw)
        for param in (*self.identity_params, *self.actor_defaults):
            if filled.get(param) in (None, ""):
                filled[param] = actor_id
        return filled

    def values_for(self, handle: Any, ctx: CallContext, values: dict[str, Any], found: Found) -> tuple[PersonValue, ...]:
        """Every value only the person can give for this call: those the call's arguments call for
        (`person_values_for`, a form's fields in the form's order) first, then the declared ones (a declared one of
        the same param is replaced). The person is asked about them in this order."""
        if self.person_values_for is None:
            return self.person_values
        extra = self.person_values_for(handle, ctx, values, found)
        params = {v.param for v in extra}
        return (*extra, *(v for v in self.person_values if v.param not in params))

    def answers_question(self, text: str) -> bool:
        """Whether the person's words ask what this look-up answers (any of `answers`, case aside)."""
        return any(compiled(p, re.IGNORECASE).search(text) for p in self.answers)

    def hidden_params(self) -> set[str]:
        return set(self.identity_params) | set(self.card_params)

    def optional_for_model(self) -> set[str]:
        """Parameters the model may leave out: code fills them in, or asks the person for them."""
        return set(self.actor_defaults) | {v.param for v in self.person_values}

    def decode(self, raw: Any) -> dict[str, Any]:
        """Raw arguments (a dict or a JSON string) as a dict, refused when they are not a JSON object; put where the
        tool takes them (`arrange`)."""
        values = arguments.decode(self, raw)
        return self.arrange(values) if self.arrange is not None else values

    def parse(self, raw: Any) -> BaseModel:
        """Validate raw arguments (a dict or a JSON string) into the argument model."""
        values = self.decode(raw)
        try:
            return self.args_model.model_validate(values)
        except ValidationError as exc:
            raise InvalidArgumentsError("invalid_arguments", arguments.describe_validation_error(self, exc)) from exc

    def failing_params(self, raw: dict[str, Any]) -> list[str]:
        """The parameters whose values the argument model refuses (in order), for raw arguments that fail."""
        try:
            self.args_model.model_validate(raw)
        except ValidationError as exc:
            return [str(err["loc"][0]) for err in exc.errors() if err["loc"]]
        return []

    def missing_required(self, raw: dict[str, Any]) -> list[str]:
        """Required parameters absent (or blank) in raw arguments."""
        missing = []
        for name in self.required_params():
            value = raw.get(name)
            if value is None or (isinstance(value, str) and not value.strip()):
                missing.append(name)
        return missing

    def required_params(self) -> list[str]:
        return [n for n, f in self.args_model.model_fields.items() if f.is_required()]

    def model_params(self) -> dict[str, bool]:
        """The parameters the model sees, each with whether it must give it (identity parameters are hidden)."""
        optional = self.optional_for_model()
        return {
            name: f.is_required() and name not in optional
            for name, f in self.args_model.model_fields.items()
            if name not in self.hidden_params()
        }

    def openai_schema(self) -> dict[str, Any]:
        """The tool as the model sees it, as an OpenAI function-calling definition (a copy the caller may change)."""
        return json.loads(self._openai_schema)

    @functools.cached_property
    def _openai_schema(self) -> str:
        """Built once per spec (pydantic's JSON schema generation cost a model-bound run about a millisecond a tool),
        kept as JSON: a copy is read back faster than one is deep-copied."""
        definition = arguments.openai_definition(self, self.model_description or self.description, self.model_params())
        return json.dumps(definition, ensure_ascii=False)

    def text_signature(self) -> str:
        """One line of the plain-text tool list used by the text protocols: `name(a, b?): what it does`."""
        params = ", ".join(name + ("" if required else "?") for name, required in self.model_params().items())
        return f"- {self.name}({params}): {self.model_description or self.description}"


@dataclass(frozen=True)
class Chain:
    """A fixed sequence of tools for one kind of task (the chain strategy): the model only fills in arguments."""

    name: str
    description: str
    """What the task is, as the person reads it in the list of what the chain strategy can do."""
    tools: tuple[str, ...]
    """The tools, in order."""
    intent: tuple[str, ...]
    """Patterns (regular expressions) of a request this chain serves: the chain strategy chooses by words."""


class ToolRegistry:
    """The tools the agent may call, by name."""

    def __init__(self, specs: Iterable[ToolSpec], *, chains: Iterable[Chain] = ()) -> None:
        self._specs = {s.name: s for s in specs}
        self.chains = tuple(chains)
        """The fixed sequences the chain strategy runs, by kind of task (first declared wins a tie)."""
        for chain in self.chains:
            unknown = [t for t in chain.tools if t not in self._specs]
            if unknown or not chain.tools:
                raise ValueError(f"chain {chain.name} names unknown tools {unknown} or none")

    def __contains__(self, name: object) -> bool:
        return name in self._specs

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self._specs.values())

    def __len__(self) -> int:
        return len(self._specs)

    @property
    def names(self) -> list[str]:
        return list(self._specs)

    def get(self, name: str) -> ToolSpec:
        """The spec of a tool; unknown names raise an error that lists the available tools."""
        try:
            return self._specs[name]
        except KeyError:
            raise InvalidArgumentsError(
                "unknown_tool", UNKNOWN_TOOL_TEMPLATE.format(name=name, available=", ".join(self._specs))
            ) from None

    def openai_schemas(self) -> list[dict[str, Any]]:
        return [s.openai_schema() for s in self._specs.values()]

    def text_list(self) -> str:
        return "\n".join(s.text_signature() for s in self._specs.values())

    def examples(self, lang: str | None = None) -> list[tuple[ToolSpec, ToolExample]]:
        """The tools' worked examples in registry order: each tool's one in `lang` (else its first), or with no
        `lang` every example of every language."""
        if lang is None:
            return [(spec, example) for spec in self._specs.values() for example in spec.examples]
        return [
            (spec, next((e for e in spec.examples if e.lang == lang), spec.examples[0]))
            for spec in self._specs.values() if spec.examples
        ]

    def approval_required(self) -> list[str]:
        """The tools whose spec says a person confirms every call."""
        return [s.name for s in self._specs.values() if s.requires_approval]

    def requiring_approval(self, names: Iterable[str]) -> ToolRegistry:
        """The same tools where exactly `names` need a person's confirmation (a deployment's setting,
        FLOWAGENT_APPROVAL_TOOLS); an unknown name is refused, naming the tools there are."""
        wanted = set(names)
        unknown = sorted(wanted - set(self._specs))
        if unknown:
            raise ValueError(f"no such tool {', '.join(unknown)}: the tools are {', '.join(self._specs)}")
        specs = [dataclasses.replace(s, requires_approval=s.name in wanted) for s in self._specs.values()]
        return ToolRegistry(specs, chains=self.chains)

    def approval_tools(self, override: Iterable[str] | None = None) -> tuple[str, ...]:
        """The tools that need a person's confirmation in a run: `override` when the run sets one (the
        `Context.approval_tools` setting), else those whose spec requires it."""
        return tuple(override) if override is not None else tuple(self.approval_required())
