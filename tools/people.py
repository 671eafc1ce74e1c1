"""People by name: which of a toolset's people a text names (by id, e-mail, display name or alias).

Generic over person records with `id`, `name` and optionally `alias` and `email`; the toolset says who its people
are (`Toolset.people`). A name is matched as written: Chinese names anywhere (spaces allowed between their
characters), Latin ones as whole words.
"""

from __future__ import annotations

import re
from typing import Any

from tools.patterns import compiled


def mention_strength(text: str, user: dict[str, Any]) -> int:
    """How the text names the user: 2 by id or e-mail (unique), 1 by display name or alias, 0 not at all."""
    if compiled(rf"(?<![a-z0-9_]){re.escape(user['id'])}(?![a-z0-9_])", re.IGNORECASE).search(text):
        return 2
    if user.get("email") and user["email"].casefold() in text.casefold():
        return 2
    return 1 if name_spans(text, user) else 0


def name_pattern(name: str) -> str:
    """A name as written: Chinese names anywhere (spaces allowed between characters), Latin ones as words."""
    parts = [re.escape(p) for p in re.split(r"\s+", name.strip()) if p]
    if all(p.isascii() for p in parts):
        return r"(?<![a-z0-9_])" + r"\s*".join(parts) + r"(?![a-z0-9_])"
    return r"\s*".join(re.escape(ch) for ch in re.sub(r"\s+", "", name))


def names_of(user: dict[str, Any]) -> list[str]:
    """Every name a person goes by: display name, alias, and the name part of their e-mail address when it is a word
    ("admin" for admin@example.com, "lisi" for lisi@example.com)."""
    local = str(user.get("email") or "").partition("@")[0]
    return [n for n in (user["name"], user.get("alias") or "", local if local.isalpha() and len(local) >= 3 else "") if n]


def name_spans(text: str, user: dict[str, Any]) -> list[tuple[int, int]]:
    spans = []
    for name in names_of(user):
        if name.strip():
            spans += [m.span() for m in compiled(name_pattern(name), re.IGNORECASE).finditer(text)]
    return spans


def mention_spans(text: str, user: dict[str, Any]) -> list[tuple[int, int]]:
    """Where the text names the user (id, e-mail, name or alias as written)."""
    spans = name_spans(text, user)
    for key in (user["id"], user.get("email") or ""):
        if key:
            spans += [m.span() for m in compiled(re.escape(key), re.IGNORECASE).finditer(text)]
    return spans


def _squashed(text: str) -> tuple[str, str]:
    """A text without its white space, lower-cased two ways (as `re.IGNORECASE` compares, and fully case-folded)."""
    flat = "".join(text.split())
    return flat.lower(), flat.casefold()


def may_name(squashed: tuple[str, str], user: dict[str, Any]) -> bool:
    """Whether a text (`_squashed`) could name the user at all: one of their keys (id, e-mail, names) appears in it,
    white space and case aside. Every way `mention_strength` names someone implies it, so a person whose keys do not
    appear is not named, without a regular expression per name (a directory of thousands is checked at once)."""
    lowered, folded = squashed
    for key in (user["id"], user.get("email") or "", *names_of(user)):
        flat = "".join(str(key).split())
        if flat and (flat.lower() in lowered or flat.casefold() in folded):
            return True
    return False


def named_in(text: str, candidates: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The candidates a text names; naming by id or e-mail is exact, so it outranks naming by name."""
    squashed = _squashed(text)
    strength = {u["id"]: mention_strength(text, u) if may_name(squashed, u) else 0 for u in candidates}
    best = max(strength.values(), default=0)
    return [u for u in candidates if best and strength[u["id"]] == best]


