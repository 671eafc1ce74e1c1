"""The guards on the person's to-dos: what their words decide. A rejection when they said to send the request back
(退回, "send it back"), and a return when they said to reject it (驳回, 拒了, "turn it down") or approve it; a
transfer when they decided the request and the colleague they named is only in what they tell the requester (a call on
a to-do when nothing waits on them at all: `tools.workflow.nothing_to_do`). Each is refused to the model with the call
their words ask for, when it is known whole."""

from __future__ import annotations

import re
from typing import Any

from tools.errors import DomainError, PolicyError
from tools.guards.call import Call
from tools.people import named_in
from tools.request import latest_message, named_in_latest, persons_in_latest
from tools.taken_back import last_said
from tools.workflow import form_fit, lookup
from tools.workflow.approver_words import named_as_taker
from tools.workflow.conditions import as_its_condition_says
from tools.workflow.engine import Definition
from tools.workflow.passed_on import PASS_ON
from tools.workflow.words import (
    APPROVALS,
    ASKED,
    AWAY,
    DEPUTY,
    I_DECIDE,
    OF_EMAIL,
    REQUEST_NOUN,
    SENT_BACK,
    TURNED_DOWN,
    decision_in,
    stated_decision,
)


def _whole(tool: str, *, taskId: Any, **args: Any) -> dict[str, Any] | None:  # noqa: N803 - the tool's own name
    """The call a refusal names in place of the refused one, with the refused call's to-do and its comment (the
    guards read the person's own words over it), or None without a to-do."""
    if not taskId:
        return None
    return {"name": tool, "args": {"taskId": taskId, **{k: v for k, v in args.items() if v not in (None, "")}}}


_REJECTION = re.compile(
    r"驳回|拒绝|拒了|拒掉|回绝|不同意|不批|别批|(?<![拿说])不准|不通过|不予|"
    r"打回(?!(?:去|来|给他|给她)?[^。！!?？]{0,12}?(?:改|重做|重新|重提|再提|补|(?:写|说|讲|交代)(?:清楚|明白|清)|写明|注明))"
    r"(?!(?:去|来)?(?:给他|给她)?[，,\s]*(?:让|叫|请)(?:他|她|对方))|"
    r"否决|否掉|毙(?:了|掉|吧)|枪毙|"
    rf"\breject|\bdeclin|\bden(?:y|ied)\b|\brefus|\bveto|{TURNED_DOWN}",
    re.IGNORECASE,
)
"""Words that reject a request: 驳回, 拒了, 不批, 打回 (not 打回去让他改: a return), "reject", "turn it down"."""
_GROUNDS = re.compile(r"理由|原因|意见|备注|因为|\b(?:reason|because|comment|note|saying)\b", re.IGNORECASE)
"""Where the person's grounds begin: what follows is what to tell the requester, not the decision."""


def said_return_or_reject(texts: list[str]) -> tuple[str, str] | None:
    """("return" or "reject", the words) as the person's latest message that says either says it, before its grounds
    ("驳回，理由：重新开了再提" rejects); None when it says both, or none of their messages says either."""
    for text in reversed(texts):
        decision = _GROUNDS.split(text, maxsplit=1)[0]
        sent_back, rejected = SENT_BACK.search(decision), _REJECTION.search(decision)
        if sent_back and rejected:
            return None
        if sent_back or rejected:
            return ("return", sent_back.group()) if sent_back else ("reject", rejected.group())  # type: ignore[union-attr]
    return None


