"""What kind of message a person's message is: a question that asks nobody to do anything ("information"), a request
for something to be done ("action"), or a question of what the assistant can do ("capability"). Read once per run,
into `tools.request.Request.kind`."""

from __future__ import annotations

import re
from typing import Literal

from tools.parsers.text import mask_spans

_SENTENCES = re.compile(r"[^。！？!?；;\n]+?(?:[。！？!?；;]+|\.(?=\s+[A-Z])|$)|[^。！？!?；;\n]+")
"""A message's sentences: to each end mark or semicolon, and an English full stop before a capital ("Fix it to 480
and resubmit. Also, when will I be paid?" is an instruction and a question, not one question; so is "两天调休，王五批；
顺便问下还剩几天？")."""
_COURTESY_ONLY = re.compile(
    r"^\s*(?:(?:hi|hello|hey|thanks|thank\s+you|thx|cheers|sorry|quick\s+question|one\s+question|question|"
    r"sorry\s+to\s+bother(?:\s+you)?|你好|您好|哈喽|嗨|谢谢|多谢|感谢|辛苦了?|麻烦了|请问一下|问一下|打扰一下|不好意思)"
    r"[\s,，!！.。~～]*)+$",
    re.IGNORECASE,
)
"""A sentence of courtesy only ("Thanks.", "Quick question,", 你好): it neither asks nor tells."""
_QUESTION_END = re.compile(r"([?？]|[吗么呢嘛])\s*[?？。]*\s*$")
_QUESTION_EN = re.compile(r"^\s*(what|which|who|whom|whose|when|where|why|how)\b", re.IGNORECASE)
"""A wh-word opens a question even without its question mark ("what are my tasks"); a sentence opening with "do",
"have" or "is" is a question only with one ("Do I have tasks?"), for it may be an order ("Have Li Si approve it.")."""
# A question that asks the assistant (or anyone) to do something is a request for action: "能帮我批一下吗？",
# "can you approve it?", "could Li Si sign off on my leave?", and "can you …" or "could Li Si …" after a clause or a
# sentence ("I'm ill, could you …?", "Away Friday. Could Wang Wu …?"; not "…, can I see …?", which asks to be told).
_REQUEST_CUE = re.compile(
    r"(帮我|帮忙|替我|给我|请你|麻烦|能不能|可不可以|能否|能|可以|要不要(?=帮|你|您|给|把|直接|先|就|现在|马上)|^\s*要不(?![要是]))|"
    r"^\s*(can|could|would|will|shall|may)\b|^\s*should (?:we|you|u)\b|\b(can|could|would|will) (you|u)\b|\b(please|plz|pls)\b|"
    r"^\s*(?:how about|what about|why don'?t (?:you|we))\s+(?!my\b|the\b|his\b|her\b|it\b)\w+ing\b|^\s*why don'?t (?:you|we)\b|"
    r"(?:[,，;；—–]|\.\s)\s*(can|could|would|will)\s+(?!i\b|we\b)\w|"
    r"\bhow\s+(?:do|can|should|would)\s+(?:i|we)\s+(?:get\b.*\bback|claim|apply|file|submit|request|take|book|start|put\s+in|"
    r"expense|get\s+(?:it\s+)?reimbursed)\b|(?:怎么|怎样|如何|咋)(?:才能)?(?:报|请假|请|申请|提交|提|发起|走流程|把钱要回来|拿回来)|"
    # a request wanted, then how to go about it ("想请3天丧假回去奔丧，这个怎么弄？"); something to get back ("I paid for
    # toner myself. Is that something I can get back?")
    r"(?:想|要|打算|准备)(?:请|报|申请|提)[^？?]{0,30}(?:怎么|怎样|如何|咋)(?:弄|办|操作|搞|走|处理)|"
    r"\b(?:can|could)\s+i\s+(?:get\s+(?:it|that|this|them|the\s+money)\s+back|claim\s+(?:it|that|this|them)|"
    r"expense\s+(?:it|that|this)|be\s+reimbursed|get\s+(?:it\s+|that\s+)?reimbursed)\b|"
    r"\bsomething\s+i\s+can\s+(?:claim|get\s+back|expense)\b|\b(?:claimable|reimbursable)\b",
    re.IGNORECASE,
)
_CAPABILITY = re.compile(
    r"(你|您)?(都|还)?(能|可以|会)(帮我|为我|替我|给我)?(做|干|办|帮)?(些|点)?(什么|啥|哪些)(事|忙|功能)?|有(什么|哪些|啥)功能|你是谁|"
    r"\bwhat (else )?(can|could) (you|u) (\w+ )?(do|help)\b|\bwhat do you do\b|\bwhat are you (able|for)\b|\bhow can you help\b|"
    r"\bwhat can i (ask|do) (here|with you)\b|\bwho are you\b|^\s*(/?help|帮助)\s*[?？!！]?\s*$",
    re.IGNORECASE,
)


