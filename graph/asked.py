"""What the person's message still asks for once one of its writes was made, for a model whose answers are not
trusted (`Context.fixed_answers`).

Such a run ends after a write: what the write did is the whole answer, and a small model's summary is not asked for.
A message that decides two to-dos ("张三和赵六的都批了", "approve Zhang San's, reject Wang Wu's") then had its first
decided and the other left, the model never asked again. The toolset knows what is still asked
(`Toolset.asked_next`): the write does not end the run (`BudgetCheck`), and the reasoner proposes the next call as the
person said, with no model call, to the same guards and card (`AskedNext.proposal`). The person confirms each; a card
they decline ends the run as before.

A question beside the write is what else the message asks ("请两天年假，提交完告诉我年假还剩几天", "file my sick leave;
how much annual leave have I got left?"): once the writes are made, the look-up whose words it asks (each read
tool's `answers`) is made as well, with no model call, and its result is part of the answer. Only a look-up that
needs nothing but who is asking (its arguments are all identity parameters), only in a sentence that asks (a question,
or "告诉我…", "let me know…"), never in a write's comment ("备注：年假余额够").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langchain_core.messages import AIMessage, AnyMessage, ToolMessage

from graph.answers import as_said
from graph.history import latest_human_index, note_of, run_results
from graph.plans import last_step_wrote
from state.agent import AgentState
from state.context import Context
from tools.backend import Backend
from tools.message_kind import asked_sentences
from tools.parsers import Lang
from tools.request import Request
from tools.spec import Effect, ToolRegistry
from tools.toolset import Toolset


def _what(call: Mapping[str, Any]) -> tuple[str, str]:
    """What a call acts on, to tell whether the run proposed it already: its tool and its task, or the process it
    starts (a batch: its tool)."""
    args = call.get("args") or {}
    return call["name"], str(args.get("taskId") or args.get("processKey") or "")


def lookups_asked(registry: ToolRegistry, request: Request, made: set[str]) -> list[str]:
    """The look-ups a sentence of the latest message asks for (`asked_sentences`, each read tool's `answers`) that need
    nothing but who asks, and that neither the run nor a tool that answers the same (`answered_by`) has made."""
    # an answer's request's too, not a question answered before the message that acts on it ("how much leave have I
    # left?" answered, then "ok then, Thursday and Friday off")
    sentences = [s for text in request["texts"][request.get("answered", 0):] for s in asked_sentences(text)]
    return [
        spec.name for spec in registry
        if spec.effect is Effect.READ and spec.answers and spec.name not in made and not made & set(spec.answered_by)
        and set(spec.args_model.model_fields) <= set(spec.identity_params)
        and any(spec.answers_question(s) for s in sentences)
    ]


def _run(state: AgentState) -> list[AnyMessage]:
    messages: list[AnyMessage] = list(state["messages"])
    return messages[latest_human_index(messages) + 1 :]


def after_asked_write(state: AgentState) -> bool:
    """Whether the last step made a write, or what the message still asked after one (`AskedNext`)."""
    if last_step_wrote(state):
        return True
    run = _run(state)
    last = next((m for m in reversed(run) if isinstance(m, AIMessage)), None)
    wrote = any(isinstance(m, ToolMessage) and m.status == "success" and note_of(m).get("wrote") for m in run)
    return wrote and last is not None and bool(note_of(last).get("next"))


class AskedNext:
    """The toolset's next asked call after a write, read through its backend, then the look-ups asked beside it."""

    def __init__(self, toolset: Toolset, backend: Backend) -> None:
        self._hook = toolset.asked_next
        self._backend = backend
        self._registry = toolset.registry
        self._writes = frozenset(spec.name for spec in toolset.registry if spec.effect is Effect.WRITE)
        self._last: tuple[str, dict[str, Any] | None] | None = None
        """The last step's answer, by its latest message's id: budget_check asks, and the reasoner right after it
        asks the same of the same messages; the store is read once (nothing writes between them)."""

    def _found(self, state: AgentState, request: Any, context: Context) -> dict[str, Any] | None:
        if self._hook is None:
            return None
        latest = state["messages"][-1].id if state["messages"] else None
        last = self._last
        if latest is not None and last is not None and last[0] == latest:
            return last[1]
        done = run_results(list(state["messages"]))
        with self._backend.read() as handle:
            found = self._hook(handle, request, context.user_id, done)
        if latest is not None:
            self._last = (latest, found)
        return found

    def call(self, state: AgentState, context: Context) -> dict[str, Any] | None:
        """The call the person's latest message still asks for, right after a write of this run (or after what it
        still asked then), not proposed in it before (never twice): the toolset's next write, else a look-up asked
        beside the writes; None otherwise, and always for a model whose answers are trusted (it goes on by itself)."""
        request = state.get("request")
        if request is None or not context.fixed_answers or not after_asked_write(state):
            return None
        run = _run(state)
        made = {_what(c) for m in run if isinstance(m, AIMessage) for c in m.tool_calls}
        found = self._found(state, request, context)
        if found is not None and _what(found) not in made:
            return found
        looked = lookups_asked(self._registry, request, {name for name, _ in made})
        return {"name": looked[0], "args": {}} if looked else None

    def proposal(self, state: AgentState, context: Context, lang: Lang) -> AIMessage | None:
        """The next asked call as the reasoner's step (`call`), or None."""
        found = self.call(state, context)
        if found is None:
            return None
        return as_said(found, lang, "next" if found["name"] in self._writes else "next_read")

    def unlooked(self, state: AgentState, context: Context, lang: Lang) -> AIMessage | None:
        """The first look-up the person's words ask for (`lookups_asked`) that a model whose answers are not trusted
        left out even when reminded of it ("where's my trip request at? And how many days of annual leave do I have
        left?" answered with the trip alone: the forty-second round, read after its run): made as they asked."""
        request = state.get("request")
        if request is None or not context.fixed_answers:
            return None
        made = {m.name for m in _run(state) if isinstance(m, ToolMessage) and m.name}
        looked = lookups_asked(self._registry, request, made)
        return as_said({"name": looked[0], "args": {}}, lang, "next_read") if looked else None

    def unmade(self, state: AgentState, context: Context, lang: Lang) -> AIMessage | None:
        """The first call the person's message asks for, where the model answers in a run that proposed no write at
        all ("张三那笔批了；王五那笔退回去" answered "已批准" with nothing done): proposed as they said, to its card."""
        request = state.get("request")
        if self._hook is None or request is None or not context.fixed_answers:
            return None
        run = _run(state)
        if any(c["name"] in self._writes for m in run if isinstance(m, AIMessage) for c in m.tool_calls):
            return None
        found = self._found(state, request, context)
        return as_said(found, lang, "instead") if found is not None else None
