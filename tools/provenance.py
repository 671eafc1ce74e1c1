"""Where a call's values came from: the words of the person's request each was read from, for the review card.

The guards record how each of the person's values was found (`Verdict.sources`: stated, filled in by code, inferred);
the request record keeps the words every number and date was read from (`Request["said"]`). `sources_for` joins the
two for a call's arguments, so a card can show "金额 6,800 元 ← 6千8百元" without reading the messages again.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from tools.request import Request


def _leaves(args: Mapping[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    """Every value of the arguments by its parameter path (`days`, `fields.amount`)."""
    for key, value in args.items():
        path = f"{prefix}{key}"
        if isinstance(value, Mapping):
            yield from _leaves(value, f"{path}.")
        else:
            yield path, value


def _same(said: Any, value: Any) -> bool:
    if isinstance(value, bool) or value is None:
        return False
    if isinstance(value, int | float) and isinstance(said, int | float) and not isinstance(said, bool):
        return float(said) == float(value)
    return isinstance(said, str) and isinstance(value, str) and said == value


def words_for(value: Any, request: Request | Mapping[str, Any]) -> str:
    """The words the person wrote a value with ("6千8百元" for 6800), latest first; "" when no stated value is it."""
    said_all: list[Mapping[str, Any]] = list(request.get("said") or [])  # type: ignore[arg-type]
    for said in reversed(said_all):
        if _same(said.get("value"), value):
            return str(said.get("text") or "")
    return ""


def sources_for(
    args: Mapping[str, Any], sources: Mapping[str, Mapping[str, str]] | None, request: Request | Mapping[str, Any] | None
) -> dict[str, dict[str, str]]:
    """Each argument's source, with the words it was read from where the request has them: the guards' sources
    first; an argument they did not describe whose value the person stated is "stated"."""
    found = {param: dict(source) for param, source in (sources or {}).items()}
    if request is None:
        return found
    for param, value in _leaves(args):
        source = found.get(param)
        if source is not None and source.get("said"):
            continue
        words = words_for(value, request)
        if source is not None:
            if words:
                source["said"] = words
        elif words:
            found[param] = {"how": "stated", "said": words}
    return found
