"""The workflow's own words rules: approve or reject, whose request, urging, withdrawing, e-mail; the decision
comment is read in `tools.workflow.comment_words`.

These read the person's request (`tools.request.Request`) for the values of the workflow's tools; they never decide
whether a write was asked for (a value that is not found makes the graph ask the person).
"""

from __future__ import annotations

import re

from tools.message_kind import others_words_masked
from tools.patterns import compiled
from tools.request import Request
from tools.taken_back import last_said

REQUEST_NOUN = (
    r"(?:报销单?|请假条?|假条|(?:年|病|事|婚|丧|产|陪产)?假|调休|出差申请|出差|申请单?|审批单?|单子|"
    r"(?:expense\s+)?claims?|expenses?|leave(?:\s+request)?|time\s+off|(?:business\s+)?trip|requests?|application)"
)
"""Words that name a request (报销, 请假, "claim", "trip")."""
ASKED = re.compile(r"[吗嘛么没][？?]?\s*$|[？?]\s*$|批没批|有没有|是不是|\b(?:has|have|did|was|is)\b.*\?", re.IGNORECASE)
"""A message put as a question ("张三的报销批了吗", "was it approved?"): a decision it seems to state is asked about."""
URGE_WORDS = re.compile(r"催|\b(?:nudge|chase|hurry|remind|poke)\w*|推(?:一下|一推|动一下)|"
                        r"\bpush\s*(?:一下|him\b|her\b|them\b|他|她)|"
                        r"\bgive\s+(?:him|her|them|it)\s+a\s+(?:push|nudge|poke)\b", re.IGNORECASE)
"""Words that remind an approver: 催, "nudge", "chase", push 一下, "push 他一下", "give him a push"."""
WITHDRAW = re.compile(
    r"撤回|撤销|撤掉|撤了|取消|不请了|不要了|不报了|不去了|作废|算了|\b(?:withdraw\w*|cancel\w*|scrap|drop|call\s+off|"
    r"pull|retract|take\s+(?:[\w'’-]+\s+){0,3}?back|never\s*mind|forget)\b",
    re.IGNORECASE,
)
"""Words that take a request back: 撤回, 取消, 不请了, "withdraw", "cancel", "scrap", "take it back"."""
OF_OWNER = (r"(?:(?:去|到|回)[^\s，。,.!?！？的]{1,6}?)?\s*"
            r"(?:的|那个|这个|那张|这张|那笔|这笔|那份|这份|那趟|这趟|那次|这次|又|也|'s|’s)\s*"
            r"(?:[\d¥$][\d.,]*\s*(?:yuan|rmb|cny|bucks|kuai)\s+(?:[\w-]+\s+)?|(?:[\w¥$-][\w.,¥$-]*\s+){1,2}|"
            r"[^\s，。,.!?！？的]{1,8}的|[^\s，。,.!?！？的]{1,4}?)?")
"""What joins a person to their request: 的, 那个, "'s", with a few words between ("那个5天的年假", "的差旅报销", "Li Si's big
claim", "Zhao Liu's 4-day leave", "Li Si's team dinner claim", "Zhang San's 7,800 claim", "Zhang San's 6200 yuan
travel claim"), and where they go before it ("去深圳那个出差", "回老家那趟"); or 又 / 也 before it (赵六又请假了)."""


TURNED_DOWN = (r"\bturn(?:ed|ing)?\s+(?:(?:it|that|this|them|those|these)(?:\s+ones?)?\s+|\w+'s\s+\w+\s+)?down\b|"
               r"\bshoot\s+(?:it|that|this)(?:\s+one)?\s+down\b|\bnix\b")
"""English words that turn a request down ("turn that one down", "shoot it down", "nix it"): read by the decision
reader and by the return-or-reject reader alike."""
CHINESE_SPACE = r"(?<=[\u3400-\u9fff])\s+(?=[\u3400-\u9fff])"
"""A space between Chinese words, which ends a clause where a message typed in a hurry leaves its commas out."""
_LATIN_EDGE = r"(?:(?<![A-Za-z])(?=[A-Za-z])|(?<=[A-Za-z])(?![A-Za-z]))"
"""Where an English word begins or ends, Chinese counting as no letter: "reject" in "帮我reject掉" is a word (Python's
\\b takes Chinese characters for word characters, so it finds no boundary there)."""


def latin_bounded(pattern: str) -> str:
    """`pattern` with each \\b an English word's edge (`_LATIN_EDGE`): English decision words read inside Chinese too."""
    return pattern.replace(r"\b", _LATIN_EDGE)


