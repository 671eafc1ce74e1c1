"""The requester's tools' words for people: their cards' labels, the questions the graph asks for them, and why an
action of theirs was refused, in Chinese and English."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from tools.request import Request, of_its_own_messages

CARD_LABELS = {
    "zh": {"request": "申请编号", "process": "流程", "form": "申请内容", "status": "状态", "step": "当前步骤",
           "held_by": "处理人", "history": "经过", "changes": "修改", "note": "说明", "values": "修改后的内容",
           "comment": "意见", "requester": "申请人", "next": "接下来"},
    "en": {"request": "request", "process": "process", "form": "request", "status": "status", "step": "step",
           "held_by": "held by", "history": "what happened", "changes": "changes", "note": "note to the approver",
           "values": "after the change", "comment": "comment", "requester": "requester", "next": "what happens next"},
}
"""Labels of the fields the requester's cards show, in display order."""

QUESTIONS = {
    "zh": {"which_request": "你有 {count} 个申请可以这样处理：{choices}。请问是哪一个？",
           "return_comment": "请问退回的意见写什么？请说明申请人需要修改什么。",
           "changes": "请问要修改什么？例如{choices}。如果不用修改，请告诉我要向审批人说明什么（例如：发票已补交）。",
           "changes_named": "请问{choices}要改成什么？", "changes_named_number": "请问{choices}要改成多少？",
           "changes_named_date": "请问{choices}要改成哪天？"},
    "en": {"which_request": "{count} of your requests could be meant: {choices}. Which one do you mean?",
           "return_comment": "What should the requester change? Sending a request back needs a comment.",
           "changes_named": "What should the {choices} be changed to?",
           "changes_named_number": "How much should the {choices} be?",
           "changes_named_date": "Which day should the {choices} be?",
           "changes": "What do you want to change? For example: {choices}. If nothing changes, tell me what to tell "
                      "the approver (for example: the receipts are handed in now)."},
}
"""The questions the graph asks in code for the requester's tools."""

REFUSALS = {
    "zh": {"not_requester": "这不是你的申请，只有申请人自己可以撤回或重新提交",
           "request_not_pending": "这个申请已经结束，不能再撤回",
           "request_not_returned": "这个申请没有被退回，不能重新提交",
           "request_still_pending": "这个申请还在等审批，并没有被退回，所以不能重新提交；要修改的话，可以先撤回，再重新发起",
           "task_returned": "这个待办已退回给申请人，要等对方修改后重新提交",
           "unknown_request": "没有找到这个申请", "ambiguous_request": "不确定是哪个申请",
           "instance_not_pending": "这个申请已经结束", "instance_not_returned": "这个申请没有被退回",
           "no_changes": "没有说要修改什么", "anothers_request": "这是别人的申请，只有申请人自己可以发起、撤回、重新提交或催办",
           "resend_not_withdraw": "你说的是重新提交，不是撤回", "own_request": "你说的是你自己的申请",
           "resend_not_start": "你说的是把退回的申请改了再提交，不是新发起"},
    "en": {"not_requester": "that is not your request: only its requester withdraws or resubmits it",
           "request_not_pending": "that request already ended and cannot be withdrawn",
           "request_not_returned": "that request was not sent back, so it cannot be resubmitted",
           "request_still_pending": "that request is still waiting for a decision and was not sent back, so it cannot be "
                                    "resubmitted; to change it, withdraw it and file it again",
           "task_returned": "that task was sent back to its requester; it waits for them to change and resubmit it",
           "unknown_request": "no such request was found", "ambiguous_request": "it is not clear which request",
           "instance_not_pending": "that request already ended", "instance_not_returned": "that request was not sent back",
           "no_changes": "no change was given",
           "anothers_request": "that is someone else's request: only its requester files, withdraws, resubmits or urges it",
           "resend_not_withdraw": "you asked to send it again, not to withdraw it",
           "resend_not_start": "you asked to send your returned request again, not to file a new one",
           "own_request": "you spoke of a request of your own"},
}
"""Why a requester's action (or a decision on a step sent back) was not done, by refusal code."""


