"""Guard: a call on a to-do when nothing waits on the person at all. Their words ask for something else: a request of
their own to file ("…three hundred forty-five kuai out of my own pocket. Can you claim it back for me?"), to take
back ("just pull it back"), or their own request approved ("just approve it for me": nobody decides their own); or
another person's request, which is not theirs to decide. Each is refused with the call their words ask for, when it
is known whole, or with the words for the person."""

from __future__ import annotations

from tools.errors import CannotError, PolicyError
from tools.guards.call import Call
from tools.people import named_in
from tools.request import latest_message, persons_in_latest
from tools.workflow import lookup
from tools.workflow.approver_words import named_as_approver_of, named_as_owner
from tools.workflow.batch_words import BATCH_TOOL
from tools.workflow.mine import not_yours, told_where
from tools.workflow.request_lookup import own_pending, requester_name
from tools.workflow.todo_guards import processes_named
from tools.workflow.words import MINE, SELF_DECIDE_SAY, WITHDRAW, anothers_request, asks_own_approval, decision_in

ON_A_TODO = frozenset({"handleTodoTask", "returnTask", "transferTask"})
"""The tools that act on one of the person's to-dos: a decision, a return, a transfer."""


class NothingToDo:
    """Refuses a call on a to-do named by neither its id nor its requester when nothing waits on the person at all,
    and a withdrawal when nothing of theirs is pending and their words take nothing back:
    their words ask for something else, most often a request of their own ("…three hundred forty-five kuai out of my
    own pocket. Can you claim it back for me?" is a claim to file, not a to-do to send back). Where their latest
    message names one process to start, that start is carried; its values are read from their words, or asked, on its
    card."""

    name = "nothing_to_do"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        assert call.request is not None
        if call.spec.name == "withdrawRequest":
            self._nothing_to_withdraw(call)
            return
        if call.spec.name not in (*ON_A_TODO, BATCH_TOOL):
            return
        task = str(call.values.get("taskId") or "")
        of_a_task = lookup.ID_RE.match(task.strip())
        if of_a_task and (of_a_task.group("prefix") or "task").lower() == "task":
            return  # a task id: the guards on that task say why it is not theirs (a self-approval)
        actor = call.ctx.actor_id
        todos = lookup.engine_of(call.handle).tasks_for(call.handle, actor, lookup.groups_of(call.handle, actor))
        latest = latest_message(call.request)
        if todos:
            if _own_of_its_kind(call, latest, {t.process_key for t in todos}):
                raise CannotError("self_approval", "The user asks to approve their own request.",
                                  say=told_where(call.handle, actor, SELF_DECIDE_SAY))
            return  # something waits on them (the common case: one read)
        whose = _anothers(call, latest) or (requester_name(call.handle, task, but=actor) if of_a_task else None) or (
            _spoken_of_before(call, latest))
        if whose and (refusal := not_yours(call.handle, whose, call.ctx.lang)) is not None:  # "I'm covering for him"
            raise refusal
        if whose:  # "那王五这个出差我顺手给批了", "can I approve req_1 myself?": not theirs to decide, and no start
            raise PolicyError(
                "not_theirs_to_decide", f"Nothing waits on the user's decision: {whose}'s request is not theirs to "
                "decide. Tell them so, and who decides it: queryCcRequests shows a request copied to them, with who "
                "holds it.", instead={"name": "queryCcRequests", "args": {"userId": actor}},
            )
        if call.spec.name == BATCH_TOOL:  # a batch of nothing: its own guards say why, but for their own request
            if asks_own_approval(latest, call.request["kind"]) and own_pending(call.handle, actor):
                raise CannotError("self_approval", "The user asks to approve their own request.",
                                  say=told_where(call.handle, actor, SELF_DECIDE_SAY))
            return
        others = [dict(u) for u in call.handle.execute(lookup.ALL_USERS).mappings() if u["id"] != actor]
        requesters = named_in(task, others)
        if requesters and not all(named_as_approver_of(latest, person) and not named_as_owner(latest, person)
                                  for person in requesters):  # "Approve Zhang San's claim": his, not approving it
            if len(requesters) == 1 and (refusal := not_yours(call.handle, requesters[0]["name"], call.ctx.lang)):
                raise refusal  # "just approve it as Li Si": who holds it, told again
            return  # a requester named: the guards on their request say why it is not theirs (the person's own name
            # is no requester of a to-do of theirs: "赵六" from 赵六, who asks for a comp day, is their own start;
            # the one they name as approving it is no requester either: "…put it in for half a day, Li Si approves")
        mine = own_pending(call.handle, actor)
        if WITHDRAW.search(latest) and len(mine) == 1:  # "just pull it back": their one pending request
            raise PolicyError(
                "no_todos", f"Nothing waits on the user's decision; they take back their own request {mine[0]['id']}: "
                f"call withdrawRequest with requestId {mine[0]['id']}.",
                instead={"name": "withdrawRequest", "args": {"requestId": mine[0]["id"]}},
            )
        if mine and (asks_own_approval(latest, call.request["kind"]) or (  # "我那条请假你直接帮我点个通过得了": their own
                call.request["kind"] != "information" and decision_in(latest) is True)):  # "just approve it for me"
            raise CannotError("self_approval", "The user asks to approve their own request.",
                                  say=told_where(call.handle, actor, SELF_DECIDE_SAY))
        named = processes_named(call, latest)
        if not named and call.request.get("declined"):  # a correction of the start they declined: that process
            named = processes_named(call, "\n".join(call.request["texts"]))
        start = f"; their words name {named[0].key}: to file it, call runWorkFlow with processKey {named[0].key}" if len(
            named) == 1 else ""
        raise PolicyError(
            "no_todos", f"Nothing waits on the user's decision, so there is no to-do to act on{start}. To see their own "
            "requests, call queryMyRequests.",
            instead={"name": "runWorkFlow", "args": {"processKey": named[0].key}} if len(named) == 1 else None,
        )

    @staticmethod
    def _nothing_to_withdraw(call: Call) -> None:
        """A withdrawal from someone with no pending request of their own, whose words take nothing back and name one
        process to start ("bought toner on my own card, want the money back": a claim to file) is that start."""
        assert call.request is not None
        latest = latest_message(call.request)
        if WITHDRAW.search(latest) or own_pending(call.handle, call.ctx.actor_id):
            return
        named = processes_named(call, latest)
        if len(named) == 1:
            raise PolicyError(
                "nothing_to_withdraw", f"The user has no pending request to take back; their words name {named[0].key}: "
                f"to file it, call runWorkFlow with processKey {named[0].key}.",
                instead={"name": "runWorkFlow", "args": {"processKey": named[0].key}},
            )


