"""Reading the person's own words: day counts they said, and whether a text is theirs.

The policy uses these to tell a value the person gave from one the model made up (a small model writes
"10" for an unnamed approver's days, or drafts its own e-mail). They are lenient on purpose: a value counts
as the person's when it can be found in what they wrote, in any common spelling.
"""

from __future__ import annotations

import re

_CN_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "俩": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_EN_NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "twenty": 20, "thirty": 30,
}
_CN_NUMBER_RE = re.compile(r"[零〇一二两俩三四五六七八九十百]+")
_ARABIC_RE = re.compile(r"\d+(?:\.\d+)?")
_EN_RE = re.compile(r"\b(" + "|".join(_EN_NUMBERS) + r")\b(?:[\s-]+and[\s-]+a[\s-]+half)?", re.IGNORECASE)


def chinese_number(text: str) -> int | None:
    """The value of a Chinese numeral below 1000 (十五 → 15, 二十 → 20, 两 → 2), or None."""
    if not text or any(ch not in _CN_DIGITS and ch not in "十百" for ch in text):
        return None
    total, current = 0, 0
    for ch in text:
        if ch in _CN_DIGITS:
            current = _CN_DIGITS[ch]
        elif ch == "十":
            total += (current or 1) * 10
            current = 0
        elif ch == "百":
            total += (current or 1) * 100
            current = 0
    return total + current


def numbers_said(text: str) -> set[float]:
    """Every number the text states, in digits, Chinese or English words, half days included.

    "10天" → 10, "两天" → 2, "半天" → 0.5, "一天半" / "1.5天" → 1.5, "three days" → 3, "half a day" → 0.5.
    """
    found: set[float] = set()
    for match in _ARABIC_RE.finditer(text):
        value = float(match.group())
        found.add(value)
        if text[match.end() : match.end() + 2] == "天半":
            found.add(value + 0.5)
    for match in _CN_NUMBER_RE.finditer(text):
        number = chinese_number(match.group())
        if number is not None:
            found.add(float(number))
            if text[match.end() : match.end() + 2] == "天半":
                found.add(number + 0.5)
    if "半天" in text or re.search(r"half[\s-]+(a[\s-]+)?day", text, re.IGNORECASE):
        found.add(0.5)
    for match in _EN_RE.finditer(text):
        value = float(_EN_NUMBERS[match.group(1).lower()])
        found.add(value + 0.5 if "half" in match.group().lower() else value)
    return found


# Words any request, reason or reminder contains: they say nothing about whose text it is.
_GENERIC_CJK = set(
    "请假休天日周月号年的了吗呢吧啊我你他她它们是在有和与及一二两三四五六七八九十半个次"
    "要想去下上明后今审批人申核准同意麻烦谢您好邮件发送给提醒封说写内容"
)
_GENERIC_WORDS = {
    "i", "me", "my", "you", "your", "he", "she", "him", "her", "it", "we", "the", "a", "an", "to", "of", "for",
    "and", "or", "on", "in", "at", "is", "am", "are", "be", "do", "please", "thanks", "thank", "hi", "hello",
    "dear", "want", "need", "would", "like", "take", "off", "leave", "day", "days", "week", "next", "request",
    "approve", "approver", "approval", "email", "e-mail", "mail", "send", "remind", "reminder", "about", "this",
    "that", "with", "by", "from", "can", "could", "will", "regards", "best",
}
_TOKEN_RE = re.compile(r"[\u3400-\u9fff]|[a-z0-9]+(?:[-'][a-z0-9]+)*", re.IGNORECASE)


def content_tokens(text: str) -> list[str]:
    """The text's telling parts: Chinese characters and words, without the generic ones and without digits."""
    tokens = []
    for token in _TOKEN_RE.findall(text.casefold()):
        if token.isdigit() or token in _GENERIC_WORDS or token in _GENERIC_CJK:
            continue
        if len(token) == 1 and token.isascii():
            continue
        tokens.append(token)
    return tokens


def share_of_text_said(text: str, said: str) -> float:
    """Which share of `text`'s telling parts appear in what the person `said` (0.0 when it has none)."""
    tokens = content_tokens(text)
    if not tokens:
        return 0.0
    heard_words = set(_TOKEN_RE.findall(said.casefold()))
    return sum(1 for t in tokens if t in heard_words) / len(tokens)


def squash(text: str) -> str:
    """Text without spaces and punctuation, case-folded: how names and phrases are compared."""
    return re.sub(r"[\s\W_]+", "", text).casefold()


def is_text_said(text: str, said: str, *, share: float) -> bool:
    """Whether `text` is the person's: found whole in what they said, or `share` of its telling parts are."""
    flat = squash(text)
    if flat and flat in squash(said):
        return True
    return share_of_text_said(text, said) >= share


def is_reason_said(text: str, said: str) -> bool:
    """A reason is the person's when it says something (not just "leave") and at least half of that was said."""
    return bool(content_tokens(text)) and share_of_text_said(text, said) >= 0.5


_CANCEL_RE = re.compile(r"^\s*(算了|不用了?|不要了?|取消|不请了|不发了|cancel|never ?mind|forget it|no\b|stop)", re.IGNORECASE)
_LEAD_RE = re.compile(
    r"^\s*(就?(这么|这样)?写(成|道|上)?|(邮件)?内容(是|为)?|正文|原因(是|为)?|理由(是|为)?|因为|"
    r"the text is|text|the reason is|reason|because|say|write)\s*[:：,，]?\s*",
    re.IGNORECASE,
)


def answered_text(message: str) -> str | None:
    """The text a person gives when asked for one ("就写：…", "原因是…"), or None for a cancel or a question."""
    if _CANCEL_RE.match(message) or message.strip().endswith(("?", "？")):
        return None
    text = _LEAD_RE.sub("", message.strip(), count=1).strip()
    return text if len(text) >= 2 else None


def answered_days(message: str) -> float | None:
    """The one number of days a person's answer states ("三天", "2"), or None if it states none or several."""
    found = numbers_said(message)
    return found.pop() if len(found) == 1 else None


_REJECT_RE = re.compile(r"驳回|拒绝|不同意|不批|不准|不通过|reject|declin|deny|refuse", re.IGNORECASE)
_APPROVE_RE = re.compile(r"批准|同意|批了|通过|准了|approv|accept", re.IGNORECASE)
_COMMENT_RE = re.compile(
    r"(?:意见|理由|备注|评语|comment|reason|note)\s*(?:写成|写|是|为|:|：)\s*[:：]?\s*(?P<text>.+?)\s*[。.!！]?\s*$",
    re.IGNORECASE | re.DOTALL,
)


def stated_decision(text: str) -> bool | None:
    """Approve (True) or reject (False) as the person's words say it; None when they say neither."""
    if _REJECT_RE.search(text):
        return False
    if _APPROVE_RE.search(text):
        return True
    return None


def stated_comment(text: str) -> str | None:
    """A decision comment the person spelled out ("意见写同意", "理由：…", "comment: …"), or None."""
    match = _COMMENT_RE.search(text)
    return match.group("text").strip() if match and match.group("text").strip() else None


def has_cjk(text: str) -> bool:
    """Whether the text has Chinese characters."""
    return re.search(r"[\u3400-\u9fff]", text) is not None