def merged(base: Mapping[str, Mapping[str, str]], extra: Mapping[str, Mapping[str, str]]) -> dict[str, dict[str, str]]:
    """A toolset's words by language with these added (the toolset's own win on a shared key)."""
    return {lang: {**extra.get(lang, {}), **words} for lang, words in base.items()}


def labels(card: Mapping[str, object], lang: str) -> dict[str, str]:
    """The card's fields a person reads, each with its label in their language, in display order."""
    names = CARD_LABELS["en" if lang == "en" else "zh"]
    return {key: label for key, label in names.items() if card.get(key) not in (None, "", [])}


_RELAYED = re.compile(r"(?:跟|和|给|告诉|转告)\s*[^\s，,。]{1,6}?\s*(?:说一?声?|讲一?声?)\s*[：:，,]?\s*(?P<zh>[^。！!?？]+)$|"
                      r"\b(?:tell|let)\s+(?:him|her|them|[A-Z]\w+(?:\s+[A-Z]\w+)?)\s+(?:know\s+)?(?:that\s+)?"
                      r"(?P<en>[^.!?]+)[.!]?$")


CHANGE_WORDS = re.compile(
    r"改成|改为|改一下|改下|改了|改掉|改好|改过|修改|更正|换成|换一下|调成|调整|\b(?:change[sd]?|fix(?:ed)?|correct(?:ed)?|"
    r"update[sd]?|make\s+it|switch(?:ed)?|swap(?:ped)?|move[sd]?|amend(?:ed)?|adjust(?:ed)?|edit(?:ed)?)\b", re.IGNORECASE)
"""Words of a change ("帮我把金额改了", "switch the category to meals"): a resend that changes a value has no note."""


def relayed_note(text: str) -> str:
    """What the person asks to be told to the approver with a resend ("跟李四说抬头已经改成公司全称了", "tell Li Si the
    receipt is fixed"): the note, whatever change it tells of; "" when they ask for none."""
    found = _RELAYED.search(text)
    return (found.group("zh") or found.group("en") or "").strip(" ，,。.!！") if found else ""


def resubmitted_line(result: dict[str, Any], lang: str) -> str:
    who, note, away = result.get("heldBy") or result.get("assigneeName"), result.get("note"), result.get("onBehalfOf")
    if lang == "en":
        return f"Sent {result['requestId']} again ({result['changes']}" + (f"; your note: {note}" if note else "") + ")" + (
            f"; it waits for {who}'s decision" + (f" on {away}'s behalf" if away else "") + f" ({result['taskId']})."
            if who else ".")
    waiting = f"，等待{who}" + (f"代{away}" if away else "") + f"审批（{result['taskId']}）。" if who else "。"
    return f"已重新提交 {result['requestId']}（{result['changes']}" + (f"；说明：{note}" if note else "") + f"）{waiting}"


def changes_asked(fields: list[Any]) -> str:
    """The question that asks what the fields named are changed to: how much, which day, or what."""
    kinds = {"number" if f.type in ("long", "double", "decimal") else "date" if f.type == "date" else "" for f in fields}
    return "changes_named" + (f"_{kinds.pop()}" if len(kinds) == 1 and "" not in kinds else "")


def fields_named(definition: Any, texts: list[str]) -> list[Any]:
    """The form's fields the texts name by their label or its head word ("把金额改了": 报销金额; "改个日期": 出发日期 and
    返回日期; "fix the amount": Amount (yuan); "the dates": Start date and End date)."""
    said = " ".join(texts).casefold()
    found = []
    for f in definition.fields:
        english = re.sub(r"\s*\(.*?\)", "", f.label_en or "").casefold().split()
        head = english[0] if "of" in english else english[-1] if english else ""
        if f.label in said or f.label[-2:] in said or (head and re.search(rf"\b{re.escape(head)}s?\b", said)):
            found.append(f)
    return found


_TO_WHAT = re.compile(r"(?:改成|改为|换成|写成|写为|调成|改到|改回)\s*[^\s，。,.!?！？]|"
                      r"\b(?:change|make|set|switch|update|fix|correct|move)\b[^.?!]{0,40}?\b(?:to|as|into)\s+\w", re.I)


