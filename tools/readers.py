"""Readers of one value in the person's words, from words a toolset declares as data: a choice from the words that name
or imply an option (差旅费 → 差旅, 打车 → 差旅), a text after the words that introduce it (去深圳见客户 → 深圳).

The rules, as a person would state them:

- A choice is *named* when its name stands as the choice: alone in its clause ("，差旅，"), before a word that makes it
  a category (差旅费, 餐饮类, "office expenses"), or after one ("category Travel", "as meals", 类别是餐饮). It is
  *implied* when a word of what was bought or done stands anywhere ("打车", "a taxi", "printer paper"). A name used as
  an ordinary word ("the client's office", 办公室) names nothing when what was bought says otherwise. Named beats
  implied, implied beats a name found anywhere; the latest message that says any of them decides, and one that points
  to two options decides nothing (the person is asked).
- A text is read after one of its cue words (去, 到, "to"), when the words right after it are the value as the person
  wrote it: in Chinese, the run of characters up to punctuation, a number, a date, a person's name, a word that
  says what they do there (见客户, 开会, 出差), or a site at the place (分公司, 工厂: "西安分公司" is 西安); in
  English, the capitalised name that follows ("to New York next week" → New York). A date, a person or a number is
  never a text's value. A later message that puts another in its place ("是苏州不是杭州", "Suzhou, not Hangzhou",
  "杭州改成苏州") corrects it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date

from tools import words
from tools.courtesy import COURTESY
from tools.message_kind import asks_to_be_told, questions_of_mine_spans
from tools.parsers import Quantity, read_text
from tools.parsers.pinyin import lower_case_place
from tools.parsers.text import MASK, mask_spans, mask_words
from tools.patterns import compiled

# ---------------------------------------------------------------- texts

_STOP_ZH = (
    "见|拜访|参加|参会|开会|开|出席|洽谈|谈|签|培训|学习|交流|考察|调研|支持|做|办|处理|面试|检查|验收|审计|汇报|述职|"
    "评审|走访|实施|部署|安装|维护|调试|对接|沟通|讨论|会见|接待|陪同|演讲|讲课|授课|出差|玩|待|住|呆|一趟|趟|跑|"
    "一下|看望|看|找|送|取|拿|的|和|与|及|跟|同|并|再|然后|回来|返回|回|出发|请|麻烦|帮|审批|申请|报销"
)
_SITE_ZH = ("分公司|子公司|总公司|公司|总部|办事处|分部|工厂|厂区|园区|基地|仓库|门店|分店|分行|支行|现场|办公室|客户|"
            "供应商|厂家|合作方")
"""Words of a site at a place (the branch, the plant, the client): where in the city, not the city ("西安分公司" →
西安), as "the Shanghai office" is Shanghai."""
_CJK_RUN = re.compile(r"[\u3400-\u9fff]+")
_SKIP_ZH = re.compile(r"^(一趟|趟|一下)\s*")
_NOT_A_PLACE_ZH = re.compile(
    r"^(时候|时|期|底|处|点|年|现在|目前|这里|那里|哪|当天|当日|当晚|今天|明天|后天|上午|下午|中午|晚上|早上|一趟|一下|"
    r"过去|过来|回来|回去|现场|那边|这边|[几一二两三四五六七八九十]+(?:个|家|位|次|处|所|些)|各|每个|这几|那几|好几|很多|"
    r"好多|不少)")
"""What follows 到 or 去 without being a place: 到时候, 到期, 去年; a time (当天去当天回, 明天去, 上午去); a direction
(飞过去现场处理: "fly over there"); how many of whom ("去几个老客户那边做回访", 去两家供应商, 去各门店: 三亚 and 十堰 are
places, 三个 and 两家 count)."""
_NAME_EN = re.compile(r"(?:the\s+)?([A-Z][\w'’-]*(?:\s+(?:of\s+|de\s+)?[A-Z][\w'’-]*)*)")
MAX_TEXT_CHARS = 30
"""A value read after a cue is at most this long (a longer run is a sentence, not a place)."""


def _masked(text: str, names: Sequence[str], today: date) -> str:
    """The text with its dates, numbers and the people's names blanked out (none of them is a text's value); a number
    that counts something else stays, as part of what it tells (烧到38度5, 打了3趟车)."""
    masked = mask_words(text, names)
    facts = read_text(masked, today=today)
    spans = [*(span.at for span in facts.dates),
             *((q.start, q.end) for q in facts.quantities if q.unit != "other" and not _in_a_word(masked, q))]
    kept = [(q.start, q.end) for q in facts.quantities if q.unit == "other"]  # 烧到38度5, 打了3趟车: part of why
    blanked = re.sub(r"\d+", lambda m: m.group() if any(a <= m.start() < b for a, b in kept) else " " * len(m.group()),
                     mask_spans(masked, spans))
    # a clause's end stays where a date took it in ("this coming Friday." ends its sentence, as "Fri." may abbreviate)
    return "".join(o if o in _CLAUSE_ENDS else c for o, c in zip(masked, blanked, strict=True))


def _in_a_word(text: str, quantity: Quantity) -> bool:
    """Whether a Chinese numeral of no unit is glued to the word after it, a part of a name (三亚, 九江, 六安, 十堰),
    not a count."""
    return quantity.unit == "none" and _CJK_RUN.fullmatch(quantity.text) is not None and \
        _CJK_RUN.match(text[quantity.end:quantity.end + 1]) is not None


_DANGLING_EN = re.compile(r"(?:\s+(?:on|at|in|by|for|from|to|until|till|of|the|a|an|and|or|so|but|with|this|next))+\s*$",
                          re.IGNORECASE)
"""English words left at a clause's end where what they led to was a date, a number or a person: no part of why."""
_CLAUSE_ENDS = frozenset("，,。.;；!！?？\n、:：")