_REJECT = re.compile(
    r"驳回|拒绝|拒了|回绝|不同意|不批|别批|(?<![拿说])不准|不通过|不行|不予|打回|退回|否决|否掉|毙(?:了|掉|吧)|枪毙|"
    r"(?:不能|不可以|不好|不太能|没办法|没法|无法|难以)(?:给(?:你|他|她|它)?)?(?:通过|同意|批准|批|放行)|"
    r"(?:通过|同意|批准|批)不了|"
    rf"\breject|\bdeclin|\bden(y|ied)\b|\brefus|{TURNED_DOWN}|\bthumbs[- ]down\b|\bsay no\b|"
    r"\bno[- ]go\b|\bveto|\b(don'?t|do not|not|never|won'?t|can'?t|cannot|unable to) "
    r"(approve|accept|allow|ok|sign|support|agree|endorse|back)",
    re.IGNORECASE,
)
HELD = re.compile(
    r"(?:先|暂时|暂且|还)(?:别|不要|先别|不)(?:批|通过|审批|同意|驳回|拒绝|处理|动|管)(?!了)|先(?:放|搁|压|留)(?:着|一放|一搁|一下)|"
    r"放一放|搁一搁|先等等?|等(?:他|她|对方)?[^，。,.;；？?]{0,12}?(?:再说|再批|再定|再决定|再处理|再审)|回头再(?:说|批|看|定)|"
    r"\b(?:don'?t|do\s+not)\s+(?:approve|sign|decide|reject|ok)(?:\s+[\w'’-]+){0,4}?\s+yet\b|"
    r"\b(?:leave|keep)\s+(?:it|that|this|them)(?:\s+one)?\s+(?:for\s+now|as\s+it\s+is|pending|waiting|open|on\s+hold|"
    r"alone|be)\b|\bhold\s+off\b|\b(?:put|keep)\s+(?:it|that|this|them)(?:\s+one)?\s+on\s+hold\b|"
    r"\bpark\s+(?:it|that|this)\b|\bnot\s+(?:just\s+)?yet\b|\bsit\s+on\s+(?:it|that|this)\b|\bwait\s+(?:until|till)\b",
    re.IGNORECASE,
)
"""Words that hold a decision for now (先别批, 先不批, 先放着, 等他把预算发过来再说, "don't approve it yet", "leave it for
now", "hold off"): neither approve nor reject. 先不批了 has decided (了): a rejection ("先不批了，让他下周再请")."""
_ACKNOWLEDGED = re.compile(r"^\s*(?:ok(?:ay)?|alright|all\s+right|fine|sure|right|好的?|行|嗯)(?:[\s,，.。!！]+|$)",
                           re.IGNORECASE)
"""An acknowledgement that opens a message ("OK, leave it for now"; 好的，先放着; "okay, reject it"): no approval where
the decision is held or another follows."""
_NOT_MINE = re.compile(
    r"(?:不归我|不该我|不是我|轮不到我|不由我|不在我|不再由我)(?:来|的)?(?:批|审批|审|管|签|决定|负责)|"
    r"\b(?:not|isn'?t|aren'?t|no\s+longer)\b[^.?!,;]{0,12}?\b(?:mine|my\s+(?:job|call|place|area|remit|department|budget))\b"
    r"(?:\s+to\s+(?:approve|sign(?:\s+off)?|okay|ok|decide|review)(?:\s+(?:on|off))?)?|"
    r"\bnot\s+the\s+(?:right\s+)?(?:person|one)\s+to\s+(?:approve|sign(?:\s+off)?|decide)\b|"
    r"(?:顾不上|顾不过来|没空|没时间|抽不出空|腾不出手|来不及)(?:看|处理|弄|管|做)?(?:审批|批)(?:了|的事)?|"
    r"\b(?:won'?t|can'?t|cannot|not\s+going\s+to|no\s+time\s+to)\s+(?:get\s+to|look\s+at|deal\s+with|do)\s+"
    r"(?:my\s+|any\s+|the\s+)?(?:approvals|approving(?:\s+anything)?)\b|"
    r"\b(?:he|she|they|his\s+(?:boss|manager)|her\s+(?:boss|manager)|the\s+(?:boss|manager|client|director))\s+"
    r"(?:has\s+|had\s+|have\s+)?(?:already\s+)?(?:approved|okayed|signed\s+off|agreed|rejected|declined)\b|"
    r"(?:经理|领导|老板|总监|客户|财务|人事)(?:那边)?(?:已经|都)(?:同意|批准|批|拒绝|驳回)了?", re.IGNORECASE)
