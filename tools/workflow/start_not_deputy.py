"""Guard: a message that asks for a request of one process and names its approver, and says nothing of anyone covering
the person's approvals, asks for that request, not a deputy ("那下周三先休一天年假，在家歇歇，让李四批一下" had a deputy
proposed with 李四 and the day: the thirty-seventh round, read after its run). The reverse of `deputy_not_started`."""

from __future__ import annotations

import re

from tools.errors import PolicyError
from tools.guards.call import Call
from tools.request import latest_message, persons_in_latest
from tools.workflow.approver_words import named_as_taker
from tools.workflow.request_lookup import processes_named
from tools.workflow.words import APPROVALS, DEPUTY

_HANDED = re.compile(
    r"(?:审批|待办|\bapprovals\b|\btasks\b|\bqueue\b)[^，。,.;；]{0,8}(?:交给|转给|转交|给|由|让|叫|归|\bto\b|\bgo\b)|"
    r"找我(?:审批|批)|我的(?:审批|待办)|\bmy\s+(?:approvals|queue|tasks|to-?dos)\b",
    re.IGNORECASE,
)
"""Words that hand the person's approvals to someone ("这段时间的审批交给王五", "找我审批的东西都让李四帮我处理", "my
approvals go to Wang Wu")."""


class StartNotDeputy:
    """Refuses setDeputy where the latest message names one process to file and no cover, with that start instead."""

    name = "start_not_deputy"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        assert call.request is not None
        if call.spec.name != "setDeputy" or call.request["kind"] != "action":
            return
        latest = latest_message(call.request)
        keys = processes_named(call.handle, latest)
        if DEPUTY.search(latest) or len(keys) != 1 or _HANDED.search(latest):
            return  # "这段时间的审批交给王五": the approvals handed over
        key = next(iter(keys))
        raise PolicyError(
            "start_not_deputy", f"The user asks for a request of {key} and names its approver; nobody is to cover their "
            f"approvals: call runWorkFlow with processKey {key}.", instead={"name": "runWorkFlow", "args": {"processKey": key}},
        )


_CLAUSE = re.compile(r"(?:[^，,。;；!！?？\n.]|\.(?!\s|$))+")
_COVERS = re.compile(r"接着|盯着|看着|接手|顶着|帮我接|帮我看|帮我盯|\b(?:handles?|take\s+care\s+of|look(?:s|ing)?\s+after|"
                     r"mind(?:s|ing)?|pick(?:s|ing)?\s+up)\b", re.IGNORECASE)
"""Words of one looking after the person's work ("客户电话赵六帮我接着", "Zhao Liu handles my calls"), besides `DEPUTY`."""
_WORK = re.compile(r"活|工作|电话|客户|值班|顶班|手头|手上|工位|项目|\b(?:calls?|phones?|desk|work|shifts?|clients?|"
                   r"customers?|inbox|e-?mails?|projects?|meetings?|rota)\b", re.IGNORECASE)
"""Words of the person's work, not their approvals: 手上的活, 电话, "my calls", "my desk"."""


_NAMED_DEPUTY = re.compile(r"代理|代审|代我审|代我批|\bdeput(?:y|ies)\b|\bon\s+my\s+behalf\b", re.IGNORECASE)
"""Words that name a deputy as such ("make Zhao Liu my deputy", 代理审批): no cover of the person's work."""


class WorkNotApprovals:
    """Refuses setDeputy where every clause that names someone covering speaks of the person's work and not their
    approvals ("Wang Wu will cover my calls. Li Si approves", "手上的活王五帮我顶着，李四审批": the leave's approver is
    李四, and nobody takes over approvals; the eighty-second round's run had a deputy carded beside the leave), or where
    a message asking for one request says nothing of approvals ("next Friday off, personal leave … Zhang San is
    covering for me"): the request is filed instead, its approver asked."""

    name = "work_not_approvals"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        assert call.request is not None
        if call.spec.name != "setDeputy":
            return
        latest = latest_message(call.request)
        clauses = [c.group() for c in _CLAUSE.finditer(latest) if DEPUTY.search(c.group()) or _COVERS.search(c.group())]
        if not clauses:
            return
        keys = processes_named(call.handle, latest)
        of_a_start = len(keys) == 1 and not APPROVALS.search(latest) and not _NAMED_DEPUTY.search(latest)
        if of_a_start or all(_WORK.search(c) and not APPROVALS.search(c) for c in clauses):
            raise PolicyError(
                "work_not_approvals", "The user said who covers their work, not who decides their approvals: set no "
                "deputy" + (f"; they ask for a request of {next(iter(keys))}: call runWorkFlow." if of_a_start else
                            "; tell the user their approvals stay with them."),
                instead={"name": "runWorkFlow", "args": {"processKey": next(iter(keys))}} if of_a_start else None,
            )


class DeputyNotTransfer:
    """Refuses transferTask where the latest message names one colleague, and no one else, to take over the person's
    approvals on days it gives ("下周一到下周三我去外地参加培训，这几天我的审批让王五替我处理一下": the eighty-seventh round's
    run passed a to-do named "培训" on, then read 我的审批 as a request of the person's own): a deputy, not one to-do
    passed on; that deputy is proposed instead, its days read from the words."""

    name = "deputy_not_transfer"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        assert call.request is not None
        if call.spec.name != "transferTask":
            return
        latest = latest_message(call.request)
        if not DEPUTY.search(latest) or not APPROVALS.search(latest) or not call.request["ranges"]:
            return
        named = persons_in_latest(call.request, but=call.ctx.actor_id)
        takers = named_as_taker(latest, named)
        if len(named) != 1 or len(takers) != 1:
            return  # a to-do of someone's named beside the taker: passing that one on may be what is asked
        taker = takers[0]["id"]
        raise PolicyError(
            "deputy_not_transfer", f"The user names {taker} to take over their approvals on the days they give, not "
            f"one task to pass on: call setDeputy with deputyUserId {taker} and those days.",
            instead={"name": "setDeputy", "args": {"deputyUserId": taker}},
        )
