"""What a toolset's tools run against: reads, one transaction per write with its execution record, and the audit.

The runtime knows no domain: it asks the toolset's backend for a read handle (a SQL connection for the workflow,
nothing for a toolset with no store of its own), for a transaction in which a write's effect and its execution
record commit together, and for the audit log. `MemoryBackend` serves toolsets that keep no durable state.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol, runtime_checkable


@dataclass(frozen=True)
class Execution:
    """A write that ran: recorded under its idempotency key in the same transaction as its effect."""

    key: str
    """The idempotency key: thread id + tool call id."""
    thread_id: str
    actor_id: str
    tool: str
    args: dict[str, Any]
    result: dict[str, Any]
    lang: str = ""
    """The language the person wrote in ("zh", "en"; "" when not known): a backend may keep it, to write to them in it."""


class Backend(Protocol):
    """The toolset's storage as the runtime and the nodes use it."""

    conflict: tuple[type[BaseException], ...]
    """Errors a write transaction raises when a concurrent run recorded the same idempotency key first."""

    def read(self) -> AbstractContextManager[Any]:
        """A handle for checks, reads and review cards: one snapshot, no writes."""
        ...

    def transaction(self) -> AbstractContextManager[Any]:
        """A handle for one write: committed when the block ends, rolled back whole on any exception."""
        ...

    def recorded(self, handle: Any, key: str) -> dict[str, Any] | None:
        """The result recorded under an idempotency key, read through `handle`, or None."""
        ...

    def record(self, handle: Any, execution: Execution) -> None:
        """Record a write's execution (and its audit entry) inside the write's transaction."""
        ...

    def record_audit(
        self, event_name: str, detail: dict[str, Any], *, thread_id: str | None = None, actor_id: str | None = None
    ) -> None:
        """Append one audit record in its own transaction (a review decision, a refused write)."""
        ...

    def reviews(self, thread_id: str, tool_call_id: str) -> list[dict[str, Any]]:
        """The review decisions on record for one call in one thread, oldest first (each with `event`, `actor_id`
        and the `detail` written by `record_audit`)."""
        ...


@runtime_checkable
class StopsAtDeadline(Protocol):
    """A backend that can stop its own work at a deadline: a read through it is bounded without a thread of its own.

    The executor runs every call with a timeout. A call on a pool thread can be given up at the timeout but not
    stopped, and the hop to that thread costs about a twentieth of a ReAct step. A read whose tool waits on nothing
    but the backend (`ToolSpec.backend_bound`) runs on the node's own thread instead, through `read_until`, and is
    stopped at the timeout, not merely given up.
    """

    def read_until(self, deadline: float) -> AbstractContextManager[Any]:
        """`read`, whose statements stop at `deadline` (a `time.monotonic()` time): one still running then, or
        started after it, raises `TimeoutError`, and the read ends with nothing kept."""
        ...


class MemoryBackend:
    """A backend for toolsets without a store: executions and the audit live in this process's memory.

    Reads and writes get no handle (None); a write is still idempotent within the process.
    """

    conflict: tuple[type[BaseException], ...] = ()

    def __init__(self, url: str | None = None) -> None:
        """`url` is ignored: nothing is stored outside this process."""
        self._lock = threading.RLock()
        self.executions: dict[str, Execution] = {}
        self.audit_log: list[dict[str, Any]] = []

    @contextmanager
    def read(self) -> Iterator[None]:
        yield None

    @contextmanager
    def transaction(self) -> Iterator[None]:
        with self._lock:
            yield None

    def recorded(self, handle: Any, key: str) -> dict[str, Any] | None:
        execution = self.executions.get(key)
        return None if execution is None else json.loads(json.dumps(execution.result))

    def record(self, handle: Any, execution: Execution) -> None:
        self.executions[execution.key] = execution
        self.record_audit(
            "tool_executed", {"tool": execution.tool, "args": execution.args, "result": execution.result},
            thread_id=execution.thread_id, actor_id=execution.actor_id,
        )

    def record_audit(
        self, event_name: str, detail: dict[str, Any], *, thread_id: str | None = None, actor_id: str | None = None
    ) -> None:
        with self._lock:
            self.audit_log.append({"at": datetime.now(UTC).isoformat(), "event": event_name, "detail": detail,
                                   "thread_id": thread_id, "actor_id": actor_id})

    def reviews(self, thread_id: str, tool_call_id: str) -> list[dict[str, Any]]:
        with self._lock:
            return [dict(e) for e in self.audit_log if e["event"].startswith("review_") and e["thread_id"] == thread_id
                    and e["detail"].get("tool_call_id") == tool_call_id]
