"""Guard: a request is filed only for the person signed in. "Zhang San just called me from the ER … please put in 2
days of leave for him, Wang Wu approves. I'm his teammate" and "你帮他请两天事假吧" filed a leave in the teammate's own
name (the thirty-ninth round's writer): the tool files for the actor only, so the request was the wrong person's. A
start whose words ask it filed for someone else (帮他请, 替张三报, 给她申请, "for him", "on Zhang San's behalf", "in her
name") is refused in the person's words, naming whom: they file their own."""

from __future__ import annotations

import re

from tools.errors import CannotError
from tools.guards.call import Call
from tools.patterns import compiled
from tools.request import latest_message, persons_in_latest
from tools.workflow.approver_words import named_as_approver

_ZH = (r"(?:帮|替|给|代)(?:他|她|{who})(?:们)?(?:一起)?(?:请|报|提|申请|发起|走|交)|"
       r"(?:帮|替|代)(?:他|她|{who})把[^，。,.!?！？]{{0,20}}?(?:报|申请|提交|交)")  # 帮他把上周的餐费报一下
_EN = (r"\b(?:put|file|submit|lodge|raise|log|book|request|apply)\b[^.?!;]{{0,40}}?\b(?:leave|days?|trip|request|time)\b"
       r"[^.?!;]{{0,20}}?\bfor\s+(?:him|her|them|{who})\b(?!['’]s)|\bon\s+(?:his|her|their|{who}['’]s)\s+behalf\b|"
       r"\bin\s+(?:his|her|their|{who}['’]s)\s+name\b")
"""Words that ask for a leave, trip or request filed for someone: "put in 2 days of leave for him", "book a trip for
Zhao Liu", "on his behalf"; not a claim of what the person paid for someone ("claim the taxi I took for him")."""


def _for_whom(text: str, names: list[str]) -> bool:
    who = "(?:" + ("|".join(re.escape(n) for n in names) or "(?!)") + ")"
    return bool(compiled(_ZH.format(who=who)).search(text) or compiled(_EN.format(who=who), re.IGNORECASE).search(text))


class ForAnother:
    """Refuses a start the person asks for on someone else's behalf, naming whom."""

    name = "for_another"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        assert call.request is not None
        if call.spec.name != "runWorkFlow":
            return
        latest = latest_message(call.request)
        others = persons_in_latest(call.request, but=call.ctx.actor_id)
        names = [n for p in others for n in (p.get("name"), p.get("alias")) if n]
        if not _for_whom(latest, names):
            return
        approvers = named_as_approver("nextUserId", latest, others) if len(others) > 1 else []
        first = next((p for p in others if p not in approvers or len(approvers) == len(others)), {})
        zh, en = first.get("name") or "对方", first.get("alias") or first.get("name") or "they"
        raise CannotError("for_another", "The user asks for a request filed for someone else; requests are filed only "
                          "for the signed-in user", say={
                              "zh": f"我只能为你自己发起申请，不能替{zh}提交：请{zh}本人提交（手机上也可以）。",
                              "en": f"I can only file requests for you, not on someone else's behalf: {en} has to file "
                                    "it themselves (a phone will do)."})