class ReturnOrReject:
    """Refuses a rejection when the person said to send the request back, and a return when they said to reject it,
    or to approve it ("张三那笔差旅报销我同意，票据我看过了都对得上": approved, with their comment); and a transfer
    naming nobody to take it when they said to send it back."""

    name = "return_or_reject"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        assert call.request is not None
        if call.spec.name == "transferTask":
            self._not_passed_on(call)
            return
        if as_its_condition_says(call):
            return
        # The person's words win over the model's isOK (tools.workflow.words), and 退回 reads as "no" there too.
        rejecting = call.spec.name == "handleTodoTask" and (
            call.values.get("isOK") in (False, "false", "False") or stated_decision(call.request) is False)
        if not rejecting and call.spec.name != "returnTask":
            return
        said = said_return_or_reject(call.request["texts"])
        task = call.values.get("taskId")
        latest = latest_message(call.request)
        last = re.split(r"[？?]", latest)[-1].strip() or latest  # "是不是有王五的一笔报销？…给他过了吧": what follows decides
        if said is None and not rejecting and not ASKED.search(last) and stated_decision(call.request) is True:
            raise PolicyError(
                "approve_not_return",
                "The user approves the request, not sending it back: call handleTodoTask with isOK true and their "
                "comment.",
                instead=_whole("handleTodoTask", taskId=task, isOK=True, result=call.values.get("comment")),
            )
        if said is None:
            return
        meant, words = said
        if rejecting and meant == "return":
            raise PolicyError(
                "return_not_reject",
                f"The user asks to send the request back to its requester ({words!r}), not to reject it: call returnTask "
                "with their comment.",
                instead=_whole("returnTask", taskId=task, comment=call.values.get("result")),
            )
        if not rejecting and meant == "reject":
            raise PolicyError(
                "reject_not_return",
                f"The user asks to reject the request ({words!r}), not to send it back: call handleTodoTask with isOK "
                "false and their reason.",
                instead=_whole("handleTodoTask", taskId=task, isOK=False, result=call.values.get("comment")),
            )


    @staticmethod
    def _not_passed_on(call: Call) -> None:
        """A transfer where the person said to send the request back and named nobody to take it ("Bounce Zhang
        San's trip back to him"; not "hand it back to Wang Wu", who takes it) is the return they said."""
        assert call.request is not None
        said = said_return_or_reject(call.request["texts"])
        if said is None or said[0] != "return":
            return
        named = persons_in_latest(call.request)
        if named_as_taker(latest_message(call.request), named):
            return
        raise PolicyError(
            "return_not_transfer",
            f"The user asks to send the request back to its requester ({said[1]!r}), not to pass it on: call "
            "returnTask with their comment.",
            instead=_whole("returnTask", taskId=call.values.get("taskId"), comment=call.values.get("comment")),
        )


_CLAUSE = re.compile(r"[，,。;；!！?？\n]+|(?<=\w)\.(?:\s+|$)")
_OF_A_REQUEST = re.compile(REQUEST_NOUN, re.IGNORECASE)


def decided_apart(call: Call, latest: str) -> bool | None:
    """The decision the message states in clauses that pass nothing on, where one of them names the request (a request
    word or a person it names: "赵六请三天年假那个，我这边同意，让他把周报交给王五"); None when none, or clauses both
    ways, decide so, or it asks a question."""
    assert call.request is not None
    if ASKED.search(latest):
        return None
    named = persons_in_latest(call.request)
    people = [n for person in named for n in (person.get("name"), person.get("alias")) if n]
    apart = [clause for clause in _CLAUSE.split(latest) if clause.strip() and not named_as_taker(clause, named)]
    if not any(_OF_A_REQUEST.search(c) or any(n.casefold() in c.casefold() for n in people) for c in apart):
        return None  # "同意，转给赵六吧": nothing apart from the transfer names the request
    decisions = {decision_in(clause) for clause in apart if not _of_another_todo(call, clause, latest)} - {None}
    return decisions.pop() if len(decisions) == 1 else None


def _of_another_todo(call: Call, clause: str, latest: str) -> bool:
    """Whether a clause decides another to-do than the one passed on: it names another process than the to-do's (or
    than the one the hand-over names), or other people and not its requester ("Approve Zhao Liu's day off, and hand
    the Guangzhou trip over to Li Si": the trip is passed on, the leave decided)."""
    assert call.request is not None
    keys = {d.key for d in processes_named(call, clause)}
    given = str(call.values.get("taskId") or "")
    try:
        task = lookup.require_task(call.handle, given) if re.fullmatch(r"task_\d+", given) else None
    except DomainError:
        task = None
    if task is None:
        passed = {d.key for c in _CLAUSE.split(latest) if PASS_ON.search(c) for d in processes_named(call, c)}
        return bool(keys and passed and not keys & passed)
    if keys and task["process_key"] not in keys:
        return True
    named = named_in(clause, persons_in_latest(call.request))
    return bool(named) and all(p.get("id") != task["requester"] for p in named)


