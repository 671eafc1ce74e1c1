"""The workflow's own guards. A request is filed, withdrawn or resent by its requester alone, so one who speaks of
another person's request (李四的报销, 王五那个假, "Li Si's expense claim") is asking about one that exists, to decide
it or to know where it is. And one who says to send their request again (再提一次, 重新提交, "resend it") wants it
sent, not withdrawn. Such a call is refused to the model, with what to do instead, before the person is asked for
anything or shown a card they never meant to see. So is a rejection when the person said to send the request back
(退回, "send it back"), and a return when they said to reject it (驳回, 拒了, "turn it down"), and the other guards on
to-dos (`tools.workflow.todo_guards`). Which record the person means, where the model named it otherwise, is read by
`tools.workflow.named`."""

from __future__ import annotations

import re
from typing import Any

from tools.errors import CannotError, DomainError, PolicyError
from tools.guards.call import Call
from tools.message_kind import others_words_masked
from tools.request import latest_message, named_in_latest, persons_in_latest
from tools.workflow import form_fit, lookup
from tools.workflow.mine import told_where
from tools.workflow.nothing_to_do import ON_A_TODO
from tools.workflow.others_todo import COPIES, TODOS, on_the_todo
from tools.workflow.request_lookup import PENDING, own_pending, processes_named
from tools.workflow.request_words import RESEND
from tools.workflow.todo_guards import said_return_or_reject
from tools.workflow.withdraw import only_its_requester
from tools.workflow.words import (
    ASKED,
    EMAIL_WORDS,
    OF_EMAIL,
    OF_OWNER,
    OWN_TRANSFER_SAY,
    REQUEST_NOUN,
    SELF_DECIDE_SAY,
    URGE_WORDS,
    WITHDRAW,
    anothers_request,
    decision_in,
    self_decide_said,
)

OWN_REQUEST = frozenset({"runWorkFlow", "withdrawRequest", "resubmitRequest", "queryMyRequests", "urgeTask"})
"""The workflow's tools on a request of the person's own: filing, withdrawing, resending, listing or urging one."""


class AnothersRequest:
    """Refuses a call on a request of the person's own whose message speaks of someone else's request; and a look-up
    of the requests copied to them when the one they speak of waits on them as a to-do, not a copy."""

    name = "anothers_request"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        assert call.request is not None
        others_todos = call.spec.name == TODOS and not _the_actor(call, call.values.get("userId"))
        if call.spec.name not in OWN_REQUEST and call.spec.name != COPIES and not others_todos:
            return  # another's to-do list looked up for a request of theirs that waits on the person: it is a to-do
        latest = latest_message(call.request)
        for person_id, person in call.request["names"].items():
            if person_id == call.ctx.actor_id:
                continue
            for name in (person.get("name"), person.get("alias")):
                said = anothers_request(latest, name) if name else None
                if not said:
                    continue
                todos = lookup.todos_from(call.handle, call.ctx.actor_id, person_id)
                if call.spec.name in (COPIES, TODOS) and not todos:
                    continue  # it may well be a copy, or their own to-dos asked about: the look-up says
                if not todos and call.spec.name == "urgeTask":  # no step of it theirs: no other tool to send them to
                    raise only_its_requester(call.spec.name, person_id, person, said)
                text, instead = on_the_todo(call, person_id, said, todos, latest)
                raise PolicyError("anothers_request", text, instead=instead)


def _the_actor(call: Call, value: object) -> bool:
    """Whether a user the model named is the signed-in one, by id or by name ("王五" for 王五's own to-dos), or none."""
    if not str(value or "").strip() or str(value) == call.ctx.actor_id:
        return True
    if re.fullmatch(r"\s*user_\w+\s*", str(value)):
        return False  # another's id: read without the store
    try:
        return str(lookup.resolve_user(call.handle, value)["id"]) == call.ctx.actor_id
    except DomainError:
        return False  # no such user, or several: the reference's look-up says so


