"""The rooms' store: the rooms, the staff and the bookings, kept in memory by the toolset's own backend."""

from __future__ import annotations

from typing import Any

from tools.backend import MemoryBackend

ROOMS_LIST = {"大会议室": {"name_en": "Big room", "seats": 12}, "小会议室": {"name_en": "Small room", "seats": 4}}
STAFF = [
    {"id": "ana", "name": "安娜", "alias": "Ana", "email": "ana@rooms.test"},
    {"id": "ben", "name": "本杰明", "alias": "Ben", "email": "ben@rooms.test"},
]


class RoomsBackend(MemoryBackend):
    """The toolset's backend: executions and the audit in memory (from `MemoryBackend`), and the bookings."""

    def __init__(self, url: str | None = None) -> None:
        super().__init__(url)
        self.bookings: list[dict[str, Any]] = []

    def read(self) -> Any:  # the handle a check, a handler or a card gets: the backend itself
        return _Handle(self)

    def transaction(self) -> Any:
        return _Handle(self, write=True)


class _Handle:
    def __init__(self, backend: RoomsBackend, *, write: bool = False) -> None:
        self.backend, self.write = backend, write

    def __enter__(self) -> RoomsBackend:
        if self.write:
            self.backend._lock.acquire()
        return self.backend

    def __exit__(self, *exc: Any) -> None:
        if self.write:
            self.backend._lock.release()
