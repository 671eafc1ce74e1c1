"""Tool specs (everything about one tool) and the registry that renders them for models (OpenAI schemas and a
plain-text list)."""

from __future__ import annotations

import dataclasses
import functools
import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Literal, NotRequired

from pydantic import BaseModel, ValidationError
from typing_extensions import TypedDict

from tools.errors import InvalidArgumentsError

if TYPE_CHECKING:
    from tools.backend import Backend
    from tools.kept import KnownRecords
    from tools.request import Request

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


ValueKind = Literal["person", "number", "date", "text", "choice"]
Refuse = Callable[[Any, Mapping[str, Any], date], None]
"""(a value of the person's, every argument, the run's date) → None, or raises `CannotError` when no answer of theirs
could make the value possible (a date in the past, an end before its start): said before anything is asked."""


@dataclass(frozen=True)
class PersonValue:
    """An argument only the person can give: the model may pass it on, never make it up.

    Missing, or not found in what the person said (`tools.request.Request`), it makes the graph ask the person. How a
    value is found depends on its kind: a person must be the one the request names; a number must be stated with its
    `unit` ("day": a day count, a duration or a date range's days; "yuan": an amount; "none": any number); a date must
    be stated; a text must be the person's own words, in their language (a translation is not theirs); a choice must
    be stated (`stated`, or one of `choices` named in the person's words) or is left to the person at the review card
    (`optional` and `on_card`).

    `param` names an argument, or a value inside one by a dotted path (`fields.amount`: the `amount` of the `fields`
    argument), so the values of a tool whose form depends on its arguments can be declared too
    (`ToolSpec.person_values_for`).
    """

    param: str
    kind: ValueKind
    ask: str
    """The question's key in the toolset's questions (`Toolset.questions`), e.g. "approver" or "days"; a key the
    toolset does not word is asked about by `label`."""
    unit: Literal["day", "yuan", "none"] = "none"
    optional: bool = False
    """Not asked for when missing (the person may leave it out)."""
    stated: Callable[[Request], Any] | None = None
    """Reads the value the person spelled out in their request; when found, it is the value (the person's own words
    outrank the model's)."""
    label: Mapping[str, str] = field(default_factory=dict)
    """What the value is called, by language ("zh", "en"): the general question asks for it by this name."""
    meaningful: bool = False
    """For a text: it must say something of its own, beyond words any request has ("take 2 days off" is no reason)."""
    filler: re.Pattern[str] | None = None
    """For a meaningful text: words that say nothing of this value's own (a comment that only says the decision, "批了",
    "fine with me", is the decision, not a comment)."""
    found_key: str = ""
    """For a person: the record the check finds for the call (`Verdict.found`) that must be the person named, when
    it is not the parameter's own (an e-mail's recipient is the task's assignee when the model gave a task)."""
    choices: tuple[tuple[str, ...], ...] = ()
    """For a choice: its options, each its value first, then its name in Chinese, in English (either may be ""), and
    any other words that name it: ("差旅", "差旅", "Travel"). The person states one by naming it in either language;
    the question offers them by name in the person's language."""
    on_card: bool = False
    """For an optional value: when the model fills it in, the person confirms it on the review card instead of having
    said it (a decision's comment). Otherwise an optional value that is given must be stated like any other."""
    hints: tuple[tuple[str, ...], ...] = ()
    """For a choice: words that imply an option without naming it, each its option's value first, then the words, in
    either language: ("差旅", "打车", "taxi", "机票"). A value the model left out, or named in its own words ("交通"),
    is inferred from them when they point to one option; the card shows it as inferred."""
    cues: tuple[str, ...] = ()
    """For a text: words a person writes right before the value (去, 到, "to"): a value the model left out is read from
    what follows one, when the request holds it verbatim (去深圳见客户 → 深圳)."""
    refuse: Refuse | None = None
    """What no answer could make possible, for a value of the person's (a trip in the past): refused before the person
    is asked for anything else."""

    def option_names(self, lang: str) -> tuple[str, ...]:
        """The options by name in a language ("zh", "en"), for a question."""
        index = 2 if lang == "en" else 1
        return tuple(next((w for w in (*o[index:index + 1], *o[1:2], o[0]) if w), o[0]) for o in self.choices)

    def option_of(self, given: Any) -> str | None:
        """The option a given value means (its value, or any word naming it, in any case); None when none."""
        text = str(given).strip().casefold()
        for option in self.choices:
            if any(text == word.casefold() for word in option if word):
                return option[0]
        return None


def get_param(values: Mapping[str, Any], path: str) -> Any:
    """The value at a parameter path (`days`, or `fields.amount` inside the `fields` argument); None when absent."""
    current: Any = values
    for part in path.split("."):
        if not isinstance(current, Mapping):
            return None
        current = current.get(part)
    return current


