"""Texts the person spelled out: after "内容：", "就写：", "text:", "say:", or between quotes (“…” 「…」 『…』 "…")."""

from __future__ import annotations

import re

_QUOTE_RE = re.compile(r"“(?P<a>[^”]+)”|「(?P<b>[^」]+)」|『(?P<c>[^』]+)』|\"(?P<d>[^\"]+)\"")
_CUE_RE = re.compile(
    r"(?:邮件)?(?:内容|正文)(?:是|为|写)?\s*[:：]?|就?(?:这么|这样)?写(?:成|道|上)?\s*[:：]|说\s*[:：]|"
    r"\b(?:the\s+)?(?:text|message|content|body|wording)(?:\s+(?:is|should\s+be|reads))?\s*:|"
    r"\b(?:the\s+)?(?:text|message|content|body|wording)\s+(?:is|should\s+be|reads)\b|"
    r"\b(?:say|saying|write|writing|tell\s+(?:him|her|them)|telling\s+(?:him|her|them))\s*:",
    re.IGNORECASE,
)
_OPENING = "“「『\""


def find_quoted(text: str) -> list[str]:
    """The spelled-out texts, in order of appearance, each once; a cue followed by a quote gives the quote's text."""
    found: list[tuple[int, str]] = []
    for match in _QUOTE_RE.finditer(text):
        inner = next(g for g in match.groups() if g is not None).strip()
        if inner:
            found.append((match.start(), inner))
    for match in _CUE_RE.finditer(text):
        rest = text[match.end() :]
        body = rest.lstrip(" \t:：,，")
        if not body or body[0] in _OPENING:
            continue  # the quote itself was taken above
        body = body.strip()
        if len(body) >= 2:
            found.append((match.end(), body))
    seen: set[str] = set()
    texts = []
    for _, body in sorted(found):
        if body not in seen:
            seen.add(body)
            texts.append(body)
    return texts
