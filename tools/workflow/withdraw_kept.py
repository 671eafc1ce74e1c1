"""Guard: a withdrawal the person took back in the same message ("帮我把那个出差撤回吧——算了，先不撤了，客户还是要见。
帮我催一下王五", "pull my leave... actually no, keep it, just nudge Li Si"): what they say last about it is to keep it, so
nothing is withdrawn; a reminder they ask for instead is carried. Read after the sixty-seventh round's run (the
withdrawal's card, every trial)."""

from __future__ import annotations

import re

from tools.errors import PolicyError
from tools.guards.call import Call
from tools.request import latest_message
from tools.workflow.words import URGE_WORDS, WITHDRAW

_KEPT = re.compile(
    r"(?:先|就|还是|暂时)?不(?:撤|取消)(?:了|回|销|掉)?|别撤|不用撤|留着|\b(?:don'?t|do\s+not)\s+(?:withdraw|cancel|pull)\b|"
    r"\bkeep\s+(?:it|that|this)\b|\bleave\s+it\s+(?:in|be|as\s+it\s+is)\b",
    re.IGNORECASE,
)
"""Words that keep the request after all: 先不撤了, 别撤, 留着, "don't withdraw it", "keep it" (not "keep the trip",
another request kept beside the one withdrawn)."""


class WithdrawKept:
    """Refuses a withdrawal whose words, last said of it, keep the request; the reminder the message asks for instead
    is the call carried."""

    name = "withdraw_kept"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        assert call.request is not None
        if call.spec.name != "withdrawRequest":
            return
        latest = latest_message(call.request)
        kept = list(_KEPT.finditer(latest))
        asked = [m for m in WITHDRAW.finditer(latest) if not any(k.start() <= m.start() < k.end() for k in kept)]
        if not kept or (asked and asked[-1].start() > kept[-1].end()):
            return  # nothing kept, or a withdrawal asked again after it
        urged = URGE_WORDS.search(latest, kept[-1].end())
        raise PolicyError(
            "withdraw_kept", "The user took the withdrawal back and keeps the request"
            + (": they ask for a reminder instead; call urgeTask." if urged else "; withdraw nothing and say so."),
            instead={"name": "urgeTask", "args": {"requestId": call.values.get("requestId")}} if urged else None,
        )
