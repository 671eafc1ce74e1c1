"""English day names as people write them, and when a short one is a day: "mon", "Tue", "wed" (a word too: a day only
capitalised, after a cue, or ending a range from a day)."""

from __future__ import annotations

import re
from typing import Literal

EN_DAYS = (
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues?|wed|thu(?:rs?)?|fri|sat|sun"
)
_FULL_EN_DAYS = {"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}
_WORDS_TOO = {"wed", "sat", "sun"}
"""Short day names that are words in lower case ("we sat", "the sun", "to wed"): days only capitalised ("Sat") or
after a cue that makes them one ("next sat", "this sun")."""


_RANGE_FROM_A_DAY = re.compile(rf"\b(?P<day>{EN_DAYS})\.?\s*(?:-|–|~|\bto\b|\bthru\b|\bthrough\b|\btill\b|\buntil\b)\s*$",
                               re.IGNORECASE)


def ends_a_range(text: str, at: int) -> bool:
    """Whether a short day name at `at` ends a range from a day ("mon thru wed", "Thu-sun"): a day, being one."""
    before = _RANGE_FROM_A_DAY.search(text, max(0, at - 24), at)
    return before is not None and is_day(before["day"])


def is_day(word: str, *, cued: bool = False) -> bool:
    """Whether `word` (a day name or its short form, as written) names a day: a full name or a capitalised short one
    always; a short one in lower case unless it is a word too ("mon", "tues", "thu", "fri"), and then after a cue."""
    return word.lower() in _FULL_EN_DAYS or word[0].isupper() or cued or word.lower() not in _WORDS_TOO


HALF_BETWEEN = r"(?P<half>\s+(?:in\s+the\s+)?(?:morning|afternoon)|\s*(?-i:[AaPp])\.?[Mm]\.?)"
"""A half of the day said between a day and the week it is in ("Tuesday morning next week", "Fri PM the week after
next"): that day's half, in a group `half` that `half_said` reads."""


def half_said(match: re.Match[str]) -> Literal["am", "pm"] | None:
    """The half ("am" or "pm") a match's `half` group (`HALF_BETWEEN`) says, or None when it says none."""
    said = (match.groupdict().get("half") or "").strip().lower()
    if not said:
        return None
    return "am" if said.endswith("morning") or said.startswith(("am", "a.")) else "pm"
