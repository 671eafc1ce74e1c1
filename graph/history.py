"""Reading a thread's history: the current run, the person's words and language, what the tools found.

Shared by the nodes (a node never imports another node): the validator answers repeated look-ups from the
run's observations, the reasoner builds fixed answers and the run's outcome from them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, ToolMessage

from graph.calls import MESSAGE_OVERHEAD_CHARS, text_weight
from graph.prompts import OUTCOME_LABELS, REFUSALS, UNNAMED_ACTION
from state.records import STEP_NOTE_KEY, OutcomeLine, StepNote
from tools.kept import KeptMap
from tools.patterns import compiled
from tools.request import Lang, Request
from tools.spec import Effect, ToolRegistry

REPEAT_RESULT_CHARS = 500

Refusals = Mapping[str, Mapping[str, str]]
"""A toolset's words for its refusal codes, by language and code (`tools.language.Language.refusals`)."""

T = TypeVar("T")


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


class ThreadIndex(Generic[T]):
    """A value folded over a thread's messages from `start` on, kept up to date as the thread grows: each call folds
    in only the messages appended since the last call with the same key and start (a thread's messages are only
    appended to), so a run of N steps costs one pass over its history, not one pass per step.

    `fold(value, new_messages)` returns a new value and never changes the one it is given. A history that is not the
    one seen before (another process wrote it, or it changed) is folded again from `start`.
    """

    MAX_KEYS = 256

    def __init__(self, fold: Callable[[T, Sequence[AnyMessage]], T], empty: T) -> None:
        self._fold = fold
        self._empty = empty
        self._seen: KeptMap[tuple[str, int], tuple[int, str | None, T]] = KeptMap(self.MAX_KEYS)

    def get(self, key: str | None, messages: Sequence[AnyMessage], start: int = 0) -> T:
        """The folded value of `messages[start:]`; `key` names the thread (None: not cached, folded whole)."""
        if key is None:
            return self._fold(self._empty, messages[start:])
        kept = self._seen.get((key, start))
        scanned, last_id, value = kept or (start, None, self._empty)
        if scanned > len(messages) or (last_id is not None and messages[scanned - 1].id != last_id):
            scanned, value = start, self._empty
        elif kept is not None and scanned == len(messages):
            return value  # nothing appended since the last call
        value = self._fold(value, messages[scanned:])
        self._seen.put((key, start), (len(messages), messages[-1].id if len(messages) > start else None, value))
        return value


def _more_results(results: dict[str, str], messages: Sequence[AnyMessage]) -> dict[str, str]:
    return {**results, **earlier_results(list(messages), 0)}


class ResultIndex(ThreadIndex[dict[str, str]]):
    """`earlier_results` of a run (the thread's messages from the run's start), kept up to date as the run grows."""

    def __init__(self) -> None:
        super().__init__(_more_results, {})

    def results(self, key: str, messages: list[AnyMessage], start: int) -> dict[str, str]:
        """The run's results by action hash; `key` names the thread (the run is the thread and `start`)."""
        return self.get(key, messages, start)


@dataclass(frozen=True)
class CallIds:
    """The tool call ids of a thread: those the model proposed (valid or not) and those that have an observation."""

    asked: frozenset[str] = frozenset()
    answered: frozenset[str] = frozenset()

    @property
    def all_answered(self) -> bool:
        return self.asked <= self.answered


def _more_call_ids(ids: CallIds, messages: Sequence[AnyMessage]) -> CallIds:
    asked: set[str] = set()
    answered: set[str] = set()
    for msg in messages:
        if isinstance(msg, AIMessage):
            asked.update(c["id"] or "" for c in msg.tool_calls)
            asked.update(c.get("id") or "" for c in msg.invalid_tool_calls)
        elif isinstance(msg, ToolMessage):
            answered.add(msg.tool_call_id)
    if not asked and not answered:
        return ids
    return CallIds(asked=ids.asked | asked, answered=ids.answered | answered)


def call_id_index() -> ThreadIndex[CallIds]:
    """The thread's `CallIds`, kept up to date as the thread grows."""
    return ThreadIndex(_more_call_ids, CallIds())


def _more_chars(chars: int, messages: Sequence[AnyMessage]) -> int:
    return chars + sum(text_weight(str(m.content)) + MESSAGE_OVERHEAD_CHARS for m in messages)


