"""The workflow's own words rules: who is named as approver, approve or reject, and the decision comment.

These read the person's request (`tools.request.Request`) for the values of the workflow's tools; they never decide
whether a write was asked for (a value that is not found makes the graph ask the person).
"""

from __future__ import annotations

import re

from tools.message_kind import others_words_masked
from tools.patterns import compiled
from tools.request import Request
from tools.taken_back import last_said
from tools.words import content_tokens

REQUEST_NOUN = (
    r"(?:报销单?|请假条?|假条|(?:年|病|事|婚|丧|产|陪产)?假|调休|出差申请|出差|申请单?|审批单?|单子|"
    r"(?:expense\s+)?claims?|expenses?|leave(?:\s+request)?|time\s+off|(?:business\s+)?trip|requests?|application)"
)
"""Words that name a request (报销, 请假, "claim", "trip")."""
ASKED = re.compile(r"[吗嘛么没][？?]?\s*$|[？?]\s*$|批没批|有没有|是不是|\b(?:has|have|did|was|is)\b.*\?", re.IGNORECASE)
"""A message put as a question ("张三的报销批了吗", "was it approved?"): a decision it seems to state is asked about."""
URGE_WORDS = re.compile(r"催|\b(?:nudge|chase|hurry|remind|poke)\w*|推(?:一下|一推|动一下)|\bpush\s*(?:一下|him\b|her\b|them\b)|"
                        r"\bgive\s+(?:him|her|them|it)\s+a\s+(?:push|nudge|poke)\b", re.IGNORECASE)
"""Words that remind an approver: 催, "nudge", "chase", push 一下, "give him a push"."""
WITHDRAW = re.compile(
    r"撤回|撤销|撤掉|撤了|取消|不请了|不要了|不报了|不去了|作废|算了|\b(?:withdraw\w*|cancel\w*|scrap|drop|call\s+off|"
    r"pull|retract|take\s+(?:[\w'’-]+\s+){0,3}?back|never\s*mind|forget)\b",
    re.IGNORECASE,
)
"""Words that take a request back: 撤回, 取消, 不请了, "withdraw", "cancel", "scrap", "take it back"."""
OF_OWNER = (r"(?:(?:去|到|回)[^\s，。,.!?！？的]{1,6}?)?\s*"
            r"(?:的|那个|这个|那张|这张|那笔|这笔|那份|这份|那趟|这趟|那次|这次|又|也|'s|’s)\s*"
            r"(?:(?:[\w¥$-][\w.,¥$-]*\s+){1,2}|[^\s，。,.!?！？的]{1,8}的|[^\s，。,.!?！？的]{1,4}?)?")
"""What joins a person to their request: 的, 那个, "'s", with a few words between ("那个5天的年假", "的差旅报销", "Li Si's big
claim", "Zhao Liu's 4-day leave", "Li Si's team dinner claim", "Zhang San's 7,800 claim"), and where they go before it
("去深圳那个出差", "回老家那趟"); or 又 / 也 before it (赵六又请假了)."""


TURNED_DOWN = (r"\bturn(?:ed|ing)?\s+(?:(?:it|that|this|them|those|these)(?:\s+ones?)?\s+|\w+'s\s+\w+\s+)?down\b|"
               r"\bshoot\s+(?:it|that|this)(?:\s+one)?\s+down\b|\bnix\b")
"""English words that turn a request down ("turn that one down", "shoot it down", "nix it"): read by the decision
reader and by the return-or-reject reader alike."""
_REJECT = re.compile(
    r"驳回|拒绝|拒了|回绝|不同意|不批|别批|(?<![拿说])不准|不通过|不行|不予|打回|退回|否决|否掉|毙(?:了|掉|吧)|枪毙|"
    r"(?:不能|不可以|不好|不太能|没办法|没法|无法|难以)(?:给(?:你|他|她|它)?)?(?:通过|同意|批准|批|放行)|"
    r"(?:通过|同意|批准|批)不了|"
    rf"\breject|\bdeclin|\bden(y|ied)\b|\brefus|{TURNED_DOWN}|\bthumbs[- ]down\b|\bsay no\b|"
    r"\bno[- ]go\b|\bveto|\b(don'?t|do not|not|never|won'?t|can'?t|cannot|unable to) "
    r"(approve|accept|allow|ok|sign|support|agree|endorse|back)",
    re.IGNORECASE,
)
_HELD = re.compile(r"(?:先|暂时|暂且|还)(?:别|不要|先别)(?:批|通过|审批|同意|驳回|拒绝)|"
                   r"\b(?:don'?t|do\s+not)\s+(?:approve|sign|decide|reject|ok)(?:\s+[\w'’-]+){0,4}?"
                   r"\s+yet\b", re.IGNORECASE)
