"""Guard: an approver never changes another person's request ("张三那笔聚餐报销超标了，你直接把金额改成3000再给他批了",
"change his dates to next week and approve it"): its values are the requester's. Told so, with what they can do (send
it back with what to change, or decide it as it is), instead of the model approving it unchanged or filing it anew.
A return that says what to change ("退回给他，金额改成3000元再提交") is what the person asks for, and passes."""

from __future__ import annotations

import re

from tools.errors import CannotError
from tools.guards.call import Call
from tools.request import latest_message
from tools.workflow import lookup
from tools.workflow.words import SENT_BACK

CHANGED = re.compile(
    r"(?:改成|改为|改到|调成|调到|调整为|换成|减到|降到|砍到|压到)\s*(?:[\d一二三四五六七八九十两百千万]|下周|下个|周[一二三四五六日])|"
    r"\b(?:change|edit|lower|reduce|cut|bump|drop|move|push|shift|reschedule|make)\b[^.?!,;]{0,40}?\b(?:down\s+|up\s+)?to\s+"
    r"(?:\d|¥|next\b|the\s+(?:week|following)\b)",
    re.IGNORECASE,
)
"""Words that change a request's value: 金额改成3000, 改到下周, "change the amount to 3000", "move his trip to next week"."""

_COMMENT = re.compile(r"(?:意见|备注|理由|批注|留言|\bcomments?|\bnote|\breason)\s*[:：]", re.IGNORECASE)
"""Where a comment for the requester begins: what follows is theirs to read, not a change the approver makes."""

_ON_ANOTHERS = frozenset({"handleTodoTask", "resubmitRequest", "runWorkFlow", "transferTask"})
"""The calls a model makes of an approver's words that change another's request: a decision, a resend or a new start
of it, a pass on."""

_SAY = {
    "zh": "审批人不能修改别人申请里的内容（金额、日期等），只有申请人自己能改。可以把它退回给申请人，写明要改成什么，请对方"
          "改好后重新提交；也可以按现在的内容批准或驳回。",
    "en": "An approver can't change someone else's request (its amount, dates and so on): only its requester can. You can "
          "send it back to them saying what to change, so they fix it and resubmit; or approve or reject it as it is.",
}


class ApproverEdits:
    """Refuses a decision, a resend, a start or a pass-on made of words in which an approver, holding a to-do, changes
    a value of it and sends nothing back."""

    name = "approver_edits"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        assert call.request is not None
        if call.spec.name not in _ON_ANOTHERS:
            return
        if call.spec.name == "handleTodoTask" and call.values.get("isOK") in (False, "false", "False"):
            return  # a rejection changes nothing ("reject it. Comment: pls push it to next month")
        latest = _COMMENT.split(latest_message(call.request), maxsplit=1)[0]  # what the requester is told is theirs
        if not CHANGED.search(latest) or SENT_BACK.search(latest):
            return
        actor = call.ctx.actor_id
        held = lookup.engine_of(call.handle).tasks_for(call.handle, actor, lookup.groups_of(call.handle, actor))
        if not held:
            return  # nothing waits on them: a change of their own request, or nothing of this guard's
        if call.spec.name in ("resubmitRequest", "runWorkFlow") and not _names_anothers(call):
            return  # "改成3天再提一次" of their own request, while something of another's waits on them
        raise CannotError("approver_cannot_edit", "The user, an approver, asks to change a value of another's request: "
                          "an approver never changes it; tell them to send it back with what to change, or decide it "
                          "as it is", say=_SAY)


def _names_anothers(call: Call) -> bool:
    """Whether the latest message names someone other than the person (whose request it would be)."""
    assert call.request is not None
    return any(ids and any(i != call.ctx.actor_id for i in ids) for ids in call.request["people"][:1])