def char_index() -> ThreadIndex[int]:
    """The characters of a thread's messages from a start on (with each message's overhead), kept up to date: what
    `graph.calls.estimate_tokens` counts, for a history that only grows."""
    return ThreadIndex(_more_chars, 0)


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
    """The look-ups the person's request asks for (each tool's `answers` patterns) that the run has not made yet; none
    once a write the person asked for was done in the run: its result is what they are told, and words of its comment
    ("备注：年假余额够", "it's stuck with Li Si, nudge him") ask for no look-up."""
    text = " ".join(request["texts"])
    run = messages[latest_human_index(messages) + 1 :]
    if any(isinstance(m, ToolMessage) and m.status != "error" and m.name is not None and m.name in registry
           and registry.get(m.name).effect is Effect.WRITE for m in run):
        return []
    made = {m.name for m in run if isinstance(m, ToolMessage)}
    # a look-up that found nothing answers nothing in another's stead (no copies: "where is my trip?" is still open)
    found = {m.name for m in run if isinstance(m, ToolMessage) and m.status != "error" and not (
        isinstance(m.artifact, dict) and m.artifact.get("total") == 0)}
    return [
        s.name for s in registry
        if s.answers and s.name not in made and not found & set(s.answered_by)
        and s.answers_question(text)
    ]


def redirected_to(messages: list[AnyMessage], registry: ToolRegistry) -> list[str]:
    """The tools a policy's refusal in this run named instead of the one refused ("…: call handleTodoTask"), when the
    run has run nothing since: a model that then answers has left the person's request undone. A refused look-up
    redirects to the look-ups named (the model meant to look, with the wrong tool: "to see it, call
    queryMyRequests"), or to the one write it names when it names no look-up (the decision the person stated on a
    to-do the model looked for among their copies); a refused write to all the tools named, when one of them changes
    something. A refusal that names none of those, or lists every tool, redirects nowhere."""
    for msg in reversed(messages[latest_human_index(messages) + 1 :]):
        if not isinstance(msg, ToolMessage):
            continue
        text = str(msg.content)
        if msg.status != "error" or not _CODE_RE.match(text):
            return []  # something ran after the refusal, or it was no policy's refusal
        named = [n for n in tools_named(text, registry) if n != msg.name]
        if len(named) > 5:
            return []
        writes = [n for n in named if registry.get(n).effect is Effect.WRITE]
        if msg.name is not None and msg.name in registry and registry.get(msg.name).effect is not Effect.WRITE:
            looks = [n for n in named if n not in writes]
            return looks or (writes if len(writes) == 1 else [])
        return named if writes else []
    return []


def describe_result(registry: ToolRegistry, tool: str, result: dict[str, Any], lang: Lang) -> str:
    """A readable line for one result: the tool's own `describe`, else its compact JSON after the action's title."""
    if tool in registry:
        describe = registry.get(tool).describe
        if describe is not None:
            try:
                return describe(result, lang)
            except (KeyError, TypeError, ValueError):
                pass  # an unexpected result shape falls back to the raw result below
    return f"{action_title(registry, tool, lang)}: {json.dumps(result, ensure_ascii=False)[:300]}"


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


def action_title(registry: ToolRegistry | None, tool: str, lang: Lang) -> str:
    """What an action is called where a person reads it (`ToolSpec.title_in`), never the tool's name; several tools
    named together ("sendEmail, runWorkFlow") are each called by their title."""
    names = [n.strip() for n in tool.split(",") if n.strip()] or [tool]
    sep = "、" if lang == "zh" else ", "
    return sep.join(registry.get(n).title_in(lang) if registry is not None and n in registry else UNNAMED_ACTION[lang]
                    for n in names)


def tools_named(text: str, registry: ToolRegistry) -> list[str]:
    """The tools a text names by their names (handleTodoTask, get_weather), which a person never reads; a name that
    is a plain word ("calculator") is read as the word."""
    return [name for name in registry.names
            if not re.fullmatch(r"[a-z]+", name) and compiled(rf"\b{re.escape(name)}\b").search(text)]


_ANSWER_CODE_RE = re.compile(r"\s*(?:Error\s*)?\[[a-z]+(?:_[a-z]+)+\]")


def titled(answer: AIMessage, registry: ToolRegistry, lang: Lang) -> AIMessage:
    """An answer with every tool it names called by its title ("审批待办", "decide a to-do") and error codes
    ("[not_a_batch]") left out: what a person reads names no tool and no code."""
    text = str(answer.content)
    named = tools_named(text, registry)
    cleaned = _ANSWER_CODE_RE.sub("", text)
    if not named and cleaned == text:
        return answer
    for name in named:
        cleaned = re.sub(rf"\b{re.escape(name)}\b", action_title(registry, name, lang), cleaned)
    return answer.model_copy(update={"content": cleaned})


