"""Words of batch decisions (issue 34): whether the person's own words ask for several tasks at once, the most days
they named ("一天以内", "up to two days", "one-day leaves"), and the questions and refusals in both languages; the
guards that keep a batch to what the person asked read them (`tools/workflow/batch_guards.py`).

An injected text (a request's reason, an e-mail, a tool's observation) never reaches these readers: they read only
the person's own messages (`tools.request.Request.texts`)."""

from __future__ import annotations

import re

from tools.parsers.numerals import chinese_value, english_value
from tools.request import Request

BATCH_TOOL = "decideTasks"
ONE_TOOL = "handleTodoTask"

_CN_NUMBER = r"[0-9０-９.零〇一二两三四五六七八九十半]+"
_EN_NUMBER = r"\d+(?:\.\d+)?|half an?|an? half|half|single|one|two|three|four|five|six|seven|eight|nine|ten|a"
_MAX_DAYS = (
    re.compile(rf"(?P<n>{_CN_NUMBER})\s*个?\s*(?:工作)?[天日]\s*(?:以内|之内|以下|及以下|或以下|或更短|及以内|内|以下的)"),
    re.compile(rf"(?:不超过|不超|最多|至多|顶多|不多于|不大于|小于等于|少于等于|≤)\s*(?P<n>{_CN_NUMBER})\s*个?\s*(?:工作)?[天日]"),
    re.compile(rf"(?P<n>{_CN_NUMBER})\s*个?\s*(?:工作)?[天日]\s*(?:封顶|为限|最多)"),
    re.compile(rf"(?P<n>{_CN_NUMBER})\s*个?\s*[天日]\s*(?:的|の)?\s*(?:请假|假|休假|假期|申请)"),
    re.compile(rf"(?:请了?|休了?|那些|这些|那几个|这几个)\s*(?P<n>{_CN_NUMBER})\s*个?\s*[天日]\s*的(?![时工])"),
    re.compile(rf"(?:up to|at most|no more than|not more than|not over|no longer than|within|max(?:imum)?(?: of)?)\s+"
               rf"(?P<n>{_EN_NUMBER})\s+(?:working\s+)?days?\b", re.IGNORECASE),
    re.compile(rf"\b(?P<n>{_EN_NUMBER})\s+(?:working\s+)?days?\s+or\s+(?:less|fewer|shorter|under|below)\b",
               re.IGNORECASE),
    re.compile(rf"\b(?P<n>{_EN_NUMBER})\s+(?:working\s+)?days?\s+(?:max(?:imum)?|at\s+(?:the\s+)?most|tops)\b",
               re.IGNORECASE),
    re.compile(rf"\b(?P<n>{_EN_NUMBER})[- ](?:working[- ])?day\b(?!s)", re.IGNORECASE),
)
"""How a person bounds a batch by length: 一天以内, 不超过两天, 两天封顶, 半天的假, "up to 2 days", "one day or less",
"2 days max", "one-day", "single-day"; 只请了一天的, 那些半天的 (the leaves of that length). A bound that leaves its
number out (不到三天, "under 3 days", "less than 3 days") is not one of these: it is asked as an at-most, never read as
its number."""


def _number(run: str) -> float | None:
    text = run.strip().lower()
    if text in ("半", "half", "a half", "half a", "half an", "an half"):
        return 0.5
    if text in ("a", "single"):
        return 1.0
    try:
        return float(text)
    except ValueError:
        pass
    values = english_value(text) or chinese_value(text)
    return values[0] if len(values) == 1 else None


def max_days_in(text: str) -> float | None:
    """The most days a message bounds a batch by ("一天以内的请假" → 1; "leaves up to two days" → 2), or None when it
    names no such bound, or two different ones."""
    found = set()
    for pattern in _MAX_DAYS:
        for match in pattern.finditer(text):
            number = _number(match.group("n"))
            if number is not None and number > 0:
                found.add(number)
    return found.pop() if len(found) == 1 else None


_IN_CLAUSE = r"(?:(?!\s[-–—]\s)[^，。,.;；\n—])*"
_LEFT_OUT = re.compile(
    rf"(?:除了|除去|\bexcept(?:\s+for)?\b|\bapart\s+from\b|\bbut\s+not\b|\bother\s+than\b){_IN_CLAUSE}|"
    rf"{_IN_CLAUSE}(?:除外|不算在内|不包括在内|回头|以后再|晚点|待会|先不|先放|先别|别动|不动|先留|留着|再考虑|再看|再说|放一放|"
    r"我自己|我来看|[明后]天再|下周再|\blater\b|\bnot\s+yet\b|\bhold\s+off\b|\bhold\b|\bfor\s+now\b|\bleave\b[^，。,.;；\n]*\balone\b|\bskip\b|"
    r"\bI'?ll\b|\bI\s+will\b|\blet\s+me\b|\bmyself\b|\bpark\b|\bcan\s+wait\b)"
    rf"{_IN_CLAUSE}",
    re.IGNORECASE,
)
"""What a batch leaves out: from 除了 or "except" to the clause's end, a clause ending in 除外 ("王五的除外"), and a clause
that puts something off ("赵六那个先别动", "leave the three-day one for now", "hold Zhang San's", "李四那个三天的我再看看",
"Li Si's I'll look at myself"). Who and what it names filters no batch."""

_UNMARKED_PAUSE = re.compile(r"(?<=[\u3400-\u9fff])\s+(?=[\u3400-\u9fff])|(?<=[了吧啦])(?=别的|其他|其它|其余|剩下|剩余)")
"""Where a hurried message ends a clause with no mark: a space between Chinese words ("一天以内的全批了 别的先不动"),
and "the rest" after a verb's 了 (全批了别的先放着)."""


