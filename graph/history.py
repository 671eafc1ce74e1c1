"""Reading a thread's history: the current run, the person's words and language, what the tools found.

Shared by the nodes (a node never imports another node): the validator answers repeated look-ups from the
run's observations, the reasoner builds fixed answers and the run's outcome from them.
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, ToolMessage

from state.records import OutcomeLine
from tools import said, words
from tools.spec import Effect, PersonWords, ToolRegistry

ACTION_KEY = "action"
"""Key of an observation's `response_metadata` holding the action hash of the call it answers."""
REPEAT_RESULT_CHARS = 500
_LATIN_RE = re.compile(r"[A-Za-z]{2,}")

Lang = Literal["zh", "en"]


def latest_human_index(messages: list[AnyMessage]) -> int:
    """Position of the person's latest message (the start of the current run), -1 if none."""
    for i in range(len(messages) - 1, -1, -1):
        if isinstance(messages[i], HumanMessage):
            return i
    return -1


def person_said(messages: list[AnyMessage]) -> list[str]:
    """Everything the person wrote in the thread, oldest first."""
    return [str(m.content) for m in messages if isinstance(m, HumanMessage)]


def is_question(message: AIMessage) -> bool:
    """Whether an answer asked the person something (the graph's own question, or any question mark)."""
    text = str(message.content)
    return bool(message.response_metadata.get("asked")) or "?" in text or "？" in text


def current_request(messages: list[AnyMessage]) -> list[str]:
    """The person's messages of the request in progress: the latest, and the earlier ones it answers
    (each followed by the assistant's question)."""
    request: list[str] = []
    for i in range(len(messages) - 1, -1, -1):
        msg = messages[i]
        if isinstance(msg, HumanMessage):
            request.insert(0, str(msg.content))
            answers = [m for m in messages[i + 1 :] if isinstance(m, AIMessage) and not m.tool_calls]
            if request[1:] and not (answers and is_question(answers[0])):
                request.pop(0)
                break
    return request


def person_words(messages: list[AnyMessage]) -> PersonWords:
    """What the person said, for the policy: all of it, the current request, and the drafts they answered."""
    return PersonWords(said=person_said(messages), request=current_request(messages), shown=shown_and_answered(messages))


def shown_and_answered(messages: list[AnyMessage]) -> list[str]:
    """The assistant's answers that the person saw and replied to (a draft they may have confirmed)."""
    shown = []
    for i, msg in enumerate(messages):
        if isinstance(msg, AIMessage) and not msg.tool_calls and any(isinstance(m, HumanMessage) for m in messages[i + 1 :]):
            shown.append(str(msg.content))
    return shown


def language_of(text: str, default: str = "zh-CN") -> Lang:
    """The language of a person's message: Chinese if it has Chinese characters, English if Latin words."""
    if words.has_cjk(text):
        return "zh"
    if _LATIN_RE.search(text):
        return "en"
    return "en" if default.lower().startswith("en") else "zh"


def person_language(messages: list[AnyMessage], default: str = "zh-CN") -> Lang:
    said = person_said(messages)
    return language_of(said[-1] if said else "", default)


def earlier_results(messages: list[AnyMessage], start: int) -> dict[str, str]:
    """This run's successful observations from `start` on, by action hash: what a repeated call is told.

    The action hash is the executor's, taken over the arguments as they ran (normalised), so a repeat
    is caught however the model spells them.
    """
    results: dict[str, str] = {}
    for msg in messages[start:]:
        if isinstance(msg, ToolMessage) and msg.status == "success" and not msg.response_metadata.get("repeated"):
            action = msg.response_metadata.get(ACTION_KEY)
            if action:
                text = str(msg.content)
                results[action] = text if len(text) <= REPEAT_RESULT_CHARS else text[: REPEAT_RESULT_CHARS - 1] + "…"
    return results


def run_results(messages: list[AnyMessage]) -> list[tuple[str, dict[str, Any]]]:
    """The successful tool results of the current run, in order, once per distinct action."""
    seen: set[str] = set()
    found = []
    for msg in messages[latest_human_index(messages) + 1 :]:
        if isinstance(msg, ToolMessage) and msg.status == "success" and isinstance(msg.artifact, dict):
            action = str(msg.response_metadata.get(ACTION_KEY, msg.tool_call_id))
            if action not in seen:
                seen.add(action)
                found.append((msg.name or "", msg.artifact))
    return found


def open_lookups(messages: list[AnyMessage], registry: ToolRegistry) -> list[str]:
    """The look-ups the person's current request asks for (each tool's `answers` patterns) that the run has
    not made yet."""
    request = " ".join(current_request(messages))
    made = {m.name for m in messages[latest_human_index(messages) + 1 :] if isinstance(m, ToolMessage)}
    return [s.name for s in registry if s.answers and s.name not in made and said.asks_for(s.answers, request)]


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
        elif msg.response_metadata.get("rejected"):
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


def cited_ids(text: str) -> set[str]:
    """Record ids an answer names (user_2, task_1, req_1)."""
    return set(re.findall(r"\b(?:user|task|req)_[0-9a-z]+\b", text))


def known_ids(messages: list[AnyMessage], actor_id: str) -> set[str]:
    """Ids the thread has seen for real: in the person's words and in successful observations."""
    known = {actor_id}
    for msg in messages:
        if isinstance(msg, HumanMessage) or (isinstance(msg, ToolMessage) and msg.status == "success"):
            known |= cited_ids(str(msg.content))
            if isinstance(msg, ToolMessage) and isinstance(msg.artifact, dict):
                known |= cited_ids(str(msg.artifact))
    return known


__all__ = [
    "current_request",
    "is_question",
    "person_words",
    "shown_and_answered",
    "ACTION_KEY",
    "OutcomeLine",
    "cited_ids",
    "describe_result",
    "earlier_results",
    "known_ids",
    "language_of",
    "latest_human_index",
    "outcome_text",
    "person_language",
    "person_said",
    "run_outcome",
    "run_results",
]
