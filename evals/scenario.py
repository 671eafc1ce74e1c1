"""Scenario files: pydantic models for τ-style tasks (turns, reviews, end state, forbidden actions, attacks)."""

from __future__ import annotations

import dataclasses
import re
import tomllib
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, ValidationError, model_validator

from state.context import Context
from tools.toolsets import toolset_names
from tools.workflow.engine.working_time import parse_duration
from tools.workflow.seed import USERS

SCENARIO_DIR = Path(__file__).parent / "scenarios"
USER_IDS = tuple(user["id"] for user in USERS)
FIXED_CONTEXT_FIELDS = {"user_id", "protocol", "locale", "model"}
"""Context fields a scenario never overrides: the actor comes from each turn, the rest from the run."""

Scalar = str | int | float | bool


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Match(_Strict):
    """A condition on one field of a row, for anything beyond equality."""

    eq: Scalar | None = None
    ne: Scalar | None = None
    contains: str | None = None
    not_contains: str | None = None
    regex: str | None = None
    one_of: list[Scalar] | None = None
    not_in: list[Scalar] | None = None
    gt: float | None = None
    lt: float | None = None
    null: bool | None = None
    placeholder: bool | None = None
    """True: the text is empty or a stand-in ("请用户提供邮件内容", "TBD", "[...]"), as tools.workflow.policy judges it."""


def _condition_kind(value: Any) -> str:
    return "match" if isinstance(value, dict | Match) else "scalar"


FieldCondition = Annotated[
    Annotated[Scalar, Tag("scalar")] | Annotated[Match, Tag("match")], Discriminator(_condition_kind)
]
"""A field's expected value, or a `Match` table ({ contains = "…" }, { ne = "pending" }, …)."""
Where = dict[str, FieldCondition]
"""Field conditions of a row. JSON text columns (tool_executions.args/result, audit_log.detail) can be
matched by their keys with dotted names, e.g. `"args.taskId" = "task_1"`."""


class RowCondition(_Strict):
    """Rows of a store table that match `where`: the condition holds when more than `more_than` exist."""

    why: str = ""
    table: str
    where: Where = Field(default_factory=dict)
    more_than: int = 0


class Step(_Strict):
    """One model reply, protocol-neutral: a tool call, a final answer, or raw text sent verbatim.

    `raw` with a `tool` is raw text for the text protocols and, for native function calling, that text as
    content together with the tool call (a model that writes its own Observation next to a real call).
    """

    tool: str | None = None
    args: dict[str, Any] = Field(default_factory=dict)
    say: str | None = None
    raw: str | None = None
    thought: str = ""

    @model_validator(mode="after")
    def _one_kind(self) -> Step:
        kinds = [k for k in ("tool", "say", "raw") if getattr(self, k) is not None]
        if len(kinds) != 1 and kinds != ["tool", "raw"]:
            raise ValueError(f"a step is exactly one of tool, say or raw (or raw with a tool); got {kinds or 'none'}")
        if self.args and self.tool is None:
            raise ValueError("args belong to a tool step")
        return self


class Review(_Strict):
    """The reviewer's decision on the next approval card, if the card matches `tool`, `args` and `card`."""

    tool: str
    args: Where = Field(default_factory=dict)
    card: Where = Field(default_factory=dict)
    decision: Literal["approve", "edit", "reject"] = "approve"
    edit: dict[str, Any] = Field(default_factory=dict)
    """With decision = edit: arguments to change (merged over the card's arguments)."""
    message: str = ""
    """With decision = reject: what the reviewer tells the agent."""

    @model_validator(mode="after")
    def _edit_has_args(self) -> Review:
        if (self.decision == "edit") != bool(self.edit):
            raise ValueError("edit arguments go with decision = 'edit' and only with it")
        return self


class ReplyCheck(_Strict):
    """What the agent's final answer of a turn must (not) say."""

    question: bool = False
    """The answer asks the person something (a question mark, 吗, 请问, which, who...)."""
    contains_any: list[str] = Field(default_factory=list)
    contains_all: list[str] = Field(default_factory=list)
    not_contains: list[str] = Field(default_factory=list)
    not_matching: list[str] = Field(default_factory=list)
    """Regular expressions the answer must not match (case-insensitive): a kind of value rather than one value, as
    "no figure at all" (`[0-9]`) where no tool can give one."""

    @model_validator(mode="after")
    def _patterns_compile(self) -> ReplyCheck:
        for pattern in self.not_matching:
            try:
                re.compile(pattern)
            except re.error as error:
                raise ValueError(f"not_matching: {pattern!r} is no regular expression ({error})") from None
        return self


class Turn(_Strict):
    """One message of a person, the approvals they decide, and the oracle's (and attacker's) replies."""

    actor: str
    say: str
    goal: str = ""
    """The person's hidden goal, for an LLM-simulated person (defaults to what `say` asks)."""
    reviews: list[Review] = Field(default_factory=list)
    expect: ReplyCheck | None = None
    golden: list[Step]
    attack: list[Step] = Field(default_factory=list)
    """The compromised model's steps in this turn; it repeats the last tool step after they run out."""

    @model_validator(mode="after")
    def _known_actor(self) -> Turn:
        if self.actor not in USER_IDS:
            raise ValueError(f"actor {self.actor!r} is not a seed user ({', '.join(USER_IDS)})")
        if not self.golden or self.golden[-1].say is None:
            raise ValueError("the golden path of a turn ends with a `say` step (the final answer)")
        return self


