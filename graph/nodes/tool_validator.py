"""The tool_validator node: every proposed call is checked before anything runs.

Checks, in order: the output was parseable; the tool exists; the call passes the admission guards
(`tools/guards/`: identity, references, the person's values filled from their words, dates, what cannot be done at
all, what is missing, what is not usable as written, the schema, the people, the tool's policy, whether the person
said each value); the same call was not already made in this run; at most one write per step. A refusal is a
`ToolMessage(status="error")` that tells the model what to do next; a value only the person can give, or what cannot
be done, ends the turn with the graph's own words (`ask_person`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any, Literal

from langchain_core.messages import AIMessage, ToolMessage
from langgraph.runtime import Runtime

from graph.answers import question_for
from graph.budget import count_proposals, open_step, review_requested
from graph.calls import KeptRead, action_hash, call_context, thread_id_of_run
from graph.deps import NodeDeps
from graph.history import ResultIndex, note, note_of
from graph.protocols import FORMAT_ERROR_NAME
from graph.run import lang_of
from state.agent import AgentState
from state.context import Context
from state.records import Ask, AskedCall, ToolCallRecord
from tools.errors import CannotError, DomainError, NeedsPersonError
from tools.request import Lang, Request
from tools.runtime import CheckedCall, check_call
from tools.spec import Effect, PersonValue, ToolRegistry, ValueKind

INVALID_JSON_TEMPLATE = (
    "Error: the arguments of {name} are not valid JSON ({error}). Call {name} again with a JSON object."
)
MISSING_PARAMS_TEMPLATE = (
    "Error: {name} needs {params}. Do not guess: ask the user for {params} in your answer, then call {name} again."
)
REPEATED_CALL_TEMPLATE = (
    "Error: {name} was already called with these exact arguments in this run. Its result was: {result} "
    "Use that result instead of calling it again."
)
REPEATED_LOOKUP_TEMPLATE = "{result}\n(Same result as before: {name} was already called. Answer from it now.)"
SECOND_WRITE_TEMPLATE = (
    "Error: only one write action per step. {first} was proposed first; propose {name} again after its result."
)
REFUSAL_TEMPLATE = "Error [{code}]: {message}"
TASK_VIEW = "viewTask"
"""The look-up of one to-do, proposed in place of a write on it asked of in a question (when the toolset has it)."""
MY_REQUESTS = "queryMyRequests"
"""The look-up of the person's own requests, in place of a write on one asked of in a question ("我的年假怎么给退回来
了？" had a withdrawal proposed, and was answered "nothing was changed": the seventy-sixth round's run)."""
_RECORD_ID = re.compile(r"^\s*[A-Za-z]+_\d+\s*$")
"""A record's id ("task_2"): the model's own words ("printer") name no to-do to show."""
QUESTION_ONLY_TEMPLATE = (
    "Error [question_only]: the latest message is a question that asks for no change; answer it from what the "
    "look-ups found, and propose {name} only when a message asks for it."
)


_ID_OF = re.compile(r"^[^\s（(]+")
"""A record offered for choosing as its id and its few words ("task_1（张三，请假，1 天，去医院复查）"): its id."""


def error_message(call_id: str, name: str, text: str, instead: dict[str, Any] | None = None) -> ToolMessage:
    """A refusal the model reads as the observation of its call; `instead`, the call the refusal names in its place
    (kept as the message's artifact, never shown to the model)."""
    return ToolMessage(content=text, tool_call_id=call_id, name=name, status="error",
                       artifact={"instead": instead} if instead else None)


@dataclass(frozen=True)
class Refused:
    """A check's refusal: the text the model reads, and the call the rule names in its place, if any."""

    text: str
    instead: dict[str, Any] | None = None


def invalid_call_errors(message: AIMessage) -> list[ToolMessage]:
    """Error observations for output that never became a call: unparseable text or invalid JSON arguments."""
    errors = []
    for bad in message.invalid_tool_calls:
        name = bad.get("name") or "unknown"
        if name == FORMAT_ERROR_NAME:
            text = f"Error: {bad.get('error')}"
        else:
            text = INVALID_JSON_TEMPLATE.format(name=name, error=bad.get("error") or "unparseable")
        errors.append(error_message(bad.get("id") or "", name, text))
    return errors


TO_CHECK = ("proposed", "edited")
"""The statuses of calls the validator checks (the others of a step were checked already)."""
NOT_RUN_FOR_QUESTION = "Not run: the user is asked first ({code}); propose it again after their answer if still wanted."


class Repeat:
    """A look-up already answered in this run: its earlier result is given again instead of running it."""

    def __init__(self, result: str, action: str) -> None:
        self.result = result
        self.action = action


def status_after_validation(
    call: ToolCallRecord, context: Context, registry: ToolRegistry
) -> Literal["needs_approval", "approved", "ready"]:
    """A valid call runs at once unless its tool needs a person; the person's own valid edit is their approval."""
    if call["name"] not in registry.approval_tools(context.approval_tools):
        return "ready"
    return "approved" if call["status"] == "edited" else "needs_approval"


