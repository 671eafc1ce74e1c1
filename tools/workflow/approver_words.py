"""Words of the approver's transfer and deputy tools: the questions the graph asks for them and why an action was
refused, in Chinese and English; and who a message names as taking a task over (`taker_first`)."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

from tools.people import mention_spans
from tools.workflow.words import APPROVALS, OF_OWNER, REQUEST_NOUN

Picker = Callable[[str, str, list[dict[str, Any]]], list[dict[str, Any]]]

QUESTIONS = {
    "zh": {"transfer_to": "请问转交给谁？可选：{choices}。",
           "transfer_to_requester": "{name}是这个申请的申请人，不能审批自己的申请。请问转交给谁？可选：{choices}。",
           "deputy": "请问由谁代你审批？可选：{choices}。",
           "deputy_start": "请问代理从哪天开始？",
           "deputy_end": "请问代理到哪天结束？"},
    "en": {"transfer_to": "Who should take the task over? You can choose: {choices}.",
           "transfer_to_requester": "{name} filed this request and cannot decide it. Who should take it over? You can "
                                    "choose: {choices}.",
           "deputy": "Who should decide your tasks while you are away? You can choose: {choices}.",
           "deputy_start": "From which day should they cover for you?",
           "deputy_end": "Until which day should they cover for you?"},
}
"""The questions the graph asks in code for transfer and deputies."""

REFUSALS = {
    "zh": {"transfer_to_requester": "不能转交给申请人本人：申请人不能审批自己的申请",
           "transfer_to_self": "这个待办已经是你的了，请说转交给哪位同事",
           "transfer_outside_group": "这是小组的待办，流程只允许转交给小组成员",
           "deputy_self": "不能把自己设为代理人",
           "bad_range": "结束日期早于开始日期", "range_past": "这段时间已经过去了",
           "range_too_long": "代理期最长一年", "bad_date": "没有读懂这个日期",
           "return_not_reject": "你说的是退回给申请人修改，不是驳回", "return_not_transfer": "你说的是退回给申请人修改，不是转交",
           "reject_not_return": "你说的是驳回，不是退回修改",
           "approve_not_return": "你说的是同意，不是退回修改", "decided_not_passed": "你说的是审批决定，不是转交",
           "no_todos": "现在没有等你审批的待办", "declined_not_returned": "没有被退回的申请，你改的是刚才没提交的那份",
           "decided_not_started": "你说的是审批决定，不是新的申请",
           "nothing_to_withdraw": "你没有可以撤回的申请", "steps_not_people": "谁来审批要看流程的步骤",
           "start_not_email": "你说的是发起申请，不是发邮件", "todos_not_copies": "你问的是等你审批的待办，不是抄送给你的申请",
           "no_money_no_claim": "你没有说要报销什么钱", "passed_not_decided": "你说的是转交给别人，不是审批决定",
           "return_not_email": "你说的是退回给申请人修改，不是发邮件",
           "not_theirs_to_decide": "这个申请不在你的待办里，你不能审批它",
           "deputy_not_started": "你说的是找人代你审批，不是发起申请",
           "deputy_not_transfer": "你说的是这几天找人代你审批，不是转交某一个待办",
           "work_not_approvals": "你说的是有人帮你顶手上的工作，不是代你审批；你的审批还是你自己处理"},
    "en": {"transfer_to_requester": "a task cannot go to its request's requester: nobody decides their own request",
           "transfer_to_self": "that task is yours already; say which colleague should take it",
           "transfer_outside_group": "it is a group's task, and its process passes it only to a member of the group",
           "deputy_self": "you cannot be your own deputy",
           "bad_range": "the last day is before the first", "range_past": "those days are over already",
           "range_too_long": "a deputy covers at most a year", "bad_date": "that date could not be read",
           "return_not_reject": "you asked to send it back to be changed, not to reject it",
           "return_not_transfer": "you asked to send it back to be changed, not to pass it on",
           "reject_not_return": "you asked to reject it, not to send it back to be changed",
           "approve_not_return": "you approved it, not sent it back to be changed",
           "decided_not_passed": "you decided it yourself, not passed it on",
           "no_todos": "nothing is waiting for your decision",
           "declined_not_returned": "nothing was sent back to you; you are changing the one you did not file",
           "nothing_to_withdraw": "you have no request to take back",
           "steps_not_people": "who decides a request is the process's steps",
           "start_not_email": "you asked to file a request, not to send an e-mail",
           "todos_not_copies": "you asked what waits for your decision, not what was copied to you",
           "no_money_no_claim": "you named no money to claim",
           "passed_not_decided": "you asked to pass it on, not to decide it",
           "return_not_email": "you asked to send it back to be changed, not to send an e-mail",
           "not_theirs_to_decide": "that request does not wait for your decision, so you cannot decide it",
           "deputy_not_started": "you asked for someone to cover your approvals, not to file a request",
           "deputy_not_transfer": "you asked for someone to cover your approvals on those days, not to pass one task on",
           "decided_not_started": "you decided a request that waits on you, not filed a new one",
           "work_not_approvals": "you said who covers your work, not your approvals; those stay with you"},
}
"""Why a transfer, a deputy, or a rejection or return the person did not ask for was not done, by refusal code."""

_TAKER_BEFORE = re.compile(
    r"(转给|转交给|转交|交给|改给|改由|让|叫|由|交由|派给|分给|移交给?|转到)\s*$|\b(on|over) to\s*$|"
    r"\b(transfer|reassign|assign|hand|give|gave|pass|forward|move|send|sent|route|shift)\w*\b[^.;!?。；！？]{0,50}"
    r"\bto\s*$|"
    r"\b(deputy( is)?|let|have)\s*$",
    re.IGNORECASE,
)
_TAKER_AFTER = re.compile(
    r"^\s*(代我|代为|替我|代理|帮我审|帮我批|帮我顶|替我顶|顶一下|顶上|帮我盯|帮忙顶|帮我代|帮忙代|代一下|代管)|"
    r"^\s*(covers?|will cover|to cover|stands? in|fills? in|(as|is|be) (my )?deputy|my deputy|"
    r"(?:handles?|takes? over|looks? after|deals? with) my (?:approvals|queue|to-?dos))\b",
    re.IGNORECASE,
)
CUE_WINDOW = 60
"""Characters before and after a name searched for a cue that they take a task over ("转给王五", "Wang Wu covers",
"reassign Zhang San's leave to Li Si"); each cue is anchored at the name, so the window only bounds its length."""


def named_as_taker(text: str, named: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Of several people one message names, those named as taking a task over: a transfer's new holder ("转给王五",
    "pass it on to Wang Wu") or a deputy ("让王五代我审批", "Wang Wu covers my approvals")."""
    return [
        person for person in named
        if any(_TAKER_BEFORE.search(text[max(0, start - CUE_WINDOW):start]) or _TAKER_AFTER.search(text[end:end + CUE_WINDOW])
               for start, end in mention_spans(text, person))
    ]


