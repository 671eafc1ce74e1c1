"""Where a JSON value written by a model closes: the one scanner the parser and the generation cut share, so the cut
never ends a reply anywhere the parser would read another value."""

from __future__ import annotations

from typing import NamedTuple


class Scan(NamedTuple):
    end: int | None
    """The index just after the value, once its brackets close; None while they are still open."""
    depth: int
    """Brackets left open at the end of the text (0 once closed)."""
    in_string: bool
    """Whether the text ends inside a string."""


def scan_value(text: str, start: int) -> Scan:
    """Scan the JSON object or array that opens at ``text[start]``: strings and their escapes are skipped, ``{``/``[``
    open and ``}``/``]`` close."""
    depth, in_str, esc = 0, False, False
    for i in range(start, len(text)):
        ch = text[i]
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
            continue
        if ch == '"':
            in_str = True
        elif ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
            if depth == 0:
                return Scan(i + 1, 0, False)
    return Scan(None, depth, in_str)