class ResendNotWithdraw:
    """Refuses a withdrawal when the person's message says to send their request again and nothing of taking it back
    ("行吧，改成3天再提一次"): that is a resend, with what they change; and a new start saying so, from someone with one
    request sent back."""

    name = "resend_not_withdraw"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        assert call.request is not None
        if call.spec.name in _NOT_A_RESEND:
            self._resend_not_start(call)
            return
        if call.spec.name == "resubmitRequest" and call.request.get("declined") and not own_pending(
                call.handle, call.ctx.actor_id, ("returned",)):  # "小票上其实是…，重新提交吧" after the card they declined
            keys = sorted(processes_named(call.handle, "\n".join(call.request["texts"])))
            raise PolicyError(
                "declined_not_returned", "Nothing of the user's was sent back; they correct the request whose card they "
                "declined: call runWorkFlow again with what they change.",
                instead={"name": "runWorkFlow", "args": {"processKey": keys[0]}} if len(keys) == 1 else None)
        if call.spec.name != "withdrawRequest":
            return
        latest = latest_message(call.request)
        again = RESEND.search(latest)
        if again and not WITHDRAW.search(latest):
            returned = own_pending(call.handle, call.ctx.actor_id, ("returned",))
            raise PolicyError(
                "resend_not_withdraw",
                f"The user asks to send the request again ({again.group()!r}), not to withdraw it: call "
                "resubmitRequest with what they change.",
                # their one request sent back: what changes is read from their words on its card, or asked
                instead={"name": "resubmitRequest", "args": {"requestId": returned[0]["id"]}} if len(
                    returned) == 1 else None,
            )

    @staticmethod
    def _resend_not_start(call: Call) -> None:
        """A start whose words send again ("行吧，那就改成3天，再帮我提交一遍") from someone with one request sent back
        is that request's resend; so is a call on a to-do from someone nothing waits on ("change the reason to … and
        resend it": no to-do of theirs to return)."""
        assert call.request is not None
        again = RESEND.search(latest_message(call.request))
        returned = own_pending(call.handle, call.ctx.actor_id, ("returned",)) if again else []
        actor = call.ctx.actor_id
        if returned and call.spec.name != "runWorkFlow" and lookup.engine_of(call.handle).tasks_for(
                call.handle, actor, lookup.groups_of(call.handle, actor)):
            return  # something waits on them: the to-do's own guards judge it
        if again and len(returned) == 1:
            raise PolicyError(
                "resend_not_start", f"The user asks to send their returned request {returned[0]['id']} again "
                f"({again.group()!r}), not to file a new one or act on a to-do: call resubmitRequest with requestId "
                f"{returned[0]['id']} and what they change.",
                instead={"name": "resubmitRequest", "args": {"requestId": returned[0]["id"]}},
            )


_NOT_A_RESEND = frozenset({"runWorkFlow", "handleTodoTask", "returnTask", "transferTask"})
"""The tools a message that sends the person's returned request again may be taken for: a new start, or a call on a
to-do."""


_THAT = "[那这](?:个|张|笔|份|趟|次)"
"""那个, 这张, 那笔: the one meant, between a description and its request ("我提交给李四的那个申请")."""
_OWN = re.compile(
    rf"(?<![给送抄])(?<!cc|CC|知会)我(?:自己)?{OF_OWNER}{REQUEST_NOUN}|\bmy\s+(?:own\s+)?(?:[\w.,¥$-]+(?:['’](?!s\b)\w+)*\s+){{0,2}}{REQUEST_NOUN}\b|"
    rf"我(?:刚才?|之前|前天|昨天|今天|上周|上午|下午)?(?:提交|提|交|发|报|递|填)(?:给[^\s，。,.!?！？的]{{1,4}})?"
    rf"(?:的(?:{_THAT})?|{_THAT}){REQUEST_NOUN}|{REQUEST_NOUN}\s+(?:that\s+|which\s+)?I\s+(?:just\s+)?(?:sent|filed|submitted|put\s+in|raised)\b|"
    r"我(?:自己)?(?:报销|请的?假|出差申请)(?=咋|怎么|为什么|为啥|被|呢|到哪|还没|批了|在哪|进度)",
    re.IGNORECASE,
)
"""Words that speak of the person's own request: 我的假, 我那个报销, 我提交给李四的(那个)报销, "my request", "my 3-day leave",
"the claim I sent Li Si"; not 抄送给我的申请 or 李四交给我的报销 (sent or copied to them)."""
NOT_OWN_REQUEST = frozenset({"returnTask", "transferTask", "viewTask", "queryCcRequests"})
"""The tools on requests that are not the person's own: other people's, sent back, passed on, viewed or copied to
them. A decision is left out: "approve my requests" speaks of the person's to-dos, for nobody decides their own."""


