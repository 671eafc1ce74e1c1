"""Reading the travel data set (travel.db, shipped with the package; made by scripts/make_travel_data.py)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import resources
from typing import Any

from tools.errors import NotFoundError

DATA_FILE = "travel.db"


@contextmanager
def connect() -> Iterator[sqlite3.Connection]:
    """A read-only connection to the shipped data set (it is never written at run time)."""
    with resources.as_file(resources.files("tools.travel") / DATA_FILE) as path:
        conn = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True, check_same_thread=False)
        conn.row_factory = sqlite3.Row
        try:
            yield conn
        finally:
            conn.close()


@dataclass(frozen=True)
class Place:
    """A city of the data set, and the airports a place name stood for (all of the city's, or the one named)."""

    city: str
    airports: tuple[str, ...]


def rows(conn: sqlite3.Connection, sql: str, *params: Any) -> list[dict[str, Any]]:
    return [dict(r) for r in conn.execute(sql, params).fetchall()]


def listed_cities(conn: sqlite3.Connection) -> str:
    return "、".join(r["name"] for r in rows(conn, "SELECT name FROM cities ORDER BY rowid"))


def find_place(conn: sqlite3.Connection, name: str, *, param: str) -> Place:
    """A city by its Chinese or English name ("北京", "beijing", "北京市"), or an airport by code or name ("PEK")."""
    wanted = name.strip().removesuffix("市")
    airport = rows(conn, "SELECT code, city FROM airports WHERE upper(code) = upper(?) OR name = ?", wanted, wanted)
    if airport:
        return Place(airport[0]["city"], (airport[0]["code"],))
    city = rows(conn, "SELECT name FROM cities WHERE name = ? OR lower(english) = lower(?)", wanted, wanted)
    if not city:
        raise NotFoundError(
            "city_not_listed",
            f"{param}: 城市未收录 / city not listed: {name.strip()[:40]}. Listed cities: {listed_cities(conn)}.",
        )
    codes = tuple(r["code"] for r in rows(conn, "SELECT code FROM airports WHERE city = ? ORDER BY code", city[0]["name"]))
    return Place(city[0]["name"], codes)