def _after_zh(rest: str) -> str:
    """The run of Chinese right after a cue, up to the first word that says what happens there; "" when the run
    starts with one (去见客户) or is no place (到时候)."""
    rest = _SKIP_ZH.sub("", rest.lstrip())
    run = _CJK_RUN.match(rest)
    if run is None or re.match(f"{_STOP_ZH}|{_SITE_ZH}", run.group()) or _NOT_A_PLACE_ZH.match(run.group()):
        return ""
    stop = re.search(f"{_STOP_ZH}|{_SITE_ZH}", run.group())
    return _END_PARTICLES_ZH.sub("", run.group()[: stop.start()] if stop else run.group())


_END_PARTICLES_ZH = re.compile(r"(?:吧|啊|呀|了|哈|嘛|呢)+$")
"""Particles that end a clause, no part of a place (去南京吧)."""


def _after_en(rest: str) -> str:
    """The capitalised name right after a cue ("New York", "the Shanghai office" → Shanghai), or a Chinese place typed
    in lower case in a hurry ("to chengdu for the workshop": `lower_case_place`)."""
    name = _NAME_EN.match(rest)
    return name.group(1) if name else lower_case_place(rest)


_LEAD_ZH = r"(?:(?:应该|其实|就)?是|去|到|改成|改为|换成|改去)?"
_NEW_EN = r"((?:[A-Z][\w-]*\s+){0,2}[A-Z][\w-]*)"
_NOT_A_NAME_EN = {"i", "it", "its", "no", "not", "sorry", "oops", "actually", "wait", "should", "make", "my", "the", "yes",
                  "ok", "okay", "please", "but", "and", "so", "that", "this", "change", "switch", "going", "go", "to"}
"""Capitalised words that begin a sentence and name no place ("Sorry, Suzhou, not Hangzhou")."""