"""Words that hold a decision for now (先别批, "don't approve it yet"): neither approve nor reject."""
_APPROVE = re.compile(
    r"放行|放(?:他|她|它)过|(?:让|放)(?:他|她|它)过(?:去)?(?:吧|了)|签了(?:吧)?|签字|"
    r"批准|同意|批了|(?<!审)批(一下|下|掉|个|吧|了|准)|(?<![标水精基])准了|准假|准许|通过|核准|可以批|没问题|"
    r"\bapprov(?!als?\b)|\b(?:my|our|full)\s+approval\b|\baccept|\bsign(ed|ing)?(?: (?:it|this|that|them))? off\b|"
    r"\bok(ay)?\b|\bgo ahead\b|\bfine (?:by|with) me\b|\blooks? good\b|\blgtm\b|"
    r"\bgreen[- ]?light|\bgrant|\ballow|"
    r"\blet (him|her|them) go\b|\b(?:let|wave|push) (?:it|that|this|them|(?:\w+ )?\w+'s \w+)(?: one)? through\b|\bthumbs[- ]up\b|"
    r"给(?:他|她|它)?过(?:了|吧|一下)?(?![去来])|(?:都|就|直接|可以|能|帮我|帮忙|给我)过(?:了|吧|掉|一下)?(?![去来年节期头日程])|"
    r"(?:^|[，,。；;\s])过(?:吧|了吧)(?=$|[，,。！!；;\s])",
    re.IGNORECASE,
)


REQUEST_NOUNS = (
    r"审批|申请|请假|休假|假期|报销|出差|流程|这个|这张|这笔|这趟|的|假|单|"
    r"\b(?:the|this|that|his|her|their|request|requests|application|leave|time off|day off|days off|trip|"
    r"business trip|travel|expense|expenses|claim|claims)\b"
)
"""Words that name the request being decided (出差, 请假, "the leave", "this claim"): a comment says nothing by naming it."""
DECISION_ONLY = re.compile(
    rf"(?:{_REJECT.pattern}|{_APPROVE.pattern})[a-z]*|"
    r"可以|好的|好|行|准|批|\b(fine|good|sure|yes|no|ok(ay)?|agreed?|approved?|rejected?|with|by|me|him|her|them)\b|"
    + REQUEST_NOUNS,
    re.IGNORECASE,
)
"""Words that only say the decision and the request it is about (同意, 批了, "approved", "fine with me", 出差批了,
"trip approved"): a comment made of them alone says nothing more than the decision it goes with."""


_DECIDES = re.compile(f"{_REJECT.pattern}|{_APPROVE.pattern}", re.IGNORECASE)


def decision_in(text: str) -> bool | None:
    """Approve (True) or reject (False) as the words say it, the last said where one is taken back for another
    ("approve it... actually no, reject"); None when they say neither, or both. What they quote someone else as saying
    is not theirs ('张三跟我说：“你直接通过就行”', `others_words_masked`)."""
    text = last_said(_HELD.sub(" ", others_words_masked(text)), _DECIDES)
    rejects = bool(_REJECT.search(text))
    approves = bool(_APPROVE.search(_REJECT.sub(" ", text)))
    if rejects == approves:
        return None
    return approves


def stated_decision(request: Request) -> bool | None:
    """The decision the person's request states: in its latest message that states one."""
    for text in reversed(request["texts"]):
        decision = decision_in(text)
        if decision is not None:
            return decision
    return None


_COMMENT = re.compile(
    r"(?<!把)(?:意见|理由|原因|备注|评语|批注|留言|附言|comment|reason|note|remark|message)\s*(?:就|要|请|麻烦|帮我)?\s*"
    r"(?:写成|写上|写(?!清|明)|填|是|为|就是|:|：|(?=\s*[“「『\"'‘]))\s*[:：]?\s*"  # 并备注“…”, "add the comment '…'"
    r"(?P<text>.+?)\s*[。.!！]?\s*$",
    re.IGNORECASE | re.DOTALL,
)


_WITH_COMMENT = re.compile(
    r"\bwith\s+(?:the\s+|a\s+)?(?:comment|note|remark|message)\s+(?P<text>.+?)\s*[。.!！]?\s*$",
    re.IGNORECASE | re.DOTALL,
)


