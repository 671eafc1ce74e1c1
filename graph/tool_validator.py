"""The tool_validator node: every proposed call is checked before anything runs.

Checks, in order: the output was parseable; the tool exists; the arguments match the schema; required
parameters are present; referenced ids exist; identity parameters equal the session actor; the policy
allows it; the same call was not already made in this run; at most one write per step. Each refusal
is a `ToolMessage(status="error")` that tells the model what to do next.
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, ToolMessage
from langgraph.runtime import Runtime

from graph.calls import action_hash, thread_id_of_run
from graph.protocols import FORMAT_ERROR_NAME
from state.agent import AgentState
from state.context import Context
from state.records import ToolCallRecord
from tools import CallContext, WorkflowStore, check_call
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
    return ToolMessage(content=text, tool_call_id=call_id, name=name, status="error")


class ToolValidator:
    """Validates proposed calls; valid ones go on as `pending`, invalid ones become error observations."""

    def __init__(self, store: WorkflowStore, registry: ToolRegistry) -> None:
        self._store = store
        self._registry = registry

    def __call__(self, state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
        context = runtime.context
        errors: list[ToolMessage] = []
        proposed = list(state.get("proposed") or [])
        last = state["messages"][-1] if state["messages"] else None
        from_reasoner = not any(c["status"] == "edited" for c in proposed)
        if from_reasoner and isinstance(last, AIMessage):
            for bad in last.invalid_tool_calls:
                name = bad.get("name") or "unknown"
                if name == FORMAT_ERROR_NAME:
                    text = f"Error: {bad.get('error')}"
                else:
                    text = INVALID_JSON_TEMPLATE.format(name=name, error=bad.get("error") or "unparseable")
                errors.append(error_message(bad.get("id") or "", name, text))

        budget = dict(state["budget"])
        proposals = dict(budget["proposals"])
        ctx = CallContext(
            store=self._store,
            actor_id=context.user_id,
            thread_id=thread_id_of_run(),
            mail_rate_limit=context.mail_rate_limit,
        )
        pending: list[ToolCallRecord] = []
        first_write: str | None = None
        for call in proposed:
            name, args = call["name"], call["args"]
            digest = action_hash(name, args)
            proposals[digest] = proposals.get(digest, 0) + 1
            if digest in budget["results"]:
                errors.append(
                    error_message(
                        call["id"], name, REPEATED_CALL_TEMPLATE.format(name=name, result=budget["results"][digest])
                    )
                )
                continue
            if name in self._registry:
                missing = self._registry.get(name).missing_required(args)
                if missing:
                    params = ", ".join(missing)
                    errors.append(error_message(call["id"], name, MISSING_PARAMS_TEMPLATE.format(name=name, params=params)))
                    continue
            try:
                checked = check_call(self._registry, name, args, ctx)
            except DomainError as exc:
                errors.append(error_message(call["id"], name, REFUSAL_TEMPLATE.format(code=exc.code, message=exc.message)))
                continue
            if checked.spec.effect is Effect.WRITE:
                if first_write is not None:
                    errors.append(error_message(call["id"], name, SECOND_WRITE_TEMPLATE.format(first=first_write, name=name)))
                    continue
                first_write = name
            needs_approval = name in context.approval_tools
            pending.append(
                ToolCallRecord(
                    id=call["id"],
                    name=name,
                    args=checked.args.model_dump(exclude_none=True),
                    status="needs_approval" if needs_approval else "ready",
                    notes=checked.notes,
                )
            )
        budget["proposals"] = proposals
        update: dict[str, Any] = {"proposed": [], "pending": pending, "budget": budget}
        if errors:
            update["messages"] = errors
        return update
