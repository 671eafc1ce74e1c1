"""The comment that goes with a decision or a send-back, as the person dictates it ("意见写：…", "comment: …") or says
it after the decision and whose request it is ("拒绝王五的15天假，时间太长"): what they say for the requester, less what
is for the assistant (another action, a question, what they keep for later, thanks) or exclaimed."""

from __future__ import annotations

import re

from tools.request import Request
from tools.taken_back import TAKEN_BACK
from tools.words import content_tokens
from tools.workflow.words import ASKED, CHINESE_SPACE, DECISION_ONLY, HELD, SENT_BACK, decision_in

_COMMENT = re.compile(
    r"(?<!把)(?:意见|理由|原因|备注|评语|批注|留言|附言|comment|reason|note|remark|message)\s*(?:就|要|请|麻烦|帮我)?\s*"
    # 并备注“…”, "add the comment '…'", 理由改成“…”
    r"(?:写成|写上|写(?!清|明)|填|是|为|就是|改成|改为|换成|:|：|(?=\s*[“「『\"'‘]))\s*[:：]?\s*"
    r"(?P<text>.+?)\s*[。.!！]?\s*$",
    re.IGNORECASE | re.DOTALL,
)


_LABEL = re.compile(r"(?<!把)(?:意见|理由|原因|备注|评语|批注|留言|附言|comment|reason|note|remark|message)", re.IGNORECASE)
_WITH_COMMENT = re.compile(
    r"\bwith\s+(?:the\s+|a\s+)?(?:comment|note|remark|message)\s+(?P<text>.+?)\s*[。.!！]?\s*$",
    re.IGNORECASE | re.DOTALL,
)


_SAY_COLON = re.compile(
    r"(?:\b(?:say|write|put|tell\s+(?:him|her|them))|(?<![的了])(?:写|说|回复|回))\s*[:：]\s*(?P<text>.+?)\s*[。.!！]?\s*$",
    re.IGNORECASE | re.DOTALL,
)
"""A comment dictated after a word of saying and a colon ("Say: have a good review", "write: receipts OK", 就说：注意安全)."""
_WRITE_QUOTE = re.compile(
    r"(?:\b(?:just\s+)?(?:write|put)|(?<![的了他她])写(?:上|成)?)\s*(?=[“「『\"])(?P<text>.+?)\s*[。.!！]?\s*$",
    re.IGNORECASE | re.DOTALL,
)
"""A comment dictated after a word of writing and a quote (就写“家长会要紧，去吧”, 'just write "fine by me"')."""


def dictated(text: str) -> re.Match[str] | None:
    """The comment a text dictates (`_COMMENT`, `_WITH_COMMENT`, `_SAY_COLON`, `_WRITE_QUOTE`); where the person takes it back and
    dictates another ("理由写“预算超了”，哦不，理由改成“…”", "comment: fine - no wait, comment: see me first"), the last one."""
    found = _COMMENT.search(text) or _WITH_COMMENT.search(text) or _SAY_COLON.search(text) or _WRITE_QUOTE.search(text)
    if found is None:
        return None
    for cue in TAKEN_BACK.finditer(text, found.start("text")):
        for label in _LABEL.finditer(text, cue.end()):
            again = _COMMENT.match(text, label.start())
            if again and again.group("text").strip():
                return dictated(text[label.start():]) or again
    return found


_COMMENT_ASKED = re.compile(r"(?:意见|备注|留言|comment|note)[^。.!！?？]*[?？]", re.IGNORECASE)
"""The assistant's question asking for a comment ("请问审批意见写什么？", "What comment goes with the decision?")."""
_WRITE_LEAD = re.compile(r"^\s*(?:那|那就|就|你)?(?:这么|这样)?(?:写|填)(?:上|成)?\s*[:：]?\s*|"
                         r"^\s*(?:just\s+)?(?:write|put|say)\s*[:：]?\s*", re.IGNORECASE)
_WRITE_TAIL = re.compile(r"\s*(?:就行了?|就好了?|就可以了?|即可|吧|\s+(?:is\s+fine|will\s+do|is\s+enough))[。.!！~～]*\s*$",
                         re.IGNORECASE)