def _anothers(call: Call, latest: str) -> str | None:
    """The name of the one other person whose request the latest message speaks of ("王五这个出差"), or None."""
    assert call.request is not None
    found = {name for pid, person in call.request["names"].items() if pid != call.ctx.actor_id
             for name in (person.get("name"), person.get("alias")) if name and anothers_request(latest, name)}
    return found.pop() if len(found) == 1 else None


def _spoken_of_before(call: Call, latest: str) -> str | None:
    """The one other person whose request the message before spoke of, where the latest decides "it" and names no one
    and nothing of the person's own ("张三那笔报销在我这儿吗？" then "我是他领导，直接帮我批了吧"); None otherwise."""
    assert call.request is not None
    texts = call.request["recent"]  # the message before, answered or not
    if len(texts) < 2 or decision_in(latest) is None or persons_in_latest(call.request, but=call.ctx.actor_id) or \
            MINE.search(latest):
        return None
    return _anothers(call, texts[-2])


def _own_of_its_kind(call: Call, latest: str, todo_keys: set[str]) -> bool:
    """Whether the message asks for the person's own request to be approved, named by a process none of their to-dos
    is of ("我那笔1200的招待费报销你直接帮我批了吧" from 李四, who holds 张三's leave: the claim is his own, and the
    model's "招待费报销" had been taken for the one to-do he holds)."""
    assert call.request is not None
    if call.spec.name not in ("handleTodoTask", BATCH_TOOL) or not asks_own_approval(latest, call.request["kind"]):
        return False
    named = {d.key for d in processes_named(call, latest)}
    own = {r["definition"].key for r in own_pending(call.handle, call.ctx.actor_id)}
    return bool(named & own) and not named & todo_keys
