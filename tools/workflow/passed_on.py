"""Guard: a to-do passed on, not decided ("能不能交给赵六来看？", "can you get Zhao Liu's leave off my plate and over to
someone else?"): the transfer the person asked for, whatever decision or return the model proposed."""

from __future__ import annotations

import re
from typing import Any

from tools.errors import DomainError, PolicyError
from tools.guards.call import Call
from tools.message_kind import kind_of, sentences
from tools.request import latest_message, persons_in_latest
from tools.taken_back import last_said
from tools.workflow import lookup
from tools.workflow.approver_words import named_as_taker
from tools.workflow.words import ASKED, SENT_BACK, decision_in

PASS_ON = re.compile(
    r"(?:转给|转交|移交|交给别人|找别人|换个人|换人|别人)(?:来|去)?(?:批|审|处理|看|定)?(?:一下|下|吧|了)?|"
    r"\b(?:someone|somebody|anyone|anybody)\s+else\b(?:\s+(?:to\s+)?(?:approve|decide|sign\s+off|look\s+at)\w*)?|"
    r"\boff\s+my\s+(?:plate|desk|hands)\b|"
    r"\bhand(?:\s+[\w'’]+){0,4}?\s+(?:off|over)\b|\bpass(?:\s+[\w'’]+){0,4}?\s+on\b|\breassign|\btransfer|\bdelegate",
    re.IGNORECASE,
)
"""Words that pass a to-do on, with the deciding they leave to another: 转给, 换个人来批, 找别人审, "someone else (to
approve)", "off my plate", "hand it over", "pass it on"."""


def _taker(call: Call, latest: str) -> str | None:
    """The one person the message names as taking the to-do over ("交给赵六来看", "pass it to Zhao Liu"), not the
    to-do's requester; None otherwise, or for a question that asks to be told, not for something done."""
    assert call.request is not None
    if ASKED.search(latest) and call.request["kind"] == "information":
        return None
    requester = ""
    given = str(call.values.get("taskId") or "")
    if lookup.ID_RE.match(given):
        try:
            requester = str(lookup.require_task(call.handle, given)["requester"])
        except DomainError:  # no such to-do: the references guard says so
            requester = ""
    takers = named_as_taker(latest, persons_in_latest(call.request, but=requester))
    return str(takers[0]["id"]) if len(takers) == 1 else None


class PassedNotDecided:
    """Refuses a decision or a return where the person decided nothing, sent nothing back and said to pass the to-do
    on, to someone they name or to anyone: the transfer is carried, its taker asked where they named none."""

    name = "passed_not_decided"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        assert call.request is not None
        if call.spec.name not in ("handleTodoTask", "returnTask"):
            return
        passing = [s for s in sentences(latest_message(call.request)) if PASS_ON.search(s)]
        if passing and all(kind_of(s) == "information" for s in passing):
            return  # "Once I sign it, does anybody else have to look at it?" asks, and passes nothing on
        latest = last_said(latest_message(call.request), PASS_ON)  # "approve it... actually no, pass it on"
        taker = _taker(call, latest)
        if not (PASS_ON.search(latest) or taker) or any(decision_in(PASS_ON.sub(" ", last_said(text, PASS_ON))) is not None
                                                        for text in call.request["texts"]):
            return  # "换个人来批吧": the deciding is another's; "同意，转给赵六归档", or a decision said before, decides
        if call.spec.name == "returnTask" and SENT_BACK.search(latest):
            return  # "退回给他，然后…": a return they asked for
        args: dict[str, Any] = {"taskId": call.values.get("taskId"), "nextUserId": taker}
        raise PolicyError(
            "passed_not_decided", "The user decides nothing; they ask to pass the to-do on: call transferTask (with "
            "the colleague they name, or none: they are asked who).",
            instead={"name": "transferTask", "args": {k: v for k, v in args.items() if v}} if args["taskId"] else None,
        )


class TransferNotSaid:
    """Refuses a transfer where the person says they deal with the to-do themselves and passes nothing on ("李四这几天
    休假，我替他处理一下张三的出差申请", "I'm covering for Li Si, I'll handle Zhang San's trip"): it is theirs to decide,
    and they are asked to approve or reject it."""

    name = "transfer_not_said"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        assert call.request is not None
        if call.spec.name != "transferTask":
            return
        texts = call.request["texts"]
        if not any(_THEMSELVES.search(text) for text in texts) or any(PASS_ON.search(text) for text in texts) or any(
                named_as_taker(text, persons_in_latest(call.request)) for text in texts):
            return  # "转给赵六", "pass it to Zhao Liu", or nothing said of dealing with it themselves
        task = call.values.get("taskId")
        raise PolicyError(
            "transfer_not_said", "The user deals with the to-do themselves and passes nothing on: call handleTodoTask "
            "(they are asked to approve or reject).",
            instead={"name": "handleTodoTask", "args": {"taskId": task}} if task else None,
        )


_THEMSELVES = re.compile(
    r"我(?:来|先|自己)?(?:替|帮|代)[^，。,.！!？?\s]{1,4}?(?:处理|审批|审|批|看|办)|我(?:自己)?来(?:处理|审批|审|批|看|办)|"
    r"\bI(?:['’]ll|\s+will|\s+can)?\s+(?:handle|deal\s+with|take\s+care\s+of|decide|sign\s+off\s+on)\b|"
    r"\bI['’]?m\s+covering\b|\bcovering\s+for\b|\bstanding\s+in\s+for\b",
    re.IGNORECASE,
)
"""Words that say the person deals with the to-do themselves: 我替他处理, 我来批, "I'll handle it", "covering for Li Si"."""
