"""Regular expressions built at run time from words (a term, a person's name, an option, a tool's name), each
compiled once per process.

`re` keeps the last 512 patterns it compiled and drops the oldest first. A conversation builds more than that from
its words, names and options, so that cache was overrun on every turn and each pattern, the constant ones too, was
compiled again: 17 % of the scripted oracle's time (2,429 compilations in 60 conversations, measured 2026-12-06).
A pattern built from words goes through `compiled`, which keeps them apart and keeps them all: the words come from
the toolsets, the directory and the scenario, so there are a few thousand at most."""

from __future__ import annotations

import re
from functools import lru_cache


@lru_cache(maxsize=16384)
def compiled(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """The pattern, compiled the first time it is asked for."""
    return re.compile(pattern, flags)
