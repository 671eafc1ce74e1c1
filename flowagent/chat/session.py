"""The terminal chat session: settings from the environment and arguments, the graph, the loop, approvals."""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import uuid
from collections.abc import Callable
from datetime import datetime
from typing import Any

from langchain_core.messages import AnyMessage, HumanMessage
from langgraph.types import Command
from rich.console import Console

from flowagent.chat import render
from flowagent.chat.commands import run_command
from flowagent.chat.logs import LogSettings
from flowagent.chat.words import say
from flowagent.models.endpoint import ModelSettings, describe_model_error, make_chat_model, run_defaults, settings_from_env
from graph.builder import build_graph
from graph.checkpoint import checkpoint_location, open_checkpointer
from graph.deps import NodeDeps
from graph.history import Lang
from graph.run import locale_lang
from graph.strategies import Strategy
from state.context import Context
from tools.backend import Backend
from tools.errors import DomainError
from tools.grounding import person_label
from tools.toolset import Toolset
from tools.toolsets import get_toolset

logger = logging.getLogger(__name__)

EXIT_WORDS = ("exit", "quit", "/exit", "/quit")

Ask = Callable[..., str]
"""`ask(message, default="") -> str`: one line from the person; raises EOFError (Ctrl-D) or KeyboardInterrupt."""


class ChatError(Exception):
    """A problem the person can fix (bad option, unknown user); printed as one sentence, no traceback."""


class QuitChat(Exception):
    """The person quit at an approval card (exit, quit or Ctrl-D); the card stays pending in the thread."""