_CODE_RE = re.compile(r"^\s*(?:Error\s*)?\[([a-z_]+)\]")
_ASKS_RE = re.compile(r"^(?:missing|unclear|ambiguous|which)_|_not_(?:given|named)$")
_REFUSAL_TEXTS = (
    # The observations the graph writes without a code (graph/nodes/tool_validator.py, graph/prompts.py), by their start.
    ("Not run:", "not_run"),
    ("Error: the arguments of", "invalid_json"),
    ("Error: only one write action", "second_write"),
    ("Your last reply could not be parsed", "format_error"),
)
_NEEDS_RE = re.compile(r"^Error: \S+ needs ")
_REPEATED_RE = re.compile(r"^Error: \S+ was already called")
_REVIEWER_RE = re.compile(r"^Rejected by the reviewer \([^)]*\): (.*?) Do not retry this action", re.DOTALL)
"""`graph.nodes.human_review.REJECTED_TEMPLATE`: what the person said when they rejected the call."""
_UNSAID = ("the reviewer declined this action.", "no valid decision was given.")
"""The reviewer's message when the person gave none (`graph.nodes.human_review`): nothing they said."""


def refusal_words(lang: Lang, own: Refusals | None = None) -> dict[str, str]:
    """Why an action was not done, by refusal code, in a language: the graph's own words (`prompts.REFUSALS`) and the
    toolset's for its codes (`own`, `Language.refusals`)."""
    return {**REFUSALS[lang], **(own or {}).get(lang, {})}


def refusal_key(text: str, own: Refusals | None = None) -> str:
    """The `refusal_words` entry for a refusal: by its code (`Error [code]: …`, `[code]`) when the graph or the toolset
    (`own`) words it, else by the graph's own words; `asks` for a value only the person can give, `other` for the
    rest."""
    code = _CODE_RE.match(text)
    if code is None:
        if _NEEDS_RE.match(text):
            return "asks"
        if _REPEATED_RE.match(text):
            return "repeated"
        return next((key for start, key in _REFUSAL_TEXTS if text.startswith(start)), "other")
    name = code.group(1)
    if name in refusal_words("en", own):
        return name
    return "asks" if _ASKS_RE.search(name) else "other"


def refusal_text(text: str, lang: Lang, own: Refusals | None = None) -> str:
    """Why an action was not done, in the person's words (the refusal's own text is for the model)."""
    return refusal_words(lang, own)[refusal_key(text, own)]


def reviewer_message(text: str) -> str:
    """What the person said when they rejected a call at its card ("" when they said nothing), from the observation
    written for the model."""
    said = _REVIEWER_RE.match(text)
    message = said.group(1).strip() if said else ""
    return "" if message in _UNSAID else message


def outcome_line(line: OutcomeLine, lang: Lang, registry: ToolRegistry | None, refusals: Refusals | None = None) -> str:
    """One write of the run as the person reads it: the action by its title, what became of it, and what it did or
    why it was not done (in the graph's words or the toolset's, `refusals`)."""
    labels = OUTCOME_LABELS[lang]
    title = action_title(registry, line["tool"], lang)
    status = line["status"]
    if status == "rejected":
        said = reviewer_message(line["detail"])
        text = labels["rejected"].format(title=title) + (labels["said"].format(message=said) if said else "")
    elif status in ("refused", "failed"):
        text = labels[status].format(title=title, reason=refusal_text(line["detail"], lang, refusals))
    else:  # what it did, a sentence of its own: the line's parts are joined by the separator
        text = labels[status].format(title=title, detail=line["detail"].rstrip("。. "))
    return text[:1].upper() + text[1:] if lang == "en" else text


def outcome_text(
    outcome: list[OutcomeLine], lang: Lang, registry: ToolRegistry | None = None, refusals: Refusals | None = None
) -> str:
    """The "what actually happened" line shown after a final answer, e.g. "实际发生：发起申请：已执行。已发起请假申请 …";
    actions are named by their titles in `registry` (without one, as "this action"), refusals in the toolset's words
    (`refusals`) or the graph's."""
    labels = OUTCOME_LABELS[lang]
    if not outcome:
        return labels["title"] + labels["none"]
    return labels["title"] + labels["sep"].join(outcome_line(line, lang, registry, refusals) for line in outcome)


__all__ = [
    "CallIds",
    "Lang",
    "Refusals",
    "ResultIndex",
    "ThreadIndex",
    "action_title",
    "call_id_index",
    "char_index",
    "describe_result",
    "earlier_results",
    "is_question",
    "latest_human_index",
    "note",
    "note_of",
    "open_lookups",
    "outcome_line",
    "outcome_text",
    "refusal_key",
    "refusal_text",
    "refusal_words",
    "reviewer_message",
    "run_outcome",
    "run_results",
]
