"""A scripted, loopback-only OpenAI-compatible chat completions server for end-to-end tests."""

from __future__ import annotations

import argparse
import json
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import FrameType, TracebackType
from typing import Any

ReplyFn = Callable[[dict[str, Any]], Any]
"""A dynamic reply: called with the parsed request body, returns a static reply (or another callable)."""

Reply = str | dict[str, Any] | ReplyFn
"""A plain string (assistant text), a reply dict, or a callable returning one of those."""

MODEL_ID = "scripted"
DEFAULT_EXHAUSTED_REPLY = "(script exhausted)"
_REPLY_KEYS = frozenset({"content", "tool_calls", "finish_reason", "delay_s", "http_status", "error"})
_MAX_CALLABLE_DEPTH = 8


class ReplyError(ValueError):
    """A reply in the script (or returned by a callable reply) has an invalid shape."""


# --------------------------------------------------------------------------------------------------------
# Reply normalisation and OpenAI object construction
# --------------------------------------------------------------------------------------------------------


def _validate_static_reply(reply: Any) -> None:
    """Raise ReplyError unless ``reply`` is a well-formed string or reply dict (callables are accepted)."""
    if callable(reply) or isinstance(reply, str):
        return
    if not isinstance(reply, dict):
        raise ReplyError(f"a reply must be a str, a dict or a callable, not {type(reply).__name__}")
    unknown = set(reply) - _REPLY_KEYS
    if unknown:
        raise ReplyError(f"unknown reply keys {sorted(unknown)}; allowed: {sorted(_REPLY_KEYS)}")
    if "http_status" in reply:
        status = reply["http_status"]
        if not isinstance(status, int) or not 100 <= status <= 599:
            raise ReplyError(f"http_status must be an int HTTP status, got {status!r}")
    if not isinstance(reply.get("error", {}), dict):
        raise ReplyError("error must be a dict like {'message': ..., 'type': ..., 'code': ...}")
    content = reply.get("content")
    if content is not None and not isinstance(content, str):
        raise ReplyError(f"content must be a str or None, got {type(content).__name__}")
    delay = reply.get("delay_s", 0)
    if not isinstance(delay, int | float) or delay < 0:
        raise ReplyError(f"delay_s must be a non-negative number, got {delay!r}")
    tool_calls = reply.get("tool_calls") or []
    if not isinstance(tool_calls, list):
        raise ReplyError("tool_calls must be a list")
    for call in tool_calls:
        if not isinstance(call, dict) or not isinstance(call.get("name"), str):
            raise ReplyError(f"each tool call needs a str 'name', got {call!r}")
        args = call.get("arguments", {})
        if not isinstance(args, dict | str):
            raise ReplyError(f"tool call arguments must be a dict or a JSON string, got {args!r}")


def _resolve(reply: Any, request: dict[str, Any]) -> dict[str, Any]:
    """Call callable replies with the request, validate, and return the reply as a dict."""
    for _ in range(_MAX_CALLABLE_DEPTH):
        if not callable(reply):
            break
        reply = reply(request)
    else:
        raise ReplyError(f"callable replies nested deeper than {_MAX_CALLABLE_DEPTH}")
    _validate_static_reply(reply)
    if isinstance(reply, str):
        return {"content": reply}
    return dict(reply)


def _tool_calls(reply: dict[str, Any], seq: int) -> list[dict[str, Any]]:
    """OpenAI-shaped tool calls (arguments as a JSON string) with deterministic default ids."""
    out: list[dict[str, Any]] = []
    for i, call in enumerate(reply.get("tool_calls") or []):
        args = call.get("arguments", {})
        out.append(
            {
                "id": str(call.get("id") or f"call_{seq}_{i}"),
                "type": "function",
                "function": {
                    "name": call["name"],
                    "arguments": args if isinstance(args, str) else json.dumps(args),
                },
            }
        )
    return out


