"""Records kept in the graph state: the step and its calls, the run budget, the audit trail."""

from __future__ import annotations

from typing import Any, Literal, NotRequired

from typing_extensions import TypedDict


class ToolCallRecord(TypedDict):
    """A tool call on its way from proposal to execution."""

    id: str
    """The tool call id of the model's proposal (the idempotency key's second half)."""
    name: str
    """The tool's name."""
    args: dict[str, Any]
    """Arguments, normalised by the tool's schema once validated."""
    status: Literal["proposed", "edited", "needs_approval", "approved", "ready"]
    """Where the call is: proposed by the model or edited by the reviewer (to validate), needs_approval,
    approved by a person, or ready (no approval needed)."""
    notes: NotRequired[list[str]]
    """The checks' notes, for the model and the audit (in English; never shown to a person as they are)."""
    sources: NotRequired[dict[str, dict[str, str]]]
    """Where each of the person's values came from, by parameter path: `{"how": "stated" | "filled" | "inferred",
    "said": the words it was read from}`; the card shows each value beside them."""


class Outcome(TypedDict):
    """What one executed call returned (turned into an observation by the summariser)."""

    id: str
    """The tool call id."""
    name: str
    """The tool's name."""
    action: str
    """Hash of the exact action (tool and arguments), to recognise repeats."""
    ok: bool
    """Whether the call succeeded."""
    result: dict[str, Any]
    """The full result, or `{"error": code, "message": ...}`."""
    elapsed_ms: float
    """Execution time."""
    wrote: NotRequired[bool]
    """Whether the call was a write that took effect."""


class Step(TypedDict):
    """One ReAct step, from its proposal to the budget check: the step's calls on their way, and what it spent.

    One record for the whole way, so each node of the step writes it once (the calls' way took three fields and six
    writes a step), and the run's budget is written once a step: budget_check adds the step to it and closes it (a
    step that ends the run is added by the node that ends it)."""

    calls: list[ToolCallRecord]
    """The calls still on their way: proposed by the model or edited by the reviewer (to validate), then
    needs_approval, approved or ready (to run). The executor empties it."""
    outcomes: list[Outcome]
    """What the executed calls returned, for the summariser."""
    model_calls: int
    """Model calls of this step."""
    tokens: int
    """Prompt plus completion tokens of this step."""
    proposals: list[str]
    """The exact action (tool + arguments hash) of every call proposed in this step, to recognise repeats."""
    review_requested_at: float
    """Unix time the open approval was requested (0.0 when none is open), to measure the person's wait."""
    waited_s: float
    """Seconds this step spent waiting for a person's approval (not charged to the time budget)."""


class RunBudget(TypedDict):
    """Counters of the current run (one person's message and everything it causes), up to its last closed step."""

    human_index: int
    """Position of the person's message that started this run; a new one resets the counters."""
    started_at: float
    """Unix time the run started."""
    waited_s: float
    """Seconds spent waiting for approvals (not charged to the time budget)."""
    model_calls: int
    """Model calls so far."""
    tokens: int
    """Prompt plus completion tokens so far."""
    tool_calls: dict[str, int]
    """Executed calls per tool."""
    consecutive_failures: int
    """Steps in a row whose every observation was an error."""
    proposals: dict[str, int]
    """How often each exact action (tool + arguments hash) was proposed."""


WrapUpCode = Literal[
    "done", "declined", "answered", "finished", "off_plan", "consecutive_failures", "repeated_action", "tool_calls",
    "model_calls", "tokens", "seconds",
]
"""Why a run ends early: a write or a look-up already answers (`done`, `answered`), the person declined the
step's write at its card (`declined`), a plan's or chain's steps all ran
(`finished`), a chain's step went wrong and a chain does not adapt
(`off_plan`), or a limit was reached (the rest)."""


class WrapUp(TypedDict):
    """Why the run must end now, decided by budget_check only."""

    code: WrapUpCode
    """What ended it, for code to branch on."""
    text: str
    """The same in words, in English, for the model's wrap-up prompt."""
    values: NotRequired[dict[str, Any]]
    """The values the words name (a limit, a tool), to tell the person in their language."""


