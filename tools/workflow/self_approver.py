"""Guard: a request whose person asks to approve it themselves ("put me down as the approver, I'll sign it off
myself", 审批人就写我自己) is asked for another approver with the reason first: nobody approves their own request.
Before, they were asked "Who should approve it?" as if they had named no one (the forty-second round, read after its
run). Where the model named them with no such words, the plain question stays (`policy.check_start_request`)."""

from __future__ import annotations

import re

from tools.errors import NeedsPersonError
from tools.guards.call import Call
from tools.request import latest_message
from tools.workflow.lookup import approver_choices

_MYSELF = re.compile(
    r"\b(?:me|myself)\b[^.?!,;]{0,20}\bas\s+(?:the\s+)?approver\b|\bapprover\b[^.?!,;]{0,12}\b(?:me|myself)\b|"
    r"\b(?:I'?ll|I\s+will|let\s+me)\s+(?:just\s+)?(?:approve|sign\s+off\s+on|sign|ok|okay)\b[^.?!]{0,16}\bmyself\b|"
    r"\bself[-\s]approv\w*|审批人[^，。,;；]{0,4}(?:写|填|是|就|设为|设成|选)?(?:我自己|我)(?![们的])|我自己(?:来)?(?:审批|批|审)|自己批",
    re.IGNORECASE,
)
"""Words that make the person their own approver: "put me down as the approver", "I'll sign it off myself",
审批人填我, 我自己批."""


class SelfApproverSaid:
    """Asks for another approver, saying why, where the person's words made themselves the approver."""

    name = "self_approver_said"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        approver = call.found.get("nextUserId")
        if call.spec.name != "runWorkFlow" or not approver or approver.get("id") != call.ctx.actor_id:
            return
        assert call.request is not None
        if _MYSELF.search(latest_message(call.request)):
            raise NeedsPersonError(
                "self_approver", "nextUserId must be someone other than the requester, who asked to approve it "
                "themselves; the user is asked who approves", ask="self_approver", param="nextUserId",
                choices=approver_choices(call.handle, call.ctx.actor_id, call.request["lang"]),
            )