def _usage(request: dict[str, Any], content: str | None, tool_calls: list[dict[str, Any]]) -> dict[str, int]:
    prompt_tokens = len(json.dumps(request.get("messages", []))) // 4
    produced = len(content or "") + sum(
        len(c["function"]["name"]) + len(c["function"]["arguments"]) for c in tool_calls
    )
    completion_tokens = max(1, produced // 4)
    return {
        "prompt_tokens": prompt_tokens,
        "completion_tokens": completion_tokens,
        "total_tokens": prompt_tokens + completion_tokens,
    }


def _error_body(
    message: str, type_: str, code: str | None = None, param: str | None = None
) -> dict[str, Any]:
    return {"error": {"message": message, "type": type_, "param": param, "code": code}}


def _split(text: str, parts: int) -> list[str]:
    """Split ``text`` into up to ``parts`` non-empty pieces (so streaming exercises delta accumulation)."""
    if not text:
        return []
    size = max(1, -(-len(text) // parts))
    return [text[i : i + size] for i in range(0, len(text), size)]


# --------------------------------------------------------------------------------------------------------
# HTTP layer
# --------------------------------------------------------------------------------------------------------


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "ScriptedOpenAI/1.0"
    disable_nagle_algorithm = True  # headers and body go out in separate writes; avoid 40 ms ACK stalls
    server: _HTTPServer

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
        """Silence the default per-request stderr logging."""

    def setup(self) -> None:
        super().setup()
        self.server.owner._track(self.connection, add=True)

    def finish(self) -> None:
        try:
            super().finish()
        finally:
            self.server.owner._track(self.connection, add=False)

    # -- helpers ------------------------------------------------------------------------------------------

    def _send_json(self, status: int, body: dict[str, Any]) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def _read_body(self) -> bytes:
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length > 0 else b""

    def _path(self) -> str:
        return self.path.split("?", 1)[0].rstrip("/")

    # -- verbs --------------------------------------------------------------------------------------------

    def do_GET(self) -> None:  # noqa: N802 - stdlib naming
        if self._path() in ("/v1/models", "/models"):
            model = {"id": MODEL_ID, "object": "model", "created": 0, "owned_by": "flowagent-tests"}
            self._send_json(200, {"object": "list", "data": [model]})
        else:
            self._send_json(404, _error_body(f"Unknown path {self.path}", "invalid_request_error"))

    def do_POST(self) -> None:  # noqa: N802 - stdlib naming
        raw = self._read_body()  # always drain the body so the keep-alive connection stays in sync
        if self._path() not in ("/v1/chat/completions", "/chat/completions"):
            self._send_json(404, _error_body(f"Unknown path {self.path}", "invalid_request_error"))
            return
        owner = self.server.owner
        if owner.api_key is not None and self.headers.get("Authorization") != f"Bearer {owner.api_key}":
            self._send_json(
                401,
                _error_body("Incorrect API key provided.", "invalid_request_error", code="invalid_api_key"),
            )
            return
        try:
            request = json.loads(raw or b"null")
            if not isinstance(request, dict):
                raise ValueError("the body must be a JSON object")
        except ValueError as exc:
            self._send_json(400, _error_body(f"Invalid JSON body: {exc}", "invalid_request_error"))
            return

        seq, scripted = owner._next(request)
        try:
            reply = _resolve(scripted, request)
        except Exception as exc:  # a broken script must surface as an API error, not a dead thread
            self._send_json(500, _error_body(f"scripted reply failed: {exc!r}", "server_error"))
            return

        delay = float(reply.get("delay_s", 0))
        if delay:
            time.sleep(delay)
        if "http_status" in reply and int(reply["http_status"]) >= 400:
            error = reply.get("error") or {"message": "scripted error", "type": "server_error"}
            body = {"error": {"param": None, "code": None, **error}}
            self._send_json(int(reply["http_status"]), body)
            return

        model = str(request.get("model") or MODEL_ID)
        content = reply.get("content")
        tool_calls = _tool_calls(reply, seq)
        finish = str(reply.get("finish_reason") or ("tool_calls" if tool_calls else "stop"))
        usage = _usage(request, content, tool_calls)
        completion_id = f"chatcmpl-scripted-{seq}"
        created = int(time.time())

        if request.get("stream"):
            include_usage = bool((request.get("stream_options") or {}).get("include_usage"))
            chunks = _stream_chunks(
                completion_id, created, model, content, tool_calls, finish, usage if include_usage else None
            )
            self._send_sse(chunks)
            return

        message: dict[str, Any] = {"role": "assistant", "content": content, "refusal": None}
        if tool_calls:
            message["tool_calls"] = tool_calls
        elif content is None:
            message["content"] = ""
        self._send_json(
            int(reply.get("http_status", 200)),
            {
                "id": completion_id,
                "object": "chat.completion",
                "created": created,
                "model": model,
                "system_fingerprint": None,
                "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": finish}],
                "usage": usage,
            },
        )

    def _send_sse(self, chunks: Iterable[dict[str, Any]]) -> None:
        """Send server-sent events with chunked transfer encoding, keeping the connection reusable."""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()

        def write_chunk(data: bytes) -> None:
            self.wfile.write(f"{len(data):X}\r\n".encode() + data + b"\r\n")

        for chunk in chunks:
            write_chunk(f"data: {json.dumps(chunk)}\n\n".encode())
        write_chunk(b"data: [DONE]\n\n")
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()


def _stream_chunks(
    completion_id: str,
    created: int,
    model: str,
    content: str | None,
    tool_calls: list[dict[str, Any]],
    finish: str,
    usage: dict[str, int] | None,
) -> Iterator[dict[str, Any]]:
    """chat.completion.chunk objects in the order OpenAI sends them."""
    base: dict[str, Any] = {
        "id": completion_id,
        "object": "chat.completion.chunk",
        "created": created,
        "model": model,
        "system_fingerprint": None,
    }
    if usage is not None:
        base["usage"] = None

    def chunk(delta: dict[str, Any], finish_reason: str | None = None) -> dict[str, Any]:
        choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish_reason}
        return {**base, "choices": [choice]}

    yield chunk({"role": "assistant", "content": "" if content is not None or not tool_calls else None})
    for piece in _split(content or "", 3):
        yield chunk({"content": piece})
    for index, call in enumerate(tool_calls):
        head = {"index": index, "id": call["id"], "type": "function"}
        yield chunk(
            {"tool_calls": [{**head, "function": {"name": call["function"]["name"], "arguments": ""}}]}
        )
        for piece in _split(call["function"]["arguments"], 2):
            yield chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
    yield chunk({}, finish)
    if usage is not None:
        yield {**base, "choices": [], "usage": usage}


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False  # idle keep-alive connections must not block stop()
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], owner: ScriptedOpenAIServer) -> None:
        self.owner = owner
        super().__init__(address, _Handler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that closes a stream early (a reply cut at its complete call) is no error."""
        if isinstance(sys.exc_info()[1], BrokenPipeError | ConnectionResetError):
            return
        super().handle_error(request, client_address)


# --------------------------------------------------------------------------------------------------------
# Public API
# --------------------------------------------------------------------------------------------------------


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
            _validate_static_reply(reply)
        self.host = host
        self.api_key = api_key
        self.exhausted_reply = exhausted_reply
        self._requested_port = port
        self._lock = threading.Lock()
        self._position = 0
        self._served = 0
        self._requests: list[dict[str, Any]] = []
        self._connections: set[socket.socket] = set()
        self._httpd: _HTTPServer | None = None
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
            self._httpd = _HTTPServer((self.host, self._requested_port), self)
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
            _validate_static_reply(reply)
        with self._lock:
            self._script = new
            self._position = 0
            self._requests = []

    def extend(self, replies: Iterable[Reply]) -> None:
        """Append replies to the script (e.g. between phases of a long-running test)."""
        new = list(replies)
        for reply in new:
            _validate_static_reply(reply)
        with self._lock:
            self._script.extend(new)

    # -- internals used by the handler --------------------------------------------------------------------

    def _next(self, request: dict[str, Any]) -> tuple[int, Reply]:
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

    def _track(self, conn: socket.socket, *, add: bool) -> None:
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
