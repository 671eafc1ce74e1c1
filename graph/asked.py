"""What the person's message still asks for once one of its writes was made, for a model whose answers are not
trusted (`Context.fixed_answers`).

Such a run ends after a write: what the write did is the whole answer, and a small model's summary is not asked for.
A message that decides two to-dos ("张三和赵六的都批了", "approve Zhang San's, reject Wang Wu's") then had its first
decided and the other left, the model never asked again. The toolset knows what is still asked
(`Toolset.asked_next`): the write does not end the run (`BudgetCheck`), and the reasoner proposes the next call as the
person said, with no model call, to the same guards and card (`AskedNext.proposal`). The person confirms each; a card
they decline ends the run as before.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langchain_core.messages import AIMessage, AnyMessage

from graph.answers import as_said
from graph.history import latest_human_index
from graph.plans import last_step_wrote
from state.agent import AgentState
from state.context import Context
from tools.backend import Backend
from tools.parsers import Lang
from tools.spec import Effect
from tools.toolset import Toolset


def _what(call: Mapping[str, Any]) -> tuple[str, str]:
    """What a call acts on, to tell whether the run proposed it already: its tool and its task (a batch: its tool)."""
    return call["name"], str((call.get("args") or {}).get("taskId") or "")


class AskedNext:
    """The toolset's next asked call after a write, read through its backend."""

    def __init__(self, toolset: Toolset, backend: Backend) -> None:
        self._hook = toolset.asked_next
        self._backend = backend
        self._writes = frozenset(spec.name for spec in toolset.registry if spec.effect is Effect.WRITE)
        self._last: tuple[str, dict[str, Any] | None] | None = None
        """The last step's answer, by its latest message's id: budget_check asks, and the reasoner right after it
        asks the same of the same messages; the store is read once (nothing writes between them)."""

    def _found(self, state: AgentState, request: Any, context: Context) -> dict[str, Any] | None:
        latest = state["messages"][-1].id if state["messages"] else None
        last = self._last
        if latest is not None and last is not None and last[0] == latest:
            return last[1]
        assert self._hook is not None
        with self._backend.read() as handle:
            found = self._hook(handle, request, context.user_id)
        if latest is not None:
            self._last = (latest, found)
        return found

    def call(self, state: AgentState, context: Context) -> dict[str, Any] | None:
        """The call the person's latest message still asks for, right after a write of this run, and not proposed
        in it before (never twice); None otherwise, and always for a model whose answers are trusted (it goes on by
        itself)."""
        request = state.get("request")
        if self._hook is None or request is None or not context.fixed_answers or not last_step_wrote(state):
            return None
        found = self._found(state, request, context)
        if found is None:
            return None
        messages: list[AnyMessage] = list(state["messages"])
        run = messages[latest_human_index(messages) + 1 :]
        made = {_what(c) for m in run if isinstance(m, AIMessage) for c in m.tool_calls}
        return None if _what(found) in made else found

    def proposal(self, state: AgentState, context: Context, lang: Lang) -> AIMessage | None:
        """The next asked call as the reasoner's step (`call`), or None."""
        found = self.call(state, context)
        return as_said(found, lang, "next") if found is not None else None

    def unmade(self, state: AgentState, context: Context, lang: Lang) -> AIMessage | None:
        """The first call the person's message asks for, where the model answers in a run that proposed no write at
        all ("张三那笔批了；王五那笔退回去" answered "已批准" with nothing done): proposed as they said, to its card."""
        request = state.get("request")
        if self._hook is None or request is None or not context.fixed_answers:
            return None
        messages: list[AnyMessage] = list(state["messages"])
        run = messages[latest_human_index(messages) + 1 :]
        if any(c["name"] in self._writes for m in run if isinstance(m, AIMessage) for c in m.tool_calls):
            return None
        found = self._found(state, request, context)
        return as_said(found, lang, "instead") if found is not None else None
