"""Reading a thread's history: the current run, the person's words and language, what the tools found.

Shared by the nodes (a node never imports another node): the validator answers repeated look-ups from the
run's observations, the reasoner builds fixed answers and the run's outcome from them.
"""

from __future__ import annotations

import json
import re
from typing import Any

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, ToolMessage

from state.records import STEP_NOTE_KEY, OutcomeLine, StepNote
from tools.request import Lang, Request
from tools.spec import Effect, ToolRegistry

REPEAT_RESULT_CHARS = 500


def note(**fields: Any) -> dict[str, Any]:
    """A `response_metadata` entry carrying a `StepNote` (what a node tells later nodes about its message)."""
    return {STEP_NOTE_KEY: StepNote(**fields)}  # type: ignore[typeddict-item]


def note_of(message: Any) -> StepNote:
    """The `StepNote` of a message (empty when it has none)."""
    meta = getattr(message, "response_metadata", None) or {}
    found = meta.get(STEP_NOTE_KEY)
    return StepNote(**found) if isinstance(found, dict) else StepNote()  # type: ignore[typeddict-item]


def latest_human_index(messages: list[AnyMessage]) -> int:
    """Position of the person's latest message (the start of the current run), -1 if none."""
    for i in range(len(messages) - 1, -1, -1):
        if isinstance(messages[i], HumanMessage):
            return i
    return -1


def is_question(message: AIMessage) -> bool:
    """Whether an answer asked the person something (the graph's own question, or any question mark)."""
    text = str(message.content)
    return bool(message.response_metadata.get("asked")) or "?" in text or "？" in text


def earlier_results(messages: list[AnyMessage], start: int) -> dict[str, str]:
    """This run's successful observations from `start` on, by action hash: what a repeated call is told.

    The action hash is the executor's, taken over the arguments as they ran (normalised), so a repeat
    is caught however the model spells them.
    """
    results: dict[str, str] = {}
    for msg in messages[start:]:
        if isinstance(msg, ToolMessage) and msg.status == "success" and not note_of(msg).get("repeated"):
            action = note_of(msg).get("action")
            if action:
                text = str(msg.content)
                results[action] = text if len(text) <= REPEAT_RESULT_CHARS else text[: REPEAT_RESULT_CHARS - 1] + "…"
    return results


class ResultIndex:
    """`earlier_results` kept up to date as a run grows: each call reads only the messages added since the last one
    (a run's messages are only appended to), so a long run costs one pass, not one pass per step."""

    MAX_RUNS = 256

    def __init__(self) -> None:
        self._runs: dict[tuple[str, int], tuple[int, str | None, dict[str, str]]] = {}

    def results(self, key: str, messages: list[AnyMessage], start: int) -> dict[str, str]:
        """The run's results by action hash; `key` names the thread (the run is the thread and `start`)."""
        scanned, last_id, results = self._runs.get((key, start), (start, None, {}))
        if scanned > len(messages) or (last_id is not None and messages[scanned - 1].id != last_id):
            scanned, results = start, {}  # not the run seen before (another process wrote it, or it changed)
        results = {**results, **earlier_results(messages[scanned:], 0)}
        if len(self._runs) >= self.MAX_RUNS:
            self._runs.pop(next(iter(self._runs)))
        self._runs[(key, start)] = (len(messages), messages[-1].id if len(messages) > start else None, results)
        return results


def run_results(messages: list[AnyMessage]) -> list[tuple[str, dict[str, Any]]]:
    """The successful tool results of the current run, in order, once per distinct action."""
    seen: set[str] = set()
    found = []
    for msg in messages[latest_human_index(messages) + 1 :]:
        if isinstance(msg, ToolMessage) and msg.status == "success" and isinstance(msg.artifact, dict):
            action = str(note_of(msg).get("action") or msg.tool_call_id)
            if action not in seen:
                seen.add(action)
                found.append((msg.name or "", msg.artifact))
    return found


