"""Key words typed with one slip of the fingers, read as the word: one letter left out ("aprove", "afternon"), one
doubled ("tommorrow", "cancell"), or two side by side swapped ("reciept", "wendesday"), never the first letter (people
rarely miss it, and "eject" is no slip of "reject"). Only the words the readers act on (a decision, a half of a day, a
day, a leave type, what is claimed, what is done to a request), only those of six letters or more, and never where the
slip is a word of its own ("annul" is no annual). What a word means is then read as if it were spelled right; the
numbers and names in a message are not touched.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

KEY_WORDS = (
    "approve", "approved", "approving", "reject", "rejected", "decline", "declined",
    "morning", "afternoon", "tomorrow", "yesterday", "tuesday", "wednesday", "thursday", "saturday",
    "annual", "bereavement", "compensatory", "maternity", "paternity", "marriage",
    "expense", "expenses", "receipt", "receipts", "reimburse", "reimbursement", "business",
    "withdraw", "resubmit", "transfer", "cancel", "remind", "reminder",
)
"""The words a slip of which is still the word."""
_WORDS_OF_THEIR_OWN = frozenset({"annul", "annal", "marriag", "remand", "rewind"})
"""Slips that are words of their own (or too near one), left as written."""


def _slips(word: str) -> set[str]:
    """The word with one letter left out, doubled, or swapped with the next, its first letter kept."""
    found = {word[:i] + word[i + 1:] for i in range(1, len(word))}
    found |= {word[:i] + word[i] + word[i:] for i in range(1, len(word))}
    found |= {word[:i] + word[i + 1] + word[i] + word[i + 2:] for i in range(1, len(word) - 1)}
    return found


@lru_cache(maxsize=1)
def _table() -> tuple[re.Pattern[str], dict[str, str]]:
    meant: dict[str, str] = {}
    for word in KEY_WORDS:
        if len(word) < 6:
            continue
        for slip in _slips(word):
            if slip not in KEY_WORDS and slip not in _WORDS_OF_THEIR_OWN:
                meant.setdefault(slip, word)
    alternation = "|".join(sorted(map(re.escape, meant), key=len, reverse=True))
    return re.compile(rf"(?<![A-Za-z])(?:{alternation})(?![A-Za-z])", re.IGNORECASE), meant


_WORD = re.compile(r"[A-Za-z]{5,}")


@lru_cache(maxsize=8192)
def mended(text: str) -> str:
    """The text with each key word's slip written as the word, its first letter's case kept ("Wendesday" →
    "Wednesday"). Texts are read again and again in a run (every comparison squashes them): each is mended once."""
    pattern, meant = _table()
    if not any(w.lower() in meant for w in _WORD.findall(text)):
        return text

    def word(found: re.Match[str]) -> str:
        right = meant[found.group().lower()]
        return right.capitalize() if found.group()[0].isupper() else right

    return pattern.sub(word, text)


# ---------------------------------------------------------------- Chinese: a character of the same sound

_MAY_FOLLOW = frozenset("天日吧的了呢啊呀哦嘛余申费类一二两三四五六七八九十半")
"""What may follow a word whose last character was typed with another of its sound (年价3天, 请病家吧, 餐引费); any
other Chinese character makes it another word (今年价格 is no 年假)."""


@lru_cache(maxsize=4096)
def _sounds(character: str) -> frozenset[str]:
    """A Chinese character's readings without tones (调: tiao, diao)."""
    from pypinyin import Style, pinyin  # its dictionaries load on first use, not at every start

    return frozenset(pinyin(character, style=Style.NORMAL, heteronym=True, errors="ignore")[0] or ())


def _chinese(character: str) -> bool:
    return "\u4e00" <= character <= "\u9fff"


def sound_mended(text: str, names: Sequence[str]) -> str:
    """The text with each of `names` (Chinese words of two characters or more) written right where its last character
    was typed as another of the same sound, as a pinyin keyboard offers them (年价 → 年假, 病家 → 病假, 报消 → 报销), and
    nothing but a length, a particle or the text's end follows (今年价格 stays)."""
    for name in names:
        if len(name) < 2 or not all(_chinese(c) for c in name):
            continue
        head, last = name[:-1], name[-1]
        at = text.find(head)
        while at != -1:
            i = at + len(head)
            typed = text[i] if i < len(text) else ""
            after = text[i + 1] if i + 1 < len(text) else ""
            if typed and typed != last and _chinese(typed) and _sounds(typed) & _sounds(last) and (
                    not _chinese(after) or after in _MAY_FOLLOW):
                text = text[:i] + last + text[i + 1:]
            at = text.find(head, at + 1)
    return text