def _covers_work_only(text: str, person: dict[str, Any]) -> bool:
    """Whether the text names the person only as covering the speaker's work, not their approvals ("Li Si covers my
    desk while I'm out", 李四帮我顶班): no task's taker, and no approver of the leave it asks for."""
    spans = mention_spans(text, person)
    return not APPROVALS.search(text) and not any(_TAKER_BEFORE.search(text[max(0, start - CUE_WINDOW):start])
                                                  for start, _ in spans)


_OWNED = re.compile(rf"^{OF_OWNER}(?:{REQUEST_NOUN}|待办|任务|to-?dos?|tasks?)", re.IGNORECASE)
"""What follows a name that owns the request or task spoken of: "王五这个待办", "Zhang San's leave"."""


def named_as_owner(text: str, person: dict[str, Any]) -> bool:
    """Whether the message names the person as the one whose request or task it speaks of ("王五这个待办我不想管了"):
    the requester, who is never named so as its approver or its taker."""
    return any(_OWNED.match(text[end:]) for _, end in mention_spans(text, person))


_APPROVES = re.compile(r"\s*(?:来|负责|会)?(?:审批|审核|批准|批|签字)|\s+(?:will\s+|can\s+|to\s+)?(?:approves?|signs?\s+off)\b",
                       re.IGNORECASE)


def _approves(text: str, person: dict[str, Any]) -> bool:
    """Whether the text names the person as the one approving, the word after the name ("Zhao Liu approves", 赵六审批;
    not "approve Zhao Liu's day off", whose words make him its requester)."""
    return any(_APPROVES.match(text, end) for _, end in mention_spans(text, person))


@functools.cache
def taker_first(base: Picker) -> Picker:
    """A toolset's `pick_person` that takes the one person named as taking a task over when a message names exactly
    one so ("张三的请假转给王五": 王五) and nobody else as approving ("the wreath sent to Wang Wu's father's funeral,
    Zhao Liu approves": Zhao Liu, by `base`), and asks `base` otherwise, never of a person named as the request's owner
    ("王五这个待办帮我转出去" names nobody to take it: the person is asked) (the same wrapper for the same `base`)."""

    def pick(param: str, text: str, named: list[dict[str, Any]]) -> list[dict[str, Any]]:
        taker = [p for p in named_as_taker(text, named) if not _covers_work_only(text, p)]
        approver = [p for p in named if p not in taker and _approves(text, p)]
        if len(taker) == 1 and not approver:
            return taker
        if len(taker) == 1 and param != "nextUserId":  # "李四审批，这几天我的审批让赵六代我": the deputy is 赵六
            return taker
        if taker and len(approver) == 1:  # "the wreath sent to Wang Wu's father…, Zhao Liu approves": Zhao Liu;
            return approver  # "李四审批，这几天我的审批让赵六代我": 李四 approves the leave, 赵六 is the deputy
        others = [p for p in named if not named_as_owner(text, p)]
        return base(param, text, others) if others else []

    return pick


