"""`python -m flowagent.models.local`: fetch the offline model's weights, install llama-cpp-python, serve, ask.

``ensure qwen|smollm2`` prints the path of the verified weights, ``install-server`` makes sure llama-cpp-python
with its server runs here, ``serve qwen`` serves a model until Ctrl-C, ``ask qwen "有哪些流程？"`` asks it once.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import logging
import signal
import sys
import time
from pathlib import Path
from typing import get_args

from flowagent.models.local.build import ensure_llama_server
from flowagent.models.local.cache import MODEL_DIR_ENV
from flowagent.models.local.chat import default_local_model_settings
from flowagent.models.local.cpu import LLAMA_CPP_PYTHON_VERSION
from flowagent.models.local.errors import LocalModelError
from flowagent.models.local.server import start_local_server
from flowagent.models.local.specs import MODELS, ModelName
from flowagent.models.local.weights import ensure_model


def _serve(args: argparse.Namespace) -> int:
    ensure_llama_server()
    path = ensure_model(args.name, args.dir)
    with start_local_server(
        path, port=args.port, host=args.host, n_ctx=args.n_ctx, model_alias=MODELS[args.name].alias,
        n_threads=args.threads,
    ) as server:  # fmt: skip
        print(f"OPENAI_BASE_URL={server.base_url}", flush=True)
        print(f"FLOWAGENT_MODEL={server.model}", flush=True)
        print("serving until Ctrl-C", file=sys.stderr, flush=True)
        while server.running:
            time.sleep(0.5)
        print(f"the server stopped; its log ends with:\n{server.log_tail()}", file=sys.stderr)
        return 1


def _ask(args: argparse.Namespace) -> int:
    from langchain_openai import ChatOpenAI

    ensure_llama_server()
    path = ensure_model(args.name, args.dir)
    settings = default_local_model_settings()
    with start_local_server(
        path, host=args.host, n_ctx=args.n_ctx, model_alias=MODELS[args.name].alias, n_threads=args.threads
    ) as server:
        chat = ChatOpenAI(**settings.chat_openai_kwargs(server))
        started = time.monotonic()
        reply = chat.invoke(args.prompt)
        elapsed = time.monotonic() - started
        print(reply.content)
        usage = reply.response_metadata.get("token_usage") or {}
        tokens = usage.get("completion_tokens")
        rate = f", {tokens} tokens, {tokens / elapsed:.1f} tokens/s" if tokens else ""
        print(f"({elapsed:.1f} s{rate})", file=sys.stderr)
    return 0


def _exit_on_signal(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def main(argv: list[str] | None = None) -> int:
    """Run one command; 0 on success, 1 with one ``flowagent: error: ...`` line when the model cannot be had."""
    logging.basicConfig(format="flowagent: %(levelname)s: %(message)s", level=logging.WARNING)
    parser = argparse.ArgumentParser(
        prog="python -m flowagent.models.local", description="Fetch, verify and serve flowagent's offline model."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    names = list(get_args(ModelName))

    ensure = sub.add_parser("ensure", help="download, assemble and verify a pinned model; print its path")
    ensure.add_argument("name", choices=names)
    ensure.add_argument("--dir", type=Path, default=None, help=f"model directory (default ${MODEL_DIR_ENV})")

    sub.add_parser("install-server", help=f"make sure llama-cpp-python {LLAMA_CPP_PYTHON_VERSION} is there")

    for command, text in (("serve", "serve a model until Ctrl-C"), ("ask", "ask a model one question")):
        p = sub.add_parser(command, help=text)
        p.add_argument("name", choices=names)
        if command == "ask":
            p.add_argument("prompt")
        else:
            p.add_argument("--port", type=int, default=None)
        p.add_argument("--host", default="127.0.0.1")
        p.add_argument("--n-ctx", type=int, default=8192)
        p.add_argument("--threads", type=int, default=None)
        p.add_argument("--dir", type=Path, default=None)

    args = parser.parse_args(argv)
    for signum in (signal.SIGTERM, signal.SIGHUP):  # unwind `with` blocks so the server is stopped
        signal.signal(signum, _exit_on_signal)
    try:
        if args.command == "ensure":
            print(ensure_model(args.name, args.dir))
            return 0
        if args.command == "install-server":
            ensure_llama_server()
            version = importlib.metadata.version("llama-cpp-python")
            print(f"llama-cpp-python {version} with its server is installed in {sys.prefix}")
            return 0
        if args.command == "serve":
            return _serve(args)
        return _ask(args)
    except LocalModelError as exc:
        print(f"flowagent: error: {exc.message}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("flowagent: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
