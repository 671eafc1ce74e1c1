"""What an answer says someone said, and whether the conversation showed it.

The rule, as a person would state it: an answer may tell what someone said ("管理员说：…", "李四的意见是…", "Li Si said:
…") only when the conversation showed those words: the person wrote them, or a tool's result held them (a decision's
comment, an e-mail). Most of the quoted words must be there; a shortened or reordered comment is still the comment,
words nobody wrote are not. Domain-free: used by `tools.claims` as one more kind of claim.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_QUOTE = re.compile(
    r"(?:(?:说|表示|回复|答复|写道|写了|留言|批注|的意见|意见)\s*[:：]\s*[「『“\"']?|(?:说|表示|写道|回复)\s*[「『“\"']|"
    r"意见(?:是|为)\s*[:：]?\s*[「『“\"']?)(?P<zh>[^。！!？?\n」』”\"'；;]{2,80})"
    r"|\b(?:said|says|wrote|commented|replied|noted|(?:his|her|their|the)\s+comment\s+(?:is|was|reads))"
    r"(?:\s*:\s*[\"“']?|\s+that\s+|\s*,?\s*[\"“'])(?P<en>[^.!?\n\"”';]{3,160})",
    re.IGNORECASE,
)
"""A quotation: after a verb of saying with a colon or a quotation mark (说：…, 写道「…」, "said: …", said "…"), or
after 意见是 ("the comment is"), or "said that …", up to the end of its sentence or a semicolon (what follows "意见：好好
休息；" is the answer's own). Reported speech without those marks is not read as a quote."""
_STOP = frozenset(
    "the and that this with for you your are was were not but have has had his her their they them she its from will "
    "would can could should been into out about just what when which who".split()
)
SHOWN_SHARE = 0.6
"""The share of a quote's words (Chinese: pairs of characters) the conversation must have shown."""


def quotes_in(text: str) -> list[tuple[tuple[int, int], str]]:
    """Each quotation in `text` (where it stands and what it quotes), after a verb of saying or a 意见 ("comment")."""
    found = []
    for match in _QUOTE.finditer(text):
        group = "zh" if match.group("zh") is not None else "en"
        quoted = match.group(group).strip(" ，,;；:：")
        if len(_units(quoted)) >= 2:  # "说：好" quotes too little to judge
            found.append((match.span(group), quoted))
    return found


def _units(text: str) -> set[str]:
    """What a text is compared by: its Chinese as pairs of characters, its other words (of three letters or more, not
    the commonest) in lower case."""
    han = "".join(re.findall(r"[\u3400-\u9fff0-9]", text))
    pairs = {han[i : i + 2] for i in range(len(han) - 1)}
    words = {w for w in re.findall(r"[a-z0-9']{3,}", text.casefold()) if w not in _STOP}
    return pairs | words


def shown(quote: str, texts: Sequence[str]) -> bool:
    """Whether the conversation's `texts` showed most of `quote`'s words."""
    units = _units(quote)
    if not units:
        return True
    seen = _units("\n".join(texts))
    return len(units & seen) >= SHOWN_SHARE * len(units)
