"""The courtesy around what a person asks: greetings, pleasantries and polite frames, and a closing with its signature
("您好，不好意思又来麻烦您…", "I hope this finds you well. I was wondering whether…", "Kind regards, Zhang San"). They
say nothing of why, and are left out of a request's account (`tools.readers.read_account`)."""

from __future__ import annotations

import re

GREETING = (
    r"\b(?:dear|hi|hello|hey|good\s+(?:morning|afternoon|evening))\b(?:\s+(?:there|all|team|everyone|assistant|sir|"
    r"madam))?|[\u4e00-\u9fff]{0,3}(?:您好|你好)|(?:早上|上午|下午|晚上)好"
)
"""A greeting ("Dear assistant", "Hi there", 李总您好, 下午好); a name greeted is a person's, masked on its own."""
PLEASANTRY = (
    r"\bI\s+hope\s+(?:this|that|you|all)\b[^,.!?;\n]{0,40}?\b(?:well|good|fine)\b|"
    r"\bsorry\s+to\s+(?:bother|trouble)\s+you(?:\s+again)?|\bsorry\s+for\s+the\s+(?:trouble|bother)|"
    r"\bif\s+(?:it'?s|that'?s|it\s+is|that\s+is)\s+(?:not\s+too\s+much\s+trouble|no\s+trouble|ok(?:ay)?|alright|"
    r"possible)|\bI\s+was\s+wondering\s+(?:whether|if)(?:\s+(?:I|you|we)\s+(?:could|might|can))?|"
    r"\bwould\s+it\s+be\s+(?:possible|ok(?:ay)?)(?:\s+(?:for\s+me\s+)?to)?|\bis\s+it\s+possible(?:\s+(?:for\s+me\s+)?to)?|"
    r"\bkindly\b|\bif\s+you\s+(?:could|would|don'?t\s+mind)\b|"
    r"不好意思|又来(?:麻烦|打扰)(?:您|你)?了?|麻烦(?:您|你)了?|打扰(?:您|你)?了|打扰一下|烦请|劳驾|能否|恳请|还请|顺便|另外"
)
"""What only makes a message polite ("I hope this finds you well", "I was wondering whether I could", 烦请, 劳驾) or
joins it to another matter (顺便, 另外)."""
CLOSING = (
    r"(?:\b(?:(?:kind|best|warm|warmest)\s+regards|regards|sincerely|yours\s+(?:truly|sincerely)|many\s+thanks|"
    r"thanks\s+(?:so\s+much|a\s+lot|in\s+advance)|thank\s+you(?:\s+in\s+advance)?|thanks|cheers)\b|此致敬礼|此致|谢谢|"
    r"多谢|感谢)[\s,，.!！。]*(?:[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*){0,2}|[\u4e00-\u9fff]{2,3})?[\s.!！。]*$"
)
"""A message's closing and the signature after it ("Kind regards, Zhang San", "Many thanks", 谢谢！张三)."""
COURTESY = re.compile(f"{CLOSING}|{GREETING}|{PLEASANTRY}", re.IGNORECASE)
