"""The `flowagent` command line: `chat` (the seed's REPL on the guarded graph), `eval`, `bench`, `outbox`."""

from __future__ import annotations

import argparse
import json
import os
import sys
import uuid
from datetime import datetime
from typing import Any

from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langgraph.types import Command
from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table

from graph.builder import build_graph
from graph.checkpoint import checkpoint_location, open_checkpointer
from graph.history import outcome_text, person_language
from graph.models.endpoint import ModelConfigError, ModelSettings, describe_model_error, make_chat_model, settings_from_env
from state.context import Context
from tools import Mailer, WorkflowStore
from tools.errors import DomainError
from tools.store import outbox, requests, tasks, users
from tools.toolsets import TOOLSETS, get_toolset

HELP_COMMANDS = [
    ("/help", "commands, workflows and users"),
    ("/complete", "decided tasks with result and comment"),
    ("/history", "this conversation so far"),
    ("/settings", "model, endpoint, API key (masked), tools, budgets"),
    ("/threads", "earlier conversations; /threads ID resumes one"),
    ("/new", "start a new conversation"),
    ("/outbox", "e-mails and their delivery state; /outbox retry delivers queued ones"),
    ("/whoami", "the signed-in user"),
    ("exit", "quit (the conversation is kept; resume it with --thread)"),
]
DECISION_PROMPT = "approve / edit / reject [a/e/r]: "
OBSERVATION_CHARS = 600

# The seed demo's colours: thought yellow, action cyan, input blue, observation green, answer magenta.
STYLE_THOUGHT = "yellow"
STYLE_ACTION = "bold cyan"
STYLE_INPUT = "blue"
STYLE_OBSERVATION = "green"
STYLE_ERROR = "red"
STYLE_ANSWER = "bold magenta"


class ChatError(Exception):
    """A problem the person can fix (bad option, unknown user); printed as one sentence, no traceback."""


