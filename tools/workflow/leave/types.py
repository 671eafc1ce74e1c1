"""Leave types and their rules, read from `types.toml` beside this module: paid or not, counted against a balance or
not, half days, at most how many days a request, a document over how many days. The engine never reads them; the
leave rules (`tools.workflow.leave.rules`) do, for a process whose form has a `leaveType` field."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

TYPES_FILE = Path(__file__).with_name("types.toml")
LEAVE_TYPE_FIELD = "leaveType"
"""The form field that makes a process a leave: its value is a type's id."""


@dataclass(frozen=True)
class LeaveType:
    """One leave type and its rules (see `types.toml` for what each means)."""

    id: str
    code: str
    name_en: str
    paid: bool
    balance: bool
    half_days: bool
    max_days: float
    document_over: float | None
    document: dict[str, str]

    def name(self, lang: str) -> str:
        """Its name in a language: 年假, or "annual leave"."""
        return self.name_en[:1].lower() + self.name_en[1:] if lang == "en" else self.id


@dataclass(frozen=True)
class LeaveTypes:
    """Every leave type, and the one a request that names none is filed as."""

    types: tuple[LeaveType, ...]
    default: str

    def get(self, key: str) -> LeaveType | None:
        """A type by its id (年假), code (annual) or English name (Annual leave), in any case; None when none."""
        folded = key.strip().casefold()
        return next((t for t in self.types if folded in (t.id.casefold(), t.code, t.name_en.casefold())), None)

    def require(self, key: str) -> LeaveType:
        """`get`, or a `KeyError` naming the types there are."""
        found = self.get(key)
        if found is None:
            names = ", ".join(f"{t.id} ({t.code})" for t in self.types)
            raise KeyError(f"no leave type {key!r}; the types are {names}")
        return found


def _type(raw: dict[str, Any]) -> LeaveType:
    document_over = raw.get("document_over")
    return LeaveType(
        id=str(raw["id"]), code=str(raw["code"]), name_en=str(raw["name_en"]), paid=bool(raw["paid"]),
        balance=bool(raw["balance"]), half_days=bool(raw["half_days"]), max_days=float(raw.get("max_days", 0)),
        document_over=None if document_over is None else float(document_over), document=dict(raw.get("document", {})),
    )


def read_types(path: Path = TYPES_FILE) -> LeaveTypes:
    """The leave types in a TOML file (`ValueError` naming what is wrong)."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    try:
        types = tuple(_type(raw) for raw in data["type"])
    except KeyError as exc:
        raise ValueError(f"{path}: a [[type]] has no {exc.args[0]!r}") from None
    ids = [t.id for t in types]
    if len(set(ids)) != len(ids) or len({t.code for t in types}) != len(types):
        raise ValueError(f"{path}: two types share an id or a code")
    if data.get("default") not in ids:
        raise ValueError(f"{path}: default must be one of {', '.join(ids)}, not {data.get('default')!r}")
    for leave_type in types:
        if leave_type.document_over is not None and set(leave_type.document) != {"zh", "en"}:
            raise ValueError(f"{path}: {leave_type.id} asks for a document: give `document = {{ zh = …, en = … }}`")
    return LeaveTypes(types=types, default=str(data["default"]))


@cache
def leave_types() -> LeaveTypes:
    """The shipped leave types (read once)."""
    return read_types()
