"""What a message still asks once its decision was made: the person's own request approved beside another's ("张三的请假
我同意。另外我自己那笔报销你也顺手帮我批了吧", "approve Zhao Liu's day off, and sign off my taxi claim while you're at
it"). Read after the thirty-sixth round's run: the other's was decided and the person's own part got no word. Nobody
decides their own request; the part is proposed as they said it, and the guards refuse it with the words for the
person (who holds it, and that they can send a reminder), so the answer says so beside the decision made."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection

from tools.errors import CannotError
from tools.guards.call import Call
from tools.message_kind import sentences
from tools.request import Request, latest_message
from tools.workflow.mine import told_where
from tools.workflow.request_lookup import naming_words, own_pending
from tools.workflow.words import SELF_DECIDE_SAY, URGE_WORDS, WITHDRAW, asks_own_approval


def own_approval_asked(conn: Connection, request: Request, actor_id: str,
                       done: Sequence[tuple[str, dict[str, Any]]]) -> dict[str, Any] | None:
    """The decision of the person's own pending request that a sentence of their latest message asks for, after a
    write of the run (the one of the process that sentence names, or their only one); None when none is asked."""
    asked = [s for s in sentences(latest_message(request)) if asks_own_approval(s, "action")]
    if not asked or not done:
        return None
    mine = [r for r in own_pending(conn, actor_id) if r["view"].tasks]
    named = [r for r in mine if any(w and w.casefold() in s.casefold() for s in asked
                                    for w in naming_words(r["definition"]))]
    found = named or mine
    if len(found) != 1:
        return None
    return {"name": "handleTodoTask", "args": {"taskId": found[0]["view"].tasks[0].id, "isOK": True}}


_NOT_YET = re.compile(r"还没|没有?(?:批|审|通过|approve)|尚未|\b(?:not\s+yet|hasn'?t|has\s+not|haven'?t|still\s+hasn'?t)\b",
                     re.IGNORECASE)
"""Words that say the approval has not happened yet: the person says so to have them reminded, not to approve it."""


class ApprovalNotUrge:
    """A reminder or a withdrawal the model proposed where the person asked for their own request to be approved, and
    for neither ("我那个假急，李四在开会，你帮我直接批了吧", "我先自己把我那个请假批了？"): nobody decides their own
    request, and neither is an answer to it; the person is told so, and that they may send a reminder. Read after the
    sixty-fifth round's run (a reminder's card, unasked) and the seventieth's (a withdrawal's card, unasked)."""

    name = "approval_not_urge"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        assert call.request is not None
        if call.spec.name not in ("urgeTask", "withdrawRequest"):
            return
        latest = latest_message(call.request)
        if call.spec.name == "withdrawRequest" and WITHDRAW.search(latest):
            return  # "撤回那个，我自己批一个新的": a withdrawal asked for
        if URGE_WORDS.search(latest) or _NOT_YET.search(latest) or not asks_own_approval(latest, call.request["kind"]):
            return  # "李四还没批我的报销": said not done yet, which a reminder answers
        if own_pending(call.handle, call.ctx.actor_id):
            raise CannotError("self_approval", "The user asks for their own request to be approved, not for a reminder: "
                              "nobody decides their own request; its approver does.",
                              say=told_where(call.handle, call.ctx.actor_id, SELF_DECIDE_SAY))