_APPROVER_CUE = re.compile(r"审批|批准|审核|签字|批(?:一下|下)?(?=[，。,.!?！？；;\s]|$)|approv|sign(s|ing)? off|\bsigns?\b",
                           re.IGNORECASE)  # 批 ending its clause: "王五批"
_APPROVER_WINDOW = 14
"""Characters around a name searched for an approver cue ("李四审批", "approver Wang Wu"), within its clause."""


def named_as_approver(param: str, text: str, named: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Of several people one message names, the one named as approver ("Li Si rejected it; Wang Wu approves"), when
    exactly one is; all of them otherwise."""
    cued = [person for person in named if named_as_approver_of(text, person)]
    return cued if len(cued) == 1 else named


_BOUNDARY = re.compile(r"[，,。；;!！?？\n]")


def _clause_around(text: str, start: int, end: int) -> str:
    """The words around a mention, within `_APPROVER_WINDOW` and its clause ("参加赵六的婚礼，王五审批": 赵六's clause holds
    no 审批)."""
    window = _APPROVER_WINDOW
    before = max((m.end() for m in _BOUNDARY.finditer(text, max(0, start - window), start)), default=start - window)
    after = _BOUNDARY.search(text, end, end + window)
    return text[max(0, before) : after.start() if after else end + window]


def named_as_approver_of(text: str, person: dict[str, Any]) -> bool:
    """Whether the text names this person as the approver ("Li Si approves", 王五批) wherever it mentions them."""
    return any(_APPROVER_CUE.search(_clause_around(text, start, end)) for start, end in mention_spans(text, person))


_AWAY_AFTER = re.compile(
    r"\s*(?:这两周|这几天|这周|本周|最近|下周|今天|明天)?(?:都|也|一直)?(?:在外地|不在|出差了?|休假|请假了|外出|出去了|联系不上)|"
    r"\s+(?:is|'s|will\s+be|has\s+been)\s+(?:\w+\s+)?(?:away|out|off|on\s+(?:leave|holiday|vacation|a\s+trip)|travelling|"
    r"traveling|unreachable)\b",
    re.IGNORECASE,
)
"""Words after a name that say the person is away ("李四这两周都在外地", "Li Si is away"): a reason, no approver."""


def named_as_away(text: str, person: dict[str, Any]) -> bool:
    """Whether the text names this person only as away ("李四这两周都在外地，…现在重新报：1500元" names no approver),
    and nowhere as approving."""
    return any(_AWAY_AFTER.match(text, end) for _, end in mention_spans(text, person)) and not named_as_approver_of(
        text, person)


_IN_PASSING_BEFORE = re.compile(
    r"(?:陪着?|带着?|听)\s*$|\b(?:together\s+with|along\s+with|accompanying|joined\s+by)\s+(?:my\s+)?"
    r"(?:colleague\s+|teammate\s+)?$|\b(?:go(?:ing)?|fly(?:ing)?|travel\w*|driv\w*|head(?:ing)?|trip)\b[^.,;]{0,40}"
    r"\bwith\s+(?:my\s+)?(?:colleague\s+|teammate\s+)?$", re.IGNORECASE)
"""Words before a name of one who goes along (陪着, "together with", "flying to Chengdu with"; not "file it with Wang
Wu", who approves) or whom the person heard (听王五说)."""
_IN_PASSING_AFTER = re.compile(
    r"\s*(?:一起|一块儿?|一同|同行|说|跟我说|告诉我|提到|讲|帮我顶|替我顶|顶班|顶一下|接手|帮我看着|帮我盯着)|"
    r"\s+(?:told|tells|said|says|mentioned|covers|will\s+cover|is\s+covering|is\s+standing\s+in|and\s+I\b)",
    re.IGNORECASE)


def named_in_passing(text: str, person: dict[str, Any]) -> bool:
    """Whether the text names this person only in passing, nowhere as approving: who travels with the requester
    ("跟李四一起去北京", "flying out with Li Si"), who told them something ("王五说…", "Wang Wu told me"), who covers
    their work (李四帮我顶班, "Li Si covers"). Such a person is no approver the message names."""
    spans = mention_spans(text, person)
    return bool(spans) and all(_IN_PASSING_BEFORE.search(text[max(0, start - 24):start]) or
                               _IN_PASSING_AFTER.match(text, end) for start, end in spans) and \
        not named_as_approver_of(text, person)