def open_lookups(messages: list[AnyMessage], registry: ToolRegistry, request: Request) -> list[str]:
    """The look-ups the person's request asks for (each tool's `answers` patterns) that the run has not made yet."""
    text = " ".join(request["texts"])
    made = {m.name for m in messages[latest_human_index(messages) + 1 :] if isinstance(m, ToolMessage)}
    return [
        s.name for s in registry
        if s.answers and s.name not in made and any(re.search(p, text, re.IGNORECASE) for p in s.answers)
    ]


def describe_result(registry: ToolRegistry, tool: str, result: dict[str, Any], lang: Lang) -> str:
    """A readable line for one result: the tool's own `describe`, else its compact JSON."""
    if tool in registry:
        describe = registry.get(tool).describe
        if describe is not None:
            try:
                return describe(result, lang)
            except (KeyError, TypeError, ValueError):
                pass  # an unexpected result shape falls back to the raw result below
    return f"{tool}: {json.dumps(result, ensure_ascii=False)[:300]}"


def run_outcome(messages: list[AnyMessage], registry: ToolRegistry, lang: Lang) -> list[OutcomeLine]:
    """What became of every write the model proposed in the current run, from the run's observations."""
    lines: list[OutcomeLine] = []
    writes = {s.name for s in registry if s.effect is Effect.WRITE}
    for msg in messages[latest_human_index(messages) + 1 :]:
        if not isinstance(msg, ToolMessage) or not msg.name or msg.name not in writes:
            continue
        if msg.status == "success":
            result = msg.artifact if isinstance(msg.artifact, dict) else {}
            detail = describe_result(registry, msg.name, result, lang)
            lines.append(OutcomeLine(tool=msg.name, status="executed", detail=detail))
        elif note_of(msg).get("rejected"):
            lines.append(OutcomeLine(tool=msg.name, status="rejected", detail=str(msg.content)))
        elif isinstance(msg.artifact, dict) and msg.artifact.get("error") in ("tool_failed", "timeout"):
            lines.append(OutcomeLine(tool=msg.name, status="failed", detail=f"[{msg.artifact['error']}]"))
        else:
            code = re.search(r"\[([a-z_]+)\]", str(msg.content))
            detail = f"[{code.group(1)}]" if code else str(msg.content)[:120]
            lines.append(OutcomeLine(tool=msg.name, status="refused", detail=detail))
    return lines


def outcome_text(outcome: list[OutcomeLine], lang: Lang) -> str:
    """The "what actually happened" line shown after a final answer, e.g. "实际发生：runWorkFlow 已执行（…）"."""
    from graph.prompts import OUTCOME_LABELS

    labels = OUTCOME_LABELS[lang]
    if not outcome:
        return f"{labels['title']} {labels['none']}"
    sep = "；" if lang == "zh" else "; "
    parts = [f"{line['tool']} {labels[line['status']]}: {line['detail']}" for line in outcome]
    return f"{labels['title']} " + sep.join(parts)


def cited_ids(text: str, pattern: str) -> set[str]:
    """Record ids a text names: matches of the toolset's `record_ids` pattern (user_2, task_1; CA1501)."""
    return set(re.findall(pattern, text))


def known_ids(messages: list[AnyMessage], actor_id: str, pattern: str) -> set[str]:
    """Ids the thread has seen for real: in the person's words and in the tools' observations (a refusal names
    records from the store too)."""
    known = {actor_id}
    for msg in messages:
        if isinstance(msg, HumanMessage | ToolMessage):
            known |= cited_ids(str(msg.content), pattern)
            if isinstance(msg, ToolMessage) and isinstance(msg.artifact, dict):
                known |= cited_ids(str(msg.artifact), pattern)
    return known


__all__ = [
    "Lang",
    "cited_ids",
    "describe_result",
    "earlier_results",
    "is_question",
    "known_ids",
    "latest_human_index",
    "note",
    "note_of",
    "open_lookups",
    "outcome_text",
    "run_outcome",
    "run_results",
]