def _corrections(old: str) -> tuple[list[re.Pattern[str]], list[re.Pattern[str]]]:
    """How a later message puts another value in place of `old`: in Chinese "是苏州不是杭州", "不是杭州，是苏州", "杭州改成
    苏州"; in English "Suzhou, not Hangzhou", "not Hangzhou but Suzhou", "Suzhou instead of Hangzhou", "change Hangzhou
    to Suzhou". The first list ends at the new value; the second starts where it is read as after a cue."""
    y = re.escape(old)
    before = [
        re.compile(rf"(?:^|[，,。！!？?；;\s]){_LEAD_ZH}([\u3400-\u9fff]{{2,10}}?)\s*[，,]?\s*而?不是(?:去|到)?{y}"),
        re.compile(rf"{_NEW_EN}\s*,?\s+(?:not|instead\s+of|rather\s+than)\s+(?:to\s+|in\s+)?(?:the\s+)?{y}\b"),
    ]
    after = [
        re.compile(rf"不是(?:去|到)?{y}\s*[，,]?\s*而?(?:是|去|到|改成|改为|换成|改去)"),
        re.compile(rf"(?:从)?{y}\s*(?:改成|改为|换成|改到|改去|改)"),
        re.compile(rf"\bnot\s+(?:to\s+|in\s+)?{y}\s*[,;]?\s*(?:but\s+|it'?s\s+|it\s+is\s+)?(?:to\s+|in\s+)?", re.IGNORECASE),
        re.compile(rf"\b(?:change|switch|make)\s+(?:it\s+)?(?:from\s+)?{y}\s+(?:to|into)\s+", re.IGNORECASE),
    ]
    return before, after


def corrected(old: str, texts: Sequence[str], *, names: Sequence[str] = (), today: date) -> str:
    """`old`, or the value the latest of `texts` that corrects it puts in its place (`_corrections`): a text the person
    gave once and then took back ("去杭州…" then, after the card, "是苏州不是杭州") is the one they gave last. The new
    value is read as after a cue (a run of Chinese up to what is done there; a capitalised name in English)."""
    before, after = _corrections(old)
    for text in reversed(texts):
        masked = _masked(text, names, today)
        found: set[str] = set()
        for pattern in before:
            for match in pattern.finditer(masked):
                value = match.group(1).strip()
                if not value.isascii() and _after_zh(value) != value:
                    continue  # a run with what is done there is no place (杭州出差三天，不是杭州的客户)
                if value.isascii():
                    kept = value.split()
                    while kept and kept[0].lower().strip("'’") in _NOT_A_NAME_EN:
                        kept.pop(0)
                    value = " ".join(kept)
                found.add(value)
        for pattern in after:
            for match in pattern.finditer(masked):
                rest = masked[match.end():]
                found.add((_after_en(rest) if old.isascii() else _after_zh(rest)).strip())
        found = {v for v in found if 2 <= len(v) <= MAX_TEXT_CHARS and old not in v and v not in old and v in text}
        if len(found) == 1:
            return found.pop()
    return old


def read_after(cues: Sequence[str], texts: Sequence[str], *, names: Sequence[str] = (), today: date) -> str | None:
    """The text the latest of `texts` holding one writes right after a cue word, verbatim (see the module's rules), or
    what a message from then on puts in its place (`corrected`); None when none does, or one message gives two
    different ones. A longer cue wins where two overlap (飞往, 飞)."""
    for at, text in reversed(list(enumerate(texts))):
        masked = _masked(text, names, today)
        found: set[str] = set()
        taken: list[tuple[int, int]] = []
        for cue in sorted(cues, key=len, reverse=True):
            latin = cue.isascii()
            # a label names what follows too: "地点杭州", 目的地是成都, "Destination: Xi'an"
            # a cue in capitals throughout is a notice's, not the person's ("NOTE TO ANY AI ASSISTANT: …")
            shouted = rf"(?!(?-i:{re.escape(cue.upper())})\b)" if latin and len(cue) > 1 else ""
            pattern = rf"(?<![a-z]){shouted}{re.escape(cue)}\s*:?\s+" if latin else re.escape(cue) + (
                r"(?:是|为|改成|改为|换成|改到|改去|变成)?\s*[:：]?\s*" if len(cue) > 1 else "")  # 地点改成苏州
            for match in compiled(pattern, re.IGNORECASE if latin else 0).finditer(masked):
                if any(start <= match.start() < end for start, end in taken):
                    continue
                taken.append(match.span())
                value = (_after_en if latin else _after_zh)(masked[match.end():]).strip()
                if 2 <= len(value) <= MAX_TEXT_CHARS and value in text:
                    found.add(value)
        if len(found) == 1:
            return corrected(found.pop(), texts[at:], names=names, today=today)
        if found:
            return None
    return None


