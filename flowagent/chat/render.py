"""Everything the terminal chat prints (rich): the ReAct steps, approval cards, answers and the commands' tables."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Literal

from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from rich.console import Console, Group
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from flowagent.chat.words import say
from graph.answers import stop_reason
from graph.budget import stopped_early
from graph.history import Lang, describe_result, note_of, outcome_line, outcome_text
from graph.prompts import CARD_WORDS
from state.records import OutcomeLine
from tools.grounding import person_label
from tools.surfaces import HelpSection
from tools.toolset import Toolset

OBSERVATION_CHARS = 600
"""Observations longer than this are cut in the terminal (the full result stays in the thread)."""

# The seed demo's colours: thought yellow, action cyan, input blue, observation green, answer magenta.
STYLE_THOUGHT = "yellow"
STYLE_ACTION = "bold cyan"
STYLE_INPUT = "blue"
STYLE_OBSERVATION = "green"
STYLE_ERROR = "red"


def error(console: Console, text: str) -> None:
    """One red sentence: a problem the person can act on, never a traceback."""
    console.print(f"[{STYLE_ERROR}]{escape(text)}[/{STYLE_ERROR}]")


def banner(
    console: Console, *, title: str, user: dict[str, Any], user_id: str, model: str, protocol: str, thread_id: str,
    lang: str = "zh",
) -> None:
    text = say(lang, "banner", title=escape(title), name=escape(person_label(user, lang)), user_id=user_id,
               model=escape(model), protocol=protocol, thread_id=thread_id)
    console.print(Panel.fit(text, border_style="cyan"))


def update(console: Console, chunk: dict[str, Any], language: Callable[[], Lang], toolset: Toolset) -> None:
    """One `stream_mode="updates"` chunk: every message a node wrote, as ReAct steps."""
    for node, node_update in chunk.items():
        if node == "__interrupt__" or not isinstance(node_update, dict):
            continue
        for message in node_update.get("messages") or []:
            step(console, message, language, toolset)


def step(console: Console, message: Any, language: Callable[[], Lang], toolset: Toolset) -> None:
    """Thought / Action / Action Input / Observation, or the final answer (and what actually happened).

    The Action lines name the tool as the ReAct trace has it; everything else names an action by its title in the
    person's language (the toolset's registry), and a refusal or rejection written for the model is worded for the
    person (in the toolset's words for its own refusals).
    """
    c = console
    lang = language()
    registry = toolset.registry
    if isinstance(message, AIMessage):
        reason = message.response_metadata.get("wrap_up")
        if reason is not None and stopped_early(reason):
            c.print(f"[dim]{say(lang, 'stopped')}: {escape(stop_reason(reason, registry, lang))}[/dim]")
        thought = message.response_metadata.get("thought") or (message.content if message.tool_calls else "")
        if thought:
            c.print(f"[{STYLE_THOUGHT}]{say(lang, 'thought')}:[/{STYLE_THOUGHT}] {escape(str(thought))}")
        for call in message.tool_calls:
            c.print(f"[{STYLE_ACTION}]{say(lang, 'action')}:[/{STYLE_ACTION}] {call['name']}")
            args = json.dumps(call["args"], ensure_ascii=False)
            c.print(f"[{STYLE_INPUT}]{say(lang, 'input')}:[/{STYLE_INPUT}] {escape(args)}")
        if message.invalid_tool_calls and not message.tool_calls:
            c.print(f"[{STYLE_ERROR}]{say(lang, 'unparseable')}:[/{STYLE_ERROR}] {escape(str(message.content)[:300])}")
        if not message.tool_calls and not message.invalid_tool_calls:
            title = say(lang, "question") if message.response_metadata.get("asked") else say(lang, "answer")
            c.print(Panel(escape(str(message.content)), title=title, border_style="magenta"))
            if "outcome" in message.response_metadata:
                outcome = outcome_text(message.response_metadata["outcome"], lang, registry, toolset.language.refusals)
                c.print(f"[dim]{escape(outcome)}[/dim]")
    elif isinstance(message, ToolMessage):
        style = STYLE_ERROR if message.status == "error" else STYLE_OBSERVATION
        text = observation_text(message, lang, toolset)
        if len(text) > OBSERVATION_CHARS:
            text = text[: OBSERVATION_CHARS - 1] + "…"
        c.print(f"[{style}]{say(lang, 'observation')}:[/{style}] {escape(text)}")


def observation_text(message: ToolMessage, lang: Lang, toolset: Toolset) -> str:
    """An observation as the person reads it, not as the model did: a result as the tool's readable line
    (`ToolSpec.describe`, in the person's language); a refusal or the person's own rejection worded for the person
    ("发送邮件：未执行（…）", "你在确认时拒绝了：发送邮件"); a repeated look-up's result, said to be the same."""
    text = str(message.content)
    registry = toolset.registry
    if message.status != "error":
        spec = registry.get(message.name) if message.name and message.name in registry else None
        if spec is not None and spec.describe is not None and isinstance(message.artifact, dict):
            text = describe_result(registry, spec.name, message.artifact, lang)
        elif note_of(message).get("repeated"):
            text = text.split("\n(")[0]
        if not note_of(message).get("repeated"):
            return text
        return text + ("" if lang == "zh" else " ") + say(lang, "same_result")
    status: Literal["rejected", "refused"] = "rejected" if note_of(message).get("rejected") else "refused"
    line = OutcomeLine(tool=message.name or "", status=status, detail=text)
    return outcome_line(line, lang, registry, toolset.language.refusals)


def history(console: Console, messages: Sequence[Any], language: Callable[[], Lang], toolset: Toolset) -> None:
    lang = language()
    if not messages:
        console.print(say(lang, "no_messages"))
        return
    for m in messages:
        if isinstance(m, HumanMessage):
            console.print(f"[bold]{say(lang, 'you')}:[/bold] {escape(str(m.content))}")
        else:
            step(console, m, language, toolset)


def card_value(value: Any, lang: str) -> str:
    """A card field's value as shown: a list one item a line (values are worded for a person by the card's builder)."""
    if isinstance(value, list):
        return "\n".join(card_value(item, lang) for item in value)
    if isinstance(value, bool):
        return ("yes" if value else "no") if lang == "en" else ("是" if value else "否")
    return str(value)


def card(console: Console, action: dict[str, Any], error: str | None = None, *, lang: str = "zh") -> None:
    """One action request of a pending approval (LangChain's HITL shape), as the person reads its card: the action's
    `title`, the `summary`, the fields named in `labels` (in that order, with those labels), and the `notes`. The
    card's other fields (ids, raw values, the checks' `policy_notes`) are for clients and the audit; a card without
    `labels` (built by an older version) shows its summary only. A card shown again says so."""
    fields = action.get("card") or {}
    table = Table(show_header=False, box=None, padding=(0, 2, 0, 0))
    for key, label in (fields.get("labels") or {}).items():
        value = fields.get(key)
        if value in (None, "", []):
            continue
        table.add_row(f"[bold]{escape(str(label))}[/bold]", escape(card_value(value, lang)))
    for note in fields.get("notes") or []:
        table.add_row(f"[bold]{say(lang, 'note')}[/bold]", escape(str(note)))
    if error:  # written for a client: the person is told the card is shown again
        retry = CARD_WORDS["en" if lang == "en" else "zh"]["retry"]
        table.add_row(f"[{STYLE_ERROR}]{say(lang, 'note')}[/{STYLE_ERROR}]", escape(retry))
    title = f"{say(lang, 'approval')}: {fields['title']}" if fields.get("title") else say(lang, "approval")
    summary = Text(str(fields.get("summary") or ""), style="bold")
    body = Group(summary, table) if table.row_count else summary
    console.print(Panel(body, title=escape(title), border_style="bright_yellow"))


def sections(console: Console, tables: Iterable[HelpSection]) -> None:
    """Tables a command shows (`tools.surfaces.HelpSection`): a title, columns (none: a two-column list), rows."""
    for section in tables:
        table = Table(title=section.title, show_header=bool(section.columns))
        for column in section.columns:
            table.add_column(column)
        for row in section.rows:
            table.add_row(*(escape(str(cell)) for cell in row))
        console.print(table)


def key_values(console: Console, title: str, rows: Iterable[tuple[str, object]]) -> None:
    table = Table(title=title, show_header=False)
    for k, v in rows:
        table.add_row(k, escape(str(v)))
    console.print(table)


def threads(console: Console, items: Sequence[tuple[str, str, str]], current: str, lang: str = "zh") -> None:
    """`(thread id, user id, last activity)` rows, newest first."""
    if not items:
        console.print(say(lang, "no_threads"))
        return
    table = Table(title=say(lang, "threads"))
    for col in ("thread", "user", "last_activity"):
        table.add_column(say(lang, col))
    for tid, user, ts in items:
        marker = say(lang, "current") if tid == current else ""
        table.add_row(tid + marker, user, ts[:19])
    console.print(table)