class OwnRequest:
    """Refuses a call on other people's requests when the person's message speaks of a request of their own and of
    nobody else's ("李四把我的假退回来了？改成3天再提一次", "Why'd Li Si send my request back?"): they ask where it is,
    what its approver said, or to resend or withdraw it. And a new start, where it says one of those to do to a request
    they have ("please pull my day-off request")."""

    name = "own_request"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        assert call.request is not None
        latest = latest_message(call.request)
        # a reminder of their own request asked for, no e-mail and no text of theirs: the reminder the system writes
        urged = call.spec.name == "sendEmail" and URGE_WORDS.search(latest) and not OF_EMAIL.search(latest) and \
            not call.request.get("quoted")
        if call.spec.name not in NOT_OWN_REQUEST and call.spec.name != START and not urged:
            return
        if call.spec.name == START and self_decide_said(latest) and own_pending(call.handle, call.ctx.actor_id):
            raise CannotError("self_approval", "The user asks to approve their own request: nobody decides their own; "
                              "its approver does.", say=told_where(call.handle, call.ctx.actor_id, SELF_DECIDE_SAY))
            # "我那笔打车费能不能我自己直接批了？": who holds it is said first
        own = _OWN.search(others_words_masked(latest))  # "张三跟我说：“我那笔报销…”": 张三's, not theirs
        if own is None:
            return
        if call.spec.name == START and not (_acts_on_one(latest) and own_pending(call.handle, call.ctx.actor_id)):
            return  # "my leave for next week": a start; "pull my day-off request" acts on the one they have
        if call.spec.name == "transferTask" and own_pending(call.handle, call.ctx.actor_id):  # "give my trip to Zhao Liu"
            raise CannotError("own_transfer", "The user asks to pass their own request on to another approver: only its "
                              "approver can; they may withdraw it and file it again.",
                              say=told_where(call.handle, call.ctx.actor_id, OWN_TRANSFER_SAY))
        for person_id, person in call.request["names"].items():
            if person_id != call.ctx.actor_id and any(
                    anothers_request(latest, n) for n in (person.get("name"), person.get("alias")) if n):
                return
        if call.spec.name in ON_A_TODO and lookup.holds_todo_of(call.handle, call.ctx.actor_id, {
                p["id"] for p in persons_in_latest(call.request, but=call.ctx.actor_id)}):
            return  # "我的出差延长了…张三那个待办直接转给王五": the to-do of 张三's they hold is what they act on
        text, instead = _own_request_refusal(call, own.group(), latest)
        raise PolicyError("own_request", text, instead=instead)


START = "runWorkFlow"


def _acts_on_one(text: str) -> bool:
    """Whether a message says one thing to do to a request that exists, which no new one does: send it again, or take
    it back (a reminder may go with a new request: "file it and remind Li Si")."""
    return bool(RESEND.search(text)) != bool(WITHDRAW.search(text))


def _own_request_refusal(call: Call, said: str, latest: str) -> tuple[str, dict[str, Any] | None]:
    """What to do with the person's own request instead: the one action their message says (send it again, take it
    back, remind its approver, or see it), with the request's id when they have one such request; all four when it
    says none of them or several. With the call itself, when it is whole (a withdrawal or a reminder of their one
    request: a resend needs what they change)."""
    head = f"The user speaks of their own request ({said!r}), " + (
        "one they have, not a new one" if call.spec.name == START else "not of a to-do or a copy of someone else's")
    again, back, urge = bool(RESEND.search(latest)), bool(WITHDRAW.search(latest)), bool(URGE_WORDS.search(latest))
    named = processes_named(call.handle, "\n".join(call.request["texts"])) if call.request else set()
    if call.request and call.request.get("declined") and call.spec.name != START and len(named) == 1 and \
            again + back + urge == 0:  # "take it out of my annual leave then" after the start refused: that start again
        key = next(iter(named))
        return f"{head}: they change the start just refused or declined: call runWorkFlow with processKey {key} again " \
               "with what they change.", {"name": START, "args": {"processKey": key}}
    if again + back + urge == 0:  # no action said: they ask about it, and the look-up is the person's words' call
        see = {"name": "queryMyRequests", "args": {}}
        return f"{head}: to see it, where it stands and what its approver said, call queryMyRequests.", see
    if again + back + urge != 1:
        return (f"{head}: to see it, where it stands and what its approver said, call queryMyRequests; to send it "
                "again, resubmitRequest; to take it back, withdrawRequest; to remind its approver, urgeTask."), None
    tool, statuses, what = (("resubmitRequest", ("returned",), "to send it again as they say, with what they change")
                            if again else ("withdrawRequest", PENDING, "to take it back as they say") if back else
                            ("urgeTask", ("running",), "to remind its approver as they say"))
    mine = own_pending(call.handle, call.ctx.actor_id, statuses)
    if len(mine) > 1:  # "pull my trip request": the one of the process their words name
        named = processes_named(call.handle, said)
        mine = [r for r in mine if r["process_key"] in named] if named else mine
    which = f" with requestId {mine[0]['id']}" if len(mine) == 1 else ""
    # a resend too: the guards read what changes from the person's own words, and ask when they name nothing
    return f"{head}: {what}, call {tool}{which}.", {"name": tool, "args": {"requestId": mine[0]["id"]}} if len(
        mine) == 1 else None


