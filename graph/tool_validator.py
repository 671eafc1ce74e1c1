"""The tool_validator node: every proposed call is checked before anything runs.

Checks, in order: the output was parseable; the tool exists; the arguments match the schema; required
parameters are present; referenced ids exist; identity parameters equal the session actor; the policy
allows it; the same call was not already made in this run; at most one write per step. Each refusal
is a `ToolMessage(status="error")` that tells the model what to do next.
"""

from __future__ import annotations

import time
from typing import Any, Literal

from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langgraph.runtime import Runtime

from graph.calls import action_hash, thread_id_of_run
from graph.observation_summarizer import earlier_results
from graph.protocols import FORMAT_ERROR_NAME
from state.agent import AgentState
from state.context import Context
from state.records import ToolCallRecord
from tools import CallContext, CheckedCall, WorkflowStore, check_call
from tools.errors import DomainError
from tools.spec import Effect, ToolRegistry

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
SECOND_WRITE_TEMPLATE = (
    "Error: only one write action per step. {first} was proposed first; propose {name} again after its result."
)
REFUSAL_TEMPLATE = "Error [{code}]: {message}"


def error_message(call_id: str, name: str, text: str) -> ToolMessage:
    """A refusal the model reads as the observation of its call."""
    return ToolMessage(content=text, tool_call_id=call_id, name=name, status="error")


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


def status_after_validation(call: ToolCallRecord, context: Context) -> Literal["needs_approval", "approved", "ready"]:
    """A valid call runs at once unless its tool needs a person; the person's own valid edit is their approval."""
    if call["name"] not in context.approval_tools:
        return "ready"
    return "approved" if call["status"] == "edited" else "needs_approval"


class ToolValidator:
    """Validates proposed calls; valid ones go on as `pending`, invalid ones become error observations."""

    def __init__(self, store: WorkflowStore, registry: ToolRegistry) -> None:
        self._store = store
        self._registry = registry

    def __call__(self, state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
        """Check every proposed call (from the model, or edited by the reviewer) in order."""
        context = runtime.context
        proposed = list(state.get("proposed") or [])
        from_reasoner = not any(c["status"] == "edited" for c in proposed)
        last = state["messages"][-1]
        errors = invalid_call_errors(last) if from_reasoner and isinstance(last, AIMessage) else []
        # An edit comes back alone: the calls of the same step that were already cleared still run.
        pending = [] if from_reasoner else [c for c in state.get("pending") or [] if c["status"] in ("ready", "approved")]
        writes = [c["name"] for c in pending if self._registry.get(c["name"]).effect is Effect.WRITE]
        budget = state["budget"].copy()
        budget["proposals"] = dict(budget["proposals"])
        ctx = CallContext(
            store=self._store,
            actor_id=context.user_id,
            thread_id=thread_id_of_run(),
            mail_rate_limit=context.mail_rate_limit,
        )
        person_said = [str(m.content) for m in state["messages"] if isinstance(m, HumanMessage)]
        results = earlier_results(state["messages"], budget["human_index"])
        for call in proposed:
            digest = action_hash(call["name"], call["args"])
            budget["proposals"][digest] = budget["proposals"].get(digest, 0) + 1
            checked = self._check(call, ctx, results, writes[0] if writes else None, person_said)
            if isinstance(checked, str):
                errors.append(error_message(call["id"], call["name"], checked))
                continue
            if checked.spec.effect is Effect.WRITE:
                writes.append(call["name"])
            status = status_after_validation(call, context)
            args = checked.args.model_dump(exclude_none=True)
            pending.append(ToolCallRecord(id=call["id"], name=call["name"], args=args, status=status, notes=checked.notes))
        if any(c["status"] == "needs_approval" for c in pending):
            budget["review_requested_at"] = time.time()
        update: dict[str, Any] = {"proposed": [], "pending": pending, "budget": budget}
        if errors:
            update["messages"] = errors
        return update

    def _check(
        self,
        call: ToolCallRecord,
        ctx: CallContext,
        results: dict[str, str],
        first_write: str | None,
        person_said: list[str],
    ) -> CheckedCall | str:
        """The checked call, or the text of the first check it fails.

        `results` holds the earlier results of this run by action hash of the *normalised* arguments (as the
        executor ran them), so a repeat is caught however the model spells it (days 1 or "1" or 1.0).
        """
        name, args = call["name"], call["args"]
        earlier = results.get(action_hash(name, args))
        if earlier is not None:
            return REPEATED_CALL_TEMPLATE.format(name=name, result=earlier)
        if name in self._registry:
            missing = self._registry.get(name).missing_required(args)
            if missing:
                return MISSING_PARAMS_TEMPLATE.format(name=name, params=", ".join(missing))
        try:
            checked = check_call(self._registry, name, args, ctx, person_said=person_said)
        except DomainError as exc:
            return REFUSAL_TEMPLATE.format(code=exc.code, message=exc.message)
        earlier = results.get(action_hash(name, checked.args.model_dump(exclude_none=True)))
        if earlier is not None:
            return REPEATED_CALL_TEMPLATE.format(name=name, result=earlier)
        if checked.spec.effect is Effect.WRITE and first_write is not None:
            return SECOND_WRITE_TEMPLATE.format(first=first_write, name=name)
        return checked