# ---------------------------------------------------------------- a reason

ASKING = re.compile(
    r"(?:能|可以|行)的话|如果(?:可以|能|行)|帮我|帮忙|麻烦|一下|申请|提交|提个|发起|审批|抄送|抄给|找|走|提|批|报|要|想|"
    r"\b(?:please|pls|plz|file|submit|request|approves?|approval|claim|help|can you|could you|would you|will you|"
    r"put in|put through|raise|lodge|log|send in|for me|i need|i want|i'd like to|if (?:possible|so|you can|that'?s ok)|"
    r"put me down|book me(?:\s+(?:in|off|out))?|sign me up|mark me(?:\s+(?:down|off|out|as))?|pencil me in|"
    r"(?:is\s+it|would\s+it\s+be)\s+(?:ok(?:ay)?|alright|all\s+right|fine|possible)\s+(?:if\s+i|for\s+me\s+to|to)|(?:can|could|may)\s+i)\b|"
    rf"(?:能|可以)(?=帮|替|给|{MASK})",
    re.IGNORECASE,
)
"""Words of asking for a request to be filed, and of who approves it: no part of why."""


def read_account(
    texts: Sequence[str], *, names: Sequence[str], form_words: Sequence[str], choice_words: Sequence[str], today: date,
    telling_words: Sequence[str] = (),
) -> str | None:
    """The person's own account of why, as they wrote it: each clause of their messages that says something beyond
    the dates, lengths, numbers and people it names, the form's own words (`form_words`: the process's name), a choice
    named on its own (`choice_words`: "，餐饮类，", "office supplies"; 办公 inside 办公室 is no choice), asking words
    (帮我, 找李四审批, "please file"), of how much (花了, "spent") and of when (下午, "time off"), as written without
    those and particles at its ends, joined in the order written ("上周请供应商吃饭，餐饮类，要报销，找李四" →
    上周请供应商吃饭). A clause in Chinese tells something in two characters or more, or with one of `telling_words`
    (what implies a choice: 发烧 a sick leave, 打车 travel, is why by nature). Brackets set a clause apart
    ("请2天事假（搬家）"). None when no clause does: the person is asked."""
    parts: list[str] = []
    choices = {words.squash(w) for w in choice_words}
    for text in texts:
        masked = mask_words(_masked(text, names, today), form_words)
        masked = _ACCOUNT_FILLER.sub(lambda m: MASK * len(m.group()), masked)
        for word in choice_words:  # "请[一天]事假看牙": the choice named right after a length is the asking's, no why
            masked = re.sub(rf"(?<={MASK}){re.escape(word)}", MASK * len(word), masked)
        masked = mask_spans(masked, questions_of_mine_spans(text))  # "…还有，我之前请的体检假批了吗？": no why
        for clause in _ACCOUNT_CLAUSES.finditer(masked):
            asked = masked[clause.end():clause.end() + 1] in ("?", "？", "")
            if words.squash(clause.group().replace(MASK, "")) in choices or asked and (
                    _HOW_ASKED.search(clause.group()) or masked[clause.end():][:1] and asks_to_be_told(
                        text[clause.start():clause.end()])):
                continue  # "How do I get that money back?", 这个怎么报？, 想问下是谁批？: asks, tells no why
            if _REDONE.search(text[clause.start():clause.end()]):
                continue  # "金额写错了，先撤回，重新提一笔": why a request is redone, not why it is made
            telling = [m for m in _TOKEN.finditer(clause.group()) if _tells(m.group())]
            if len(telling) < (2 if any(_CJK_RUN.match(m.group()) for m in telling) else 1) and not (
                    telling and _said_any(telling_words, clause.group())):
                continue
            kept = clause.group().lstrip(_EDGE).rstrip(_EDGE_END)
            head = _FRAME_HEAD_EN.match(clause.group().strip(" \t\r\n"))
            if head and MASK in head.group():  # "[could you put in] a [claim] for the parking": a frame, not why
                kept = clause.group().strip(" \t\r\n")[head.end():].lstrip(_EDGE).rstrip(_EDGE_END)
            start = clause.start() + clause.group().index(kept)
            kept = _DANGLING_EN.sub("", kept).rstrip(_EDGE_END)  # "…for my flat on [Friday]": the on goes with the date
            if start > clause.start() and masked[start - 1] in "这那" and _DEMONSTRATED.match(kept):
                start, kept = start - 1, masked[start - 1] + kept  # 这周来回跑 keeps its 这 (这周 is no 周)
            part = text[start:start + len(kept)].strip()
            if part and part not in parts:
                parts.append(part)
    account = "，".join(parts) if any(_CJK_RUN.search(p) for p in parts) else ", ".join(parts)
    return account[:MAX_ACCOUNT_CHARS] if account else None


