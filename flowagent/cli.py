"""The `flowagent` command line: parses the arguments of `chat`, `token`, `serve` and the toolsets' own subcommands
(`Surfaces.cli`: the workflow's `outbox` and `processes`) and hands each to its module."""

from __future__ import annotations

import argparse
import os
import sys

from rich.console import Console

from flowagent.chat import render
from flowagent.chat.logs import configure_logging
from flowagent.chat.session import ChatError, ChatSession, make_asker, store_url
from flowagent.models.endpoint import ModelConfigError, describe_model_error, stop_local_model
from graph.strategies import STRATEGIES
from tools.errors import DomainError
from tools.toolsets import get_toolset, toolset_names

DEFAULT_STORE_URL = "sqlite:///.flowagent/workflow.db"
"""Where the chat's log file goes beside when no store is configured (`.flowagent/flowagent.log`)."""

MOVED = {
    "eval": "flowagent: `flowagent eval` is now its own command: run `flowagent-eval` (or `python -m evals`); "
    "`flowagent-eval --help` lists its options.",
    "bench": "flowagent: `flowagent bench` is now its own command: run `flowagent-bench` (or `python -m evals.bench`); "
    "`flowagent-bench --help` lists its options.",
}
"""Commands that moved to their own entry points, so that the apps never import `evals`."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="flowagent",
        description="A guarded ReAct workflow assistant.",
        epilog="Evaluations and benchmarks have their own commands: flowagent-eval and flowagent-bench.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    chat = sub.add_parser("chat", help="chat with the workflow assistant")
    chat.add_argument("--user", default=os.environ.get("FLOWAGENT_USER", "user_1"), help="who you are (user_1)")
    chat.add_argument("--thread", help="resume a conversation by its thread id")
    chat.add_argument("--protocol", choices=["native", "react", "json"], help="how the model proposes actions")
    chat.add_argument("--toolset", choices=list(toolset_names()), default=os.environ.get("FLOWAGENT_TOOLSET", "workflow"),
                      help="the tools the assistant has: workflow (leave approvals), toy (weather, calculator), travel")
    chat.add_argument("--strategy", choices=list(STRATEGIES), default=os.environ.get("FLOWAGENT_STRATEGY", "react"),
                      help="how the assistant works: react (decides each step, default), plan (plans the steps first), "
                      "chain (a fixed sequence per kind of task)")
    chat.add_argument("--locale", choices=["zh-CN", "en"], default=os.environ.get("FLOWAGENT_LOCALE", "zh-CN"),
                      help="your language before you say anything (zh-CN or en; default FLOWAGENT_LOCALE or zh-CN); "
                      "after that the chat follows the language you write in")
    chat.add_argument("--model", help="model name (default FLOWAGENT_MODEL, or the offline model)")
    chat.add_argument("--db", help="workflow store URL or file (default FLOWAGENT_DB or .flowagent/workflow.db)")
    chat.add_argument("--checkpoints", help="checkpoint file or postgres URL (default FLOWAGENT_CHECKPOINT_URL)")
    sub.add_parser(
        "token", help="print a development sign-in token for a user (for the LangGraph server and its page); --revoke TOKEN",
        add_help=False
    )
    sub.add_parser(
        "serve", help="the production LangGraph server (PostgreSQL, Redis, N workers): --port P --workers N", add_help=False
    )
    for name in toolset_names():  # the toolsets' own subcommands (the workflow's `outbox`, `processes deploy|list`)
        for command, spec in get_toolset(name).surfaces.cli.items():
            own = sub.add_parser(command, help=spec.help)
            spec.arguments(own)
            own.set_defaults(toolset_command=spec)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in MOVED:
        print(MOVED[argv[0]], file=sys.stderr)
        return 2
    if argv and argv[0] == "token":
        from flowagent.server.tokens import main as token_main

        return token_main(argv[1:])
    if argv and argv[0] == "serve":
        from flowagent.server.serve import main as serve_main

        return serve_main(argv[1:])
    args = build_parser().parse_args(argv)
    console = Console(highlight=False)
    try:
        log = configure_logging(store_url(args.db) or store_url(os.environ.get("FLOWAGENT_DB", "").strip() or None)
                                or DEFAULT_STORE_URL)
        own = getattr(args, "toolset_command", None)
        if own is not None:
            shown = own.run(args)
            if isinstance(shown, str):
                console.print(shown)
            else:
                render.sections(console, shown)
            return 0
        return ChatSession(args, console, make_asker(), log).run()
    except (ChatError, ModelConfigError, DomainError, ValueError) as exc:
        render.error(console, str(exc))
        return 2
    except Exception as exc:  # noqa: BLE001 - configuration errors are one sentence, bugs still raise
        sentence = describe_model_error(exc)
        if sentence is None:
            raise
        render.error(console, sentence)
        return 2
    finally:
        stop_local_model()


if __name__ == "__main__":
    raise SystemExit(main())