def stated_comment(request: Request) -> str | None:
    """A decision comment the person spelled out ("意见写同意", "理由：…", "comment: …", "with the comment ok"), or
    the words after the decision and whose request it is ("拒绝王五的15天假，时间太长，请拆分申请"), or None."""
    for text in reversed(request["texts"]):
        match = _COMMENT.search(text) or _WITH_COMMENT.search(text)
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
            return _own_sentences(after)
    return _before_the_decision(texts[-1], request) if texts else None


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
                       r"^\s*(?:leave|keep)\b.*\b(?:alone|out|aside|for\s+now)\b|^\s*hold\s+off\b|^\s*skip\b|别动|不要动|先不(?:要)?(?:动|批|管)|"
                       r"先别(?:动|批|管)|先放着|先放一放|\bcan\s+wait\b|\b(?:for|till|until)\s+later\b", re.IGNORECASE)


_ALSO = re.compile(r"\s*(?:另外|还有|顺便|对了|\b(?:also|and also|oh and|by the way|btw|plus)\b)", re.IGNORECASE)
"""Words that begin another matter after a comment ("另外…", "Also, …")."""
_QUOTED_SENTENCE = re.compile(r"^\s*(?:“([^”]+)”|「([^」]+)」|『([^』]+)』|\"([^\"]+)\"|‘([^’]+)’|'([^']+)')"
                              rf"(?:\s*(?:[。.!！？?]|$)|[\s,，;；]*(?={_ALSO.pattern}))", re.IGNORECASE)
"""A comment between quotes that ends its sentence, or where another matter begins: what follows (thanks, a
signature, "另外…") is not in it."""


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
    """Whether `text` names whose request it is: a person of the request's or a task id."""
    names = [n for person in request["names"].values() for n in (person.get("name"), person.get("alias")) if n]
    return bool(_TASK_ID.search(text) or any(n in text for n in names))


_CLAUSE_END = re.compile(r"\s*(?:[，;；:：。!！]|,(?!\d{3}(?!\d))|(?<!\d),)\s*|\.\s+|\s*(?:——|—|–)\s*|\s+-+\s+")
"""Where a clause ends: a comma but for one in a figure (5,600), a dash too ("驳回——预算超了")."""
_ANOTHER_ACTION = re.compile(r"邮件|提醒|催|通知|发给|\be-?mail|\bremind|\bsend\b|\bnotify|\bthen\b|然后|再(?:发|给|抄|转|通知)",
                             re.IGNORECASE)
"""Words of another action after a decision (", then e-mail Li Si", 然后发邮件, 再发给王五); not 再提 (the requester's, a
comment: "让他重开一张再提")."""
_TASK_ID = re.compile(r"\btask_\d+\b")
SENT_BACK = re.compile(
    r"退回|退给|退还给|发回给|返回给|返给|(?:打|发)回(?:去|来|给他|给她)?[^。！!?？]{0,12}?(?:改|重做|重新|重提|再提|补|"
    r"(?:写|说|讲|交代)(?:清楚|明白|清)|写明|注明)|(?:打|发)回(?:去|来)?(?:给他|给她)?[，,\s]*(?:让|叫|请)(?:他|她|对方)|"
    r"\b(?:send|sent|sending|kick|bounce|hand)(?:\s+[\w'’-]+){0,4}?\s+back\b|"
    r"\breturn(?:s|ing)?\s+(?:it|this|that|them)\b",
    re.IGNORECASE,
)
"""Words that send a request back to its requester to change: 退回, 退给, 打回去让他改, 打回去让他把原因写清楚, "send it
back", "return it" (打回去 alone may be a rejection: "这个出差打回去，预算太高")."""


_COURTESY = re.compile(r"^\s*(?:please|pls|thanks|thank\s+you|谢谢|麻烦了|辛苦了)\s*[.,!。，！]?\s*", re.IGNORECASE)
"""Courtesy at the head of what follows a decision ("Reject it, please. The budget is frozen"): no comment."""
_TELL_THEM = re.compile(r"^\s*(?:(?:跟|和|同|给)(?:他|她|他们)说(?:一声|一下)?|告诉(?:他|她|他们)(?:一声|一下)?|"
                        r"\b(?:tell|let)\s+(?:him|her|them)(?:\s+know)?(?:\s+that)?)\s*[:：，,]?\s*", re.IGNORECASE)
"""Words that pass what follows on to the requester ("跟他说…", "tell him …"): the comment is what follows."""


