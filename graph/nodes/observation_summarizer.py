"""The observation_summarizer node (result → Observation): compact observations and history folding.

The full tool result stays on the message as its artifact; the content the model reads keeps only
what a decision needs. When the prompt's history passes a token threshold, older turns fold into the
rolling summary, cut only at a person's message so no tool call is ever separated from its result.
"""

from __future__ import annotations

import json
from typing import Any

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, ToolMessage
from langgraph.runtime import Runtime

from graph.calls import thread_id_of_run, tokens_of_chars
from graph.history import char_index, note
from state.agent import AgentState
from state.context import Context
from tools.spec import ObservationShape, ToolRegistry

MAX_STRING = 160
ALWAYS_DROP = frozenset({"replayed"})
"""Fields no observation shows (the executor's bookkeeping)."""
GENERAL_SHAPE = ObservationShape()
"""The shape of a result whose tool sets none."""
SUMMARY_LINE_CHARS = 160


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _compact_value(value: Any, shape: ObservationShape, drop: frozenset[str], key: str | None = None) -> Any:
    if isinstance(value, str):
        return _cut(value, MAX_STRING)
    if isinstance(value, dict):
        return {k: _compact_value(v, shape, drop, k) for k, v in value.items() if k not in drop}
    if isinstance(value, list):
        return [_compact_value(v, shape, drop) for v in value[: shape.limit(key)]]
    return value


def compact_observation(result: dict[str, Any], shape: ObservationShape = GENERAL_SHAPE) -> str:
    """The observation text the model reads, as the tool's `shape` says: without the fields a decision never
    needs, the first items of long lists with their total, short strings."""
    if "error" in result and set(result) <= {"error", "message", "elapsed_ms"}:
        return f"Error [{result['error']}]: {result.get('message', '')} ({result.get('elapsed_ms', 0):g} ms)"
    drop = shape.drop | ALWAYS_DROP
    compact = _compact_value(result, shape, drop)
    for key, items in result.items():
        if isinstance(items, list):
            limit = shape.limit(key)
            if len(items) > limit:
                compact[f"{key}_shown"] = f"first {limit} of {len(items)}"
                compact.setdefault("total", len(items))
    return json.dumps(compact, ensure_ascii=False, separators=(",", ":"))


def summary_line(msg: AnyMessage) -> str:
    if isinstance(msg, HumanMessage):
        return _cut(f"user: {msg.content}", SUMMARY_LINE_CHARS)
    if isinstance(msg, AIMessage):
        calls = "; ".join(f"{c['name']}({json.dumps(c['args'], ensure_ascii=False)})" for c in msg.tool_calls)
        text = f"assistant: {msg.content}" + (f" → {calls}" if calls else "")
        return _cut(text, SUMMARY_LINE_CHARS)
    if isinstance(msg, ToolMessage):
        return _cut(f"{msg.name or 'tool'} → {msg.content}", SUMMARY_LINE_CHARS)
    return ""


def fold_point(messages: list[AnyMessage], start: int, keep_turns: int) -> int:
    """Index before which messages may fold: the person's message `keep_turns` turns before the last."""
    humans = [i for i in range(start, len(messages)) if isinstance(messages[i], HumanMessage)]
    if len(humans) <= keep_turns + 1:
        return start
    return humans[-(keep_turns + 1)]


def fold(messages: list[AnyMessage]) -> list[str]:
    """Summary lines for messages leaving the prompt (appended to the state's summary)."""
    return [line for line in (summary_line(m) for m in messages) if line]


class ObservationSummarizer:
    """Turns the executor's outcomes into observations, shaped by each tool's spec, and folds old turns."""

    def __init__(self, registry: ToolRegistry) -> None:
        self._registry = registry
        self._chars = char_index()

    def _shape(self, tool: str) -> ObservationShape:
        return self._registry.get(tool).observation if tool in self._registry else GENERAL_SHAPE

    def __call__(self, state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
        """Turn the executor's outcomes into observations and fold old turns when the history is long."""
        context = runtime.context
        observations: list[ToolMessage] = []
        step = state.get("step")
        for outcome in step["outcomes"] if step else []:
            content = compact_observation(outcome["result"], self._shape(outcome["name"]))
            observations.append(
                ToolMessage(
                    content=content,
                    artifact=outcome["result"],
                    tool_call_id=outcome["id"],
                    name=outcome["name"],
                    status="success" if outcome["ok"] else "error",
                    response_metadata={
                        "elapsed_ms": outcome["elapsed_ms"], **note(action=outcome["action"], wrote=outcome.get("wrote", False)),
                    },
                )
            )
        return self._fold(state, context, observations)

    def _fold(self, state: AgentState, context: Context, observations: list[ToolMessage]) -> dict[str, Any]:
        """The observations, and older turns folded into the summary once the history passes the threshold."""
        update: dict[str, Any] = {"messages": observations}

        messages = [*state["messages"], *observations]
        start = state.get("summarized_upto", 0)
        chars = self._chars.get(thread_id_of_run(), state["messages"], start) + self._chars.get(None, observations)
        if tokens_of_chars(chars) > context.summary_threshold_tokens:
            cut = fold_point(messages, start, context.keep_recent_turns)
            if cut > start:
                update["summary"] = fold(messages[start:cut])
                update["summarized_upto"] = cut
        return update