_QUESTION_WORD_ZH = re.compile(
    r"(?<!没)(?<!没有)(?:什么|啥|多少)|哪(?!怕)|谁|(?<![那这前后头好没十的过再晚早近隔等多少])几(?![乎十百千万])|是否|有没有|是不是|怎么样"
)
_TOLD_ZH = re.compile(
    r"(?:让|要求|叫(?=他|她|对方))(?!我)[^，,。；;？?]*|(?:写清楚|写清|写明|注明|讲清楚|说清楚|交代清楚|补充说明)[^，,。；;？?]*"
)
"""What someone else is told to state ("让他写清楚见的是什么客户", "注明为什么要坐飞机"): no question of the person's."""
_NOT_YET_ZH = re.compile(
    r"[^，,。；;？?]*(?:(?:还没|尚未|没有?|未|不)(?:最后|最终|完全)?(?:定|确定|决定|想好|敲定|知道|清楚)|"
    r"(?:看|搞|弄|说|听|想)不(?:出来?|清楚?|懂|明白|通)|不明白)[^，,。；;？?]*")
"""A clause saying what is not settled yet ("哪天走还没最后定", "几号回来还不知道") or what one cannot make out ("看不出买的啥":
the eighty-sixth round's writer, "搞不清是哪个项目的"): it tells, it asks nothing."""
_NOTHING_ZH = re.compile(r"(?:什么|啥|谁|哪(?:个|里|儿)?)[\u4e00-\u9fff]{0,3}?(?:也|都)(?:不|没)")
"""A question word before 也不/都没 says "nothing", "nobody" ("啥事也不说", "什么票据都没附"): it asks nothing."""
_NO_QUESTION_ZH = re.compile(rf"(?:不管|无论|不论)[^，,。；;]*|{_TOLD_ZH.pattern}|{_NOT_YET_ZH.pattern}|{_NOTHING_ZH.pattern}")
"""Question words that ask nothing: 那几笔 / 这几个 / 好几个 / 前几天 / 他的几个 / 过几天 / 晚几天 / 最近几天 / 几十块
("those few", "several", "a few days ago", "his few", "in a few days", "a few days late", "tens of yuan"), 没什么 /
没啥 / 没多少 ("nothing much"), any of them in 不管…, 无论… ("whoever it is"), and in what someone else is told to
state ("退回去，让他写清楚见的是什么客户", "注明为什么要坐飞机"): the instruction asks the assistant nothing; nor in a clause
saying what is not settled yet (哪天走还没最后定)."""
_WANTS_ZH = re.compile(r"想|要|(?<!申)请(?!问)|看看|查|找|得(?=去|出差|请|报|跑)|需要|打算|准备|"
                       r"(?<![是对好])吧(?=[，,。；;！!\s]|$)")
"""A Chinese question often has no question mark: a question word makes one, unless the sentence also says what the
person wants done ("我想请假，先看看有哪些流程"; "…延了几天，张三那条待办直接转给赵六吧": a 吧 that asks it done)."""


_BY_THE_WAY = re.compile(
    r"[，,]\s*(?=顺便|另外|对了|还有(?=[，,]|我|你)|\b(?:also|and\s+also|by\s+the\s+way|btw|oh\s+and|plus)\b|"
    r"\band\s+(?:is|are|was|were|do|does|did|has|have|what|where|when|who|how|which)\b)", re.IGNORECASE)
"""Where a sentence turns to another thing ("改成3天重新提交吧，顺便告诉我还剩几天"): what follows is a sentence of its own."""


def sentences(text: str) -> list[str]:
    """The message's sentences as written, in order (their spaces and marks kept: joined, they are the message)."""
    return _sentences(text)