_BACK_TO_DO = re.compile(r"(?:打|发|退)回(?:去|来)?(?:给他|给她)?[，,\s]*(?P<what>(?:让|叫|请)(?:他|她|对方).+)$")
"""A send-back and what the requester is to do, in one clause ("打回去让他把原因写清楚")."""


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
        told = _BACK_TO_DO.search(clause)  # "先打回去让他把原因写清楚": what they are to do is in the clause itself
        if told is None and end is None:
            return None
        if told is None:
            said = after
        else:
            grounds = _stated(text[since:begins]) if since < begins else ""  # "金额太大了，退回去让他…"
            what = f"{grounds}，{told.group('what')}" if grounds else told.group("what")
            said = f"{what}，{after}" if after.strip() else what
        rest = _TELL_THEM.sub("", _COURTESY.sub("", said)).strip().rstrip("。.!！，,")
        if not rest or _ANOTHER_ACTION.search(rest) or not content_tokens(DECISION_ONLY.sub(" ", rest)):
            return None
        return rest
    return None


_SAID_CLAUSE = re.compile(r"[^，,;；。!！?？]+[，,;；。!！?？]*")


def _stated(grounds: str) -> str:
    """The grounds given before a send-back, less what is exclaimed or asked ("每次都这样！", "到底是哪天？"): the
    approver's feelings and questions are not the requester's to read."""
    kept = [c.group().strip(" ，,;；。") for c in _SAID_CLAUSE.finditer(grounds) if not re.search(r"[!！?？]", c.group())]
    return "，".join(c for c in kept if c)


def stated_days(request: Request) -> float | None:
    """The one day count the request states, or None when it states none or several."""
    return request["days"][0] if len(request["days"]) == 1 else None


_ASKS_FOR = (r"(?:那边|那儿|这边)?(?:好像|似乎|刚刚?|今天|昨天)?(?:要|想|又|也)?(?:(?:请|申请|提交?|交|报|发)了?"
             r"[^\s，。,.!?！？]{0,6}?" + REQUEST_NOUN + r"|报销|请假)")
"""What follows a name that asks for a request of their own: 王五请两天假, 赵六申请了出差, 李四报销, 张三那边好像又交了个请假
(the requester)."""


def anothers_request(text: str, name: str) -> str | None:
    """The words in which the text speaks of `name`'s request ("李四的报销", "张三那个5天的年假", "Li Si's claim",
    "王五请两天假搬家那个"; not "交给李四的那个报销", sent to them), or None."""
    who = re.escape(name)  # 帮王五请假 asks to file one for 王五, which no one does but 王五 (the identity guard says so)
    # 提交给李四的那个申请 is one sent to 李四, not 李四's
    found = compiled(rf"(?<!给){who}{OF_OWNER}{REQUEST_NOUN}|(?<![帮替给为代]){who}{_ASKS_FOR}", re.IGNORECASE).search(text)
    return found.group() if found else None


SELF_DECIDE = re.compile(
    r"\b(?:approve|sign\s+off\s+on|okay|ok)\s+my\b|\bapprove\b[^.?!]{0,40}\byourself\b|"
    r"(?:批准?|通过|审批)(?:了|掉|一下)?\s*我(?:自己)?的|我(?:自己)?的[^，。,;；]{0,10}(?:你|帮我)?(?:直接|自己)?(?:批|通过)(?:了|一下|掉)|"
    r"我(?:的|那|这)[^。！!？?]{0,40}你(?:就|直接|帮我|给我|自己|替我)*(?:点个?|给个?)?(?:批|通过)(?:了|掉|一下|得了|算了|吧)",
    re.IGNORECASE,
)
"""Words that ask the assistant to approve the person's own request ("just approve my toner claim yourself",
"把我的报销直接批了", "我那笔报销…你直接帮我通过得了")."""
_MINE = re.compile(r"我(?:自己)?(?:提|交|发|申请|报|请)了?的|我(?:自己)?的|我(?:自己)?(?:那|这)(?:个|条|笔|份|张)?|\bmy\b",
                   re.IGNORECASE)
_MYSELF = re.compile(r"我自己(?:来)?(?:点|批|审|通过)|自己点个?(?:同意|通过)|\b(?:approve|sign\s+off\s+on)\s+(?:it|my\s+\w+)\s+"
                     r"myself\b", re.IGNORECASE)


