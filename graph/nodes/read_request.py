"""The read_request node: every run starts here. It reads the person's request once, and answers in code what needs
no model: what the assistant can do, and the person's answer to the graph's own question (filled into the write it
was about and proposed to the validator)."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from graph.answers import capability_answer, filled_call
from graph.budget import open_step
from graph.calls import proposed_calls
from graph.deps import NodeDeps
from graph.run import run_reset, start_run
from state.agent import AgentState
from state.context import Context
from tools.kept import KnownRecords


class ReadRequest:
    """Starts a run: fresh counters, the request record, and the answers that need no model."""

    def __init__(self, deps: NodeDeps) -> None:
        self._toolset = deps.toolset
        self._backend = deps.backend
        self._clock = deps.clock
        self._known: KnownRecords | None = deps.actors.known

    def __call__(self, state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
        ask = state.get("ask")
        another = ask is not None and ask.get("asked", runtime.context.user_id) != runtime.context.user_id
        if another:
            ask = None  # the question was put to another user: this message neither answers it nor continues it
        asked = ask["call"] if ask else None
        update = run_reset(state) | start_run(
            list(state["messages"]), runtime.context, self._toolset, self._backend, self._clock, ask, alone=another,
            known=self._known,
        )
        request = update["request"]
        if asked is not None:
            filled = filled_call(asked, request, self._toolset.registry)
            if filled is not None:
                return {**update, "messages": [filled], "step": open_step(None, proposed_calls(filled))}
        if request["kind"] == "capability" and self._toolset.language.intro:
            answer = capability_answer(self._toolset, request["lang"])
            answer = answer.model_copy(update={"response_metadata": {**answer.response_metadata, "outcome": []}})
            return {**update, "messages": [answer], "outcome": []}
        return update

