"""The reasoner node (Thought → Action): builds the prompt, calls the model, proposes tool calls."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, SystemMessage, ToolMessage
from langgraph.runtime import Runtime

from graph import prompts
from graph.calls import estimate_tokens
from graph.protocols import new_call_id, parse_reply, render_for_text_protocol
from state.agent import AgentState
from state.context import Context
from state.records import ToolCallRecord, new_budget
from tools import WorkflowStore, policy
from tools.errors import DomainError
from tools.spec import ToolRegistry

ModelSource = BaseChatModel | Callable[[Context], BaseChatModel]

REACT_STOP = ["\nObservation:", "Observation:"]
USER_NAME_TTL_S = 60.0
"""How long the reasoner reuses a user's display name (one store read per model call cost 10 % of a step)."""


def latest_human_index(messages: list[AnyMessage]) -> int:
    for i in range(len(messages) - 1, -1, -1):
        if isinstance(messages[i], HumanMessage):
            return i
    return -1


NOT_RUN_OBSERVATION = (
    "Not run: the run stopped (cancelled, or a new message arrived) before this call was executed. "
    "Propose it again only if it is still wanted."
)


def close_dangling_calls(messages: list[AnyMessage]) -> list[AnyMessage]:
    """Give every proposed call an observation, so the prompt never holds a call without its result.

    A run cancelled with Ctrl-C, or left at an approval when the person wrote something else, leaves the
    model's proposal without a tool result; chat APIs refuse such a history.
    """
    out: list[AnyMessage] = []
    open_calls: list[tuple[str, str]] = []

    def close() -> None:
        for call_id, name in open_calls:
            out.append(ToolMessage(content=NOT_RUN_OBSERVATION, tool_call_id=call_id, name=name, status="error"))
        open_calls.clear()

    for msg in messages:
        if isinstance(msg, ToolMessage):
            open_calls[:] = [c for c in open_calls if c[0] != msg.tool_call_id]
        else:
            close()
        out.append(msg)
        if isinstance(msg, AIMessage):
            open_calls.extend((c["id"] or "", c["name"]) for c in msg.tool_calls)
            open_calls.extend((c.get("id") or "", c.get("name") or "") for c in msg.invalid_tool_calls)
    return out


