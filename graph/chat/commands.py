"""The chat's slash commands: each reads through the tool registry's read tools or the store's own helpers."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from rich.console import Console
from rich.markup import escape

from graph.chat import render
from tools import REGISTRY, CallContext, Mailer, WorkflowStore, execute_call

if TYPE_CHECKING:
    from langchain_core.messages import AnyMessage
    from langgraph.checkpoint.base import BaseCheckpointSaver

    from graph.chat.logs import LogSettings
    from graph.history import Lang
    from graph.models.endpoint import ModelSettings
    from graph.strategies import Strategy
    from state.context import Context
    from tools.toolset import Toolset


class ChatSession(Protocol):
    """What the slash commands use of the chat session (`graph.chat.session.ChatSession`), which runs them."""

    console: Console
    store: WorkflowStore
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

HELP_COMMANDS = [
    ("/help", "commands, workflows and users"),
    ("/complete", "decided tasks with result and comment"),
    ("/history", "this conversation so far"),
    ("/settings", "model, endpoint, API key (masked), tools, budgets, log file"),
    ("/threads", "earlier conversations; /threads ID resumes one"),
    ("/new", "start a new conversation"),
    ("/outbox", "e-mails and their delivery state; /outbox retry delivers queued ones"),
    ("/whoami", "the signed-in user"),
    ("exit", "quit (the conversation is kept, a pending approval too; resume it with --thread)"),
]
THREADS_SHOWN = 20
THREADS_SCANNED = 2000
SMTP_NOT_SET = "FLOWAGENT_SMTP_URL is not set: e-mails stay in the outbox."


def run_command(session: ChatSession, line: str) -> None:
    """Run one slash command line such as `/threads t1`; an unknown command is named, never guessed."""
    name, _, rest = line.partition(" ")
    handler = COMMANDS.get(name.lower())
    if handler is None:
        session.console.print(f"Unknown command {escape(name)}; /help lists the commands.")
        return
    handler(session, rest.strip())


def read_tool(session: ChatSession, name: str, **args: Any) -> dict[str, Any]:
    """The result of one of the registry's read tools, called as the signed-in user."""
    return execute_call(REGISTRY, name, args, CallContext(store=session.store, actor_id=session.user_id))


def cmd_help(session: ChatSession, _: str) -> None:
    workflows = read_tool(session, "getAllWorkFlow")["workflows"]
    people = read_tool(session, "getAllUser")["users"]
    render.help_tables(session.console, HELP_COMMANDS, workflows, people)


def decided_tasks(store: WorkflowStore) -> list[dict[str, Any]]:
    """Every decided task with its request's requester, days and reason, in the order they were decided."""
    snapshot = store.snapshot()
    by_request = {r["id"]: r for r in snapshot["requests"]}
    rows = []
    for task in snapshot["tasks"]:
        if task["status"] == "pending":
            continue
        request = by_request[task["request_id"]]
        rows.append({**task, "requester_id": request["requester_id"], "days": request["days"], "reason": request["reason"]})
    return sorted(rows, key=lambda r: r["decided_at"] or "")


def cmd_complete(session: ChatSession, _: str) -> None:
    render.decided_tasks(session.console, decided_tasks(session.store))


def cmd_history(session: ChatSession, _: str) -> None:
    render.history(session.console, session.messages(), session.language)


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
        ("store", repr(session.store)),
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
        session.console.print(f"Switched to thread {arg}.")
        session.banner()
        return
    render.threads(session.console, thread_list(session), session.thread_id)


def cmd_new(session: ChatSession, _: str) -> None:
    session.switch_thread(None)
    session.console.print(f"New conversation: thread {session.thread_id}.")


def retry_outbox(console: Console, store: WorkflowStore) -> bool:
    """Deliver queued and failed e-mails over SMTP; False (nothing tried) when SMTP is not configured."""
    mailer = Mailer.from_env()
    if mailer is None:
        return False
    console.print(mailer.retry_pending(store))
    return True


def show_outbox(console: Console, store: WorkflowStore) -> None:
    render.outbox(console, store.snapshot()["outbox"])


def cmd_outbox(session: ChatSession, arg: str) -> None:
    if arg == "retry" and not retry_outbox(session.console, session.store):
        session.console.print(SMTP_NOT_SET)
    show_outbox(session.console, session.store)


def cmd_whoami(session: ChatSession, _: str) -> None:
    pending = read_tool(session, "queryTodoTask", userId=session.user_id)["total"]
    user = session.user
    session.console.print(
        f"{user['name']} ({session.user_id}) <{user['email']}> · {pending} pending task(s) · thread {session.thread_id}"
    )


COMMANDS: dict[str, Callable[[ChatSession, str], None]] = {
    "/help": cmd_help,
    "/complete": cmd_complete,
    "/history": cmd_history,
    "/settings": cmd_settings,
    "/threads": cmd_threads,
    "/new": cmd_new,
    "/outbox": cmd_outbox,
    "/whoami": cmd_whoami,
}
