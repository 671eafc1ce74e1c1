"""The guard that keeps a question of what waits on the person to their to-dos (`TodosNotCopies`): "财务这边有啥要我过的
单子没" is no question of what was copied to them, and a decision it states on the one to-do of the one person it
names is that decision; and a question of their own request to their own requests ("那我自己报的那笔高铁票呢，现在卡在谁
那？" is no question of what was copied to them)."""

from __future__ import annotations

import re

from tools.errors import PolicyError
from tools.guards.call import Call
from tools.request import latest_message
from tools.workflow.batch_words import BATCH_TOOL, asks_for_several, batch_words
from tools.workflow.guards import COPIES, decision_on_the_one_named
from tools.workflow.request_lookup import processes_named
from tools.workflow.words import ASKED, decision_in

_FOR_ME_TO_DECIDE = re.compile(
    r"(?:要|让|等|需要|该|给)我(?:来|去)?(?:过|批|审|处理|签|看|办|决定)|待办|待审|\bto-?dos?\b|"
    r"\bfor\s+me\s+to\s+(?:approve|sign|decide|review|look\s+at|check|handle|deal\s+with)\b|"
    r"\b(?:waiting|pending|sitting)\s+(?:on|for)\s+me\b|\bmy\s+(?:approval|sign-?off|decision)\b|"
    r"\b(?:sent|send|passed|forwarded|submitted)\s+me\s+(?:anything|something|a\s+request|any\s+\w+)|"
    r"(?:发|交|提|转)(?:给|到)我(?:这里|这儿)?(?:了)?(?:什么|啥|东西|单子|申请)|"
    r"(?:转|交|推|丢|甩)(?:了|过来)?(?:个|一个|一份|一笔|几个)?[^，,。？?！!\s]{0,6}?(?:给|到)我(?!们|老板|领导|同事|家|的)|"
    r"\b(?:passed|handed|transferred|forwarded)\s+(?:(?:it|one|something|a\s+[\w-]+(?:\s+request)?)\s+)?(?:over\s+|on\s+)?to\s+me\b|"
    r"\blanded\s+on\s+my\s+(?:desk|plate)\b",
    re.IGNORECASE,
)
"""Words of what waits on the person to decide: 要我过的单子, 等我批的, 待办, "for me to approve", "waiting on me", "did
the new guy send me anything?", 交给我什么了, 转了个请假给我, "passed a leave over to me", "landed on my desk"."""
_OF_MINE = re.compile(r"我(?:自己)?(?:的|报|提|交|申请|请)|\bmy\s+own\b|\bmine\b|\bmy\s+(?:requests?|claims?|leave|trips?|"
                      r"expenses?|applications?)\b", re.IGNORECASE)
"""Words of the person's own requests (我自己报的, 我的申请, "my claim", "mine")."""
_COPIED = re.compile(r"抄送|抄给|知会|\bcc'?d?\b|\bcop(?:y|ied)\b", re.IGNORECASE)


DEPUTIES = "queryMyDeputies"
_OF_DEPUTIES = re.compile(r"代理人|代理审批|代批|替我|帮我(?:审|批)|谁(?:来)?(?:代|替)|\bdeput(?:y|ies)\b|\bfor\s+me\s+while\b|"
                          r"\b(?:cover(?:s|ing)?|stand(?:s|ing)?\s+in)\s+for\s+me\b|\bon\s+my\s+behalf\b", re.IGNORECASE)
"""Words that ask about the person's own deputies (代理人, 替我审批, "my deputy", "covering for me"): not what waits on
them."""


class TodosNotCopies:
    """Refuses the look-up of the requests copied to the person, of their own requests, or of their deputies ("I'm
    covering Li Si's approvals while he's off. Is anything waiting for me?" had listed whom they cover for), where their
    words ask what waits on them to decide and speak of no copy ("财务这边有啥要我过的单子没"), nor of a request of
    their own ("我这边现在有啥要我批的？" had been answered with the lead's own claim): their to-dos answer it."""

    name = "todos_not_copies"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        assert call.request is not None
        if call.spec.name not in (COPIES, "queryMyRequests", DEPUTIES):
            return
        latest = latest_message(call.request)
        if call.spec.name == DEPUTIES and _OF_DEPUTIES.search(latest):
            return  # "did I set someone to approve for me?": their deputies
        if call.spec.name == "queryMyRequests" and _OF_MINE.search(latest):
            return  # "那我自己报的那笔高铁票呢": their own request
        if call.spec.name == COPIES and _OF_MINE.search(latest) and not _COPIED.search(latest) and \
                not _FOR_ME_TO_DECIDE.search(latest):
            raise PolicyError(  # "那我自己报的那笔高铁票呢，现在卡在谁那？" had been answered "nothing is copied to you"
                "own_not_copies", "The user asks about a request of their own, not one copied to them: call "
                "queryMyRequests.", instead={"name": "queryMyRequests", "args": {}},
            )
        if self._batch_decided(call, latest):
            return
        if _FOR_ME_TO_DECIDE.search(latest) and not _COPIED.search(latest):
            decided = decision_in(latest)
            decision = decision_on_the_one_named(call, decided) if decided is not None else None
            raise PolicyError(  # "anything waiting on me? if it's Zhang San's dinner claim, sign it off": decided
                "todos_not_copies", "The user asks what waits on their decision, not what was copied to them nor their "
                "own requests: call "
                f"queryTodoTask with userId {call.ctx.actor_id}" + (
                    f"; they decide {decision['args']['taskId']}: call handleTodoTask." if decision else "."),
                instead=decision or {"name": "queryTodoTask", "args": {"userId": call.ctx.actor_id}},
            )

    @staticmethod
    def _batch_decided(call: Call, latest: str) -> bool:
        """Refuses the look-up where the message decides several of the person's to-dos and asks nothing of their own
        requests ("我这边请假的都批了吧，报销的我晚点再看" had been answered with their own requests, none): the batch of
        the one process it names, or of all, is proposed instead. False where the message says no such thing."""
        decided = decision_in(latest)
        if decided is None or ASKED.search(latest) or _OF_MINE.search(latest) or _COPIED.search(latest) or \
                not asks_for_several(latest):
            return False
        keys = processes_named(call.handle, batch_words(latest))
        args = {"isOK": decided, **({"processKey": next(iter(keys))} if len(keys) == 1 else {})}
        raise PolicyError(
            "batch_not_lookup", "The user decides several of their to-dos, not asks about their own requests, copies "
            f"or deputies: call decideTasks with {args}.", instead={"name": BATCH_TOOL, "args": args},
        )