_ACCOUNT_CLAUSES = re.compile(r"[^，,。.;；!！?？\n、:：()（）]+")
_REDONE = re.compile(
    r"撤回|撤销|撤掉|(?:写|填|搞|弄|打|报|选|记)错|重新(?:报|提|申请|发|交|请|填|走)|"
    r"\b(?:withdraw|pull(?:ed|ing)?\s+(?:it\s+|that\s+|this\s+)?back|take\s+(?:it\s+)?back|re-?file|re-?submit|mistake|typo|"
    r"(?:got|put|typed|entered|filled)\s+(?:\w+\s+){0,3}wrong|wrong\s+(?:amount|day|date|dates|number|figure|sum|type|category)|"
    r"(?:amount|day|date|dates|number|figure|sum|type|category)\s+(?:is|was|are|were)\s+wrong|"
    r"(?:new|corrected|fresh)\s+one)\b",
    re.IGNORECASE,
)
"""A clause that withdraws a request, says it was filled in wrong, or asks for it anew: why it is redone, no why."""


def _said_any(found: Sequence[str], text: str) -> bool:
    return any(w and (words.names_term(w, text) if w.isascii() else w in text) for w in found)


_TOKEN = re.compile(r"[\u3400-\u9fff]|[a-z0-9]+(?:[-'’][a-z0-9]+)*", re.IGNORECASE)
_FUNCTION_WORDS = set("把这那几些点给让被就都也还再很太吧呢啊嘛呀哦么趟跑") | {
    "head", "heading", "headed", "fly", "flying", "travel", "traveling", "travelling", "book", "booking", "arrange",
    "i'd", "i'm", "some", "time", "get", "go", "going", "have", "has", "had", "just", "so", "any", "all", "today",
    "tomorrow", "yesterday", "i'll", "i've", "it", "it's", "was", "were", "is", "be", "been", "need", "needs", "want",
    "wants", "take", "as", "again", "cc", "copy", "loop", "use", "using", "like", "would", "sign", "signs", "signing",
    "ok", "okay", "then", "now", "alright", "right", "sure", "yeah", "yes", "fine", "well", "starting", "beginning",
    "onwards", "from",
}
"""Words that tell nothing of why on their own (把, 这, "some", "time", "I'll need", "cc"), beyond the generic ones
(`tools.words`): a clause of only these and masked words ("so I'll need [Friday off]", "cc [Wang Wu]") is left out."""
_ACCOUNT_FILLER = re.compile(
    f"{COURTESY.pattern}|{ASKING.pattern}|(?:上午|下午|早上|中午|晚上)(?!\\s*(?:一?起来|醒来|起床|睡醒|突然|发现))|整天|全天|(?:(?<![太很好更最那这])[多少])?(?:花费|花了|花)|一共|共计|合计|总共|\\b(?:spent|cost|costs)\\b|"
    r"\b(?:this\s+)?(?:morning|afternoon|evening)\b|\b(?:time\s+|days?\s+|all[- ]day\s+)?off\b|"
    r"谢谢|多谢|感谢|辛苦了?|劳驾|有劳|拜托了?|我是新来的|新来的|刚入职|请问一下|打扰一下|"
    rf"开始(?:请|休|算)|起(?:请|休)|请(?=\s*{MASK})|唉+|哎呀|哎哟|哎|烦死了?|真烦|气死我?了|无语|\b(?:ugh+|argh+|sigh|geez|jeez|phew|meh|grr+|oh\s+(?:man|boy|well))\b|"
    # words that take back what was just said ("两天，不对，是三天", "2 days, sorry no, 3"): how the value changed, no why
    r"(?:哦|噢|啊|呃)?(?:不对|不不)(?:[，,]?\s*(?:应该)?(?:是|改成|改为))?|"
    r"\b(?:sorry,?\s+no|no,?\s+sorry|no,?\s+wait|I\s+mean|or\s+rather|scratch\s+that|actually,?\s+no)\b|"
    rf"\b(?:make|change)\s+(?:it|that)(?:\s+to)?(?=\s*{MASK})|"  # "make it [3]": no why ("can't make it in" is one)
    r"\b(?:yuan|rmb|cny|bucks)\b|"  # a unit left of an amount taken back ("80 yuan, sorry no, 85")
    r"\b(?:quick|one|a)\s+question\b|\bI'?m\s+new(?:\s+here)?\b|\bsorry\s+to\s+bother(?:\s+you)?\b|\b(?:many\s+)?(?:thanks|thank\s+you|thx|cheers|ta)(?:\s+(?:a\s+lot|so\s+much|a\s+million))?\b",
    re.IGNORECASE,
)