class Reasoner:
    """Thought → Action: one model call per visit, in normal or wrap-up mode."""

    def __init__(self, model: ModelSource, store: WorkflowStore, registry: ToolRegistry) -> None:
        self._model_source = model
        self._store = store
        self._registry = registry
        self._bound: dict[int, Any] = {}
        self._names: dict[str, tuple[str, float]] = {}

    def _model(self, context: Context) -> BaseChatModel:
        if isinstance(self._model_source, BaseChatModel):
            return self._model_source
        return self._model_source(context)

    def _with_tools(self, model: BaseChatModel) -> Any:
        key = id(model)
        if key not in self._bound:
            self._bound[key] = model.bind_tools(self._registry.openai_schemas())
        return self._bound[key]

    def user_name(self, user_id: str) -> str:
        """The actor's display name, read from the store at most once every USER_NAME_TTL_S seconds."""
        cached = self._names.get(user_id)
        if cached is not None and cached[1] > time.monotonic():
            return cached[0]
        try:
            with self._store.read() as conn:
                name = str(policy.require_user(conn, user_id)["name"])
        except DomainError:
            return "unknown user"
        self._names[user_id] = (name, time.monotonic() + USER_NAME_TTL_S)
        return name

    def system_prompt(self, state: AgentState, context: Context) -> str:
        user_name = self.user_name(context.user_id)
        today = datetime.now(ZoneInfo(context.timezone)).strftime("%Y-%m-%d %A")
        text = prompts.SYSTEM_PROMPT.format(
            user_name=user_name,
            user_id=context.user_id,
            today=today,
            timezone=context.timezone,
            locale=context.locale,
        )
        if context.protocol != "native":
            text += prompts.TOOLS_SECTION_TEXT.format(tools=self._registry.text_list())
            fmt = prompts.REACT_FORMAT if context.protocol == "react" else prompts.JSON_FORMAT
            text += fmt.format(tool_names=", ".join(self._registry.names))
        summary = "\n".join(state.get("summary") or [])
        if summary:
            text += prompts.SUMMARY_SECTION.format(summary=summary)
        return text

    def prompt(self, state: AgentState, context: Context, extra: str | None = None) -> list[AnyMessage]:
        recent = close_dangling_calls(list(state["messages"][state.get("summarized_upto", 0) :]))
        system = self.system_prompt(state, context)
        if context.protocol != "native":
            recent = render_for_text_protocol(recent, context.protocol)
        messages: list[AnyMessage] = [SystemMessage(content=system), *recent]
        if extra:
            messages.append(HumanMessage(content=extra))
        return messages

    def __call__(self, state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
        context = runtime.context
        messages = state["messages"]
        human_index = latest_human_index(messages)
        budget = state.get("budget")
        if budget is None or budget["human_index"] != human_index:
            budget = new_budget(human_index, time.time())
            wrap_up = ""
        else:
            budget = {**budget}
            wrap_up = state.get("wrap_up", "")
        if wrap_up:
            return self._wrap_up(state, context, budget, wrap_up)

        model = self._model(context)
        prompt = self.prompt(state, context)
        if context.protocol == "native":
            raw = self._with_tools(model).invoke(prompt)
        else:
            raw = model.invoke(prompt, stop=REACT_STOP if context.protocol == "react" else None)
        reply = with_unique_call_ids(parse_reply(raw, context.protocol), messages)
        budget["model_calls"] += 1
        budget["tokens"] += _tokens_used(raw, prompt)
        proposed = [
            ToolCallRecord(id=c["id"] or "", name=c["name"], args=dict(c["args"]), status="proposed")
            for c in reply.tool_calls
        ]
        return {"messages": [reply], "proposed": proposed, "budget": budget, "wrap_up": "", "pending": []}

    def _wrap_up(self, state: AgentState, context: Context, budget: Any, reason: str) -> dict[str, Any]:
        """Out of budget: ask the model, without tools, for the best answer; else say what was done."""
        ask = prompts.WRAP_UP_ASK_FOR_HELP if reason.startswith("consecutive_failures") else ""
        text = ""
        try:
            model = self._model(context)
            prompt = self.prompt(state, context, prompts.WRAP_UP_INSTRUCTION.format(reason=reason, ask=ask))
            if context.protocol != "native":
                prompt[-1] = HumanMessage(
                    content=str(prompt[-1].content) + " Reply with plain text only: no Action, no JSON."
                )
            raw = model.invoke(prompt)
            budget["model_calls"] += 1
            budget["tokens"] += _tokens_used(raw, prompt)
            if not getattr(raw, "tool_calls", None):
                parsed = parse_reply(raw, context.protocol) if context.protocol != "native" else raw
                text = str(parsed.content).strip()
                if getattr(parsed, "tool_calls", None) or getattr(parsed, "invalid_tool_calls", None):
                    text = ""
        except Exception:  # noqa: BLE001 - a failing model must not prevent the written wrap-up
            text = ""
        if not text:
            text = fallback_wrap_up(state, reason)
        message = AIMessage(content=text, response_metadata={"wrap_up": reason})
        return {"messages": [message], "proposed": [], "pending": [], "budget": budget, "wrap_up": reason}


def with_unique_call_ids(reply: AIMessage, history: list[AnyMessage]) -> AIMessage:
    """The reply with every call id present and new to the thread.

    A call id is half of a write's idempotency key, so a model (or server) that repeats ids such as
    `call_0`, or sends none, would otherwise have a later e-mail answered with an earlier one's result.
    """
    used = {c["id"] for m in history if isinstance(m, AIMessage) for c in [*m.tool_calls, *m.invalid_tool_calls]}
    changed = False

    def fresh(call: Any) -> Any:
        nonlocal changed
        if call.get("id") and call["id"] not in used:
            used.add(call["id"])
            return call
        changed = True
        call = {**call, "id": new_call_id()}
        used.add(call["id"])
        return call

    tool_calls = [fresh(c) for c in reply.tool_calls]
    invalid = [fresh(c) for c in reply.invalid_tool_calls]
    if not changed:
        return reply
    return reply.model_copy(update={"tool_calls": tool_calls, "invalid_tool_calls": invalid})


def fallback_wrap_up(state: AgentState, reason: str) -> str:
    """A deterministic wrap-up: the reason, the actions that succeeded in this run, and what they found."""
    budget = state.get("budget")
    done = []
    if budget:
        done = [f"{tool} ×{n}" for tool, n in sorted(budget["tool_calls"].items())]
    text = prompts.FALLBACK_WRAP_UP.format(
        reason=reason, done=", ".join(done) or prompts.FALLBACK_NOTHING_DONE, next_step=prompts.FALLBACK_NEXT_STEP
    )
    found = last_successful_observation(state)
    if found:
        text += prompts.FALLBACK_FOUND.format(observation=found)
    return text


def last_successful_observation(state: AgentState) -> str:
    """The content of the newest successful tool result of the current run, if any."""
    messages = state["messages"]
    start = latest_human_index(messages) + 1
    for msg in reversed(messages[start:]):
        if isinstance(msg, ToolMessage) and msg.status != "error":
            return str(msg.content)[:1000]
    return ""


def _tokens_used(raw: Any, prompt: list[AnyMessage]) -> int:
    usage = getattr(raw, "usage_metadata", None)
    if usage and usage.get("total_tokens"):
        return int(usage["total_tokens"])
    return estimate_tokens(prompt) + estimate_tokens([raw])
