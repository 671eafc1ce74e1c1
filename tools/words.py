"""Whether a text is the person's own words, and the text a person gives when asked for one.

Numbers, dates and the language are read by `tools.parsers`; this module compares texts: a reason or an e-mail the
model proposes counts as the person's when its telling words can be found in what they wrote.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date

from tools.parsers.slips import mended
from tools.patterns import compiled

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
    for token in _TOKEN_RE.findall(mended(text).casefold()):
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
    heard_words = set(_TOKEN_RE.findall(mended(said).casefold()))
    return sum(1 for t in tokens if t in heard_words) / len(tokens)


def squash(text: str) -> str:
    """Text without spaces and punctuation, case-folded: how names and phrases are compared."""
    return re.sub(r"[\s\W_]+", "", mended(text)).casefold()


def is_text_said(text: str, said: str, *, share: float) -> bool:
    """Whether `text` is the person's: found whole in what they said, or `share` of its telling parts are."""
    flat = squash(text)
    if flat and flat in squash(said):
        return True
    return share_of_text_said(text, said) >= share


_CANCEL_RE = re.compile(r"^\s*(算了|不用了?|不要了?|取消|不请了|不发了|cancel|never ?mind|forget it|no\b|stop)", re.IGNORECASE)
_LEAD_RE = re.compile(
    r"^\s*(就?(这么|这样)?写(成|道|上)?|(邮件)?内容(是|为)?|正文|原因(是|为)?|理由(是|为)?|因为|"
    r"(the text is|text|the reason is|reason|because|say|write)\b)\s*[:：,，]?\s*",
    re.IGNORECASE,
)
_CONSENT_RE = re.compile(
    r"^\s*(嗯|好的?|好吧|行|可以|对|是的?|没问题|同意|确认|确定|发(吧|送|出去|一下)?|就这样|ok(ay)?|yes|yeah|yep|sure|fine|"
    r"go ahead|go|send( it)?|do it|please|confirm(ed)?)[吧啊呀了的]*(?=$|[\s,，。.!！;；、~～])[\s,，。.!！;；、~～]*",
    re.IGNORECASE,
)


def without_consent(message: str) -> str:
    """The message after its opening yes-words ("好，就写…" → "就写…"; "ok, go ahead" → "")."""
    text, found = message.strip(), _CONSENT_RE.match(message.strip())
    while found and found.end() > 0:
        text = text[found.end():]
        found = _CONSENT_RE.match(text)
    return text


def is_consent(message: str) -> bool:
    """Whether a message only says yes ("可以，发吧", "ok, go ahead"): an answer to a yes/no, never a text."""
    return bool(message.strip()) and not without_consent(message)


def answered_text(message: str) -> str | None:
    """The text a person gives when asked for one ("就写：…", "原因是…"), or None for a cancel, a message that asks
    anything ("刚才那个代理设上了没？帮我查下" answers no question about a trip's destination) or a bare yes (which says
    nothing the text could be); the model then reads it as any message."""
    if _CANCEL_RE.match(message) or is_consent(message):
        return None
    rest = without_consent(message)
    lead = _LEAD_RE.match(rest)
    spelled_out = bool(lead and lead.end() and re.search(r"[:：]", rest[: lead.end()]))  # "就写：…", "the text is: …"
    if ("?" in message or "？" in message or _ASKS_DONE.search(message)) and not spelled_out:
        return None  # a question of theirs, not the text ("就写：今天能批吗？" is a text, after its lead)
    text = rest[lead.end():].strip() if lead and lead.end() else message.strip()  # "好，就写：…" → what follows 就写
    if not spelled_out:  # "Chengdu. And it's Wang Wu approving now": the answer ends where another matter begins
        other = _OTHER_MATTER.search(text)
        text = text[:other.start()].strip().rstrip("。.") if other and other.start() else text
    return text if len(text) >= 2 else None