"""Words that say a decision is not the person's to make (不归我批, "aren't mine to sign off any more", "not the right
person to approve this"), or not now (顾不上看审批了, "I won't get to my approvals"), or someone else's ("he approved
the equipment budget", 经理已经同意了): neither approve nor reject (what they want done with it, passing it on, says
the rest)."""
_REJECT = re.compile(latin_bounded(_REJECT.pattern), _REJECT.flags)
_APPROVE = re.compile(
    r"放行|放(?:他|她|它)过|(?:让|放)(?:他|她|它)过(?:去)?(?:吧|了)|签了(?:吧)?|签字|"
    r"批准|同意|批了|(?<!审)批(一下|下|掉|个|吧|了|准)|(?<![不别])(?<!不要)(?:直接|就|都|先|全)批(?![评示注复])|(?<![标水精基])准了|准假|准许|通过|核准|可以批|没问题|"
    r"\bapprov(?!als?\b|ing\s+(?:things|requests|claims|stuff|leave)\b)|\b(?:my|our|full)\s+approval\b|\baccept|"
    r"\bsign(ed|ing)?(?: (?:it|this|that|them))? off\b|"
    r"\bok(ay)?\b|\bgo ahead\b|\bfine (?:by|with) me\b|\blooks? good\b|\blgtm\b|"
    r"\bgreen[- ]?light|\bgrant|\ballow|"
    r"\blet (him|her|them) go\b|\b(?:let|wave|push) (?:it|that|this|them|(?:\w+ )?\w+'s \w+)(?: one)? through\b|\bthumbs[- ]up\b|"
    r"给(?:他|她|它)?过(?:了|吧|一下)?(?![去来])|(?:都|就|直接|可以|能|帮我|帮忙|给我)过(?:了|吧|掉|一下)?(?![去来年节期头日程])|"
    r"(?:^|[，,。；;\s])过(?:吧|了吧)(?=$|[，,。！!；;\s])|"
    # 过 as a verb of the to-do: after 把 ("把王五那笔报销过了吧"), or after the to-do's noun as an order ("出差过一下")
    r"把[^，,。！!？?；;]{0,12}?(?:报销|请假|假|出差|申请|单子?|笔|费|款|个|task_\d+|都|先|直接|给(?:他|她|它)?)"
    r"过(?:了|掉|一下)?+吧?+(?![去来年节期头日程完一遍没吗么嘛呢]|\s*[?？])|"
    r"(?:报销|请假|假|出差|申请|单子?|笔)过(?:掉|一下|吧)(?![?？])",
    re.IGNORECASE,
)


_APPROVE = re.compile(latin_bounded(_APPROVE.pattern), _APPROVE.flags)


REQUEST_NOUNS = (
    r"审批|申请|请假|休假|假期|报销|出差|流程|这个|这张|这笔|这趟|的|假|单|"
    r"\b(?:the|this|that|his|her|their|request|requests|application|leave|time off|day off|days off|trip|"
    r"business trip|travel|expense|expenses|claim|claims)\b"
)
"""Words that name the request being decided (出差, 请假, "the leave", "this claim"): a comment says nothing by naming it."""
DECISION_ONLY = re.compile(
    rf"(?:{_REJECT.pattern}|{_APPROVE.pattern})[a-z]*|"
    r"可以|好的|好|行|准|批|帮(?:他|她|我|忙)?|过(?=了|吧|掉|一下)|\b(fine|good|sure|yes|no|ok(ay)?|agreed?|approved?|rejected?|with|by|me|him|her|them)\b|"
    + REQUEST_NOUNS,
    re.IGNORECASE,
)
"""Words that only say the decision and the request it is about (同意, 批了, "approved", "fine with me", 出差批了,
"trip approved", 帮他过了吧: words to the assistant): a comment made of them alone says nothing more than the decision
it goes with."""


_DECIDES = re.compile(f"{_REJECT.pattern}|{_APPROVE.pattern}", re.IGNORECASE)


def decision_in(text: str) -> bool | None:
    """Approve (True) or reject (False) as the words say it, the last said where one is taken back for another
    ("approve it... actually no, reject"); None when they say neither, or both. What they quote someone else as saying
    is not theirs ('张三跟我说：“你直接通过就行”', `others_words_masked`)."""
    text = _NOT_MINE.sub(" ", others_words_masked(text))
    if HELD.search(text):
        text = _ACKNOWLEDGED.sub(" ", HELD.sub(" ", text))
    elif (rest := _ACKNOWLEDGED.sub(" ", text)) != text and (_REJECT.search(rest) or _APPROVE.search(rest)):
        text = rest  # "okay, reject it": the decision is what follows the acknowledgement
    text = last_said(text, _DECIDES)
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