class AuditRecord(TypedDict):
    """One decision of a person at an approval."""

    at: str
    """ISO time of the decision."""
    reviewer: str
    """The run's actor, who decided."""
    tool: str
    """The tool under review."""
    tool_call_id: str
    """The reviewed call."""
    args_hash: str
    """Hash of the exact arguments shown on the card."""
    decision: Literal["approve", "edit", "reject"]
    """What the person decided."""
    detail: NotRequired[dict[str, Any]]
    """Edited arguments or the rejection message."""



class OutcomeLine(TypedDict):
    """One write of a run and what became of it (the "what actually happened" line after an answer)."""

    tool: str
    """The tool."""
    status: Literal["executed", "refused", "rejected", "failed", "waiting"]
    """Executed; refused by the validator or the policy; rejected by the reviewer; failed while running;
    waiting for a person's decision."""
    detail: str
    """A readable line: the result, the refusal code, or the reviewer's message."""


class AskedCall(TypedDict):
    """A write the graph stopped to ask the person about: the person's next message may answer it."""

    name: str
    """The tool."""
    args: dict[str, Any]
    """The arguments as proposed."""
    param: str
    """The argument the question was about (a dotted path for a value inside an argument: `fields.amount`)."""
    kind: Literal["person", "number", "date", "text", "choice"]
    """What kind of value answers it (`tools.spec.PersonValue.kind`)."""
    unit: str
    """For a number, its unit ("day", "yuan", "none")."""
    choices: NotRequired[list[list[str]]]
    """For a choice with set options, the options (`tools.spec.PersonValue.choices`): the answer names one."""
    kept: NotRequired[dict[str, Any]]
    """The values the code took from the person's own record for the write (`tools.guards.call.Call.kept`)."""


class Ask(TypedDict):
    """What the graph itself tells the person to end the turn: a question about a value only they can give, or that
    the action cannot be done at all."""

    text: str
    """The words, in the person's language."""
    call: AskedCall | None
    """The write a question was about (its answer is filled in by code); None for a statement."""
    code: str
    """The refusal behind it (`missing_days`, `approver_not_named`, `process_not_startable`, …)."""
    asked: NotRequired[str]
    """Who was asked (the signed-in user): only their next message answers it; another user's starts anew."""


class StepNote(TypedDict, total=False):
    """What a node tells later nodes about a message it wrote (kept in the message's `response_metadata` under
    `STEP_NOTE_KEY`): one typed record instead of loose keys."""

    action: str
    """On an observation: the action hash of the call it answers (the executor's, over the arguments as they ran)."""
    repeated: bool
    """On an observation: the earlier result of a repeated look-up, given again instead of running it."""
    wrote: bool
    """On an observation: a write that took effect."""
    rejected: bool
    """On an observation: the person rejected the call at its card."""
    planner: bool
    """On a model reply: the planner's (an unusable plan becomes a format-correction observation)."""
    filled: bool
    """On a proposal: written by code from the person's answer to the graph's question (no model call)."""
    instead: bool
    """On a proposal: a call the person's words ask for, proposed by code (no model call: `graph.answers.as_said`)."""
    next: bool
    """On such a proposal: what the person's message still asked for after a write of the run (`graph.asked`)."""
    kept: dict[str, dict[str, Any]]
    """On such a proposal, by call id: the values taken from the person's own record (`tools.guards.call.Call.kept`)."""


STEP_NOTE_KEY = "flowagent"
"""The `response_metadata` key of a message's `StepNote`."""


class PlanStep(TypedDict):
    """One step of a plan (plan strategy) or of a chain (chain strategy): a tool, why, and its arguments."""

    tool: str
    """The tool the step calls (a registered name; the validator checks it again when the step is proposed)."""
    intent: str
    """What the step is for, in the planner's words (shown as the step's thought)."""
    args: dict[str, Any]
    """The planner's arguments; a chain step's are filled in by the model when the step comes up."""


class Plan(TypedDict):
    """The steps a run follows instead of deciding each one (plan and chain strategies)."""

    source: Literal["planner", "chain"]
    """Who wrote the steps: the planner (a surprise makes it plan again) or a declared chain (it never adapts)."""
    name: str
    """The chain's name, or "plan"."""
    steps: list[PlanStep]
    """Steps not yet proposed, next first."""
    done: int
    """Steps already proposed in this run."""
    final: bool
    """The planner found no (further) step needed: the reasoner answers, and the planner is not asked again."""