def _sentences(text: str) -> list[str]:
    """The message's sentences, each part after a turn to another thing on its own; a part before such a turn that
    asks with a question word takes the sentence's question mark ("我的请假到哪了，另外报销呢？": two questions)."""
    found = []
    for sentence in _SENTENCES.findall(text):
        parts = _BY_THE_WAY.split(sentence)
        mark = sentence.rstrip()[-1:] if sentence.rstrip()[-1:] in ("?", "？") else ""
        for part in parts[:-1]:
            asks = _QUESTION_WORD_ZH.search(_NO_QUESTION_ZH.sub("", part)) or _QUESTION_EN.match(part)
            found.append(part + mark if asks and mark else part)
        found.append(parts[-1])
    return found


def _asks_information(sentence: str) -> bool:
    """A sentence that is a question and asks nobody to do anything."""
    question = bool(_QUESTION_END.search(_TOLD_ZH.sub("", sentence)) or _QUESTION_EN.match(sentence)) or bool(
        _QUESTION_WORD_ZH.search(_NO_QUESTION_ZH.sub("", sentence)) and not _WANTS_ZH.search(sentence)
    )
    return question and not _REQUEST_CUE.search(_WHEN_DONE.sub(" ", sentence))


_WHEN_DONE = re.compile(
    r"[^，,。？?！!]*?(?:批|审批|报|approve|通过|处理|办)(?:完|好|下来|过)(?:了)?(?:以后|之后|后)|"
    r"\b(?:once|after|when)\s+(?:[\w'-]+\s+){0,4}?(?:is|are|gets?|has\s+been|have\s+been)\s+(?:approved|signed\s+off|"
    r"processed|paid|through)\b|(?:多久|多长时间|什么时候|啥时候|哪天|几时|何时|几天)才?(?=能|可以)(?:能|可以)",
    re.IGNORECASE,
)
"""A clause that says when something happens ("报销批完以后，钱多久能到账？", "once my claim is approved, when is the money
paid?"), and 能 or 可以 asked of when (多久能到账): a time, and no request of its own."""


def kind_of(text: str) -> Literal["information", "action", "capability"]:
    """What a message asks for: what the assistant can do; information, when every sentence of it is a question that
    asks nobody to do anything ("我有哪些待办？", "Is anything waiting for me?"); otherwise an action (a request,
    an instruction, a statement, or a question that asks for something to be done: "能帮我批一下吗？")."""
    if _CAPABILITY.search(text):
        return "capability"
    sentences = [s.strip() for s in _sentences(text) if s.strip() and not _COURTESY_ONLY.match(s)]
    asked = [i for i, s in enumerate(sentences) if _asks_information(s)]
    # an English statement before a question tells its context ("I filed a claim on Monday. Has Li Si approved it?");
    # one after it adds to what is asked ("…can I get paid back? Li Si approves")
    rest = [s for i, s in enumerate(sentences) if i not in asked and not (
        asked and i < asked[0] and _TELLS_EN.match(s) and not _REQUEST_CUE.search(s) and not _WANTS_EN.search(s))]
    return "information" if asked and not rest else "action"


_TELLS_EN = re.compile(
    r"^(?![^?]*\?)(?!\s*(?:please\s+)?(?:fix|change|make|file|submit|resubmit|send|approve|reject|decline|return|"
    r"withdraw|cancel|pull|copy|cc|remind|chase|nudge|urge|pass|hand|forward|set|put|book|claim|update|correct|add|"
    r"raise|lodge|log|turn|bounce|sign|ok|okay|go|do|let|have|get)\b)[A-Za-z][^\u3400-\u9fff]*$",
    re.IGNORECASE,
)
"""An English sentence that tells: no question, and no order (an order begins with its verb: "Fix it to 480 and
resubmit."); one with a request (`_REQUEST_CUE`, `_WANTS_EN`: "I'd like you to file it.") asks for something done."""
_WANTS_EN = re.compile(r"\b(?:I'?d\s+like|I\s+would\s+like|(?:I|and|so|also)\s+(?:really\s+|just\s+)?(?:want|need)|"
                       r"I'?m\s+asking|need\s+you\s+to)\b",
                       re.IGNORECASE)


_TELL_ME = re.compile(r"告诉我|跟我说|和我说|给我说|说一下|看看|看一下|查查|查一下|帮我查|"
                      r"\b(?:tell|show|remind)\s+me\b|\blet\s+me\s+know\b|\b(?:check|look\s+up|find\s+out)\b",
                      re.IGNORECASE)