_ASKS_DONE = re.compile(
    r"(?:弄|设|办|搞|做|处理|提交|改|交|批)?(?:好|完|成功|上)了(?:吧|吗|么|没有?|嘛)(?:[\s，,。]*(?:确认|查|看)(?:一?下|一下))?(?=$|[\s，,。？?])|"
    r"(?:确认|查|看)(?:一?下|一下)(?:是不是|有没有)?(?:弄|设|办)?好了|了(?:吗|么|没有?)(?=$|[\s，,。？?])|"
    r"\b(?:is|was)\s+(?:it|that)\s+(?:all\s+)?(?:done|set(?:\s+up)?|through|sorted)\b|\bdid\s+(?:it|that)\s+(?:go\s+through|work)\b",
    re.IGNORECASE,
)
"""A message that asks whether something is done ("弄好了吧 确认下", "设好了没", "is it all set") asks; it gives no text
(it had been filed as a leave's reason: the eighty-eighth round's writer)."""


_OTHER_MATTER = re.compile(r"(?:[。！!]|\.(?=\s))\s*(?:另外|还有|顺便|对了|\b(?:and|also|oh\s+and|by\s+the\s+way|btw|plus|"
                           r"one\s+more\s+thing)\b)", re.IGNORECASE)
"""A sentence that begins another matter after an answer ("…。对了，…", ". And …", ". Also …")."""


def names(word: str, text: str) -> bool:
    """Whether a text names a word: Chinese anywhere, Latin as a whole word, in any case, and in its plural ("taxis",
    "buses", "fares" name "taxi", "bus", "fare"; `latin_term`)."""
    if word.isascii():
        return compiled(latin_term(word), re.IGNORECASE).search(text) is not None
    return word in text


_NO_PLURAL = frozenset("a an the in of off on to for at by per and or".split())


def latin_term(word: str) -> str:
    """The pattern of a Latin-script term as a whole word, each of its words also in the plural ("taxis", "buses",
    "days in lieu" for "day in lieu"; not "ins" nor "offs"), with spaces or hyphens between them ("day-in-lieu")."""
    pieces = [re.escape(p) + ("(?:e?s)?" if p[-1:].isalpha() and p.casefold() not in _NO_PLURAL else "")
              for p in re.split(r"[\s-]+", word.strip())]
    joined = r"[\s-]+".join(pieces)
    return rf"(?<![a-z0-9_])(?:{joined})(?![a-z0-9_])"


# How much or how long, as Chinese puts it inside a verb and its object: 请【半天】假, 出【三天】差, 请【个】假, 休【两周的】假,
# after 了 or 过 too: 打【了好几趟】车, 请【了三天】假 (了 alone is not: 出了差错 is a mistake, no trip).
_AMOUNT_INSIDE = (
    r"(?:[了过]好?)?(?:[零〇一二两三四五六七八九十百几多半\d.]+\s*(?:个半|个|天|日|周|星期|礼拜|个月|月|小时|钟头|晚|趟|次|回)?半?|个|趟|次)的?"
)


DATE_SLOT = "{date}"
"""In a term, where a date the person wrote stands: "{date} off" is named by "Thursday off", "the 8th off"."""


LENGTH_SLOT = "{length}"
"""In a term, where how long the person wrote stands: "请{length}" is named by 请一天, 请两天, 请半天 (asking for
time off, said without 假), never by 申请两天, 邀请三天 or 请三天内 (within three days) / 请两天后 (in two days)."""

# How long, in days, weeks or hours: 一天, 两天半, 3个工作日, 半天, 一周, 两个礼拜, 4小时 (not 3日: a date).
_LENGTH = (
    r"(?:[零〇一二两三四五六七八九十几\d.]+\s*(?:个)?(?:天半?|工作日|周|星期|礼拜|小时|钟头)|半天|半日|个?把(?:天|星期|礼拜))"
)
_LENGTH_BEFORE = "申邀提聘敬恳宴烦"  # 申请, 邀请, 提请, 聘请, 敬请, 恳请, 宴请, 烦请: the verb is not 请 (ask for)
_LENGTH_AFTER = r"(?:之?内|以内|之?后|以后|前|以前|之前)"  # 请三天内回复: "please, within three days"


