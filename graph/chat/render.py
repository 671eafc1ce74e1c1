"""Everything the terminal chat prints (rich): the ReAct steps, approval cards, answers and the commands' tables."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table

from graph.budget import describe, stopped_early
from graph.chat.words import say
from graph.history import Lang, note_of, outcome_text
from tools.grounding import person_label
from tools.toolset import HelpSection

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


def update(console: Console, chunk: dict[str, Any], language: Callable[[], Lang]) -> None:
    """One `stream_mode="updates"` chunk: every message a node wrote, as ReAct steps."""
    for node, node_update in chunk.items():
        if node == "__interrupt__" or not isinstance(node_update, dict):
            continue
        for message in node_update.get("messages") or []:
            step(console, message, language)


def step(console: Console, message: Any, language: Callable[[], Lang]) -> None:
    """Thought / Action / Action Input / Observation, or the final answer (and what actually happened).

    `language` is asked only when an answer carries an outcome line, in the person's language.
    """
    c = console
    lang = language()
    if isinstance(message, AIMessage):
        reason = message.response_metadata.get("wrap_up")
        if stopped_early(reason):
            c.print(f"[dim]{say(lang, 'stopped')}: {escape(describe(reason, lang))}[/dim]")
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
                c.print(f"[dim]{escape(outcome_text(message.response_metadata['outcome'], lang))}[/dim]")
    elif isinstance(message, ToolMessage):
        style = STYLE_ERROR if message.status == "error" else STYLE_OBSERVATION
        text = observation_text(message, lang)
        if len(text) > OBSERVATION_CHARS:
            text = text[: OBSERVATION_CHARS - 1] + "…"
        c.print(f"[{style}]{say(lang, 'observation')}:[/{style}] {escape(text)}")


_CODE_RE = re.compile(r"^Error \[([a-z_]+)\]")
_REVIEWER_RE = re.compile(r"^Rejected by the reviewer \([^)]*\): (.*?) Do not retry", re.DOTALL)


def observation_text(message: ToolMessage, lang: str) -> str:
    """An observation as the person reads it: a result as the model read it; a refusal, written for the model in
    English, as its code (the graph's own question or answer follows in the person's words); a repeated look-up's
    earlier result without the note to the model."""
    text = str(message.content)
    if note_of(message).get("repeated"):
        return text.split("\n(")[0] + " " + say(lang, "same_result")
    if message.status != "error" or lang == "en":
        return text
    code = _CODE_RE.match(text)
    if note_of(message).get("rejected"):
        said = _REVIEWER_RE.search(text)
        return f"{say(lang, 'rejected')}：{said.group(1)}" if said else say(lang, "rejected")
    if code:
        return f"{say(lang, 'refused')} [{code.group(1)}]"
    return say(lang, "not_run") if text.startswith("Not run") else say(lang, "refused")


def history(console: Console, messages: Sequence[Any], language: Callable[[], Lang]) -> None:
    lang = language()
    if not messages:
        console.print(say(lang, "no_messages"))
        return
    for m in messages:
        if isinstance(m, HumanMessage):
            console.print(f"[bold]{say(lang, 'you')}:[/bold] {escape(str(m.content))}")
        else:
            step(console, m, language)


def card(
    console: Console, action: dict[str, Any], error: str | None = None, *, lang: str = "zh",
    labels: Mapping[str, str] | None = None,
) -> None:
    """One action request of a pending approval (LangChain's HITL shape): its card, built from the store by
    the graph, field by field (named by the toolset's `card_labels` in the person's language), then the exact
    arguments and any note on why it is shown again."""
    fields = action.get("card", {})
    names = labels or {}
    table = Table(show_header=False, box=None, padding=(0, 1))
    for key, item in fields.items():
        if key in ("action", "summary") or item in (None, "", []):
            continue
        if isinstance(item, list):
            item = "\n".join(str(x) for x in item)
        table.add_row(f"[bold]{escape(names.get(key, key))}[/bold]", escape(str(item)))
    table.add_row(f"[bold]{say(lang, 'arguments')}[/bold]", escape(json.dumps(action.get("args", {}), ensure_ascii=False)))
    if error:
        table.add_row(f"[{STYLE_ERROR}]{say(lang, 'note')}[/{STYLE_ERROR}]", escape(error))
    title = f"{say(lang, 'approval')}: {action.get('name')} · {fields.get('summary', '')}"
    console.print(Panel(table, title=escape(title), border_style="bright_yellow"))


def sections(console: Console, tables: Iterable[HelpSection]) -> None:
    """Tables a command shows (`tools.toolset.HelpSection`): a title, columns (none: a two-column list), rows."""
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


def threads(console: Console, items: Sequence[tuple[str, str, str]], current: str) -> None:
    """`(thread id, user id, last activity)` rows, newest first."""
    if not items:
        console.print("No earlier conversations.")
        return
    table = Table(title="Threads (newest first); /threads ID resumes one")
    for col in ("thread", "user", "last activity"):
        table.add_column(col)
    for tid, user, ts in items:
        marker = " (current)" if tid == current else ""
        table.add_row(tid + marker, user, ts[:19])
    console.print(table)
