"""Options a person names and does not choose: one taken back for another in the same breath ("annual leave. Actually
no, make it a comp day", "年假，不对，改成调休"), one said not to be it ("不是年假", "not as annual leave"), one said to
be used up ("调休没了，那用年假吧", "out of comp time"), and one kept for later ("那就调休吧，年假留着过年用", "use a
comp day, I'd rather save my annual leave"). The choice readers (`tools.choices.read_choice`) read a text with those
hidden: the option left is the one chosen.

Rules as a person would state them, tested on phrasings written for the tests (tests/unit/test_taken_back.py), none
from a scenario.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from tools.patterns import compiled

_TAKEN_BACK = re.compile(
    r"不对|算了|改成|改为|换成|改用|还是用|(?:哦|噢|啊|呃)不|不不|"
    r"\b(?:actually(?:,?\s+no)?|no,?\s+wait|make\s+(?:it|that)|change\s+(?:it|that)\s+to|switch\s+(?:it|that)\s+to|"
    r"I\s+mean|or\s+rather|scratch\s+that|on\s+second\s+thought|sorry,?\s+no|no,?\s+sorry)\b",
    re.IGNORECASE,
)
"""Words after which what is named takes the place of what was named before them."""
TAKEN_BACK = _TAKEN_BACK
_NOT = (r"不是|不用|别用|不要|(?:别|不要|不)(?:按|算|走|报|记)(?:成)?|"
        r"\b(?:not|instead\s+of|rather\s+than)\s+(?:as\s+|an?\s+|the\s+|my\s+)?|"
        r"\bdon'?t\s+(?:put|file|book|log|count)\s+(?:it|this|that)?\s*(?:as|under)\s+(?:an?\s+)?")
"""Words that say an option is not the one ("不是年假", 别按事假, "not as annual leave", "instead of annual leave", "don't
file it as personal leave")."""
_KEPT_FOR_LATER = re.compile(
    r"[^，,。.;；!！?？]*(?:留着|留到|留给|省着|存着|攒着)[^，,。.;；!！?？]*|"
    r"[^,.;!?]*\b(?:save|saving|keep|keeping)\b[^,.;!?]*",
    re.IGNORECASE,
)
"""A clause that keeps an option for later ("年假留着过年用", "I'd rather save my annual leave")."""


_GONE = r"(?:没了|没有了|用完了?|用光了?|不够了?|休完了?|\s+(?:is|are)\s+(?:all\s+)?(?:gone|used\s+up)|\s+ran\s+out)"
"""Words after an option that say none of it is left ("调休没了", "年假用完了", "comp time is all used up"): not chosen."""
_AWAY = (r"(?:那周|这周|下周|那几天|那天)?也?(?:不在|休假|请假了)|(?:['’]s|\s+is|\s+will\s+be|['’]ll\s+be)\s+(?:off|away|out|"
         r"on\s+leave|on\s+holiday|on\s+vacation)\b")
"""Words right after a person named that say they are away then ("李四那周不在", "Wang Wu is off that week"): not the
one chosen. Right after: "王五 我下周休假不在" says the speaker is away, not 王五."""


def unchosen_hidden(text: str, names: Sequence[str], mask: str) -> str:
    """`text` with the options it names and does not choose hidden by `mask` (same length): clauses that keep one for
    later, one said not to be it, and, where an option is named after the last word that takes back what came before,
    everything before that word. `names` are the options' names and the words that imply them."""

    def hide(match: re.Match[str]) -> str:
        return mask * len(match.group())

    text = _KEPT_FOR_LATER.sub(hide, text)
    said = sorted({n for n in names if n}, key=len, reverse=True)
    if not said:
        return text
    option = "|".join(re.escape(n) for n in said)
    text = compiled(rf"(?:{_NOT})(?:{option})", re.IGNORECASE).sub(hide, text)
    gone = (rf"(?:{option})(?:{_AWAY})|(?:{option})[^，,。.;；!！?？]{{0,4}}?{_GONE}|"
            rf"\b(?:ran\s+out\s+of|out\s+of|no)\s+(?:{option})s?\b(?:\s+left)?")
    text = compiled(gone, re.IGNORECASE).sub(hide, text)
    cues = list(_TAKEN_BACK.finditer(text))
    if cues and re.search(option, text[cues[-1].end():], re.IGNORECASE):
        end = cues[-1].end()
        text = mask * end + text[end:]
    return text


def taken_instead(text: str) -> str | None:
    """The clause after the last word that takes back what came before ("Li Si, right? Actually make it Zhao Liu
    instead, Li Si will be off too" → " Zhao Liu instead"), up to its end; None where nothing is taken back."""
    cues = list(_TAKEN_BACK.finditer(text))
    if not cues:
        return None
    return re.split(r"[，,。.;；!！?？\n]", text[cues[-1].end():], maxsplit=1)[0]


def last_said(text: str, acts: re.Pattern[str]) -> str:
    """What the person says last where they take back what came before for something `acts` names ("Approve it...
    actually no, pass it on to Wang Wu", "批了吧，哦不，先退回"): the text after the last word that takes back; the
    whole text where nothing is taken back, or nothing `acts` names comes after ("驳回，金额不对" keeps its 驳回)."""
    cues = list(_TAKEN_BACK.finditer(text))
    if cues and acts.search(text, cues[-1].end()):
        return text[cues[-1].end():]
    return text


_SOMEONE_ELSE = re.compile(r"(?:换|找)(?:个|一个)?(?:别)?人|别人|其他人|其他同事|另(?:一|外)(?:个|位)(?:人|同事)?|"
                           r"\b(?:someone|somebody|anyone|anybody)\s+else\b|\b(?:an)?other\s+(?:person|colleague)\b",
                           re.IGNORECASE)


def names_someone_else(text: str, named: Sequence[str] = ()) -> bool:
    """Whether a message asks for someone other than the one named before, naming nobody after it ("pass it to someone
    else then", 那换个人吧; "让李四批……哦不行，李四明天也请假了，换个人吧", `named` the names the message says): the person
    named earlier is not the one meant."""
    last = max((text.rfind(n) + len(n) for n in named if n and n in text), default=0)
    return bool(_SOMEONE_ELSE.search(text, last))
