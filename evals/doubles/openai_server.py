"""A scripted, loopback-only OpenAI-compatible chat completions server for end-to-end tests."""

from __future__ import annotations

import argparse
import json
import signal
import socket
import sys
import threading
from collections.abc import Iterable
from pathlib import Path
from types import FrameType, TracebackType
from typing import Any

from evals.doubles.openai_http import ScriptHTTPServer
from evals.doubles.openai_replies import MODEL_ID, Reply, ReplyError, ReplyFn, validate_reply

__all__ = ["DEFAULT_EXHAUSTED_REPLY", "MODEL_ID", "Reply", "ReplyError", "ReplyFn", "ScriptedOpenAIServer", "main"]

DEFAULT_EXHAUSTED_REPLY = "(script exhausted)"


class ScriptedOpenAIServer:
    """An OpenAI-compatible server that answers ``POST /v1/chat/completions`` from a script, in order.

    Each request consumes the next reply: a ``str`` (assistant text), a dict
    ``{"content": str | None, "tool_calls": [{"name", "arguments": dict | str, "id"?}], "finish_reason"?,
    "delay_s"?}``, an error dict ``{"http_status": 401, "error": {...}, "delay_s"?}``, or a callable
    ``(request_body) -> reply``. Once the script is exhausted every request gets ``exhausted_reply``.
    Requests rejected for a wrong API key or a malformed body are neither recorded nor consume a reply.
    """

    def __init__(
        self,
        script: Iterable[Reply] = (),
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        api_key: str | None = None,
        exhausted_reply: Reply = DEFAULT_EXHAUSTED_REPLY,
    ) -> None:
        self._script: list[Reply] = list(script)
        for reply in [*self._script, exhausted_reply]:
            validate_reply(reply)
        self.host = host
        self.api_key = api_key
        self.exhausted_reply = exhausted_reply
        self._requested_port = port
        self._lock = threading.Lock()
        self._position = 0
        self._served = 0
        self._requests: list[dict[str, Any]] = []
        self._connections: set[socket.socket] = set()
        self._httpd: ScriptHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @classmethod
    def from_file(cls, path: str | Path, **kwargs: Any) -> ScriptedOpenAIServer:
        """Build a server from a JSON file holding a list of (static) replies."""
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        if not isinstance(data, list):
            raise ReplyError(f"{path}: the script file must hold a JSON list of replies")
        return cls(data, **kwargs)

    # -- lifecycle ----------------------------------------------------------------------------------------

    def start(self) -> ScriptedOpenAIServer:
        """Bind and serve on a daemon thread; returns ``self``. Idempotent."""
        with self._lock:
            if self._httpd is not None:
                return self
            self._httpd = ScriptHTTPServer((self.host, self._requested_port), self)
            self._thread = threading.Thread(
                target=self._httpd.serve_forever,
                kwargs={"poll_interval": 0.02},
                name=f"scripted-openai-{self.port}",
                daemon=True,
            )
            self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving, close open keep-alive connections and release the port. Idempotent."""
        with self._lock:
            httpd, thread, self._httpd, self._thread = self._httpd, self._thread, None, None
            connections = list(self._connections)
            self._connections.clear()
        if httpd is None:
            return
        httpd.shutdown()
        for conn in connections:
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        httpd.server_close()
        if thread is not None:
            thread.join(timeout=5)

    def __enter__(self) -> ScriptedOpenAIServer:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    # -- inspection ---------------------------------------------------------------------------------------

    @property
    def port(self) -> int:
        if self._httpd is None:
            raise RuntimeError("the server is not started")
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        """The OpenAI ``base_url`` to hand to clients, e.g. ``http://127.0.0.1:PORT/v1``."""
        return f"http://{self.host}:{self.port}/v1"

    @property
    def requests(self) -> list[dict[str, Any]]:
        """A snapshot of the chat completion request bodies received so far, oldest first."""
        with self._lock:
            return list(self._requests)

    @property
    def remaining(self) -> int:
        """How many scripted replies have not been served yet."""
        with self._lock:
            return len(self._script) - self._position

    def reset(self, script: Iterable[Reply] = ()) -> None:
        """Replace the script and forget recorded requests, keeping the server (and its port) running."""
        new = list(script)
        for reply in new:
            validate_reply(reply)
        with self._lock:
            self._script = new
            self._position = 0
            self._requests = []

    def extend(self, replies: Iterable[Reply]) -> None:
        """Append replies to the script (e.g. between phases of a long-running test)."""
        new = list(replies)
        for reply in new:
            validate_reply(reply)
        with self._lock:
            self._script.extend(new)

    # -- what the HTTP handler asks of it -----------------------------------------------------------------

    def next_reply(self, request: dict[str, Any]) -> tuple[int, Reply]:
        """Record ``request`` and pop the next reply; returns (1-based sequence number, reply)."""
        with self._lock:
            self._requests.append(request)
            self._served += 1  # never reset, so completion and tool call ids stay unique
            seq = self._served
            if self._position < len(self._script):
                reply = self._script[self._position]
                self._position += 1
                return seq, reply
            return seq, self.exhausted_reply

    def track_connection(self, conn: socket.socket, *, add: bool) -> None:
        with self._lock:
            if add:
                self._connections.add(conn)
            else:
                self._connections.discard(conn)


# --------------------------------------------------------------------------------------------------------
# CLI
# --------------------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m evals.doubles.openai_server", description="Serve a scripted OpenAI-compatible API."
    )
    parser.add_argument("--script", type=Path, help="JSON file with a list of replies (default: none)")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--api-key", default=None, help="reject requests without this bearer key")
    parser.add_argument("--exhausted-reply", default=DEFAULT_EXHAUSTED_REPLY)
    args = parser.parse_args(argv)

    kwargs: dict[str, Any] = {
        "host": args.host,
        "port": args.port,
        "api_key": args.api_key,
        "exhausted_reply": args.exhausted_reply,
    }
    server = (
        ScriptedOpenAIServer.from_file(args.script, **kwargs)
        if args.script
        else ScriptedOpenAIServer(**kwargs)
    )

    def _terminate(signum: int, frame: FrameType | None) -> None:
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, _terminate)
    with server:
        print(server.base_url, flush=True)
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