SENT_BACK = re.compile(
    r"退回|退给|退还给|发回给|返回给|返给|(?:打|发)回(?:去|来|给他|给她)?[^。！!?？]{0,12}?(?:改|重做|重新|重提|再提|补|"
    r"(?:写|说|讲|交代)(?:清楚|明白|清)|写明|注明)|(?:打|发)回(?:去|来)?(?:给他|给她)?[，,\s]*(?:让|叫|请)(?:他|她|对方)|"
    r"\b(?:send|sent|sending|kick|bounce|hand)(?:\s+[\w'’-]+){0,4}?\s+back\b|"
    r"\breturn(?:s|ing)?\s+(?:it|this|that|them)\b",
    re.IGNORECASE,
)
"""Words that send a request back to its requester to change: 退回, 退给, 打回去让他改, 打回去让他把原因写清楚, "send it
back", "return it" (打回去 alone may be a rejection: "这个出差打回去，预算太高")."""


def stated_days(request: Request) -> float | None:
    """The one day count the request states, or None when it states none or several."""
    return request["days"][0] if len(request["days"]) == 1 else None


_ASKS_FOR = (r"(?:那边|那儿|这边)?(?:怎么|咋|为什么|为啥)?(?:好像|似乎|刚刚?|今天|昨天)?(?:又|也)?(?:要|想)?"
             r"(?:(?:请|申请|提交?|交|报|发)了?[^\s，。,.!?！？]{0,6}?" + REQUEST_NOUN +
             r"|报销|请假|(?<=[要想])(?:去[^\s，。,.!?！？]{1,6}?)?出差|"
             r"(?:去[^\s，。,.!?！？]{1,6}?)?出差(?=(?:那|这)(?:个|趟|次|份|张|笔)|的(?:那个|申请|单子|事))|"
             r"(?<=[要想])去[^\s，。,.!?！？]{1,6}?(?=\s*[？?]|\s*(?:干嘛|干什么|做什么|干啥|啥事|什么事|为啥|为什么)))")
"""What follows a name that asks for a request of their own: 王五请两天假, 赵六申请了出差, 李四报销, 张三那边好像又交了个请假,
李四怎么又要出差, 赵六出差那个 / 去成都出差的申请 (the requester; "赵六出差了" says where he is); where they are going,
asked ("赵六要去乌鲁木齐？啥事啊": the trip that waits on the approver, the eighty-eighth round's run)."""
_SENT_EN = (r"\s+(?:has\s+|have\s+|just\s+|also\s+|again\s+)*(?:sent|submitted|filed|put\s+in|raised|lodged|requested)"
            r"\s+(?:me\s+|in\s+|us\s+)?(?:a|an|another|his|her|their|the)\s+(?:[\w-]+\s+){0,2}?" + REQUEST_NOUN)
"""What follows a name that filed a request ("Zhao Liu sent me a trip request", "Wang Wu has submitted another claim")."""


_ITS_SIZE = r"\s*(?:[\d.,]+|[一二两三四五六七八九十百千万半]+)\s*(?:(?:天|个?工作日|元|块|k)的?|的)"
"""How long or how much a request is, said between its requester and what it is: 张三4天年假, 王五一千二的报销."""


def anothers_request(text: str, name: str) -> str | None:
    """The words in which the text speaks of `name`'s request ("李四的报销", "张三那个5天的年假", "Li Si's claim",
    "王五请两天假搬家那个"; not "交给李四的那个报销", sent to them), or None."""
    who = re.escape(name)  # 帮王五请假 asks to file one for 王五, which no one does but 王五 (the identity guard says so)
    # 提交给李四的那个申请 is one sent to 李四, not 李四's
    found = compiled(rf"(?<!给){who}{OF_OWNER}{REQUEST_NOUN}|(?<![帮替给为代]){who}{_ASKS_FOR}|\b{who}{_SENT_EN}|"
                     rf"(?<!给){who}{_ITS_SIZE}{REQUEST_NOUN}", re.IGNORECASE).search(text)
    return found.group() if found else None


SELF_DECIDE = re.compile(
    r"\b(?:approve|sign\s+off\s+on|okay|ok)\s+my\b|\bapprove\b[^.?!]{0,40}\byourself\b|"
    r"(?:批准?|通过|审批)(?:了|掉|一下)?\s*我(?:自己)?的|我(?:自己)?的[^，。,;；]{0,10}(?:你|帮我)?(?:直接|自己)?(?:批|通过)(?:了|一下|掉)|"
    r"我(?:的|那|这)[^。！!？?]{0,40}你(?:就|直接|帮我|给我|自己|替我)*(?:点个?|给个?)?(?:批|通过)(?:了|掉|一下|得了|算了|吧)",
    re.IGNORECASE,
)
"""Words that ask the assistant to approve the person's own request ("just approve my toner claim yourself",
"把我的报销直接批了", "我那笔报销…你直接帮我通过得了")."""
MINE = re.compile(r"我(?:自己)?(?:提|交|发|申请|报|请)了?的|我(?:自己)?的|我(?:自己)?(?:那|这)(?:个|条|笔|份|张)?|\bmy\b",
                   re.IGNORECASE)
