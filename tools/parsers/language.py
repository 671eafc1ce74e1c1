"""Which of the two languages a message is written in: Chinese or English.

For these two the script is the language: Han characters are Chinese, Latin words are English. A message that
mixes them ("帮我approve一下", "please approve 张三's request") is in the language that carries more of it. A Han
character weighs two thirds of an English word (a Chinese word is one to two characters): a two-character name
in an English sentence of two words or more leaves it English, and an English word in a Chinese sentence of
two characters or more leaves it Chinese. Before the weights, the small words of grammar: where only one language's
particles, pronouns and prepositions are in it ("所有 pending 的 leave request 都帮我 approve 掉", "file a baoxiao for
打车"), it is that language's sentence, whatever the count of words dropped in. The weights alone were measured against
`lingua-language-detector` on the corpus (docs/parsers.md): the same answers at 1/1000 of the install size.
"""

from __future__ import annotations

import re
from typing import Literal

from tools.parsers.text import mask_identifiers

Lang = Literal["zh", "en"]

_HAN_RE = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_WORD_RE = re.compile(r"[A-Za-z]{2,}|\b[AI]\b")
HAN_WEIGHT = 2 / 3


def language_of(text: str, default: Lang = "zh") -> Lang:
    """"zh" or "en": the language most of the text is written in; `default` when it has neither (a number, a name masked)."""
    text = mask_identifiers(text)
    han = len(_HAN_RE.findall(text))
    words = len(_WORD_RE.findall(text))
    if not han and not words:
        return default
    if han and words:  # the grammar's small words say whose sentence it is: "所有 pending 的 leave request 都帮我 approve 掉"
        zh, en = len(_ZH_GRAMMAR.findall(text)), len(_EN_GRAMMAR.findall(text))
        if bool(zh) != bool(en):
            return "zh" if zh else "en"
    return "zh" if han * HAN_WEIGHT >= words else "en"


_ZH_GRAMMAR = re.compile(r"[的了吗呢吧把被都也就还给在是我你他她们啊呀么这那个]|一下|帮忙")
"""Chinese words of grammar (particles, pronouns, measure words): a sentence with them and English nouns and verbs
dropped in is Chinese."""
_EN_GRAMMAR = re.compile(r"\b(?:the|an?|to|of|for|in|on|at|by|from|with|and|or|is|are|was|be|been|my|me|mine|I|you|"
                         r"your|it|its|this|that|these|those|he|him|his|she|her|we|us|our|they|them|their|please|"
                         r"can|could|would|will|do|does|did|have|has|had|not|what|which|who|when|where|how)\b",
                         re.IGNORECASE)
"""English words of grammar: a sentence with them and Chinese names or terms dropped in is English."""