def says_to_what(request: Any) -> bool:
    """Whether a change's own messages say what it changes to: a value read in them, a quoted text, or words that
    give one ("改成陪家人看病", "change the reason to a family visit")."""
    return bool(request["said"] or request["quoted"] or any(_TO_WHAT.search(t) for t in request["recent"]))


_NEW_REASON = re.compile(
    r"(?:理由|原因|事由)\s*(?:改成|改为|写成|写为|换成|(?:改|写)(?=\s*[:：]))\s*[:：]?\s*(?P<zh>[^\n]+)|"
    r"\b(?:change|make|set|update)\s+the\s+reason\s+to\s*:?\s*(?P<to>[^\n]+)|\breason\s*:\s*(?P<colon>[^\n]+)",
    re.IGNORECASE,
)
RESEND = re.compile(
    r"再提(?:交|一次|一下|一遍)?|重新(?:提交|提|交|申请|发起|发|递交|送审)|再交|再发起|再申请|重提|重交|重发|"
    r"\b(?:re-?submit|re-?send|re-?file|submit\s+(?:it|this|that|them)?\s*again|send\s+(?:it|this|that)?\s*(?:back\s+|in\s+)?again|"
    r"file\s+(?:it|this|that)?\s*again|put\s+(?:it|this|that)\s+(?:back\s+)?in\s+again|"
    r"(?:send|put)\s+(?:it|this|that)\s+back\s+(?:in|to\s+(?:him|her|them|(?-i:[A-Z][a-z]+)(?:\s+(?-i:[A-Z][a-z]+))?))|"
    r"(?:update|change|fix|correct|amend)\b[^.?!]{0,80}?\band\s+(?:re-?)?send\s+(?:it|this|that)\b)|"
    r"改[^。？！?!]{0,20}?再(?:发|交|提|送)",
    re.IGNORECASE,
)
"""Words that send a request again: 再提一次, 重新提交, 再交, 改好了再发给他, "resend", "submit it again", "send it back in",
"send it back to Li Si", "update the dates and send it"."""
_RESEND_TAIL = re.compile(
    rf"[，,。；;.!！\s]*(?:(?:然后|就|帮我|麻烦|and|then|please)\s*)*(?:{RESEND.pattern})(?:\s*(?:一下|一次|吧|了|哈|啊|呀|it|please|pls))*"
    r"[。.!！\s]*$",
    re.IGNORECASE,
)
"""A closing word of sending it again after a new reason (…，重新提交吧; "…, then resend"): no part of the reason."""


def new_reason(text: str) -> str | None:
    """The new reason a change gives after the reason's name and a word of change, unquoted ("事由改成：给部门买的打印纸，
    重新提交吧", "change the reason to team lunch with the client, then resend"): the rest of the message, less a
    closing word of sending it again; None where more than one clause would be left (no reason is cut short or guessed)."""
    found = _NEW_REASON.search(text)
    if found is None:
        return None
    said = _RESEND_TAIL.sub("", next(g for g in found.groups() if g is not None)).strip(" 　“”\"'。.")
    return said if said and not re.search(r"[，,；;。]", said) else None


REASON_WORD = re.compile(r"理由|原因|事由|说明|\breason\b|\bwhy\b", re.IGNORECASE)


def reason_now(request: Request) -> str | None:
    """The new reason, where the messages that change the request speak of the reason and quote one text
    ('change the reason to "toner for project Atlas"', 理由改成“…”) or give one after its name (事由改成：…, `new_reason`)."""
    own = of_its_own_messages(request)
    quoted = [q for text in own["recent"] for q in request["quoted"] if q in text]
    if len(set(quoted)) == 1 and any(REASON_WORD.search(text) for text in own["recent"]):
        return quoted[0]
    given = {reason for text in own["recent"] if (reason := new_reason(text))}
    return given.pop() if len(given) == 1 else None


NAMES_THE_REQUEST = re.compile(r"^(?:刚才|刚刚|之前|上次)?被?(?:[\u4e00-\u9fff]{2,3})?(?:退回来?|打回来?|返回来?)的?"
                               r"(?:那个|这个|那张|那笔|那份)?(?:报销|申请|请假|出差|单子?)$")
"""A clause that only names the request being sent again (刚才退回来的那个报销帮我重新提交: the ninetieth round's writer
found it in the resend's note): no note to the approver."""