class ToolValidator:
    """Validates the step's proposed calls; valid ones go on in the step, invalid ones become error observations.

    A value only the person can give that is missing or not theirs, or an action that cannot be done at all, ends
    the turn through `ask_person` (`ask`), told by the graph in the person's language, never left to the model.
    """

    def __init__(self, deps: NodeDeps) -> None:
        self._actors = deps.actors
        self._reads = deps.reads
        self._toolset = deps.toolset
        self._registry = deps.registry
        self._backend = deps.backend
        self._needs = deps.needs
        self._clock = deps.clock
        self._results = ResultIndex()

    def __call__(self, state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
        """Check every proposed call (from the model, or edited by the reviewer) in order."""
        context = runtime.context
        step = open_step(state.get("step"))
        proposed = [c for c in step["calls"] if c["status"] in TO_CHECK]
        from_reasoner = not any(c["status"] == "edited" for c in proposed)
        last = state["messages"][-1]
        observations = invalid_call_errors(last) if from_reasoner and isinstance(last, AIMessage) else []
        kept = (note_of(last).get("kept") or {}) if from_reasoner else {}  # values from the person's own record
        # An edit comes back alone: the calls of the same step that were already cleared still run.
        pending = [c for c in step["calls"] if c["status"] in ("ready", "approved")]
        writes = [c["name"] for c in pending if self._registry.get(c["name"]).effect is Effect.WRITE]
        digests: list[str] = []
        lang = lang_of(state, context)
        thread_id = thread_id_of_run()
        ctx = call_context(
            self._toolset, self._backend, self._needs, context, self._clock, thread_id, lang=lang, actors=self._actors
        )
        request: Request | None = state.get("request")
        results = self._results.results(thread_id, list(state["messages"]), state["budget"]["human_index"])
        ask: Ask | None = None
        for call in proposed:
            if ask is not None:  # the person is asked first: the rest of the step waits for their answer
                observations.append(error_message(call["id"], call["name"], NOT_RUN_FOR_QUESTION.format(code=ask["code"])))
                continue
            digest = action_hash(call["name"], call["args"])
            digests.append(digest)
            try:
                # A reviewer's edit is the person's own choice of values: only the model's proposals must be
                # found in what the person said.
                said = request if call["status"] != "edited" else None
                checked = self._check(call, digest, ctx, results, writes[0] if writes else None, said,
                                      kept.get(call["id"]))
            except (CannotError, NeedsPersonError) as exc:
                ask = Ask(**self._ask(call, exc, lang, kept.get(call["id"])), asked=ctx.actor_id)
                observations.append(
                    error_message(call["id"], call["name"], REFUSAL_TEMPLATE.format(code=exc.code, message=exc.message))
                )
                continue
            if isinstance(checked, Repeat):
                observations.append(
                    ToolMessage(
                        content=REPEATED_LOOKUP_TEMPLATE.format(result=checked.result, name=call["name"]),
                        tool_call_id=call["id"], name=call["name"], status="success",
                        response_metadata=note(action=checked.action, repeated=True),
                    )
                )
                continue
            if isinstance(checked, str):
                observations.append(error_message(call["id"], call["name"], checked))
                continue
            if isinstance(checked, Refused):
                observations.append(error_message(call["id"], call["name"], checked.text, checked.instead))
                continue
            valid, args, action = checked
            if valid.spec.effect is Effect.WRITE:
                writes.append(call["name"])
            status = status_after_validation(call, context, self._registry)
            if valid.spec.effect is Effect.READ and status == "ready":  # runs next: the executor need not check it
                self._reads.keep(thread_id, call["id"], KeptRead(valid, args, replace(ctx, call_id=call["id"]), action))
            record = ToolCallRecord(id=call["id"], name=call["name"], args=args, status=status, notes=valid.notes)
            if valid.verdict.sources:
                record["sources"] = {param: {k: str(v) for k, v in source.items()}
                                     for param, source in valid.verdict.sources.items()}
            pending.append(record)
        if ask is not None:
            for waiting in pending:
                observations.append(error_message(waiting["id"], waiting["name"], NOT_RUN_FOR_QUESTION.format(code=ask["code"])))
            pending = []
        step = count_proposals(open_step(step, pending), digests)
        if any(c["status"] == "needs_approval" for c in pending):
            step = review_requested(step, self._clock)
        update: dict[str, Any] = {"step": step}
        if ask is not None or state.get("ask") is not None:  # an unchanged channel is not written (nor stored)
            update["ask"] = ask
        if observations:
            update["messages"] = observations
        return update

    def _check(
        self,
        call: ToolCallRecord,
        digest: str,
        ctx: Any,
        results: dict[str, str],
        first_write: str | None,
        request: Request | None,
        kept: dict[str, Any] | None = None,
    ) -> tuple[CheckedCall, dict[str, Any], str] | Repeat | Refused | str:
        """The checked call with its normalised arguments and their action hash, a repeated look-up's earlier result,
        or the text of the first check it fails.

        `digest` is the call's action hash as proposed; `results` holds the earlier results of this run by action hash
        of the *normalised* arguments (as the executor ran them), so a repeat is caught however the model spells it
        (days 1 or "1" or 1.0). Raises `NeedsPersonError` when the person must be asked, `CannotError` when they
        must be told.
        """
        name, args = call["name"], call["args"]
        if digest in results:
            return self._repeat(name, results[digest], digest)
        if name in self._registry:
            spec = self._registry.get(name)
            if request is not None and request["kind"] == "information" and spec.effect is Effect.WRITE:
                return self._question_only(name, args)
            filled = spec.with_actor(args, ctx.actor_id) if isinstance(args, dict) else args
            asked = {v.param for v in spec.person_values}
            missing = [p for p in spec.missing_required(filled) if p not in asked] if isinstance(filled, dict) else []
            if missing:
                return MISSING_PARAMS_TEMPLATE.format(name=name, params=", ".join(missing))
        try:
            checked = check_call(self._toolset, name, args, ctx, request=request, kept=kept)
        except NeedsPersonError:
            raise
        except CannotError:
            raise
        except DomainError as exc:
            return Refused(REFUSAL_TEMPLATE.format(code=exc.code, message=exc.message), getattr(exc, "instead", None))
        normalised = checked.args.model_dump(exclude_none=True)
        digest = action_hash(name, normalised)  # not skipped for equal arguments: 1 == 1.0, but they hash apart
        if digest in results:
            return self._repeat(name, results[digest], digest)
        if checked.spec.effect is Effect.WRITE and first_write is not None:
            return SECOND_WRITE_TEMPLATE.format(first=first_write, name=name)
        return checked, normalised, digest

    def _question_only(self, name: str, args: Any) -> Refused | str:
        """The refusal of a write proposed for a question; on a to-do the person named ("Open it. If I approve, does it
        go to someone after me?" carded a decision twice, then ended with nothing: the sixtieth round's run), with the
        to-do's view in its place, which shows its steps and who decides next."""
        text = QUESTION_ONLY_TEMPLATE.format(name=name)
        if isinstance(args, dict) and "requestId" in args and MY_REQUESTS in self._registry:
            return Refused(f"{text} To show the user's requests, where each is and why, call {MY_REQUESTS}.",
                           {"name": MY_REQUESTS, "args": {}, "why": "instead_read"})
        task = args.get("taskId") if isinstance(args, dict) else None
        if not isinstance(task, str) or not _RECORD_ID.match(task) or TASK_VIEW not in self._registry:
            return text  # a model's own words ("printer") name no to-do to show
        return Refused(f"{text} To show the task and its steps, call {TASK_VIEW} with taskId {task}.",
                       {"name": TASK_VIEW, "args": {"taskId": task}, "why": "instead_read"})

    def _ask(self, call: ToolCallRecord, error: CannotError | NeedsPersonError, lang: Lang,
             kept: dict[str, Any] | None = None) -> Ask:
        """What the person is told: that the action cannot be done, or the question about the value it lacks (the
        values `kept` from their own record go with the write it asks about)."""
        if isinstance(error, CannotError):
            return Ask(text=error.say.get(lang) or error.message, call=None, code=error.code)
        question = question_for(error, self._toolset, lang, self._value(call["name"], error))
        asked = self._asked_call(call, error)
        if asked is not None and kept:
            asked["kept"] = dict(kept)
        return Ask(text=question, call=asked, code=error.code)

    def _value(self, tool: str, error: NeedsPersonError) -> PersonValue | None:
        """The value the question is about: the one the check named, else the tool's declared one of that param."""
        if isinstance(error.value, PersonValue):
            return error.value
        if tool not in self._registry or not error.param:
            return None
        return next((v for v in self._registry.get(tool).person_values if v.param == error.param), None)

    def _asked_call(self, call: ToolCallRecord, error: NeedsPersonError) -> AskedCall | None:
        """What the person's answer to the question will fill in (None if the question is about no argument)."""
        value = self._value(call["name"], error)
        if call["name"] not in self._registry or not error.param:
            return None
        kind: ValueKind = value.kind if value is not None else ("person" if error.ask.startswith("which") else "text")
        asked = AskedCall(name=call["name"], args=dict(call["args"]), param=error.param, kind=kind,
                          unit=value.unit if value is not None else "none")
        if value is not None and value.choices:
            asked["choices"] = [list(option) for option in value.choices]
        elif value is None and error.choices:  # which of several records: each offered as its id and its few words
            asked["choices"] = [[found.group(), shown] for shown in error.choices if (found := _ID_OF.match(shown))]
        return asked

    def _repeat(self, name: str, result: str, digest: str) -> Repeat | str:
        if self._registry.get(name).effect is Effect.READ:
            return Repeat(result, digest)
        return REPEATED_CALL_TEMPLATE.format(name=name, result=result)