def names_term(word: str, text: str) -> bool:
    """Whether a text names a term, also when Chinese splits a two-character verb and its object with how much or
    how long (a 离合词: 请假 in 请半天假 and 请个假, 出差 in 出三天差). Only an amount may stand between: 请他休假
    names 休假, not 请假. A term with a date slot ("{date} off") is named by any date phrase in its place, one with a
    length slot ("请{length}") by how long in its place."""
    if word.casefold() == "leave":
        text = LEAVE_THE_VERB.sub(" ", text)  # "Leave the other one": no leave named
    if DATE_SLOT in word:
        return _names_with_date(word, text)
    if LENGTH_SLOT in word:
        return _names_with_length(word, text)
    return names(word, text) or split_term(word, text) is not None


LEAVE_THE_VERB = re.compile(
    r"(?:^|(?<=[.,;:!?—–-])|\b(?:and|just|please|pls|but|so|then|can|could|I'll|I\s+will|you\s+can|we\s+can)\s)\s*"
    r"(?i:leave)\s+(?=(?:the|it|that|this|these|those|them|him|her|his|their|my|(?-i:[A-Z][a-z]+)(?:\s+(?-i:[A-Z][a-z]+))?"
    r"['’]s)\b)", re.IGNORECASE)
""""Leave" as the verb, at the head of what is asked and before what is left ("Leave the other one", "just leave it for
now", "and leave Wang Wu's alone"): no leave named ("take leave this Friday", "my leave the week after" stay so)."""


def split_term(word: str, text: str) -> str | None:
    """A two-character Chinese term as the text writes it split by how much or how long (打了好几趟车 for 打车), or
    None."""
    if len(word) != 2 or word.isascii():
        return None
    found = compiled(re.escape(word[0]) + _AMOUNT_INSIDE + re.escape(word[1])).search(text)
    return found.group() if found else None


def _names_with_length(word: str, text: str) -> bool:
    before, _, after = word.partition(LENGTH_SLOT)
    lead = re.escape(before) if before else ""
    if before and before[0] == "请":
        lead = f"(?<![{_LENGTH_BEFORE}])" + lead
    pattern = lead + _LENGTH + (re.escape(after) if after else "") + f"(?!{_LENGTH_AFTER})"
    return re.search(pattern, text) is not None


def _names_with_date(word: str, text: str) -> bool:
    from tools.parsers.dates import find_dates  # the parsers need dateutil; only a term with a slot reads dates

    before, _, after = (part.strip().casefold() for part in word.partition(DATE_SLOT))
    folded = text.casefold()
    for span in find_dates(text, date.today()):  # where the dates are, not which days: any today will do
        start, end = span.at
        if before and not compiled(rf"(?<![a-z0-9_]){re.escape(before)}\s+$").search(folded[:start]):
            continue
        if after and not re.match(rf"\s*{re.escape(after)}(?![a-z0-9_])", folded[end:]):
            continue
        return True
    return False


_NAME_FILLER = re.compile(r"[吧把啊呀哈呢嘛的了吗哦嗯\s,，.。!！~～、]+|\b(?:i\s+guess|i\s+think|please|pls|then|maybe|"
                          r"probably|ok(?:ay)?|yes|sure|how\s+about|that'?s|it'?s|is|the|one)\b", re.IGNORECASE)


def only_names(text: str, names: Sequence[str]) -> bool:
    """Whether the text says nothing but one or more of `names` (李四吧, typed 李四把; "Li Si, I guess"): an answer
    naming a person, which answers no question about a place or a text."""
    masked = text
    for name in sorted((n for n in names if n), key=len, reverse=True):
        masked = compiled(re.escape(name), re.IGNORECASE).sub("\x00", masked)  # built from words: compiled once
    return "\x00" in masked and not _NAME_FILLER.sub("", masked.replace("\x00", ""))