def set_param(values: Mapping[str, Any], path: str, value: Any) -> dict[str, Any]:
    """A copy of the arguments with the value at a parameter path set (nested objects copied, created when absent)."""
    head, _, rest = path.partition(".")
    copied = dict(values)
    if not rest:
        copied[head] = value
        return copied
    inner = copied.get(head)
    copied[head] = set_param(inner if isinstance(inner, Mapping) else {}, rest, value)
    return copied


PersonValuesFor = Callable[[Any, CallContext, dict[str, Any], Found], tuple[PersonValue, ...]]
"""(backend handle, call context, the arguments with their references resolved, the records they name) → the values
only the person can give that these arguments call for."""


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

    def hidden_params(self) -> set[str]:
        return set(self.identity_params)

    def optional_for_model(self) -> set[str]:
        """Parameters the model may leave out: code fills them in, or asks the person for them."""
        return set(self.actor_defaults) | {v.param for v in self.person_values}

    def decode(self, raw: Any) -> dict[str, Any]:
        """Raw arguments (a dict or a JSON string) as a dict, refused when they are not a JSON object."""
        if raw is None:
            raw = {}
        if isinstance(raw, str):
            try:
                raw = json.loads(raw) if raw.strip() else {}
            except (ValueError, RecursionError) as exc:  # JSONDecodeError, too many digits, too deep
                reason = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)[:80]
                raise InvalidArgumentsError(
                    "invalid_json",
                    f"The arguments of {self.name} are not valid JSON ({reason}); "
                    'send a JSON object such as {"taskId": "task_1"}.',
                ) from exc
        if not isinstance(raw, dict):
            raise InvalidArgumentsError(
                "invalid_arguments", f"The arguments of {self.name} must be a JSON object, not {type(raw).__name__}."
            )
        bad = _first_unencodable(raw)
        if bad is not None:
            raise InvalidArgumentsError(
                "invalid_arguments",
                f"The arguments of {self.name} contain text that is not valid Unicode ({bad}); send plain UTF-8 text.",
            )
        return raw

    def parse(self, raw: Any) -> BaseModel:
        """Validate raw arguments (a dict or a JSON string) into the argument model."""
        values = self.decode(raw)
        try:
            return self.args_model.model_validate(values)
        except ValidationError as exc:
            raise InvalidArgumentsError("invalid_arguments", describe_validation_error(self, exc)) from exc

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
        schema = self.args_model.model_json_schema()
        schema.pop("title", None)
        params = self.model_params()
        properties = {k: v for k, v in schema.get("properties", {}).items() if k in params}
        for prop in properties.values():
            prop.pop("title", None)
            prop.pop("default", None)
        schema["properties"] = properties
        schema["required"] = [k for k, required in params.items() if required]
        if not schema["required"]:
            schema.pop("required")
        schema["additionalProperties"] = False
        description = self.model_description or self.description
        definition = {"type": "function", "function": {"name": self.name, "description": description, "parameters": schema}}
        return json.dumps(definition, ensure_ascii=False)

    def text_signature(self) -> str:
        """One line of the plain-text tool list used by the text protocols: `name(a, b?): what it does`."""
        params = ", ".join(name + ("" if required else "?") for name, required in self.model_params().items())
        return f"- {self.name}({params}): {self.model_description or self.description}"


def _first_unencodable(raw: Any) -> str | None:
    """The first string (key or value, at any depth) that cannot be stored as UTF-8, e.g. a lone surrogate."""
    pending, seen = [raw], set()
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError as exc:
                return f"{exc.reason} at position {exc.start}"
        elif isinstance(item, dict | list | tuple) and id(item) not in seen:  # iterative, cycle-safe
            seen.add(id(item))
            pending.extend([*item.keys(), *item.values()] if isinstance(item, dict) else item)
    return None


def describe_validation_error(spec: ToolSpec, exc: ValidationError) -> str:
    """A short, actionable explanation of a pydantic validation error."""
    parts = []
    for err in exc.errors()[:5]:
        loc = ".".join(str(p) for p in err["loc"]) or "arguments"
        if err["type"] == "extra_forbidden":
            if spec.args_model.model_fields:
                allowed = ", ".join(spec.args_model.model_fields)
                parts.append(f"{loc} is not a parameter of {spec.name} (parameters: {allowed})")
            else:
                parts.append(f"{spec.name} takes no parameters: call it with {{}}")
        elif err["type"] == "missing":
            parts.append(f"{loc} is required")
        else:
            msg = err["msg"].removeprefix("Value error, ")
            parts.append(f"{loc}: {msg}")
    return f"Invalid arguments for {spec.name}: " + "; ".join(parts) + "."


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