_WHO_DECIDES = re.compile(
    r"审批|审核|批|过目|经手|签字|\b(?:approv\w*|sign(?:s|ed|ing)?\s+off|look(?:s|ed)?\s+at|review\w*|check(?:s|ed)?|"
    r"decid\w*)\b",
    re.IGNORECASE,
)
"""Words of deciding or looking at a request: whom a question of them asks about is a process's steps."""


_LISTS = frozenset({"getAllUser", "queryMyRequests", "queryTodoTask", "queryCcRequests"})
"""The look-ups a question of a process's rule is no question of: people, the person's requests, to-dos, copies."""
_A_RULE = re.compile(
    r"多大|多少钱|超过|以上|什么情况|哪种|\b(?:how\s+(?:big|much|large|many|long)|before|over|above|more\s+than|"
    r"when\s+(?:does|do|is|are)|in\s+which\s+case|what\s+kind)\b",
    re.IGNORECASE,
)
"""Words that ask for a rule ("how big before finance…", 超过多少要财务批): a condition, not a record."""


class StepsNotPeople:
    """Refuses the directory of people to a question of who decides or looks at a kind of request that names nobody
    ("if an expense claim is big, does anybody besides my approver have to look at it?"), and the person's own
    requests, to-dos or copies to one that asks for the rule ("how big does a claim have to be before finance has to
    approve it?"): a process's steps say it (the list of processes shows each with when a request comes to it)."""

    name = "steps_not_people"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        assert call.request is not None
        if call.spec.name not in _LISTS:
            return
        latest = latest_message(call.request)
        if not ASKED.search(latest) or named_in_latest(call.request) or not _WHO_DECIDES.search(latest):
            return
        if call.spec.name != "getAllUser" and (not _A_RULE.search(latest) or _OWN.search(latest)):
            return  # "do I have claims to approve?" asks for their to-dos; "has my claim been approved?" for theirs
        definitions = list(lookup.engine_of(call.handle).definitions(call.handle))
        if len(form_fit.processes_they_named(definitions, latest)) != 1:
            return
        raise PolicyError(
            "steps_not_people", "The user asks who decides or looks at a kind of request: the process's steps say it; "
            "call getAllWorkFlow.", instead={"name": "getAllWorkFlow", "args": {}},
        )


class StartNotEmail:
    """Refuses an e-mail when the person's latest message speaks of none and names one process to file ("Claim 1,150
    RMB for the team lunch - Li Si signs off, and copy Wang Wu on it": a claim that copies Wang Wu, not an e-mail to
    him): that start is carried, its values read from their words or asked on its card."""

    name = "start_not_email"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        assert call.request is not None
        if call.spec.name != "sendEmail":
            return
        latest = latest_message(call.request)
        decided = decision_in(latest)
        if decided is not None and not EMAIL_WORDS.search(latest) and not ASKED.search(latest):
            self._decided_not_emailed(call, decided)
        if EMAIL_WORDS.search(latest) or _OWN.search(latest) or call.request["quoted"] or decided is not None \
                or said_return_or_reject([latest]):
            return  # an e-mail, a reminder, a text, their own request, or a decision spoken of: no new request
        definitions = list(lookup.engine_of(call.handle).definitions(call.handle))
        named = form_fit.processes_they_named(definitions, latest)
        if len(named) != 1:
            return
        raise PolicyError(
            "start_not_email", f"The user asks for no e-mail; their words name {named[0].key}: to file it, call "
            f"runWorkFlow with processKey {named[0].key}.", instead={"name": "runWorkFlow", "args": {"processKey": named[0].key}},
        )

    @staticmethod
    def _decided_not_emailed(call: Call, decided: bool) -> None:
        """An e-mail where the person decides the one to-do of the one other person they name and speaks of no e-mail
        ("Zhang San's Shanghai trip looks fine. Sign off on it, and add a note that …"): that decision, its note the
        comment."""
        decision = decision_on_the_one_named(call, decided)
        if decision is not None:
            raise PolicyError(
                "start_not_email", f"The user asks for no e-mail; they {'approve' if decided else 'reject'} "
                f"{decision['args']['taskId']}: call handleTodoTask with taskId {decision['args']['taskId']} and isOK "
                f"{str(decided).lower()}, their note the comment.", instead=decision,
            )


def decision_on_the_one_named(call: Call, decided: bool) -> dict[str, Any] | None:
    """The decision on the one to-do of the one other person the latest message names, or None."""
    assert call.request is not None
    named = [p for p in named_in_latest(call.request) if p != call.ctx.actor_id]
    todos = lookup.todos_from(call.handle, call.ctx.actor_id, named[0]) if len(named) == 1 else []
    return {"name": "handleTodoTask", "args": {"taskId": todos[0].id, "isOK": decided}} if len(todos) == 1 else None
