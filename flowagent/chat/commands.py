"""The chat's slash commands: the general ones here, and the toolset's own (its surfaces: `Surfaces.commands`,
`Surfaces.help`)."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from rich.console import Console
from rich.markup import escape

from flowagent.chat import render
from flowagent.chat.words import say
from tools.backend import Backend
from tools.surfaces import HelpSection

if TYPE_CHECKING:
    from langchain_core.messages import AnyMessage
    from langgraph.checkpoint.base import BaseCheckpointSaver

    from flowagent.chat.logs import LogSettings
    from flowagent.models.endpoint import ModelSettings
    from graph.history import Lang
    from graph.strategies import Strategy
    from state.context import Context
    from tools.toolset import Toolset


class ChatSession(Protocol):
    """What the slash commands use of the chat session (`flowagent.chat.session.ChatSession`), which runs them."""

    console: Console
    backend: Backend
    user_id: str
    user: dict[str, Any]
    thread_id: str
    toolset: Toolset
    strategy: Strategy
    settings: ModelSettings
    context: Context
    log: LogSettings
    checkpoints: str
    checkpointer: BaseCheckpointSaver

    def switch_thread(self, thread_id: str | None) -> None: ...
    def messages(self) -> list[AnyMessage]: ...
    def language(self) -> Lang: ...
    def banner(self) -> None: ...

HELP_COMMANDS = {
    "zh": [
        ("/help", "命令，以及这个助手能做什么"),
        ("/history", "这次对话"),
        ("/settings", "模型、服务地址、API key（隐藏）、工具、预算、日志文件"),
        ("/threads", "以前的对话；/threads ID 继续其中一个"),
        ("/new", "开始新对话"),
        ("/whoami", "当前登录的用户"),
        ("exit", "退出（对话和待确认的操作都会保留；用 --thread 继续）"),
    ],
    "en": [
        ("/help", "commands, and what this assistant can do"),
        ("/history", "this conversation so far"),
        ("/settings", "model, endpoint, API key (masked), tools, budgets, log file"),
        ("/threads", "earlier conversations; /threads ID resumes one"),
        ("/new", "start a new conversation"),
        ("/whoami", "the signed-in user"),
        ("exit", "quit (the conversation is kept, a pending approval too; resume it with --thread)"),
    ],
}
THREADS_SHOWN = 20
THREADS_SCANNED = 2000
UNKNOWN_COMMAND = {"zh": "没有命令 {name}；/help 列出所有命令。", "en": "Unknown command {name}; /help lists the commands."}


def run_command(session: ChatSession, line: str) -> None:
    """Run one slash command line such as `/threads t1`; an unknown command is named, never guessed."""
    name, _, rest = line.partition(" ")
    handler = COMMANDS.get(name.lower())
    if handler is not None:
        handler(session, rest.strip())
        return
    own = session.toolset.surfaces.commands.get(name.lower().removeprefix("/"))
    if own is None:
        session.console.print(UNKNOWN_COMMAND[session.language()].format(name=escape(name)))
        return
    show(session, own.run(session.backend, session.user_id, rest.strip(), session.language()))


def show(session: ChatSession, shown: list[HelpSection] | str) -> None:
    if isinstance(shown, str):
        session.console.print(escape(shown))
    else:
        render.sections(session.console, shown)


def cmd_help(session: ChatSession, _: str) -> None:
    """The commands (the general ones and the toolset's), what the assistant can do, and the toolset's own tables."""
    lang = session.language()
    surfaces, words = session.toolset.surfaces, session.toolset.language
    commands: list[tuple[str, ...]] = [*HELP_COMMANDS[lang]]
    commands += [(f"/{name}", c.description.get(lang, "")) for name, c in surfaces.commands.items()]
    sections = [HelpSection("命令" if lang == "zh" else "Commands", (), commands)]
    if surfaces.help is not None:
        with session.backend.read() as handle:
            sections += surfaces.help(handle, session.user_id, lang)
    intro = words.intro.get(lang) or words.title
    if intro:
        session.console.print(escape(intro))
    render.sections(session.console, sections)


def cmd_history(session: ChatSession, _: str) -> None:
    render.history(session.console, session.messages(), session.language, session.toolset)


def cmd_settings(session: ChatSession, _: str) -> None:
    s, ctx, tools = session.settings, session.context, session.toolset.registry
    rows = [
        ("model", s.model),
        ("endpoint", s.endpoint),
        ("API key", s.masked_key),
        ("temperature", f"{s.temperature:g}"),
        ("timeout / retries", f"{s.timeout_s:g} s / {s.max_retries}"),
        ("protocol", ctx.protocol),
        ("toolset", session.toolset.name),
        ("strategy", session.strategy),
        ("tools", f"{len(tools)} ({', '.join(tools.names)})"),
        ("need approval", ", ".join(tools.approval_tools(ctx.approval_tools))),
        ("budgets", f"{ctx.max_model_calls} model calls, {ctx.max_tokens} tokens, {ctx.max_seconds:g} s, "
                    f"{ctx.max_consecutive_failures} failures in a row"),
        ("store", repr(session.backend)),
        ("checkpoints", session.checkpoints),
        ("SMTP", "configured" if os.environ.get("FLOWAGENT_SMTP_URL") else "not set (e-mails stay in the outbox)"),
        ("log", session.log.describe()),
    ]
    render.key_values(session.console, "Settings", rows)


def thread_list(session: ChatSession) -> list[tuple[str, str, str]]:
    """`(thread id, user id, last activity)` of the latest threads in the checkpointer, newest first."""
    seen: dict[str, tuple[str, str]] = {}
    for item in session.checkpointer.list(None, limit=THREADS_SCANNED):
        tid = item.config["configurable"]["thread_id"]
        if tid not in seen:
            seen[tid] = (str(item.metadata.get("user_id", "?")), str(item.checkpoint.get("ts", "")))
    newest = sorted(seen.items(), key=lambda kv: kv[1][1], reverse=True)[:THREADS_SHOWN]
    return [(tid, user, ts) for tid, (user, ts) in newest]


def cmd_threads(session: ChatSession, arg: str) -> None:
    if arg:
        session.switch_thread(arg)
        session.console.print(say(session.language(), "switched", thread_id=escape(arg)))
        session.banner()
        return
    render.threads(session.console, thread_list(session), session.thread_id, session.language())


def cmd_new(session: ChatSession, _: str) -> None:
    session.switch_thread(None)
    session.console.print(say(session.language(), "new_thread", thread_id=session.thread_id))


def cmd_whoami(session: ChatSession, _: str) -> None:
    user = session.user
    email = f" <{user['email']}>" if user.get("email") else ""
    thread = "对话" if session.language() == "zh" else "thread"
    session.console.print(f"{user.get('name') or session.user_id} ({session.user_id}){email} · {thread} {session.thread_id}")


COMMANDS: dict[str, Callable[[ChatSession, str], None]] = {
    "/help": cmd_help,
    "/history": cmd_history,
    "/settings": cmd_settings,
    "/threads": cmd_threads,
    "/new": cmd_new,
    "/whoami": cmd_whoami,
}