"""Words that ask to be told something ("提交完顺便告诉我年假还剩几天", "and let me know what's left")."""


def asked_sentences(text: str) -> list[str]:
    """The sentences of a message that ask to be told something: its questions (`kind_of`'s), and those that ask to be
    told ("顺便告诉我还剩几天"), beside what else it asks done ("请两天年假。提交完告诉我年假还剩几天。")."""
    sentences = [s.strip() for s in _sentences(text) if s.strip() and not _COURTESY_ONLY.match(s)]
    return [s for s in sentences if _asks_information(s) or _TELL_ME.search(s)]


def questions_beside(text: str) -> list[str]:
    """The questions of a message that also asks for something done ("Claim 96 yuan for toner. And what happened to my
    taxi claim?"): what they name is of what they ask about, not of what is to be done; none for a message of questions
    only."""
    sentences = [s.strip() for s in _sentences(text) if s.strip() and not _COURTESY_ONLY.match(s)]
    asked = [s for s in sentences if _asks_information(s)]
    return asked if len(asked) < len(sentences) else []


_OF_MINE = re.compile(
    r"\bmy\b[^.?!,;]{0,30}\b(?:claims?|requests?|leave|trip|expenses?|application)\b|"
    r"我(?:的|那|这|上次|之前|前几天|上周)[^，,。？?；;]{0,12}(?:报销|申请|假|出差)", re.IGNORECASE)
"""Words of the person's own earlier request ("my taxi claim", 我那笔打车的报销, 我之前请的体检假)."""


def questions_of_mine(text: str) -> list[str]:
    """The questions beside what a message asks done that ask about the person's own earlier request ("…王五审批。
    还有，我之前请的体检假批了吗？", "Who turned down my Singapore claim? … file it again"): what they name is that
    request's, neither a value nor the reason of the new one."""
    return [q for q in questions_beside(text) if _OF_MINE.search(q)]


_ASKS_ZH = re.compile(r"要不要|需不需要|用不用|是不是")
_ASKS_EN = re.compile(r"^\s*(?:(?:who|whom|whose|what|which|where|when|how)\b|(?:is|are|was|were|do|does|did|has|have|had|"
                      r"can|could|should|will|would)\b)", re.IGNORECASE)
_ACTION_CUE = re.compile(r"帮|替我|给我|麻烦|请你|\b(?:please|pls|plz|(?:can|could|would|will)\s+(?:you|u)|possible|"
                         r"(?:would|do)\s+you\s+mind|(?:can|could|may)\s+i|(?:ok(?:ay)?|alright|all\s+right|fine)\s+"
                         r"(?:if|for))\b", re.IGNORECASE)


def tells_only(sentence: str) -> bool:
    """Whether a sentence only tells (no question, nothing asked done, nothing wanted): "我第一次当审批人，有点懵。",
    "I'm new here." A question after it is asked in its light."""
    return not (_asks_information(sentence) or _REQUEST_CUE.search(sentence) or _WANTS_ZH.search(sentence)
                or _WANTS_EN.search(sentence))


def asks_to_be_told(clause: str) -> bool:
    """A clause of a question that asks to be told something and nobody to do anything ("想问下报销是谁批", "要不要财务也看一下",
    "Has anyone looked at it yet", "Is Li Si the approver", "do I need to hand in anything"): it tells no why. Not one
    that asks something done ("能帮我报一下昨天打车的钱吗", "could you file the taxi to the client", "Is it OK if I take
    Friday off for the school play", "can I take Monday off to move"): the why may be in it."""
    if _ACTION_CUE.search(clause):
        return False
    return bool(_QUESTION_WORD_ZH.search(_NO_QUESTION_ZH.sub("", clause)) or _ASKS_ZH.search(clause)
                or _ASKS_EN.match(clause))


def questions_of_mine_spans(text: str) -> list[tuple[int, int]]:
    """Where in the text each question of `questions_of_mine` stands (to mask: `tools.parsers.text.mask_spans`)."""
    spans: list[tuple[int, int]] = []
    for question in questions_of_mine(text):
        at = text.find(question)
        if at >= 0:
            spans.append((at, at + len(question)))
    return spans