def new_thread_id() -> str:
    return datetime.now().strftime("t%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:4]


class ChatSession:
    """One person chatting on one thread (which may change with /threads or /new)."""

    def __init__(self, args: argparse.Namespace, console: Console, ask: Any) -> None:
        self.console = console
        self.ask = ask
        self.store = _open_store(args.db)
        self.user_id = args.user
        self._check_user()
        self.toolset = get_toolset(args.toolset)
        self.settings = self._settings(args)
        protocol = args.protocol or os.environ.get("FLOWAGENT_PROTOCOL", "").strip() or self.toolset.protocol or (
            "react" if self.settings.local else "native"
        )
        if protocol not in ("native", "react", "json"):
            raise ChatError(f"--protocol must be native, react or json, not {protocol!r}.")
        approval = os.environ.get("FLOWAGENT_APPROVAL_TOOLS", "").strip()
        self.context = Context(
            user_id=self.user_id,
            protocol=protocol,  # type: ignore[arg-type]
            model=self.settings.model,
            # The offline model is too small to be trusted with summaries: it gets fixed answers.
            fixed_answers=self.settings.local,
        )
        if approval:
            self.context.approval_tools = tuple(t.strip() for t in approval.split(",") if t.strip())
        self.checkpointer = open_checkpointer(args.checkpoints)
        self.model = make_chat_model(self.settings)
        self.graph = build_graph(model=self.model, store=self.store, checkpointer=self.checkpointer, toolset=self.toolset)
        self.thread_id = args.thread or new_thread_id()

    # ------------------------------------------------------------ setup

    def _check_user(self) -> None:
        with self.store.read() as conn:
            known = conn.execute(users.select().order_by(users.c.id)).mappings().all()
        if self.user_id not in {u["id"] for u in known}:
            names = ", ".join(f"{u['id']} ({u['name']})" for u in known)
            raise ChatError(f"Unknown user {self.user_id!r}: use --user with one of {names}.")
        self.user = next(dict(u) for u in known if u["id"] == self.user_id)

    def _settings(self, args: argparse.Namespace) -> ModelSettings:
        settings = settings_from_env(args.model)
        if settings.local:
            from graph.models.endpoint import start_local_model

            self.console.print("[dim]No model endpoint configured: starting the offline model (llama.cpp)…[/dim]")
            with self.console.status("starting the local model…"):
                settings = start_local_model(toolset=self.toolset)
        return settings

    @property
    def config(self) -> dict[str, Any]:
        return {
            "configurable": {"thread_id": self.thread_id},
            "metadata": {"user_id": self.user_id, "thread_id": self.thread_id},
        }

    # ------------------------------------------------------------ the loop

    def banner(self) -> None:
        self.console.print(
            Panel.fit(
                f"flowagent: {escape(self.toolset.title)}\nuser [bold]{self.user['name']}[/bold] ({self.user_id}) · "
                f"model {escape(self.settings.model)} · protocol {self.context.protocol}\n"
                f"thread {self.thread_id} (resume with --thread {self.thread_id}) · /help for commands",
                border_style="cyan",
            )
        )
        state = self.graph.get_state(self.config)
        if state.values.get("messages"):
            self.console.print(f"[dim]Resumed thread with {len(state.values['messages'])} messages.[/dim]")
        if state.interrupts:
            self.console.print("[bold]An approval is waiting from last time.[/bold]")
            self.answer_interrupts()

    def run(self) -> int:
        self.banner()
        while True:
            try:
                line = self.ask(f"{self.user['name']}> ")
            except KeyboardInterrupt:
                continue
            except EOFError:
                line = "exit"
            line = line.strip()
            if not line:
                continue
            if line.lower() in ("exit", "quit", "/exit", "/quit"):
                self.console.print(f"Bye. Resume with: flowagent chat --user {self.user_id} --thread {self.thread_id}")
                return 0
            if line.startswith("/"):
                self.command(line)
                continue
            if self.graph.get_state(self.config).interrupts:
                self.console.print("[bold]Decide the waiting approval first.[/bold]")
                if not self.answer_interrupts():
                    continue
            self.send({"messages": [HumanMessage(content=line)]})

    def send(self, payload: Any) -> None:
        """Run the graph on a message or a resume, showing each step, then answer any approval."""
        try:
            with self.console.status("thinking…", spinner="dots"):
                for chunk in self.graph.stream(
                    payload, self.config, context=self.context, stream_mode="updates", durability="sync"
                ):
                    self.show_update(chunk)
        except KeyboardInterrupt:
            self.console.print("[yellow]Cancelled. The conversation is kept; say what to do next.[/yellow]")
            return
        except Exception as exc:  # noqa: BLE001 - configuration errors become one sentence
            sentence = describe_model_error(exc, self.settings)
            if sentence is None:
                raise
            self.console.print(f"[{STYLE_ERROR}]{escape(sentence)}[/{STYLE_ERROR}]")
            return
        if self.graph.get_state(self.config).interrupts:
            self.answer_interrupts()

    def answer_interrupts(self) -> bool:
        """Ask the person about the pending approval; returns False if they left it pending."""
        state = self.graph.get_state(self.config)
        if not state.interrupts:
            return True
        value = state.interrupts[0].value
        self.show_card(value)
        decision = self.ask_decision(value)
        if decision is None:
            self.console.print("[dim]Left pending; it will be asked again.[/dim]")
            return False
        self.send(Command(resume=decision))
        return True

    # ------------------------------------------------------------ display

    def show_update(self, chunk: dict[str, Any]) -> None:
        for node, update in chunk.items():
            if node == "__interrupt__" or not isinstance(update, dict):
                continue
            for message in update.get("messages") or []:
                self.show_message(node, message)

    def show_message(self, node: str, message: Any) -> None:
        c = self.console
        if isinstance(message, AIMessage):
            stopped = str(message.response_metadata.get("wrap_up") or "")
            if stopped and not stopped.startswith(("done", "answered", "ask")):  # those end a run as planned
                c.print(f"[dim]stopped: {escape(stopped)}[/dim]")
            thought = message.response_metadata.get("thought") or (message.content if message.tool_calls else "")
            if thought:
                c.print(f"[{STYLE_THOUGHT}]Thought:[/{STYLE_THOUGHT}] {escape(str(thought))}")
            for call in message.tool_calls:
                c.print(f"[{STYLE_ACTION}]Action:[/{STYLE_ACTION}] {call['name']}")
                args = json.dumps(call["args"], ensure_ascii=False)
                c.print(f"[{STYLE_INPUT}]Action Input:[/{STYLE_INPUT}] {escape(args)}")
            if message.invalid_tool_calls and not message.tool_calls:
                c.print(f"[{STYLE_ERROR}]Unparseable reply:[/{STYLE_ERROR}] {escape(str(message.content)[:300])}")
            if not message.tool_calls and not message.invalid_tool_calls:
                title = "Question" if message.response_metadata.get("asked") else "Final Answer"
                c.print(Panel(escape(str(message.content)), title=title, border_style="magenta"))
                if "outcome" in message.response_metadata:
                    lang = person_language(self.graph.get_state(self.config).values.get("messages", []), self.context.locale)
                    c.print(f"[dim]{escape(outcome_text(message.response_metadata['outcome'], lang))}[/dim]")
        elif isinstance(message, ToolMessage):
            style = STYLE_ERROR if message.status == "error" else STYLE_OBSERVATION
            text = str(message.content)
            if len(text) > OBSERVATION_CHARS:
                text = text[: OBSERVATION_CHARS - 1] + "…"
            c.print(f"[{style}]Observation:[/{style}] {escape(text)}")

    def show_card(self, value: dict[str, Any]) -> None:
        card = value.get("card", {})
        table = Table(show_header=False, box=None, padding=(0, 1))
        for key, item in card.items():
            if key in ("action", "summary") or item in (None, "", []):
                continue
            if isinstance(item, list):
                item = "\n".join(str(x) for x in item)
            table.add_row(f"[bold]{key}[/bold]", escape(str(item)))
        table.add_row("[bold]arguments[/bold]", escape(json.dumps(value.get("args", {}), ensure_ascii=False)))
        if value.get("error"):
            table.add_row(f"[{STYLE_ERROR}]note[/{STYLE_ERROR}]", escape(str(value["error"])))
        title = f"Approval needed: {value.get('tool')} · {card.get('summary', '')}"
        self.console.print(Panel(table, title=escape(title), border_style="bright_yellow"))

    def ask_decision(self, value: dict[str, Any]) -> dict[str, Any] | None:
        while True:
            try:
                answer = self.ask(DECISION_PROMPT).strip().lower()
            except (KeyboardInterrupt, EOFError):
                return None
            if answer in ("a", "approve", "y", "yes"):
                return {"decision": "approve", "args_hash": value.get("args_hash")}
            if answer in ("r", "reject", "n", "no"):
                try:
                    message = self.ask("reason (optional): ").strip()
                except (KeyboardInterrupt, EOFError):
                    message = ""
                return {"decision": "reject", "message": message or "declined by the reviewer."}
            if answer in ("e", "edit"):
                edited = self.edit_args(value.get("args", {}))
                if edited is not None:
                    return {"decision": "edit", "args": edited}
                continue
            self.console.print("Type a (approve), e (edit) or r (reject).")

    def edit_args(self, args: dict[str, Any]) -> dict[str, Any] | None:
        current = json.dumps(args, ensure_ascii=False)
        try:
            text = self.ask("arguments (JSON): ", default=current)
        except (KeyboardInterrupt, EOFError):
            return None
        try:
            edited = json.loads(text)
        except json.JSONDecodeError as exc:
            self.console.print(f"[{STYLE_ERROR}]Not valid JSON ({exc.msg}); the arguments were not changed.[/{STYLE_ERROR}]")
            return None
        if not isinstance(edited, dict):
            self.console.print(f"[{STYLE_ERROR}]The arguments must be a JSON object.[/{STYLE_ERROR}]")
            return None
        return edited

    # ------------------------------------------------------------ slash commands

    def command(self, line: str) -> None:
        name, _, rest = line.partition(" ")
        handlers = {
            "/help": self.cmd_help,
            "/complete": self.cmd_complete,
            "/history": self.cmd_history,
            "/settings": self.cmd_settings,
            "/threads": self.cmd_threads,
            "/new": self.cmd_new,
            "/outbox": self.cmd_outbox,
            "/whoami": self.cmd_whoami,
        }
        handler = handlers.get(name.lower())
        if handler is None:
            self.console.print(f"Unknown command {escape(name)}; /help lists the commands.")
            return
        handler(rest.strip())

    def cmd_help(self, _: str) -> None:
        table = Table(title="Commands", show_header=False)
        for cmd, text in HELP_COMMANDS:
            table.add_row(cmd, text)
        self.console.print(table)
        from tools import REGISTRY, CallContext, execute_call

        ctx = CallContext(store=self.store, actor_id=self.user_id)
        flows = execute_call(REGISTRY, "getAllWorkFlow", {}, ctx)["workflows"]
        wf = Table(title="Workflows")
        for col in ("processKey", "name", "startable"):
            wf.add_column(col)
        for f in flows:
            wf.add_row(f["processKey"], f["name"], "yes" if f["startable"] else "no")
        self.console.print(wf)
        people = execute_call(REGISTRY, "getAllUser", {}, ctx)["users"]
        ut = Table(title="Users")
        for col in ("userId", "name", "email"):
            ut.add_column(col)
        for u in people:
            ut.add_row(u["userId"], u["name"], u["email"])
        self.console.print(ut)

    def cmd_complete(self, _: str) -> None:
        with self.store.read() as conn:
            rows = conn.execute(
                tasks.select()
                .with_only_columns(
                    tasks.c.id, tasks.c.status, tasks.c.comment, tasks.c.decided_by, tasks.c.decided_at,
                    requests.c.requester_id, requests.c.days, requests.c.reason,
                )
                .join(requests, requests.c.id == tasks.c.request_id)
                .where(tasks.c.status != "pending")
                .order_by(tasks.c.decided_at)
            ).mappings().all()
        table = Table(title="Decided tasks")
        for col in ("task", "requester", "days", "reason", "result", "comment", "decided by", "at"):
            table.add_column(col)
        for r in rows:
            table.add_row(
                f"task_{r['id']}", r["requester_id"], f"{r['days']:g}", escape(r["reason"]), r["status"],
                escape(r["comment"] or ""), r["decided_by"] or "", (r["decided_at"] or "")[:19],
            )
        self.console.print(table if rows else "No decided tasks yet.")

    def cmd_history(self, _: str) -> None:
        messages = self.graph.get_state(self.config).values.get("messages", [])
        if not messages:
            self.console.print("No messages in this conversation yet.")
            return
        for m in messages:
            if isinstance(m, HumanMessage):
                self.console.print(f"[bold]you:[/bold] {escape(str(m.content))}")
            else:
                self.show_message("history", m)

    def cmd_settings(self, _: str) -> None:
        from tools import REGISTRY

        s, ctx = self.settings, self.context
        table = Table(title="Settings", show_header=False)
        rows = [
            ("model", s.model),
            ("endpoint", s.endpoint),
            ("API key", s.masked_key),
            ("temperature", f"{s.temperature:g}"),
            ("timeout / retries", f"{s.timeout_s:g} s / {s.max_retries}"),
            ("protocol", ctx.protocol),
            ("tools", f"{len(REGISTRY)} ({', '.join(REGISTRY.names)})"),
            ("need approval", ", ".join(ctx.approval_tools)),
            ("budgets", f"{ctx.max_model_calls} model calls, {ctx.max_tokens} tokens, {ctx.max_seconds:g} s, "
                        f"{ctx.max_consecutive_failures} failures in a row"),
            ("store", repr(self.store)),
            ("checkpoints", checkpoint_location()),
            ("SMTP", "configured" if os.environ.get("FLOWAGENT_SMTP_URL") else "not set (e-mails stay in the outbox)"),
        ]
        for k, v in rows:
            table.add_row(k, escape(str(v)))
        self.console.print(table)

    def cmd_threads(self, arg: str) -> None:
        if arg:
            self.thread_id = arg
            self.console.print(f"Switched to thread {arg}.")
            self.banner()
            return
        seen: dict[str, dict[str, Any]] = {}
        for item in self.checkpointer.list(None, limit=2000):
            tid = item.config["configurable"]["thread_id"]
            if tid not in seen:
                seen[tid] = {"user": item.metadata.get("user_id", "?"), "ts": item.checkpoint.get("ts", "")}
        table = Table(title="Threads (newest first); /threads ID resumes one")
        for col in ("thread", "user", "last activity"):
            table.add_column(col)
        for tid, info in sorted(seen.items(), key=lambda kv: kv[1]["ts"], reverse=True)[:20]:
            marker = " (current)" if tid == self.thread_id else ""
            table.add_row(tid + marker, str(info["user"]), str(info["ts"])[:19])
        self.console.print(table if seen else "No earlier conversations.")

    def cmd_new(self, _: str) -> None:
        self.thread_id = new_thread_id()
        self.console.print(f"New conversation: thread {self.thread_id}.")

    def cmd_outbox(self, arg: str) -> None:
        if arg == "retry":
            mailer = Mailer.from_env()
            if mailer is None:
                self.console.print("FLOWAGENT_SMTP_URL is not set: e-mails stay in the outbox.")
            else:
                self.console.print(mailer.retry_pending(self.store))
        print_outbox(self.console, self.store)

    def cmd_whoami(self, _: str) -> None:
        with self.store.read() as conn:
            pending = conn.execute(
                tasks.select().where(tasks.c.assignee_id == self.user_id, tasks.c.status == "pending")
            ).fetchall()
        self.console.print(
            f"{self.user['name']} ({self.user_id}) <{self.user['email']}> · {len(pending)} pending task(s) · "
            f"thread {self.thread_id}"
        )


def print_outbox(console: Console, store: WorkflowStore) -> None:
    with store.read() as conn:
        rows = conn.execute(outbox.select().order_by(outbox.c.id)).mappings().all()
    table = Table(title="Outbox")
    for col in ("id", "to", "subject", "text", "status", "attempts", "error"):
        table.add_column(col)
    for r in rows:
        table.add_row(
            str(r["id"]), f"{r['recipient_id']} <{r['recipient_email']}>", escape(r["subject"]),
            escape(r["body"][:80]), r["status"], str(r["attempts"]), escape((r["last_error"] or "")[:60]),
        )
    console.print(table if rows else "The outbox is empty.")


def make_asker() -> Any:
    """A prompt function backed by prompt_toolkit when on a terminal, plain input() otherwise."""
    if sys.stdin.isatty():
        from prompt_toolkit import PromptSession

        session: PromptSession[str] = PromptSession()

        def ask(message: str, default: str = "") -> str:
            return session.prompt(message, default=default)

        return ask

    def ask_plain(message: str, default: str = "") -> str:
        answer = input(message)
        return answer if answer else default

    return ask_plain


# ---------------------------------------------------------------- entry point


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="flowagent", description="A guarded ReAct workflow assistant.")
    sub = parser.add_subparsers(dest="command", required=True)
    chat = sub.add_parser("chat", help="chat with the workflow assistant")
    chat.add_argument("--user", default=os.environ.get("FLOWAGENT_USER", "user_1"), help="who you are (user_1)")
    chat.add_argument("--thread", help="resume a conversation by its thread id")
    chat.add_argument("--protocol", choices=["native", "react", "json"], help="how the model proposes actions")
    chat.add_argument("--toolset", choices=list(TOOLSETS), default=os.environ.get("FLOWAGENT_TOOLSET", "workflow"),
                      help="the tools the assistant has: workflow (leave approvals), toy (weather, calculator), travel")
    chat.add_argument("--model", help="model name (default FLOWAGENT_MODEL, or the offline model)")
    chat.add_argument("--db", help="workflow store URL or file (default FLOWAGENT_DB or .flowagent/workflow.db)")
    chat.add_argument("--checkpoints", help="checkpoint file or postgres URL (default FLOWAGENT_CHECKPOINT_URL)")
    sub.add_parser("eval", help="run the evaluation suite (flowagent eval --help)", add_help=False)
    sub.add_parser("bench", help="run the benchmarks (flowagent bench --help)", add_help=False)
    ob = sub.add_parser("outbox", help="show the e-mail outbox")
    ob.add_argument("--retry", action="store_true", help="deliver queued and failed e-mails (needs FLOWAGENT_SMTP_URL)")
    ob.add_argument("--db", help="workflow store URL or file")
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "eval":
        from evals.cli import main as eval_main

        return int(eval_main(argv[1:]) or 0)
    if argv and argv[0] == "bench":
        from evals.bench.cli import main as bench_main

        return int(bench_main(argv[1:]) or 0)
    args = build_parser().parse_args(argv)
    console = Console(highlight=False)
    try:
        if args.command == "outbox":
            store = _open_store(args.db)
            if args.retry:
                mailer = Mailer.from_env()
                if mailer is None:
                    raise ChatError("FLOWAGENT_SMTP_URL is not set: set it to deliver e-mails, e.g. smtp://host:25.")
                console.print(mailer.retry_pending(store))
            print_outbox(console, store)
            return 0
        session = ChatSession(args, console, make_asker())
        return session.run()
    except (ChatError, ModelConfigError, DomainError, ValueError) as exc:
        console.print(f"[{STYLE_ERROR}]{escape(str(exc))}[/{STYLE_ERROR}]")
        return 2
    except Exception as exc:  # noqa: BLE001 - configuration errors are one sentence, bugs still raise
        sentence = describe_model_error(exc)
        if sentence is None:
            raise
        console.print(f"[{STYLE_ERROR}]{escape(sentence)}[/{STYLE_ERROR}]")
        return 2
    finally:
        from graph.models.endpoint import stop_local_model

        stop_local_model()


def _open_store(db: str | None) -> WorkflowStore:
    if db and "://" not in db:
        db = f"sqlite:///{db}"
    return WorkflowStore(db) if db else WorkflowStore()


if __name__ == "__main__":
    raise SystemExit(main())