_DECISION_FIRST = re.compile(r"^\s*([^，,;；。.!！]+)[，,;；]\s*(?=\S)")
_DECISION_ASKED = re.compile(r"还是驳回|\bor\s+reject\b", re.IGNORECASE)
"""The assistant's question asking for the decision too ("请问是批准还是驳回？", "Approve or reject?"): the answer's
first clause, if only a decision, is that, and the comment follows ("驳回，那周要交付"); asked for the comment alone,
"同意，早日康复" is all the comment."""
_NOTHING_BUT = re.compile(r"吧|了|啊|呀|的|\b(?:it|that|this|one|then)\b|\s", re.IGNORECASE)


def _answering(request: Request) -> str | None:
    """The comment the latest message gives in answer to the assistant's question asking for one: all it says
    ("同意", "走之前把工作交接好就行"), or what it says to write ("就写同意吧", "写同意就行", '就写"注意安全"'): "就行" after
    what to write is about the writing. None where the assistant asked no such thing, or the message asks back."""
    shown, texts = request.get("shown") or [], request["texts"]
    if not shown or len(texts) < 2 or not _COMMENT_ASKED.search(shown[-1]) or re.search(r"[?？]", texts[-1]) or \
            dictated(texts[-1]):
        return None  # "意见写同意", "oh, didn't know that. just put: approved": dictated as in any message
    said = _own_sentences(texts[-1].strip()).strip().rstrip("。.!！")
    if _DECISION_ASKED.search(shown[-1]):  # the decision asked too: "驳回" is it, and no comment
        if not _NOTHING_BUT.sub("", DECISION_ONLY.sub("", said)):
            return None
        decided = _DECISION_FIRST.match(said)
        if decided and decision_in(decided.group(1)) is not None and not _NOTHING_BUT.sub("", DECISION_ONLY.sub(
                "", decided.group(1))):
            said = said[decided.end():]
    lead = _WRITE_LEAD.match(said)
    if lead and lead.end():
        said = _WRITE_TAIL.sub("", said[lead.end():])
    return unquoted(said.strip()) or None


_LEADING_QUOTE = re.compile(r"^\s*(?:“([^”]+)”|「([^」]+)」|『([^』]+)』|\"([^\"]+)\"|‘([^’]+)’)")


def dictated_span(text: str) -> tuple[int, int] | None:
    """Where the comment a text dictates stands in it, as `stated_comment` reads it ("意见写“同意，下次提前报备”；王五…":
    the quote, not what follows); None when it dictates none."""
    match = dictated(text)
    if match is None or not match.group("text").strip():
        return None
    quoted = _LEADING_QUOTE.match(match.group("text"))  # "意见写“同意，…”；王五那笔…": the quote, whatever follows
    said = next(g for g in quoted.groups() if g is not None).strip() if quoted else unquoted(
        _own_sentences(match.group("text").strip()))
    at = text.find(said, match.start("text"))
    return (at, at + len(said)) if said and at >= 0 else None


def stated_comment(request: Request) -> str | None:
    """A decision comment the person spelled out ("意见写同意", "理由：…", "comment: …", "with the comment ok"), or
    gave when asked for one (`_answering`), or the words after the decision and whose request it is
    ("拒绝王五的15天假，时间太长，请拆分申请"), or None."""
    answered = _answering(request)
    if answered:
        return answered
    for text in reversed(request["texts"]):
        match = dictated(text)
        if match and match.group("text").strip():
            quoted = _QUOTED_SENTENCE.match(match.group("text"))
            if quoted:  # "…备注“按标准报销”？多谢", "add the comment 'X'? Many thanks, Zhao Liu": the quote is it
                return next(g for g in quoted.groups() if g is not None).strip()
            return unquoted(_own_sentences(match.group("text").strip()))
    texts = request["texts"]
    for index in reversed(range(len(texts))):
        before = texts[:index]  # the request named earlier, and no decision yet: this message is the one deciding
        named_before = any(_whose(t, request) for t in before) and all(decision_in(t) is None for t in before)
        after = _after_the_decision(texts[index], request, named_before=named_before)
        if after:  # "…, receipts check out. Leave Wang Wu's for now.": the sentence keeping one out is not in it
            return _own_sentences(_LABEL_TYPED.sub("", after, count=1))
    return _before_the_decision(texts[-1], request) if texts else None