def new_thread_id() -> str:
    return datetime.now().strftime("t%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:4]


def store_url(db: str | None) -> str | None:
    """`--db` as a store URL: a bare path is a SQLite file; None means FLOWAGENT_DB or the default."""
    if db and "://" not in db:
        return f"sqlite:///{db}"
    return db or None


def open_backend(toolset: Toolset, db: str | None) -> Backend:
    """The toolset's backend; for the workflow its store at `--db` (else FLOWAGENT_DB or the default)."""
    return toolset.open_backend(store_url(db))


class ChatSession:
    """One person chatting on one thread (which may change with /threads or /new)."""

    def __init__(self, args: argparse.Namespace, console: Console, ask: Ask, log: LogSettings) -> None:
        self.console = console
        self.ask = ask
        self.log = log
        self.toolset = get_toolset(args.toolset)
        self.locale = getattr(args, "locale", None) or Context().locale
        self.backend = open_backend(self.toolset, args.db)
        self.user_id: str = args.user
        self.user = self._signed_in_user()
        self.settings = self._model_settings(args.model)
        self.context = Context(
            user_id=self.user_id,
            model=self.settings.model,
            locale=getattr(args, "locale", None) or Context().locale,
            # Protocol and fixed answers follow the model, as on the LangGraph server (one rule for both).
            **run_defaults(self.settings, args.protocol, toolset=self.toolset),
        )
        approval = os.environ.get("FLOWAGENT_APPROVAL_TOOLS", "").strip()
        if approval:
            self.context.approval_tools = tuple(t.strip() for t in approval.split(",") if t.strip())
        self.checkpoints = args.checkpoints or checkpoint_location()
        self.checkpointer = open_checkpointer(self.checkpoints)
        self.model = make_chat_model(self.settings)
        self.strategy: Strategy = args.strategy
        self.graph = build_graph(
            model=self.model, store=self.backend, checkpointer=self.checkpointer, toolset=self.toolset,
            strategy=self.strategy,
        )
        self.thread_id: str = args.thread or new_thread_id()
        self._pre_reader: Any = None

    # ------------------------------------------------------------ setup

    def _signed_in_user(self) -> dict[str, Any]:
        """The user `--user` names, as the toolset knows them; an unknown one is a one-sentence error naming the known."""
        with self.backend.read() as handle:
            try:
                return self.toolset.actor(handle, self.user_id)
            except DomainError:
                names = ", ".join(f"{p['id']} ({p.get('name', p['id'])})" for p in self.toolset.directory(handle))
                raise ChatError(f"Unknown user {self.user_id!r}: use --user with one of {names}.") from None

    def _model_settings(self, model: str | None) -> ModelSettings:
        settings = settings_from_env(model)
        if settings.local:
            from flowagent.models.endpoint import start_local_model

            lang = locale_lang(getattr(self, "locale", None) or Context().locale)  # before anyone speaks
            self.console.print(f"[dim]{say(lang, 'local_model')}[/dim]")
            with self.console.status(say(lang, "starting_model")):
                settings = start_local_model(toolset=self.toolset, lang=lang)
        return settings

    @property
    def config(self) -> dict[str, Any]:
        return {
            "configurable": {"thread_id": self.thread_id},
            "metadata": {"user_id": self.user_id, "thread_id": self.thread_id},
        }

    def switch_thread(self, thread_id: str | None) -> None:
        """Continue on `thread_id`, or on a new thread when None."""
        self.thread_id = thread_id or new_thread_id()

    def messages(self) -> list[AnyMessage]:
        return list(self.graph.get_state(self.config).values.get("messages", []))

    def language(self) -> Lang:
        """The language of the person's latest request (the chat's own lines follow it)."""
        request = self.graph.get_state(self.config).values.get("request")
        return request["lang"] if request else locale_lang(self.context.locale)

    # ------------------------------------------------------------ the loop

    def banner(self) -> None:
        lang = self.language()
        render.banner(
            self.console, title=self.toolset.language.titles.get(lang, self.toolset.language.title), lang=lang,
            user=self.user, user_id=self.user_id, model=self.settings.model,
            protocol=self.context.protocol, thread_id=self.thread_id,
        )
        state = self.graph.get_state(self.config)
        if state.values.get("messages"):
            self.console.print(f"[dim]{say(lang, 'resumed', count=len(state.values['messages']))}[/dim]")
        if state.interrupts:
            self.console.print(f"[bold]{say(lang, 'waiting')}[/bold]")
            self.answer_interrupts()

    def run(self) -> int:
        """The REPL until exit; quitting at an approval card leaves the card pending in the thread."""
        try:
            self.banner()
            while self.turn():
                pass
        except QuitChat:
            self.console.print(f"[dim]{say(self.language(), 'kept_pending')}[/dim]")
        self.console.print(say(self.language(), "bye", user_id=self.user_id, thread_id=self.thread_id))
        return 0

    def pre_read(self) -> None:
        """While the person types, have the offline model read the conversation the next question will follow
        (`flowagent.models.local.chat.PreReader`): the question then costs only its own tokens. For the react
        strategy on a text protocol, whose prompt is the reasoner's; nothing while an approval waits."""
        if not self.settings.local or self.strategy != "react" or self.context.protocol == "native":
            return
        state = self.graph.get_state(self.config)
        if state.interrupts:
            return
        if self._pre_reader is None:
            from flowagent.models.local.chat import PreReader
            from graph.nodes.reasoner import Reasoner

            self._pre_reader = (PreReader(self.model), Reasoner(self.model, NodeDeps(self.toolset, self.backend)))
        reader, reasoner = self._pre_reader
        try:
            reader.pre_read(reasoner.prompt({"messages": [], **state.values}, self.context))
        except Exception:  # noqa: BLE001 - an optimisation: the question works without it
            logger.exception("could not pre-read the conversation")

    def turn(self) -> bool:
        """Read one line and act on it; False when the person quits."""
        self.pre_read()
        try:
            line = self.ask(f"{person_label(self.user, self.language())}> ")
        except KeyboardInterrupt:
            return True
        except EOFError:
            line = "exit"
        line = line.strip()
        if not line:
            return True
        if line.lower() in EXIT_WORDS:
            return False
        if line.startswith("/"):
            run_command(self, line)
            return True
        if self.graph.get_state(self.config).interrupts:
            self.console.print(f"[bold]{say(self.language(), 'decide_first')}[/bold]")
            if not self.answer_interrupts():
                return True
        self.send({"messages": [HumanMessage(content=line)]})
        return True

    def send(self, payload: Any) -> None:
        """Run the graph on a message or a resume, showing each step, then answer any approval."""
        try:
            with self.console.status(say(self.language(), "thinking"), spinner="dots"):
                for chunk in self.graph.stream(
                    payload, self.config, context=self.context, stream_mode="updates", durability="sync"
                ):
                    render.update(self.console, chunk, self.language, self.toolset)
        except KeyboardInterrupt:
            self.console.print(f"[yellow]{say(self.language(), 'cancelled')}[/yellow]")
            return
        except Exception as exc:  # noqa: BLE001 - configuration errors become one sentence
            sentence = describe_model_error(exc, self.settings)
            if sentence is None:
                raise
            render.error(self.console, sentence)
            return
        if self.graph.get_state(self.config).interrupts:
            self.answer_interrupts()

    # ------------------------------------------------------------ approvals

    def answer_interrupts(self) -> bool:
        """Ask the person about the pending approval; False if they left it pending (Ctrl-C).

        Raises QuitChat when they quit at the card: the thread keeps the interrupt, so a restart on the
        same thread shows the same card again.
        """
        state = self.graph.get_state(self.config)
        if not state.interrupts:
            return True
        request = state.interrupts[0].value
        action = request["action_requests"][0]  # one write is proposed a step: one action per card
        lang = self.language()
        render.card(self.console, action, request.get("error"), lang=lang)
        decision = self.ask_decision(action)
        if decision is None:
            self.console.print(f"[dim]{say(lang, 'left_pending')}[/dim]")
            return False
        self.send(Command(resume={"decisions": [decision]}))
        return True

    def ask_decision(self, action: dict[str, Any]) -> dict[str, Any] | None:
        """The person's decision on the action (LangChain's HITL decision), or None when they walk away
        with Ctrl-C."""
        while True:
            try:
                answer = self.ask(say(self.language(), "decision")).strip().lower()
            except KeyboardInterrupt:
                return None
            except EOFError:
                raise QuitChat from None
            if answer in EXIT_WORDS:
                raise QuitChat
            if answer in ("a", "approve", "y", "yes"):
                return {"type": "approve", "args_hash": action.get("args_hash")}
            if answer in ("r", "reject", "n", "no"):
                try:
                    message = self.ask(say(self.language(), "reject_reason")).strip()
                except (KeyboardInterrupt, EOFError):
                    message = ""
                return {"type": "reject", "message": message} if message else {"type": "reject"}
            if answer in ("e", "edit"):
                edited = self.edit_args(action.get("args", {}))
                if edited is not None:
                    return {"type": "edit", "edited_action": {"name": action.get("name"), "args": edited}}
                continue
            self.console.print(say(self.language(), "decision_hint"))

    def edit_args(self, args: dict[str, Any]) -> dict[str, Any] | None:
        current = json.dumps(args, ensure_ascii=False)
        try:
            text = self.ask(say(self.language(), "edit_args"), default=current)
        except (KeyboardInterrupt, EOFError):
            return None
        try:
            edited = json.loads(text)
        except json.JSONDecodeError as exc:
            render.error(self.console, say(self.language(), "not_json", error=exc.msg))
            return None
        if not isinstance(edited, dict):
            render.error(self.console, say(self.language(), "not_object"))
            return None
        return edited


def make_asker() -> Ask:
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
