"""Text preparation shared by the parsers: width folding and masking, both keeping every character's position."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

# Full-width ASCII (ＡＢＣ１２３：，) as people type it with a Chinese keyboard, folded to ASCII one for one, so
# every span found in the folded text is a span of the text as written. The ideographic space becomes a space.
_FULL_WIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)} | {0x3000: 0x20}
MASK = "\u2007"  # a figure space: no letter, digit or Han character, so no parser reads it


def fold_width(text: str) -> str:
    """The text with full-width ASCII folded to ASCII; the same length, so positions carry over."""
    return text.translate(_FULL_WIDTH)


def mask_words(text: str, words: Iterable[str]) -> str:
    """The text with each occurrence of `words` (longest first) replaced by as many mask characters."""
    for word in sorted({w for w in words if w and w.strip()}, key=len, reverse=True):
        text = re.sub(re.escape(fold_width(word)), lambda m: MASK * len(m.group()), text, flags=re.IGNORECASE)
    return text


def mask_spans(text: str, spans: Sequence[tuple[int, int]]) -> str:
    """The text with the given character spans replaced by mask characters."""
    chars = list(text)
    for start, end in spans:
        chars[start:end] = MASK * (end - start)
    return "".join(chars)


# Words that name something rather than state a value: e-mail addresses, web addresses, and identifiers whose digits
# are glued to letters or an underscore (user_2, task_3, req_12, lisi2): their digits are no number, their letters
# no English.
_IDENTIFIER_RE = re.compile(
    r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|https?://\S+|(?<![\w])[A-Za-z]+_?[0-9]+[A-Za-z0-9_]*(?![\w])", re.ASCII
)


def mask_identifiers(text: str) -> str:
    """The text with e-mail addresses, web addresses and identifiers (user_2, task_3) masked."""
    return _IDENTIFIER_RE.sub(lambda m: MASK * len(m.group()), text)