_LABEL_TYPED = re.compile(r"^\s*(?:[A-Za-z]{2,12}|[\u4e00-\u9fff]{1,4})\s*[:：]\s*(?=\S)")
"""A label however typed before a comment after the decision ("approve it, coment: safe travels"): not the comment."""


_SENTENCE_END = re.compile(r"[。！!？?]+\s*|\.\s+")
_QUOTED_WHOLE = re.compile(r"^\s*(?:“(?P<a>[^”]+)”|「(?P<b>[^」]+)」|『(?P<c>[^』]+)』|\"(?P<d>[^\"]+)\"|‘(?P<e>[^’]+)’|"
                           r"'(?P<f>[^']+)')\s*[。.!！]?\s*$")


def unquoted(comment: str) -> str:
    """A comment written whole between quotes, without them (意见写“材料齐全”, 'comment: "receipts attached"'): the
    quotes mark what to write, and are not written."""
    whole = _QUOTED_WHOLE.match(comment)
    return next(g for g in whole.groups() if g is not None).strip() if whole else comment


def _own_sentences(comment: str) -> str:
    """A dictated comment up to the first sentence after it that asks something, does something else or decides
    again ("意见写：路上注意安全。另外帮我查下王五的报销" → 路上注意安全): those are for the assistant, not the requester."""
    ends = [m.end() for m in _SENTENCE_END.finditer(comment)]
    for start, end in zip(ends, [*ends[1:], len(comment)] if ends else [], strict=True):
        sentence = comment[start:end].strip()
        if sentence and (ASKED.search(sentence) or _ANOTHER_ACTION.search(sentence) or _ALSO.match(sentence)
                         or decision_in(sentence) is not None or _MY_OWN_LATER.search(sentence) or _KEPT_OUT.search(sentence)):
            return _without_thanks(comment[:start].strip()).rstrip("。.!！") or comment
    for clause in _CLAUSE_AFTER.finditer(comment):  # "意见就写同意，别的我回头再看": what they do later is not in it
        if _MY_OWN_LATER.search(clause["clause"]) or _KEPT_OUT.search(clause["clause"]):
            return _without_thanks(comment[:clause.start()].strip()) or comment
    return _without_thanks(comment) or comment


_CLAUSE_AFTER = re.compile(r"[，,；;]\s*(?P<clause>[^，,；;。.!！？?]+)")
"""A clause after a comma in a dictated comment."""


def _without_thanks(comment: str) -> str:
    """The comment without the thanks at its end, however many (…，麻烦了。谢谢啦！)."""
    while (shorter := _THANKS_AT_END.sub("", comment)) != comment:
        comment = shorter
    return comment


_THANKS_AT_END = re.compile(r"[，,。.!！;；\s]+(?:谢谢|多谢|谢了|辛苦了?|麻烦了|有劳了?|\b(?:many\s+)?(?:thanks|thank\s+you|thx|"
                            r"cheers|ta)(?:\s+(?:a\s+lot|so\s+much))?)[啦了哈呀啊哦~～]*[。.!！\s]*$", re.IGNORECASE)
"""Thanks after a dictated comment (意见写：材料齐全，谢谢): to the assistant, not the requester."""
_MY_OWN_LATER = re.compile(
    r"^\s*(?:I'?ll\b|I\s+will\b|I'?m\s+going\s+to\b|let\s+me\b|剩下|其他|其余|我).*(?:rest|others?|tomorrow|later|next\s+week|剩下|其他|其余|明天|"
    r"回头|晚点|下周)|我(?:自己)?(?:再看|再说|来看|回头|晚点|[明后]天再|下周再)|"
    r"\b(?:I'?ll|I\s+will)\s+(?:look|check|deal|handle|see|go\s+through|get\s+to)\b.*\b(?:myself|later|tomorrow)\b",
    re.IGNORECASE)