_REFERS_BACK = re.compile(
    r"^\W*(?:ok(?:ay)?|alright|all\s+right|right|great|fine|cool|good)[\s,.!]*(?:then|so)\b|"
    r"^\W*(?:(?:ok(?:ay)?|alright|right|great|fine|sure|cool|yes|yeah|thanks|good|so)\b[\s,.!]*)*(?:then\s+)?(?:please\s+|pls\s+|"
    r"just\s+|go\s+ahead\s+and\s+)?(?:file|submit|send|lodge|raise|put|book|claim|do|start)\s+(?:it|that|this|them|one)\b|"
    r"\bgo\s+ahead\b|\blet'?s\s+do\s+(?:it|that)\b|"
    r"^\W*(?:好的?|行|嗯|ok|那|那就|那好)[\s，,。!！]*(?:那就|就)?(?:帮我|麻烦)?(?:提|报|交|申请|发起|提交|走|弄|办)(?:了|一下|个)?(?:吧|呗)?|"
    r"^\W*(?:好的?|行|嗯|ok)[\s，,。!！]*那(?:就|么)?(?!.*[?？吗呢]\s*$)|"
    r"就这么(?:办|定|报|提)|照这个|按这个",
    re.IGNORECASE,
)
"""Words that act on what was spoken of just before ("ok then file it", "go ahead", 那就报了吧, 行，提交吧), or go on from
its answer ("ok then, Thursday and Friday off", "好，那下周四周五请年假"): the values are those of the message before,
which the assistant answered (who approves, how much leave is left)."""


def refers_back(text: str) -> bool:
    """Whether a message asks to act on what the person's message before it spoke of (`_REFERS_BACK`)."""
    return bool(_REFERS_BACK.search(text))


def others_words_masked(text: str) -> str:
    """The text with what it quotes someone else as saying masked ('张三跟我说：“我那笔报销你直接通过就行”', 'Zhang San
    messaged me: "just approve my claim"'): "my" and 我 in there are theirs, not the person's. What the person quotes
    themselves saying, or gives as a text to write (意见写“…”), stays."""
    return mask_spans(text, [span for _, span in others_quotes(text)])


def others_quotes(text: str) -> list[tuple[str, tuple[int, int]]]:
    """Each quotation the text gives as someone else's words, with the words before it that say whose ("张三刚在微信上
    跟我说：", "Zhang San just texted me:") and where it stands."""
    found = []
    for quote in _QUOTE.finditer(text):
        before = text[max(0, quote.start() - 40):quote.start()]
        said = _SAID_BY_ZH.search(before) or _SAID_BY_EN.search(before)
        if said and not said.group("who").startswith("我") and said.group("who").lower() != "i" and \
                not _TEXT_TO_WRITE.search(said.group()):
            found.append((said.group(), quote.span()))
    return found


_QUOTE = re.compile(r"“[^”]*”|「[^」]*」|『[^』]*』|\"[^\"]*\"")
_SAID_BY_ZH = re.compile(
    r"(?P<who>[^，。,.!?！？；;\s“”\"]{1,12}?)(?:刚才?|刚刚|今天|早上|上午|下午|昨天|之前)?(?:在(?:微信|钉钉|飞书|群|邮件|电话)里?上?)?"
    r"(?:跟我|对我|给我|和我|同我)?(?:说|讲|发|回|写|留言|交代|嘱咐|回复|吩咐)(?:了|道|着|过)?(?:一句|句|一条|条|消息)?\s*[:：，,]?\s*$")
_SAID_BY_EN = re.compile(
    r"\b(?P<who>[A-Za-z]+)(?:\s+[A-Za-z]+)?\s+(?:just\s+)?(?:said|says|wrote|writes|replied|messaged|texted|emailed|told|"
    r"sent|pinged|slacked)(?:\s+(?:to\s+)?me)?(?:\s+(?:this|back|on\s+\w+))?\s*[:,]?\s*$", re.IGNORECASE)
"""Who says what follows, right before a quotation: 张三刚在微信上跟我说：, "Zhang San just messaged me:"."""
_TEXT_TO_WRITE = re.compile(r"意见|理由|原因|备注|评语|批注|附言|内容|正文|邮件|\b(?:comment|note|reason|text|e-?mail|"
                            r"message\s+(?:says|should))\b", re.IGNORECASE)
"""A quotation given as a text to write (意见写“…”, 'the comment says "…"'): the person's."""