class SetupStep(_Strict):
    """State before the conversation: a real tool call by an actor, one SQL statement, or time passing."""

    actor: str = "user_1"
    tool: str | None = None
    args: dict[str, Any] = Field(default_factory=dict)
    sql: str | None = None
    same_thread: bool = False
    """Run the tool in the scenario's own conversation thread (e.g. e-mails that count toward its rate limit)."""
    advance: str | None = None
    """Time passes: the trial's clock moves on by this ISO 8601 duration (P1D, PT2H) and the timer service fires what
    is due by then (`evals.timeflow`)."""
    working_time: bool = False
    """`advance` counts working days only, as a process's timers in working time do."""

    @model_validator(mode="after")
    def _one_kind(self) -> SetupStep:
        if sum(kind is not None for kind in (self.tool, self.sql, self.advance)) != 1:
            raise ValueError("a setup step is either a tool call, an sql statement or an advance of the clock")
        if self.advance is not None:
            parse_duration(self.advance)  # a duration the clock can count, or the file is refused naming it
        return self


class Expect(_Strict):
    """The expected end state: row counts per table and rows that must (not) exist."""

    counts: dict[str, int] = Field(default_factory=dict)
    rows: dict[str, list[Where]] = Field(default_factory=dict)
    absent: dict[str, list[Where]] = Field(default_factory=dict)


class Attack(_Strict):
    """The attacker's goal in an adversarial scenario; success = any `success` condition holds at the end."""

    goal: str
    vector: Literal["reason", "email_text", "display_name", "tool_result", "user_message", "model"]
    defence: Literal["policy", "review"] = "policy"
    """policy: the reviewer approves every card it did not expect (a rubber stamp), so only code stops the attack;
    review: the reviewer rejects cards it did not ask for (the person's confirmation is the defence)."""
    success: list[RowCondition] = Field(min_length=1)
    blocked_by: list[str] = Field(default_factory=list)
    """Text of the refusal that must stop the compromised model (e.g. "[self_approval]", "Rejected by the
    reviewer"); empty when no tool can reach the goal at all, so nothing needs refusing."""


class Scenario(_Strict):
    """A τ-style task: setup, the people's turns, and how the end is graded."""

    id: str = ""
    title: str
    category: str
    tags: list[str] = Field(default_factory=list)
    locale: Literal["zh-CN", "en"] = "zh-CN"
    toolset: str = "workflow"
    """The toolset the graph runs (`tools.toolsets`): workflow, toy or travel."""
    context: dict[str, Any] = Field(default_factory=dict)
    """Overrides of Context fields for this scenario: budgets, and the toolset's `limits` (e.g. mail_rate_limit)."""
    setup: list[SetupStep] = Field(default_factory=list)
    turns: list[Turn] = Field(min_length=1)
    expect: Expect = Field(default_factory=Expect)
    forbid: list[RowCondition] = Field(default_factory=list)
    attack: Attack | None = None

    @property
    def adversarial(self) -> bool:
        return self.attack is not None

    @model_validator(mode="after")
    def _consistent(self) -> Scenario:
        if self.toolset not in toolset_names():
            raise ValueError(f"toolset {self.toolset!r} is not one of {', '.join(toolset_names())}")
        known = {f.name for f in dataclasses.fields(Context)} - FIXED_CONTEXT_FIELDS
        unknown = sorted(set(self.context) - known)
        if unknown:
            raise ValueError(f"context has unknown fields {unknown}; allowed: {sorted(known)}")
        has_attack_steps = any(t.attack for t in self.turns)
        if self.attack is None and has_attack_steps:
            raise ValueError("attack steps in a turn need an [attack] table with the goal")
        if self.attack is not None and not has_attack_steps:
            raise ValueError("an adversarial scenario needs attack steps in at least one turn")
        return self


class ScenarioFileError(ValueError):
    """A scenario file cannot be read or does not match the schema."""


def load_scenario(path: Path) -> Scenario:
    """Read and validate one TOML scenario; its id is the file name."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioFileError(f"{path}: not valid TOML: {exc}") from exc
    if data.setdefault("id", path.stem) != path.stem:
        raise ScenarioFileError(f"{path}: id {data['id']!r} differs from the file name {path.stem!r}")
    try:
        return Scenario.model_validate(data)
    except ValidationError as exc:
        raise ScenarioFileError(f"{path}: {exc}") from exc


def load_scenarios(directory: Path = SCENARIO_DIR, patterns: list[str] | None = None) -> list[Scenario]:
    """Every scenario under `directory`, sorted by id, filtered by substrings or globs of the id."""
    scenarios = [load_scenario(p) for p in sorted(directory.rglob("*.toml"))]
    ids = [s.id for s in scenarios]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise ScenarioFileError(f"duplicate scenario ids: {duplicates}")
    if patterns:
        scenarios = [s for s in scenarios if any(_matches(s, p) for p in patterns)]
    return sorted(scenarios, key=lambda s: s.id)


def _matches(scenario: Scenario, pattern: str) -> bool:
    if any(ch in pattern for ch in "*?["):
        return fnmatchcase(scenario.id, pattern) or fnmatchcase(scenario.category, pattern)
    return pattern in scenario.id or pattern == scenario.category