"""A sentence after a dictated comment about what the speaker does later ("I'll go through the rest tomorrow", 剩下的
我明天再看, 李四那个三天的我再看看, "Li Si's I'll look at myself"), or that keeps something out of what is decided
("Don't touch the leave request.", 请假那个先别动): not for the requester."""
_KEPT_OUT = re.compile(r"^\s*(?:please\s+)?(?:don'?t|do\s+not)\s+(?:touch|approve|reject|decide|do)\b|"
                       r"^\s*(?:leave|keep)\b.*\b(?:alone|out|aside|for\s+now)\b|^\s*hold\s+off\b|^\s*skip\b|"
                       r"^\s*(?:just\s+)?leave\s+(?:it|that|this|the\s+(?:\w+\s+)?one|that\s+one|this\s+one)\b|"
                       r"别动|不要动|先不(?:要)?(?:动|批|管)|"
                       r"先别(?:动|批|管)|先放着|先放一放|\bcan\s+wait\b|\b(?:for|till|until)\s+later\b", re.IGNORECASE)


_ALSO = re.compile(r"\s*(?:另外|还有|顺便|对了|\b(?:also|and also|oh and|by the way|btw|plus)\b)", re.IGNORECASE)
"""Words that begin another matter after a comment ("另外…", "Also, …")."""
_QUOTED_SENTENCE = re.compile(r"^\s*(?:“([^”]+)”|「([^」]+)」|『([^』]+)』|\"([^\"]+)\"|‘([^’]+)’|'([^']+)')"
                              rf"(?:\s*(?:[。.!！？?]|$)|[\s,，;；]*(?={_ALSO.pattern})|"
                              r"\s*(?:[,，;；]|\s[—–-]+\s|——|—)\s*(?:and\b|then\b|然后|再|并且?|还有)|"
                              r"\s*(?:就行了?|就好了?|即可|就可以了?)\s*(?:[。.!！]|$))", re.IGNORECASE)
"""A comment between quotes that ends its sentence, or where another matter begins: what follows (thanks, a
signature, "另外…", " — and have Wang Wu handle my approvals") is not in it."""


def _before_the_decision(text: str, request: Request) -> str | None:
    """The comment a person writes between the clause that says whose request and the one that decides it ("张三那个
    五天年假的话，余额我早上已经核过了，直接通过就行"; "Zhang San's leave - I checked his balance this morning, just approve
    it"): what they say there, when it says something and asks for nothing."""
    clauses = [c.strip() for c in _CLAUSE_END.split(text) if c and c.strip()]
    whose = next((i for i, c in enumerate(clauses) if _whose(c, request)), None)
    decides = next((i for i, c in enumerate(clauses) if whose is not None and i > whose and decision_in(c) is not None),
                   None)
    if whose is None or decides is None or decides - whose < 2:
        return None
    between = [c for c in clauses[whose + 1:decides] if not ASKED.search(c) and not _ANOTHER_ACTION.search(c)]
    said = "，".join(between) if any(re.search(r"[\u3400-\u9fff]", c) for c in between) else ", ".join(between)
    return said if between and content_tokens(DECISION_ONLY.sub(" ", said)) else None


def _whose(text: str, request: Request) -> bool:
    """Whether `text` names whose request it is: a person of the request's, in any case ("wang wu's leave", typed in a
    hurry: the eighty-eighth round's run), a task id, or the one to-do by a word that points at it (这趟, 这笔, "this
    one": "这趟先不批了 年底预算紧 明年再说" decides the trip just spoken of)."""
    names = [n for person in request["names"].values() for n in (person.get("name"), person.get("alias")) if n]
    folded = text.casefold()
    return bool(_TASK_ID.search(text) or _THIS_ONE.search(text) or any(n.casefold() in folded for n in names))


