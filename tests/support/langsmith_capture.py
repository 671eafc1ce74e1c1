"""A loopback stand-in for the LangSmith API that records what the real langsmith client sends.

It answers `GET /info` (multipart ingestion with zstd compression, as LangSmith itself does), accepts `POST /runs/multipart`
(multipart/form-data parts named `post.<id>`, `post.<id>.inputs`, `patch.<id>.outputs`, ...), `POST /runs/batch`
(`{"post": [...], "patch": [...]}`), `POST /runs` and `PATCH /runs/<id>`, and answers anything else with an
empty JSON object. Every request body is kept (decompressed: `body`) so a test can search all of it for
secrets; `runs()` merges the creates and updates of each run into one dict.
"""

from __future__ import annotations

import email.parser
import email.policy
import json
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

import zstandard

from tests.support.net import LOOPBACK

INFO = {
    "version": "0.0.0-capture",
    "batch_ingest_config": {
        "use_multipart_endpoint": True,
        "scale_up_qsize_trigger": 1000,
        "scale_up_nthreads_limit": 1,
        "scale_down_nempty_trigger": 4,
        "size_limit": 100,
        "size_limit_bytes": 20_971_520,
    },
    "instance_flags": {"zstd_compression_enabled": True},
}


@dataclass
class Captured:
    """One HTTP request as received (the body decompressed when it came zstd-encoded)."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes


def parse_multipart(content_type: str, body: bytes) -> list[tuple[str, Any]]:
    """(part name, decoded JSON value) for every part of a multipart/form-data body."""
    head = f"Content-Type: {content_type}\r\nMIME-Version: 1.0\r\n\r\n".encode()
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(head + body)
    parts = []
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        decoded = part.get_payload(decode=True)
        payload = decoded if isinstance(decoded, bytes) else b""
        try:
            value: Any = json.loads(payload)
        except ValueError:
            value = payload.decode("utf-8", errors="replace")
        parts.append((str(name), value))
    return parts


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
        """Quiet."""

    def _body(self) -> bytes:
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            chunks = []
            while True:
                size = int(self.rfile.readline().strip() or b"0", 16)
                if size == 0:
                    self.rfile.readline()
                    break
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
            return b"".join(chunks)
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def _reply(self, status: int, body: Any) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _handle(self) -> None:
        body = self._body()
        if self.headers.get("Content-Encoding", "").lower() == "zstd":
            body = zstandard.ZstdDecompressor().decompressobj().decompress(body)
        path = self.path.split("?", 1)[0].rstrip("/")
        self.server.owner.record(Captured(self.command, path, dict(self.headers.items()), body))
        if self.command == "GET" and path == "/info":
            self._reply(200, INFO)
        elif self.command in ("POST", "PATCH") and path.startswith("/runs"):
            self._reply(202, {})
        else:
            self._reply(200, {})

    do_GET = do_POST = do_PATCH = do_PUT = _handle  # noqa: N815 - stdlib naming


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    allow_reuse_address = True

    def __init__(self, owner: LangSmithCapture) -> None:
        self.owner = owner
        super().__init__((LOOPBACK, 0), _Handler)


class LangSmithCapture:
    """Start with `with LangSmithCapture() as capture:`; point LANGSMITH_ENDPOINT at `capture.url`."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.requests: list[Captured] = []
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    def __enter__(self) -> LangSmithCapture:
        self._server = _Server(self)
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    @property
    def url(self) -> str:
        assert self._server is not None, "not started"
        return f"http://{LOOPBACK}:{self._server.server_address[1]}"

    def record(self, request: Captured) -> None:
        with self._lock:
            self.requests.append(request)

    def all_bodies(self) -> bytes:
        """Every request's path and body, concatenated (headers left out: they carry the API key by design)."""
        with self._lock:
            return b"\n".join(r.path.encode() + b"\n" + r.body for r in self.requests)

    def operations(self) -> list[tuple[str, str, dict[str, Any]]]:
        """Run operations in arrival order: ("post" | "patch", run id, fields)."""
        ops: list[tuple[str, str, dict[str, Any]]] = []
        with self._lock:
            requests = list(self.requests)
        for r in requests:
            if r.path == "/runs/multipart":
                pending: dict[tuple[str, str], dict[str, Any]] = {}
                for name, value in parse_multipart(r.headers.get("Content-Type", ""), r.body):
                    kind, run_id, *field = name.split(".")
                    if kind not in ("post", "patch"):
                        continue  # attachments and feedback are not runs
                    fields = pending.setdefault((kind, run_id), {})
                    if field:
                        fields[field[0]] = value
                    else:
                        fields.update(value)
                ops.extend((kind, run_id, fields) for (kind, run_id), fields in pending.items())
            elif r.path == "/runs/batch":
                batch = json.loads(r.body or b"{}")
                ops.extend(("post", str(run["id"]), run) for run in batch.get("post") or [])
                ops.extend(("patch", str(run["id"]), run) for run in batch.get("patch") or [])
            elif r.path == "/runs" and r.method == "POST":
                run = json.loads(r.body)
                ops.append(("post", str(run["id"]), run))
            elif r.path.startswith("/runs/") and r.method == "PATCH":
                ops.append(("patch", r.path.rsplit("/", 1)[1], json.loads(r.body)))
        return ops

    def runs(self) -> dict[str, dict[str, Any]]:
        """Every run, its create and updates merged: {run id: fields}."""
        merged: dict[str, dict[str, Any]] = {}
        for kind, run_id, fields in self.operations():
            run = merged.setdefault(run_id, {"id": run_id})
            for key, value in fields.items():
                if key == "extra" and isinstance(value, dict):
                    extra = run.setdefault("extra", {})
                    for k, v in value.items():
                        extra[k] = {**extra.get(k, {}), **v} if isinstance(v, dict) and isinstance(extra.get(k), dict) else v
                elif value is not None or key not in run:
                    run[key] = value
            run.setdefault("_ops", []).append(kind)
        return merged