class DecidedNotPassed:
    """Refuses a transfer when the person's latest message decides the request apart from passing anything on
    (`decided_apart`: "王五那个三天的假我同意了，走之前把手上的活交接给赵六": approved; the hand-over is what they tell
    the requester): the decision is proposed instead, and the rest of their words are its comment. Consent beside the
    transfer alone ("同意，转给赵六吧") decides nothing here."""

    name = "decided_not_passed"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        assert call.request is not None
        if call.spec.name != "transferTask":
            return
        latest = last_said(latest_message(call.request), PASS_ON)  # "approve it... actually no, pass it on"
        decided = decided_apart(call, latest)
        if decided is None or decision_in(PASS_ON.sub(" ", latest)) is None:
            return  # "换个人来批吧": the deciding is another's, not theirs
        raise PolicyError(
            "decided_not_passed",
            f"The user {'approves' if decided else 'rejects'} the request, not passing it on: call handleTodoTask "
            f"with isOK {str(decided).lower()}; what else they say is their comment.",
            instead=_whole("handleTodoTask", taskId=call.values.get("taskId"), isOK=decided),
        )


def processes_named(call: Call, text: str) -> list[Definition]:
    """The processes the text names as a request of its own (`form_fit.processes_they_named`)."""
    return form_fit.processes_they_named(list(lookup.engine_of(call.handle).definitions(call.handle)), text)


class DecidedNotStarted:
    """Refuses a new request whose words name no process but decide the one to-do of the one other person they name
    ("fine from finance, sign off on Wang Wu's laptop one": Wang Wu's claim waits on them): the decision is carried.
    A message that names a process ("请3天假，李四批") is a start, whoever it names, unless the person says they decide
    (`I_DECIDE`: "张三烧成那样…那两天病假我给批了"): the one to-do of that process of the one person named."""

    name = "decided_not_started"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        assert call.request is not None
        if call.spec.name != "runWorkFlow":
            return
        latest = latest_message(call.request)
        named_processes = processes_named(call, latest)
        if ASKED.search(latest) or (named_processes and not I_DECIDE.search(latest)):
            return  # a process named is a start, unless they say they decide ("那两天病假我给批了")
        named = [p for p in named_in_latest(call.request) if p != call.ctx.actor_id]
        decided = decision_in(latest)
        if len(named) != 1 or decided is None:
            return
        todos = lookup.todos_from(call.handle, call.ctx.actor_id, named[0])
        if named_processes:
            todos = [t for t in todos if t.process_key in {d.key for d in named_processes}]
        if len(todos) != 1:
            return
        raise PolicyError(
            "decided_not_started",
            f"The user {'approves' if decided else 'rejects'} {named[0]}'s request, which waits on them as {todos[0].id}; "
            f"they file nothing new: call handleTodoTask with taskId {todos[0].id} and isOK {str(decided).lower()}.",
            instead=_whole("handleTodoTask", taskId=todos[0].id, isOK=decided),
        )


class ReturnNotEmail:
    """Refuses an e-mail where the approver said to send a request back and spoke of no e-mail ("Bounce Zhang San's
    trip back to him - he needs to spell out which client"): the return is carried, their words its comment."""

    name = "return_not_email"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        assert call.request is not None
        if call.spec.name != "sendEmail":
            return
        latest = latest_message(call.request)
        said = said_return_or_reject([latest])
        if said is None or said[0] != "return" or OF_EMAIL.search(latest):
            return
        raise PolicyError(
            "return_not_email", f"The user asks to send the request back to its requester ({said[1]!r}), not for an "
            "e-mail: call returnTask with their comment.",
            instead=_whole("returnTask", taskId=call.values.get("taskId") or call.values.get("userId")),
        )


class DeputyNotStarted:
    """Refuses a new request where the person names one colleague to take over their approvals meanwhile ("下周一到
    周三我去总部培训，这几天的审批麻烦赵六帮我顶一下"): naming a deputy is what they ask, not filing a trip."""

    name = "deputy_not_started"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        assert call.request is not None
        if call.spec.name != "runWorkFlow":
            return
        latest = latest_message(call.request)
        if not APPROVALS.search(latest) or not DEPUTY.search(latest) or ASKED.search(latest) or \
                processes_named(call, AWAY.sub(" ", latest)):
            return  # "让李四审批" names the approver of a request; a deputy covers ("帮我顶", "covers my approvals")
        named = persons_in_latest(call.request, but=call.ctx.actor_id)
        takers = named_as_taker(latest, named)
        if len(takers) != 1:
            return
        raise PolicyError(
            "deputy_not_started", f"The user names {takers[0]['id']} to take over their approvals meanwhile, not a "
            f"request to file: call setDeputy with deputyUserId {takers[0]['id']} and the days they said.",
            instead={"name": "setDeputy", "args": {"deputyUserId": takers[0]["id"]}},
        )