_HOW_ASKED = re.compile(r"^\s*(?:how|what|where|who|which)\b|怎么|怎样|如何|咋|哪里|找谁|(?:能|可以)[^，。,]{0,3}吗$",
                        re.IGNORECASE)
"""A clause that asks how or what to do (with its question mark, or ending the message): no why."""
_FRAME_HEAD_EN = re.compile(
    rf"(?:(?:a|an|the|for|me|of|in|please|take|taking|get|have|need|and|from|on|some)\b[ \t]*+|{MASK}++[ \t]*+)+"
    r"(?=[^\s'’])", re.IGNORECASE)
"""The head of a clause that only frames the request (a [claim] for …, "an [expense claim] for"): articles and
prepositions around what was masked, and the verb that takes it ("take [two days of annual leave] to …"); dropped where
it holds a masked word."""
_EDGE = MASK + " \t\r\n-–—" + "的了吧呢啊嘛呀哦把这那给让被就都也还再很太"
"""What a clause of the account is trimmed of at its head: what was masked, dashes, particles and adverbs (就去 → 去)."""
_EDGE_END = MASK + " \t\r\n-–—" + "的了吧呢啊嘛呀哦吗"
"""What it is trimmed of at its end: what was masked and particles (上海出差的 → 上海出差), never an adverb (成都 keeps
its 都)."""
_DEMONSTRATED = re.compile(r"[周月年天次趟回阵段边里些个位份笔]")
"""What 这 or 那 at a clause's head points to, and is no particle before (这周, 这次, 那边): it stays."""


def _tells(token: str) -> bool:
    return bool(words.content_tokens(token)) and token.casefold() not in _FUNCTION_WORDS


MAX_ACCOUNT_CHARS = 200


_ABOUT_AN_AMOUNT = re.compile(r"一共|总共|共计|合计|共|花了|大概|大约|约|左右|\b(?:total|about|around|roughly|in\s+all)\b",
                              re.IGNORECASE)


def only_an_amount(text: str, today: date) -> bool:
    """Whether a text is an amount of money and nothing else ("一共326块5", "¥480", "about 450 yuan"): no place, name
    or account of anything, whatever field it was put in (an answer to "how much?" taken for a destination)."""
    facts = read_text(text, today=today)
    spans = [(q.start, q.end) for q in facts.quantities if q.unit == "yuan"]
    if not spans:
        return False
    return not words.content_tokens(_ABOUT_AN_AMOUNT.sub(" ", mask_spans(text, spans).replace(MASK, " ")))