_THIS_ONE = re.compile(r"^\s*(?:这|那)(?:趟|笔|单|张|份|次)(?:出差|报销|假|申请)?|"
                       r"^\s*(?:this|that)\s+(?:one|trip|claim|leave|request)\b|"
                       r"^\s*(?:please\s+)?(?:reject|decline|deny|approve|ok|okay)\s+(?:it|this|that)(?:\s+one)?\s*$",
                       re.IGNORECASE)
"""A clause that opens on a word pointing at the one to-do (这趟, 这笔报销, "this one", "that claim"), or decides it by a
pronoun ("reject it, no offsite budget left this year": the eighty-eighth round's run asked its comment)."""


_CLAUSE_END = re.compile(r"\s*(?:[，;；:：。!！]|,(?!\d{3}(?!\d))|(?<!\d),)\s*|\.\s+|\s*(?:——|—|–)\s*|\s+-+\s+|"
                         + CHINESE_SPACE)
"""Where a clause ends: a comma but for one in a figure (5,600), a dash too ("驳回——预算超了"), and a space between
Chinese words, where a message typed in a hurry leaves its commas out ("赵六那趟 不批了 预算没了")."""
_ASKS = re.compile(r"[?？]|[吗呢嘛]\s*$|啥|什么|多少|几(?:个|件|笔|条|天)|哪(?:些|个|几|天|里|儿)|"
                   r"\b(?:what|which|how\s+many|anything\s+else|any\s+(?:more|others?))\b", re.IGNORECASE)
"""A clause that asks something (还有啥待办, "anything else waiting"), with or without its question mark."""
_ANY_AT_ALL = re.compile(r"(?:啥|什么|哪)\S*?(?:都|也)")
"""A question word that means "any" ("啥事也不说", "什么票据都没附"): the clause tells, it does not ask."""
_TOLD_TO = re.compile(r"让|叫|请|要(?:他|她)|写清|说明|注明|补充|需要|必须|得说|\b(?:ask|tell|have|get)\s+(?:him|her|them)\b|"
                      r"\b(?:needs?|has|have|ought)\s+to\b|\b(?:must|should)\b", re.IGNORECASE)
"""Words that pass a question on to the requester ("让她写清楚见哪个客户", "he needs to say which client it is"): the
comment asks it of them."""


def _until_asked(said: str) -> str:
    """What follows a decision up to the first clause that asks something ("没问题 还有啥待办": 没问题): a question is
    the person's to the assistant, not the requester's to read."""
    start = 0
    for end in [*_CLAUSE_END.finditer(said), None]:
        stop = end.start() if end else len(said)
        clause = said[start:stop]
        if _ASKS.search(clause) and not _TOLD_TO.search(clause) and not _ANY_AT_ALL.search(clause):
            return said[:start].rstrip(" ，,;；:：。.!！-—–")
        start = end.end() if end else stop
    return said
_ANOTHER_ACTION = re.compile(r"邮件|提醒|催|通知|发给|\be-?mail|\bremind|\bsend\b|\bnotify|\bthen\b|然后|再(?:发|给|抄|转|通知)",
                             re.IGNORECASE)
"""Words of another action after a decision (", then e-mail Li Si", 然后发邮件, 再发给王五); not 再提 (the requester's, a
comment: "让他重开一张再提")."""
_TASK_ID = re.compile(r"\btask_\d+\b")


_COURTESY = re.compile(r"^\s*(?:please|pls|thanks|thank\s+you|谢谢|麻烦了|辛苦了)\s*[.,!。，！]?\s*", re.IGNORECASE)
"""Courtesy at the head of what follows a decision ("Reject it, please. The budget is frozen"): no comment."""
_TELL_THEM = re.compile(r"^\s*(?:(?:跟|和|同|给)(?:他|她|他们)说(?:一声|一下)?|告诉(?:他|她|他们)(?:一声|一下)?|"
                        r"\b(?:tell|let)\s+(?:him|her|them)(?:\s+know)?(?:\s+that)?)\s*[:：，,]?\s*", re.IGNORECASE)
"""Words that pass what follows on to the requester ("跟他说…", "tell him …"): the comment is what follows."""