_MYSELF = re.compile(r"我(?:先|就)?自己(?:来|先|就|直接)*(?:把(?:我|这|那|它)[^，。,;；？?！!]{0,16}?)?(?:点|批|审|通过)|"
                     r"自己点个?(?:同意|通过)|"
                     r"\b(?:approve|sign\s+off\s+on)\s+(?:it|my\s+\w+)\s+"
                     r"myself\b", re.IGNORECASE)


def self_decide_said(text: str) -> bool:
    """Whether the words ask for the person's own request to be approved, by the assistant or by themselves, asked or
    said ("我自己那个报销能不能我自己先批了？", "can I approve it myself?"): nobody decides their own."""
    text = others_words_masked(text)
    return bool(SELF_DECIDE.search(text) or _MYSELF.search(text))


def asks_own_approval(text: str, kind: str) -> bool:
    """Whether a message asks for the person's own request to be approved (`SELF_DECIDE`), by themselves or by the
    assistant ("我自己提的那个假，能不能我自己点同意？", "can I approve it myself?"), or approves a request it speaks of
    as theirs in a message that asks for something done ("我那个假你帮我直接通过一下呗")."""
    if kind == "information":
        return False  # "我的报销批了吗？": asked about, not asked for
    text = others_words_masked(text)  # what a requester said to their approver, passed on by the approver
    if SELF_DECIDE.search(text) or _MYSELF.search(text):
        return True
    return kind == "action" and bool(MINE.search(text)) and decision_in(text) is True


SELF_DECIDE_SAY = {
    "zh": "不能审批自己的申请：它要由审批人来审批。如果着急，可以催办提醒审批人。",
    "en": "You cannot approve your own request: its approver decides it. If it is urgent, you can send them a reminder.",
}
OWN_TRANSFER_SAY = {
    "zh": "不能把自己的申请转给别人审批：只有手上有这个待办的审批人才能转交。要换审批人，可以先撤回，再重新提交给新的审批人；"
          "如果只是着急，可以催办。",
    "en": "You can't move your own request to another approver: only the approver who holds it can pass it on. To change "
          "the approver, withdraw it and file it again with the new one; if it is only urgent, you can send a reminder.",
}
"""What a requester is told who asks to pass their own request on to someone else to decide."""


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
    r"\bfill(?:s|ing)?\s+in\b|\bdeputy\b|\bwhile\s+I'?m\s+(?:away|out|off|gone)\b|\bwhile\s+I\s+am\s+(?:away|out|off|gone)\b|"
    r"(?:这几天|这段时间|那几天|那段时间|这期间|期间|不在的(?:时候|日子|这几天))[^，。,.;；]{0,6}(?:让|叫|由|请)[^，。,.;；]{1,6}?"
    r"(?:帮我|帮忙)(?:批|审批|审|签|处理|管)|"
    r"\b(?:handles?|handling|takes?\s+over|taking\s+over|looks?\s+after|deals?\s+with)\s+my\s+(?:approvals|queue|to-?dos)\b|"
    r"\b(?:approve|sign\s+off|decide)\s+(?:things|stuff|everything|anything)\s+(?:for|on\s+behalf\s+of)\s+me\b",
    re.IGNORECASE,
)
"""Words of one who covers the person's approvals while they are away: 代我审批, 帮我顶一下, "covers my approvals"; someone
approving for them in the days they are away ("下周一到周五我休假，这几天让王五帮我批": the eighty-eighth round's writer)."""
APPROVALS = re.compile(r"审批|审核|批|待办|(?:帮|替|代)(?:我|忙)审|"
                       r"\b(?:approv\w*|sign(?:-?offs?|\s+off)|to-?dos?|tasks?|queue)\b", re.IGNORECASE)
"""Words of the person's approvals: what a deputy takes over."""


REPORTED = re.compile(r"\b(?:told|tells|said|says|mentioned|heard)\b|说|告诉|提到", re.IGNORECASE)
"""Words that report what someone said ("Zhao Liu told me Wang Wu's dates clash", 王五说那天他能帮张三顶班): the people
a stretch of them names are no filter of a batch and no to-do decided."""