def batch_words(text: str) -> str:
    """The text without what it leaves out of the batch (`_LEFT_OUT`): the people, bounds and processes of the rest
    are the batch's."""
    return _LEFT_OUT.sub(" ", _UNMARKED_PAUSE.sub("，", text))


def left_out_words(text: str) -> str:
    """The parts of the text that leave something out of the batch (`_LEFT_OUT`): "except Wang Wu's", 赵六那个先别动."""
    return "\n".join(m.group() for m in _LEFT_OUT.finditer(_UNMARKED_PAUSE.sub("，", text)))


def stated_max_days(request: Request) -> float | None:
    """The bound the person's latest message that states one states (`max_days_in`), in what it does not leave out
    ("一天的都批了，三天那个先别动" is one day)."""
    for text in reversed(request["texts"]):
        days = max_days_in(batch_words(text))
        if days is not None:
            return days
    return None


_LENGTH_SAID = re.compile(
    r"[零〇一二两三四五六七八九十半几多0-9０-９.]+\s*个?(?:工作)?[天日](?!期)|[短长](?:的|假|点)|"
    r"\b(?:\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|half|a|single|multi|several|few|couple\s+of)"
    r"[\s-]+(?:(?:working|business)[\s-]+)?days?\b|\b(?:short|long|longer|shorter|brief)\b(?![-\w])|\bhalf[\s-]+(?:a[\s-]+)?days?\b|"
    r"\bweeks?\b",
    re.IGNORECASE,
)
"""Words that speak of how long the requests are, stated or not: 一天, 几天, 半天, 短的; "one-day", "2 days", "half",
"short", "longer than a week". Not a day that is no length: "the last day of the quarter", 今天, 日期."""


def no_length_said(request: Request) -> bool:
    """Whether the person's words say nothing of how long the requests are (`PersonValue.left_out_unsaid` of a
    batch's `maxDays`): "都驳回", "both of Zhao Liu's leaves", not "under 3 days" nor "the short ones"."""
    return not any(_LENGTH_SAID.search(text) for text in request["texts"])


SEVERAL = re.compile(
    r"所有|全部|全都|统统|通通|一律|批量|一起|一并|一次性|这些|那些|(?:这|那)几(?!天|日|年|个?月|周|个?星期|次|回|分钟|小时)|几个都|都(?:给|帮我|替我|一起)?(?:批|同意|通过|准|驳|拒|退|否|处理|审|过|办|毙|放行|签)|"
    r"全(?:批|准|过|驳|拒)|都.{0,4}(?:了|掉|吧)$|"
    r"\ball\b(?!\s+(?:good|right|set|done|fine|ok)\b)|\bevery\b|\beverything\b|\beach\b|\bboth\b|"
    r"\bin (?:one|a single) go\b|\bat once\b|\bin (?:a )?(?:batch|bulk)\b|\bbatch\b|"
    r"\bthese\b|\bthose\b|\b(?:the|his|her|their|any|our)\s+(?:[\w-]+\s+){0,3}(?:leaves|requests|claims|trips|tasks|to-?dos|ones)\b|"
    r"\b(?:leaves|requests|claims|trips|tasks|ones)\s+(?:that|which)\s+(?:are|were)\b",
    re.IGNORECASE,
)
"""Words in which a person asks for several tasks at once: 所有, 全部, 都批了, 这几个; all, every, everything, both, "the
one-day leaves", "his leave requests", "requests that are one day or less"."""


def asks_for_several(text: str) -> bool:
    """Whether a message asks for several tasks at once ("批准所有一天以内的请假", "approve all the one-day leaves");
    "批准张三的请假" and "approve Zhang San's leave" ask for one."""
    return bool(SEVERAL.search(text))


QUESTIONS = {
    "zh": {"max_days": "请问最多几天的申请？"},
    "en": {"max_days": "Up to how many days?"},
}
"""The questions the graph asks in code for a batch."""

REFUSALS = {
    "zh": {"batch_too_large": "符合条件的待办超过了一次能处理的数量，请缩小范围（比如流程、申请人或天数）",
           "batch_empty": "没有符合条件的待办",
           "not_a_batch": "你没有要求一次处理多个待办",
           "batch_edits_on_card": "逐项的决定只能在确认卡片上修改",
           "batch_outside_filter": "卡片上改的待办不在这次的范围里",
           "batch_duplicate": "同一个待办在卡片上出现了两次"},
    "en": {"batch_too_large": "more tasks match than one batch may decide; narrow it (a process, a "
           "requester, fewer days)",
           "batch_empty": "no task of yours matches",
           "not_a_batch": "you did not ask for several tasks at once",
           "batch_edits_on_card": "each task's own decision is changed on the review card only",
           "batch_outside_filter": "a task changed on the card is outside this batch",
           "batch_duplicate": "the same task is on the card twice"},
}
"""Why a batch was not made, by refusal code."""

FAILED = {
    "zh": {"task_not_pending": "已经处理过了", "task_returned": "已退回给申请人", "not_assignee": "不归你处理",
           "self_approval": "是你自己的申请", "comment_required": "需要填写审批意见"},
    "en": {"task_not_pending": "was already decided", "task_returned": "was sent back to its requester",
           "not_assignee": "is not yours to decide", "self_approval": "is your own request",
           "comment_required": "needs a comment"},
}
"""Why one task of a batch was not decided, as the answer says it."""


def failed_words(code: str, lang: str) -> str:
    words = FAILED["en" if lang == "en" else "zh"]
    return words.get(code) or ("could not be decided" if lang == "en" else "没能处理")