_BACK_TO_DO = re.compile(r"(?:打|发|退)回(?:去|来)?(?:给他|给她)?[，,\s]*(?P<what>(?:让|叫|请)(?:他|她|对方).+)$")
"""A send-back and what the requester is to do, in one clause ("打回去让他把原因写清楚")."""
_BACK_TO_DO_EN = re.compile(r"\bback\b(?:\s+to\s+(?:him|her|them))?[^.;!?]*?\b(?:and|so)\s+(?:tell|ask|have|get)\s+"
                            r"(?:him|her|them)\s+to\s+(?P<what>[^.;!?]+)", re.IGNORECASE)
"""The same in English ("Send Zhang San's leave back to him and tell him to add the dates": add the dates)."""


def _after_the_decision(text: str, request: Request, *, named_before: bool = False) -> str | None:
    """The comment a person writes after the clause that decides, in or after the one that says whose request ("Reject
    Zhao Liu's request, we have the audit that week"; "赵六那个假，我这边同意，让他把周报交给王五"), or in a message after
    one that said it and decided nothing (`named_before`: "驳回，那周要交付" answering "approve or reject?"): the
    rest of the message, when it says more than a decision and asks for nothing else (", then e-mail Li Si" is another
    action, not a comment)."""
    start, whose, since = 0, named_before, 0  # since: where the clauses after the one saying whose begin
    for end in [*_CLAUSE_END.finditer(text), None]:
        stop = end.start() if end else len(text)
        begins = start
        clause, after, start = text[start:stop], text[end.end():] if end else "", end.end() if end else stop
        if not whose and _whose(clause, request):
            whose, since = True, start
        if (decision_in(clause) is None and not SENT_BACK.search(clause)) or not whose:
            continue
        if _decided_again(after, decision_in(clause)):
            continue  # "approve一下……等下，先别批，退回给他吧，让他…": what they decide last is the one
        told = _BACK_TO_DO.search(clause) or _BACK_TO_DO_EN.search(clause)  # "先打回去让他把原因写清楚": in the clause
        if told is None and end is None:
            return None
        if told is None:
            said = after
        else:
            grounds = _stated(text[since:begins]) if since < begins else ""  # "金额太大了，退回去让他…"
            what = f"{grounds}，{told.group('what')}" if grounds else told.group("what")
            said = f"{what}，{after}" if after.strip() else what
        rest = _until_asked(_TELL_THEM.sub("", _COURTESY.sub("", said))).strip().rstrip("。.!！，,")
        if rest and not _ANOTHER_ACTION.search(rest) and not content_tokens(DECISION_ONLY.sub(" ", rest)) and (
                not _whose(clause, request) and content_tokens(DECISION_ONLY.sub(" ", clause))):
            return clause.strip()  # "…，路线没问题，帮他过了吧": the clause that said more than the decision said after it
        if not rest or _ANOTHER_ACTION.search(rest) or _KEPT_OUT.match(rest) or not content_tokens(
                DECISION_ONLY.sub(" ", rest)):
            return None  # "…. Leave that one, I'll deal with it on Monday": what they keep out is no comment
        return rest
    return None


def _decided_again(after: str, decided: bool | None) -> bool:
    """Whether a clause of `after` sends the request back or decides otherwise than `decided` (the person changing their
    mind: "approve it… wait, don't, send it back"); "批了，没问题" decides the same twice."""
    clauses = [c for c in _CLAUSE_END.split(after) if c and c.strip()]
    return any(SENT_BACK.search(c) or decision_in(c) not in (None, decided) for c in clauses)


_SAID_CLAUSE = re.compile(r"[^，,;；。!！?？]+[，,;；。!！?？]*")


def _stated(grounds: str) -> str:
    """The grounds given before a send-back, less what is exclaimed or asked ("每次都这样！", "到底是哪天？") and what
    decides ("先别批"): the approver's feelings, questions and second thoughts are not the requester's to read."""
    kept = [c.group().strip(" ，,;；。") for c in _SAID_CLAUSE.finditer(grounds)
            if not re.search(r"[!！?？]", c.group()) and decision_in(c.group()) is None and not HELD.search(c.group())]
    return "，".join(c for c in kept if c)
