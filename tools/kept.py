"""What the engine keeps between calls in one process: a bounded map whose entries may expire (`KeptMap`), and the
records of rarely changing kinds found by their id (`KnownRecords`)."""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping, Sequence
from typing import Any, Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class KeptMap(Generic[K, V]):
    """At most `max_entries` values, each forgotten `ttl_s` seconds after it was put (None: only when the map is full,
    the longest kept first). Safe to share between threads: a served graph runs many threads' nodes at once."""

    def __init__(self, max_entries: int, ttl_s: float | None = None) -> None:
        self._max_entries = max_entries
        self._ttl_s = ttl_s
        self._entries: dict[K, tuple[V, float]] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)

    def get(self, key: K) -> V | None:
        """The value kept for `key`, if it has not expired."""
        with self._lock:
            kept = self._entries.get(key)
        return None if kept is None or kept[1] < time.monotonic() else kept[0]

    def take(self, key: K) -> V | None:
        """The value kept for `key`, if it has not expired, forgetting it either way."""
        with self._lock:
            kept = self._entries.pop(key, None)
        return None if kept is None or kept[1] < time.monotonic() else kept[0]

    def put(self, key: K, value: V) -> None:
        expires = time.monotonic() + self._ttl_s if self._ttl_s is not None else float("inf")
        with self._lock:
            if self._entries.pop(key, None) is None and len(self._entries) >= self._max_entries:
                self._entries.pop(next(iter(self._entries)))
            self._entries[key] = (value, expires)


class KnownRecords:
    """Records of rarely changing kinds (`Toolset.stable_kinds`: people) found by their id, kept `ttl_s` seconds for
    the checks of later calls and for reads (the graph: as long as it keeps the actor's record). Only a lookup by id
    is kept: a name may come to fit several records. A write looks its records up again inside its transaction."""

    MAX_ENTRIES = 4096
    MAX_KINDS = 64

    def __init__(self, ttl_s: float) -> None:
        self._records: KeptMap[tuple[str, str], dict[str, Any]] = KeptMap(self.MAX_ENTRIES, ttl_s)
        self._all: KeptMap[str, dict[str, Mapping[str, Any]]] = KeptMap(self.MAX_KINDS, ttl_s)

    def get(self, kind: str, record_id: Any) -> dict[str, Any] | None:
        key = str(record_id)
        kept = self._records.get((kind, key))
        if kept is not None:
            return dict(kept)
        every = self._all.get(kind)
        return dict(every[key]) if every is not None and key in every else None

    def put_all(self, kind: str, records: Sequence[Mapping[str, Any]]) -> None:
        """Every record of a kind, just read together (a run's directory of people): each known by its id."""
        self._all.put(kind, {str(record["id"]): record for record in records})

    def put(self, kind: str, record_id: Any, record: Mapping[str, Any]) -> None:
        self._records.put((kind, str(record_id)), dict(record))
