"""The scripted server's HTTP side: its routes, the API key, JSON replies and server-sent events."""

from __future__ import annotations

import json
import socket
import sys
import time
from collections.abc import Iterable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Protocol

from evals.doubles.openai_replies import (
    MODEL_ID,
    Completion,
    Reply,
    completion,
    error_body,
    resolve,
    stream_chunks,
    tool_calls,
    usage,
)


class ScriptOwner(Protocol):
    """What the handler asks of the server that owns the script."""

    api_key: str | None

    def next_reply(self, request: dict[str, Any]) -> tuple[int, Reply]: ...

    def track_connection(self, conn: socket.socket, *, add: bool) -> None: ...


class ScriptHandler(BaseHTTPRequestHandler):
    """One connection: `GET /v1/models`, and `POST /v1/chat/completions` answered with the script's next reply."""

    protocol_version = "HTTP/1.1"
    server_version = "ScriptedOpenAI/1.0"
    disable_nagle_algorithm = True  # headers and body go out in separate writes; avoid 40 ms ACK stalls
    server: ScriptHTTPServer

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
        """Silence the default per-request stderr logging."""

    def setup(self) -> None:
        super().setup()
        self.server.owner.track_connection(self.connection, add=True)

    def finish(self) -> None:
        try:
            super().finish()
        finally:
            self.server.owner.track_connection(self.connection, add=False)

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
            self._send_json(404, error_body(f"Unknown path {self.path}", "invalid_request_error"))

    def do_POST(self) -> None:  # noqa: N802 - stdlib naming
        raw = self._read_body()  # always drain the body so the keep-alive connection stays in sync
        request = self._accepted(raw)
        if request is None:
            return
        seq, scripted = self.server.owner.next_reply(request)
        try:
            reply = resolve(scripted, request)
        except Exception as exc:  # a broken script must surface as an API error, not a dead thread
            self._send_json(500, error_body(f"scripted reply failed: {exc!r}", "server_error"))
            return
        delay = float(reply.get("delay_s", 0))
        if delay:
            time.sleep(delay)
        if "http_status" in reply and int(reply["http_status"]) >= 400:
            error = reply.get("error") or {"message": "scripted error", "type": "server_error"}
            self._send_json(int(reply["http_status"]), {"error": {"param": None, "code": None, **error}})
            return
        self._answer(request, reply, seq)

    def _accepted(self, raw: bytes) -> dict[str, Any] | None:
        """The request body, or None once a 404, 401 or 400 has been sent for it (no reply is consumed)."""
        if self._path() not in ("/v1/chat/completions", "/chat/completions"):
            self._send_json(404, error_body(f"Unknown path {self.path}", "invalid_request_error"))
            return None
        api_key = self.server.owner.api_key
        if api_key is not None and self.headers.get("Authorization") != f"Bearer {api_key}":
            self._send_json(
                401, error_body("Incorrect API key provided.", "invalid_request_error", code="invalid_api_key")
            )
            return None
        try:
            request = json.loads(raw or b"null")
            if not isinstance(request, dict):
                raise ValueError("the body must be a JSON object")
        except ValueError as exc:
            self._send_json(400, error_body(f"Invalid JSON body: {exc}", "invalid_request_error"))
            return None
        return request

    def _answer(self, request: dict[str, Any], reply: dict[str, Any], seq: int) -> None:
        """Send the reply as a completion, or as server-sent chunks when the request streams."""
        calls = tool_calls(reply, seq)
        answer = Completion(
            id=f"chatcmpl-scripted-{seq}",
            created=int(time.time()),
            model=str(request.get("model") or MODEL_ID),
            content=reply.get("content"),
            calls=calls,
            finish=str(reply.get("finish_reason") or ("tool_calls" if calls else "stop")),
            usage=usage(request, reply.get("content"), calls),
        )
        if request.get("stream"):
            include_usage = bool((request.get("stream_options") or {}).get("include_usage"))
            self._send_sse(stream_chunks(answer, include_usage))
        else:
            self._send_json(int(reply.get("http_status", 200)), completion(answer))

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


class ScriptHTTPServer(ThreadingHTTPServer):
    """A thread per connection, none of them keeping the server from stopping."""

    daemon_threads = True
    block_on_close = False  # idle keep-alive connections must not block stop()
    allow_reuse_address = True
    request_queue_size = 128  # socketserver's 5 refused connections when 48 threads of two workers asked at once

    def __init__(self, address: tuple[str, int], owner: ScriptOwner) -> None:
        self.owner = owner
        super().__init__(address, ScriptHandler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that closes a stream early (a reply cut at its complete call) is no error."""
        if isinstance(sys.exc_info()[1], BrokenPipeError | ConnectionResetError):
            return
        super().handle_error(request, client_address)
