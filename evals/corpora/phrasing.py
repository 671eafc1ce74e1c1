"""One generated phrasing: the words, what they mean, and how they were made."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Literal

Kind = Literal["money", "days", "range", "half"]
Lang = Literal["zh", "en"]
HalfRange = tuple[str, str, str | None, str | None, float]
"""A leave's range with its halves: first and last days (ISO), the halves by their options' names (下午, 上午, None) and
the working days it counts."""
Expected = float | tuple[str, str] | HalfRange | None

TODAY = date(2026, 12, 1)
"""The fixed today of the money and day-count corpora (the date-range corpus has one per weekday, around it)."""


@dataclass(frozen=True)
class Phrasing:
    """A sentence a person might write, with the value it states."""

    kind: Kind
    """Which form field's reader judges it: an amount (money), a day count (days), a date range (range), or a leave's
    range with half days (half: its dates, halves and the days they count)."""
    lang: Lang
    style: str
    """How the value is written ("digits 元", "Chinese short", "next week's weekdays"): the report's rows."""
    text: str
    expected: Expected
    """The value meant: a number (yuan or days), (start, end) ISO dates, a `HalfRange`; None when the words state no one value
    (两千多, "a few days"), and nothing may be read."""
    today: date = TODAY


@dataclass(frozen=True)
class Style:
    """A way of writing a value: its language and name, a value it fits, and the value written so."""

    lang: Lang
    name: str
    value: Callable[[random.Random], float]
    write: Callable[[float, random.Random], str]


@dataclass(frozen=True)
class Sentences:
    """Sentences of one language around a value: an opening, a core with the value's place (`{}`), and a close, each
    chosen at random (so phrasings seldom repeat)."""

    openings: Sequence[str]
    cores: Sequence[str]
    closes: Sequence[str]

    def around(self, words: str, rng: random.Random) -> str:
        core = rng.choice(self.cores).format(words)
        return f"{rng.choice(self.openings)}{core}{rng.choice(self.closes)}"


MAX_TRIES = 30
"""Draws per phrasing wanted before a style with few ways of saying it (半天) stops short of its count."""


def fill(kind: Kind, styles: Sequence[Style], sentences: dict[Lang, Sentences], rng: random.Random,
         per_style: int) -> list[Phrasing]:
    """Up to `per_style` different phrasings of each style: a random value written in it, inside a random sentence of
    its language."""
    found: list[Phrasing] = []
    for style in styles:
        seen: set[str] = set()
        for _ in range(per_style * MAX_TRIES):
            if len(seen) == per_style:
                break
            value = style.value(rng)
            text = sentences[style.lang].around(style.write(value, rng), rng)
            if text not in seen:
                seen.add(text)
                found.append(Phrasing(kind, style.lang, style.name, text, value))
    return found


Written = tuple[str, Expected]
"""A dated writer's phrase and the value it means."""


def fill_dated(kind: Kind, writers: Sequence[tuple[Lang, str, Callable[[date, random.Random], Written | None]]],
               sentences: dict[Lang, Sentences], todays: Sequence[date], rng: random.Random,
               per_style: int) -> list[Phrasing]:
    """Up to `per_style` different phrasings of each dated way of writing (`writers`: its language, its name, and what
    writes a phrase against a today, or None when it has none for that day), each against one of `todays`, inside a
    random sentence of its language."""
    found: list[Phrasing] = []
    for lang, name, write in writers:
        seen: set[tuple[str, date]] = set()
        for _ in range(per_style * MAX_TRIES):
            if len(seen) == per_style:
                break
            today = rng.choice(todays)
            written = write(today, rng)
            if written is None:
                continue
            words, expected = written
            text = sentences[lang].around(words, rng)
            if (text, today) not in seen:
                seen.add((text, today))
                found.append(Phrasing(kind, lang, name, text, expected, today))
    return found
