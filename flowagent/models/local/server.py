"""The llama.cpp server process: started on a free local port with its own log, supervised, and stopped.

The server is ``python -m llama_cpp.server`` in a child process of its own session, behind a watchdog that stops
it once flowagent is gone; it answers the OpenAI API that ``ChatOpenAI`` speaks.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import logging
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

from flowagent.models.local.cache import default_log_dir, remove_quietly
from flowagent.models.local.cpu import usable_cpus
from flowagent.models.local.errors import LocalModelError, Progress, stderr_progress
from flowagent.models.local.timings import RequestTimings, parse_timings

logger = logging.getLogger(__name__)

LOCAL_API_KEY = "sk-local"
"""The key sent to the local server: it checks none, but the OpenAI client insists on one."""

LOOKUP_DRAFT_ENV = "FLOWAGENT_LOOKUP_DRAFT"
DEFAULT_LOOKUP_DRAFT = 4
"""Tokens guessed ahead from the conversation itself (llama-cpp-python's prompt-lookup decoding): a call's tool name,
keys and the person's words are mostly copies of what the prompt holds, so the server checks up to this many guessed
tokens in one batch instead of generating them one by one. What is sampled is unchanged (each position is still
sampled from the model's own distribution; a guess that differs is dropped). On the Intel Xeon (2026-12-07) the seed's
first answer went from 4.2 s to 2.7-3.1 s with 4; with 10 it was 4.0 s (a batch of 11 costs more than the guesses
that hold save). 0 turns it off."""


def lookup_draft_tokens() -> int:
    """``$FLOWAGENT_LOOKUP_DRAFT`` if set (a whole number, 0 for none), else `DEFAULT_LOOKUP_DRAFT`."""
    configured = os.environ.get(LOOKUP_DRAFT_ENV, "").strip()
    if not configured:
        return DEFAULT_LOOKUP_DRAFT
    if not configured.isdigit():
        raise LocalModelError(
            f"{LOOKUP_DRAFT_ENV}={configured!r} is not a whole number: set it to the tokens to guess ahead "
            f"({DEFAULT_LOOKUP_DRAFT} by default; 0 turns guessing off), or unset it."
        )
    return int(configured)


def _draft_args(draft: int) -> list[str]:
    """The server's options for `draft` guessed tokens. Checking guesses needs the logits of every token of a batch
    (llama-cpp-python then keeps them for the whole context: about 0.6 MB per token read); without guesses only the
    last token's are computed."""
    if draft <= 0:
        return ["--logits_all", "false"]
    return ["--logits_all", "true", "--draft_model", "prompt-lookup-decoding",
            "--draft_model_num_pred_tokens", str(draft)]


def _free_port(host: str) -> int:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        port: int = sock.getsockname()[1]
        return port


def _log_tail(path: Path, lines: int = 15) -> str:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return "(no log)"
    kept = [line for line in text.splitlines() if line.strip()][-lines:]
    return "\n".join(kept) if kept else "(empty log)"


class LocalServer:
    """A running ``llama_cpp.server`` child process; stop it with :meth:`stop` or leave its ``with`` block."""

    def __init__(
        self,
        process: subprocess.Popen[bytes],
        *,
        host: str,
        port: int,
        model: str,
        model_path: Path,
        log_path: Path,
        n_threads: int = 0,
        n_threads_batch: int = 0,
        n_ctx: int = 0,
        lookup_draft: int = 0,
        openmp_wait: str = "",
    ) -> None:
        self.process = process
        self.host = host
        self.port = port
        self.model = model
        self.model_path = model_path
        self.log_path = log_path
        self.n_threads = n_threads
        """Threads that generate tokens (llama.cpp's ``n_threads``)."""
        self.n_threads_batch = n_threads_batch
        """Threads that read the prompt (llama.cpp's ``n_threads_batch``)."""
        self.n_ctx = n_ctx
        self.lookup_draft = lookup_draft
        """Tokens guessed ahead per step (0: none; see `DEFAULT_LOOKUP_DRAFT`)."""
        self.openmp_wait = openmp_wait
        """How its threads wait at barriers (``GOMP_SPINCOUNT=...`` / ``OMP_WAIT_POLICY=...``; see `server_environment`)."""
        self.warm_up: RequestTimings | None = None
        """The timings of the last :func:`warm_up` request, once there was one."""
        atexit.register(self.stop)

    @property
    def base_url(self) -> str:
        """The OpenAI-compatible endpoint, for ``ChatOpenAI(base_url=...)``."""
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{self.port}/v1"

    @property
    def api_key(self) -> str:
        """Any key works: the local server does not check it (the OpenAI client insists on one)."""
        return LOCAL_API_KEY

    @property
    def running(self) -> bool:
        return self.process.poll() is None

    def log_tail(self, lines: int = 15) -> str:
        return _log_tail(self.log_path, lines)

    def log_offset(self) -> int:
        """The log's size now: pass it to :meth:`timings_since` to get the requests completed after this."""
        try:
            return self.log_path.stat().st_size
        except OSError:
            return 0

    def timings_since(self, offset: int = 0) -> list[RequestTimings]:
        """What llama.cpp reported for each request completed after byte ``offset`` of the log, in order.

        A request whose report is only partly written yet is left out (the server writes it before it
        answers, so every request whose answer arrived is complete).
        """
        try:
            with self.log_path.open("rb") as log:
                log.seek(offset)
                text = log.read().decode("utf-8", errors="replace")
        except OSError as exc:
            logger.warning("could not read the timings in the server log %s (%s)", self.log_path, exc)
            return []
        return parse_timings(text)

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the server (SIGTERM, then SIGKILL after ``timeout`` seconds); calling it twice is harmless."""
        atexit.unregister(self.stop)
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                logger.warning("the local model server (pid %d) ignored SIGTERM for %.0f s; killing it",
                               self.process.pid, timeout)
                self.process.kill()
                self.process.wait(timeout=timeout)

    def __enter__(self) -> LocalServer:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def __repr__(self) -> str:
        state = "running" if self.running else f"exited {self.process.returncode}"
        return f"LocalServer(model={self.model!r}, base_url={self.base_url!r}, {state})"


# Runs ``python -m llama_cpp.server`` with a watchdog that stops it once flowagent is gone, even when
# flowagent was killed without a chance to clean up (the server has its own session: no terminal signal
# reaches it).
_SERVER_BOOTSTRAP = """\
import os, runpy, signal, sys, threading, time
parent = int(sys.argv.pop(1))
def watch():
    while os.getppid() == parent:
        time.sleep(1)
    os.kill(os.getpid(), signal.SIGTERM)
threading.Thread(target=watch, name="flowagent-parent-watch", daemon=True).start()
runpy.run_module("llama_cpp.server", run_name="__main__", alter_sys=True)
"""


_KEPT_LOGS = 8
_OPENMP_WAIT = ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")
SPIN_COUNT = "10000"
"""How long llama.cpp's OpenMP threads spin at a barrier before they sleep (GNU OpenMP's `GOMP_SPINCOUNT`)."""


def server_environment(base: dict[str, str] | None = None) -> dict[str, str]:
    """The local server's environment: ``base`` (default: this process's) with a short OpenMP spin.

    llama.cpp's threads meet at a barrier after every operation.  GNU OpenMP lets a waiting thread spin
    300,000 rounds (milliseconds) before it sleeps; when anything else runs on a two-core machine, the
    spinning thread holds the core that the thread it waits for needs.  With two generation threads on a busy
    two-core machine (load 3-4) generation measured 0.4-4.7 tokens/s so, and 2.7-16.7 tokens/s with 10,000
    rounds; on a quieter one (load 2) 17.8 against 15.5.  An ``OMP_WAIT_POLICY`` or ``GOMP_SPINCOUNT``
    already set is kept.
    """
    env = dict(os.environ if base is None else base)
    if not any(name in env for name in _OPENMP_WAIT):
        env["GOMP_SPINCOUNT"] = SPIN_COUNT
    return env


def _prune_logs(directory: Path, pattern: str, keep: int) -> None:
    """Delete all but the ``keep`` newest logs matching ``pattern`` (each server start writes a new one)."""
    logs = []
    for path in directory.glob(pattern):
        with contextlib.suppress(OSError):
            logs.append((path.stat().st_mtime, path))
    for _, path in sorted(logs, reverse=True)[keep:]:
        remove_quietly(path)


def _ready(base_url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{base_url}/models", timeout=2) as response:
            payload = json.loads(response.read().decode("utf-8"))
    except (OSError, ValueError, urllib.error.URLError):
        return False
    return isinstance(payload, dict) and bool(payload.get("data"))


def start_local_server(
    model_path: Path,
    *,
    port: int | None = None,
    n_ctx: int = 8192,
    host: str = "127.0.0.1",
    model_alias: str | None = None,
    n_threads: int | None = None,
    n_threads_batch: int | None = None,
    lookup_draft: int | None = None,
    startup_timeout: float = 180.0,
    log_dir: Path | None = None,
    progress: Progress | None = None,
    extra_args: Sequence[str] = (),
) -> LocalServer:
    """Start ``python -m llama_cpp.server`` for ``model_path`` and wait until ``GET /v1/models`` answers.

    The server uses the chat template stored in the GGUF (no ``--chat_format``), listens on ``host`` and a
    free port unless ``port`` is given, generates (``n_threads``) and reads prompts (``n_threads_batch``)
    with every CPU this process may use unless told otherwise, guesses ``lookup_draft`` tokens ahead
    (`lookup_draft_tokens` unless given; see `DEFAULT_LOOKUP_DRAFT`), and logs to its own file in ``log_dir``
    (default ``<model dir>/logs``; the newest few are kept), verbosely, so that
    :meth:`LocalServer.timings_since` can read each request's timings there.  It runs in its own session, so
    Ctrl-C in the terminal reaches flowagent and not the server; it is stopped when flowagent exits.  If it
    dies or is not ready within ``startup_timeout`` seconds, :class:`LocalModelError` carries the end of its log.
    """
    report = progress or stderr_progress
    model_path = Path(model_path)
    if not model_path.is_file():
        raise LocalModelError(
            f"The model file {model_path} does not exist; run `python -m flowagent.models.local ensure qwen` "
            "first."
        )
    alias = model_alias or model_path.stem
    chosen_port = port or _free_port(host)
    # Every usable CPU both generates and reads prompts (llama-cpp-python's own default generates with half
    # of them): on two idle cores two generation threads measured 1.55x faster than one.
    cpus = usable_cpus()
    threads = n_threads or cpus
    threads_batch = n_threads_batch or cpus
    draft = lookup_draft_tokens() if lookup_draft is None else lookup_draft
    logs = log_dir or default_log_dir()
    logs.mkdir(parents=True, exist_ok=True)
    # One log per server: two chats (or a chat and a benchmark) each run their own server, and the timings of
    # one must never be read from the other's log.
    log_path = logs / f"llama-server-{alias}-{chosen_port}.log"
    _prune_logs(logs, f"llama-server-{alias}-*.log", keep=_KEPT_LOGS - 1)
    cmd = [
        sys.executable, "-c", _SERVER_BOOTSTRAP, str(os.getpid()),
        "--model", str(model_path),
        "--model_alias", alias,
        "--host", host,
        "--port", str(chosen_port),
        "--n_ctx", str(n_ctx),
        "--n_threads", str(threads),
        "--n_threads_batch", str(threads_batch),
        # The server's default computes logits for every prompt token (and keeps n_ctx x vocabulary floats,
        # 2.5 GB for Qwen): only logprobs and checking guessed tokens need them, and the chat never asks for logprobs.
        *_draft_args(draft),
        # The per-request timings (`LocalServer.timings_since`) come from the verbose log.
        "--verbose", "true",
        *extra_args,
    ]  # fmt: skip
    report(
        f"starting the local model server for {alias} on {host}:{chosen_port} with {threads} generation and "
        f"{threads_batch} prompt threads{f', guessing {draft} tokens ahead' if draft > 0 else ''} (log: {log_path})"
    )
    started = time.monotonic()
    process, spin = _spawn(cmd, log_path)
    server = LocalServer(
        process, host=host, port=chosen_port, model=alias, model_path=model_path, log_path=log_path,
        n_threads=threads, n_threads_batch=threads_batch, n_ctx=n_ctx, openmp_wait=spin, lookup_draft=draft,
    )  # fmt: skip
    _wait_until_ready(server, started=started, timeout=startup_timeout)
    report(f"the local model server is ready after {time.monotonic() - started:.1f} s at {server.base_url}")
    return server


def _spawn(cmd: list[str], log_path: Path) -> tuple[subprocess.Popen[bytes], str]:
    """Start the server's command in a session of its own, writing to a new log at ``log_path`` that opens with the
    command as one would type it; returns the process and the OpenMP wait setting it runs with."""
    env = server_environment()
    with log_path.open("wb") as log:
        shown = [sys.executable, "-m", "llama_cpp.server", *cmd[4:]]
        spin = " ".join(f"{name}={env[name]}" for name in _OPENMP_WAIT if name in env)
        log.write(f"$ {spin} {' '.join(shown)}  # stops when process {os.getpid()} ends\n".lstrip().encode())
        log.flush()
        try:
            process = subprocess.Popen(
                cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, env=env
            )
        except OSError as exc:
            raise LocalModelError(
                f"Could not start the local model server with {sys.executable} ({exc}); check that this "
                "Python still works and retry."
            ) from exc
    return process, spin


def _wait_until_ready(server: LocalServer, *, started: float, timeout: float) -> None:
    """Wait until the server answers ``GET /v1/models``; stop it and raise :class:`LocalModelError` with the end of
    its log if it exits first or is not ready ``timeout`` seconds after ``started`` (a ``time.monotonic()`` value)."""
    log_path = server.log_path
    deadline = started + timeout
    while True:
        code = server.process.poll()
        if code is not None:
            server.stop()
            raise LocalModelError(
                f"The local model server exited with code {code} before it was ready; read its log "
                f"{log_path} (it ends with:\n{_log_tail(log_path)}\n) and fix the cause, for example run "
                "`python -m flowagent.models.local install-server` or fetch the model again."
            )
        if _ready(server.base_url):
            return
        if time.monotonic() > deadline:
            server.stop()
            raise LocalModelError(
                f"The local model server did not answer within {timeout:.0f} s; read its log "
                f"{log_path} (it ends with:\n{_log_tail(log_path)}\n) and retry with a longer timeout."
            )
        time.sleep(0.25)