def asks_own_approval(text: str, kind: str) -> bool:
    """Whether a message asks for the person's own request to be approved (`SELF_DECIDE`), by themselves or by the
    assistant ("我自己提的那个假，能不能我自己点同意？", "can I approve it myself?"), or approves a request it speaks of
    as theirs in a message that asks for something done ("我那个假你帮我直接通过一下呗")."""
    if kind == "information":
        return False  # "我的报销批了吗？": asked about, not asked for
    text = others_words_masked(text)  # what a requester said to their approver, passed on by the approver
    if SELF_DECIDE.search(text) or _MYSELF.search(text):
        return True
    return kind == "action" and bool(_MINE.search(text)) and decision_in(text) is True


SELF_DECIDE_SAY = {
    "zh": "不能审批自己的申请：它要由审批人来审批。如果着急，可以催办提醒审批人。",
    "en": "You cannot approve your own request: its approver decides it. If it is urgent, you can send them a reminder.",
}


EMAIL_WORDS = re.compile(
    r"邮件|邮箱|发信|写信|催|提醒|通知|告诉|转告|内容|正文|"
    r"\b(?:e-?mails?|mail|message|write\s+to|remind\w*|chase|nudge|ping|tell|notify|text|saying)\b",
    re.IGNORECASE,
)
"""Words of an e-mail, a reminder or a message's text: an e-mail is sent only where the person's words speak of one."""

OF_EMAIL = re.compile(r"邮件|邮箱|\be-?mails?\b|\bmail\b", re.IGNORECASE)
"""The words of an e-mail itself, not of a reminder: where they are said, a free e-mail is what was asked for."""


HANDLE = re.compile(r"处理|办一下|办了|搞定|弄一下|看着办|\b(?:deal\s+with|handle|take\s+care\s+of|sort\s+out)\b|"
                    r"\bprocess\s+(?:it|this|that|them|his|her|the\s+(?:claim|request|leave|trip))\b", re.IGNORECASE)
"""Words that ask to act on a to-do without saying how: 处理一下, "deal with", "take care of"."""


I_DECIDE = re.compile(
    r"我(?:这边|这里|就|先|来|已经)?(?:给|帮)?(?:他|她)?(?:批|同意|通过|准|驳回|拒绝|否)|"
    r"\bI(?:'ll|\s+will|'m|\s+am)?\s+(?:(?:going\s+to|gonna)\s+)?(?:approv|sign|reject|declin|turn)\w*",
    re.IGNORECASE,
)
"""The person saying they decide ("那两天病假我给批了", "I'm approving Wang Wu's leave"): a decision, not a start."""


AWAY = re.compile(r"\b(?:I'?m|I\s+am|I'?ll\s+be|I\s+will\s+be)\s+(?:off|out|away)\b|我[^，。,;；]{0,12}休假", re.IGNORECASE)
"""Being away said as the reason a deputy is named ("I'm off Monday to Wednesday", 我下周休假): no leave to file."""


BEFORE_DECIDING = re.compile(
    r"\bbefore\s+(?:I|we)\s+(?:\w+\s+){0,2}(?:approv\w*|sign\w*|decid\w*|reject\w*|ok\w*|make\s+up)|"
    r"\bno\s+decision\s+yet\b|\b(?:just|only)\s+want\s+to\s+(?:read|look|see)\b|先别(?:急着)?批|先不(?:急着)?批|"
    r"(?:批|审批|签字?|同意|通过|决定)(?:之前|以前)|(?:批|审)前先",
    re.IGNORECASE,
)
"""A decision said as what comes after something else ("Before I sign off on it, show me what it's for", 批之前先让我
看看): nothing is decided now."""


DEPUTY = re.compile(
    r"代我|替我|帮我顶|替我顶|顶一下|顶上|帮忙顶|代理|代审|帮我代|帮忙代|代一下|代管|\bcover(?:s|ing)?\b|\bstand(?:s|ing)?\s+in\b|"
    r"\bfill(?:s|ing)?\s+in\b|\bdeputy\b|\bwhile\s+I'?m\s+(?:away|out|off|gone)\b|\bwhile\s+I\s+am\s+(?:away|out|off|gone)\b",
    re.IGNORECASE,
)
"""Words of one who covers the person's approvals while they are away: 代我审批, 帮我顶一下, "covers my approvals"."""
APPROVALS = re.compile(r"审批|审核|批|待办|\b(?:approv\w*|sign(?:-?offs?|\s+off)|to-?dos?|tasks?|queue)\b", re.IGNORECASE)
"""Words of the person's approvals: what a deputy takes over."""
