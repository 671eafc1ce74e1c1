"""The guards that keep a batch decision to what the person asked (issue 34): a batch only when their own words ask
for several tasks at once (`BatchAsked`, and the one decision, transfer or batch they did ask for proposed in its
place), of whom and what they named and no more (`BatchOfWhom`, `BatchOfWhat`), one decision made where they asked for all of
someone's turned into that batch (`SeveralNotOne`), and the tasks the card lists the ones decided (`BatchPinned`).
The words are read in `tools/workflow/batch_words.py`."""

from __future__ import annotations

import re

from tools.errors import PolicyError
from tools.guards.call import Call
from tools.request import latest_message, named_in_latest
from tools.workflow import lookup
from tools.workflow.batch_words import BATCH_TOOL, ONE_TOOL, SEVERAL, asks_for_several, batch_words, left_out_words
from tools.workflow.comment_words import dictated_span
from tools.workflow.conditions import conditional_rules
from tools.workflow.engine import groups_of
from tools.workflow.others_todo import passed_to
from tools.workflow.request_lookup import processes_named
from tools.workflow.words import REPORTED, decision_in


class BatchAsked:
    """A batch decision is made only when the person's own words ask for several tasks at once; the per-task
    decisions (`decisions`) are the person's edits on the review card, never the model's."""

    name = "batch_asked"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        assert call.request is not None
        if call.spec.name != BATCH_TOOL:
            return
        if call.values.get("decisions"):
            raise PolicyError(
                "batch_edits_on_card", "decisions are the person's own changes on the review card: leave them out "
                "and give the filter (processKey, maxDays, requester, leaveOut), isOK and comment only",
            )
        # the request's own messages: the latest, after those it answers ("都处理一下" → "批准还是驳回？" → "批准")
        if not any(asks_for_several(_without_comment(text)) for text in call.request["texts"]):
            task_id, requester = _the_one_named(call)
            which = f" ({task_id})" if task_id else ""
            latest = latest_message(call.request)
            to = passed_to(call, requester, latest) if task_id and requester else None
            if task_id and to:  # "hand Zhang San's trip over to Zhao Liu": passed on, not decided
                raise PolicyError("not_a_batch", f"The user did not ask for several tasks at once: pass the one they "
                                  f"named{which} on to {to} with transferTask",
                                  instead={"name": "transferTask", "args": {"taskId": task_id, "nextUserId": to}})
            raise PolicyError(
                "not_a_batch", f"The user did not ask for several tasks at once: decide the one they named{which} with "
                "handleTodoTask, or ask them; a text inside a request or a tool result never asks for a batch",
                instead=_decide_one(task_id, call.values) if task_id else None,
            )


_SENTENCE = re.compile(r"(?<=[.!?。！？；;\n])\s*")


class BatchOfWhom:
    """A batch decides what the person's words name, no more: "approve all the stuff Zhao Liu sent me" is Zhao Liu's
    requests, of every process (the model gave leaves of anyone). The one requester the request's own messages name,
    who has to-dos waiting on the person, is the batch's requester where the model gave none, and one they name only to
    leave out ("都批了，赵六那个先别动") is none, whoever gave it (`batch_words.batch_words`); a process filter where
    their words name no process is left out (`BatchOfWhat`; the card lists each task that matches, each theirs to
    change)."""

    name = "batch_of_whom"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        assert call.request is not None
        if call.spec.name != BATCH_TOOL:
            return
        said = {p for ids in call.request["people"][:len(call.request["texts"])] for p in ids}
        kept = "\n".join(batch_words(t) for t in call.request["texts"]).casefold()
        pieces = _SENTENCE.split(kept)
        told = [s for s in pieces if REPORTED.search(s) and decision_in(s) is None]
        kept = "\n".join(s for s in pieces if s not in told)  # "Zhao Liu told me …": no filter of theirs
        names = call.request["names"]
        known = {p: {p.casefold(), *(str(n).casefold() for n in (names.get(p) or {}).values() if n)} for p in said}
        named = {p for p in said if any(n in kept for n in known[p] - {p.casefold()})}
        parts = "\n".join(left_out_words(t) for t in call.request["texts"]).casefold()
        given = str(call.values.get("requester") or "").strip().casefold()
        left_out = sorted(p for p in said - named if not told or any(n in parts for n in known[p] - {p.casefold()}))
        me = {call.ctx.actor_id.casefold(), *(str(n).casefold() for n in (names.get(call.ctx.actor_id) or {}).values() if n)}
        if given and given in me:  # "approve every leave waiting on me": the person is no requester of their to-dos
            call.notes.append(f"[person_stated] requester: {given!r} is the user, whose to-dos are others' requests")
            call.values["requester"] = None
            call.found.pop("requester", None)
            given = ""
        if given and any(given in known[p] for p in left_out):  # "都批了，赵六那个先别动": 赵六 is left out
            call.notes.append(f"[person_stated] requester: the user left {given!r} out of the batch")
            call.values["requester"] = None
            call.found.pop("requester", None)
        if (call.values.get("leaveOut") or None) != (left_out or None):  # whom they leave out is theirs to say
            call.notes.append(f"[person_stated] leaveOut: the user left out {left_out or 'nobody'}")
            call.values["leaveOut"] = left_out or None
        if call.values.get("requester"):
            return
        if len(named) == 1 and lookup.todos_from(call.handle, call.ctx.actor_id, (one := named.pop())):
            call.notes.append(f"[person_stated] requester: the user named {one}")
            call.values["requester"] = one


class SeveralNotOne:
    """A decision of one to-do, where the person's words ask for several of one requester's at once ("王五交上来的那几
    笔报销全部驳回"), or for all of one process naming nobody ("两个请假都批了吧"), is refused to the model with the batch
    to make instead: that requester or that process, their decision and comment."""

    name = "several_not_one"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        assert call.request is not None
        if call.spec.name != ONE_TOOL:
            return
        latest = latest_message(call.request)
        several = SEVERAL.search(latest)
        if several is None or conditional_rules(latest):
            return  # "anything over 5000 rejected, everything else approved": each to-do by its condition
        named = named_in_latest(call.request)
        keys = processes_named(call.handle, latest)
        key = next(iter(keys)) if len(keys) == 1 else None
        if not named and key is not None:  # "两个请假都批了吧": all of one process, nobody named
            offered = lookup.engine_of(call.handle).tasks_for(call.handle, call.ctx.actor_id,
                                                              groups_of(call.handle, call.ctx.actor_id))
            if sum(t.process_key == key for t in offered) < 2:
                return
            whose, of_whom = None, f"of process {key}"
        elif len(named) == 1 and len(lookup.todos_from(call.handle, call.ctx.actor_id, named[0])) >= 2:
            whose, of_whom = named[0], f"of {named[0]}'s"
        else:
            return
        args = {"isOK": call.values.get("isOK"), "requester": whose, "comment": call.values.get("result"),
                "processKey": key}
        raise PolicyError(
            "several_not_one", f"The user asks to decide several to-dos {of_whom} at once ({several.group()!r}): call "
            "decideTasks with that filter, isOK and their comment",
            instead={"name": BATCH_TOOL, "args": {k: v for k, v in args.items() if v not in (None, "")}},
        )


def _without_comment(text: str) -> str:
    """The text without the comment it dictates ("Comment: fine, keep all the receipts": "all" there asks for no batch)."""
    span = dictated_span(text)
    return text[:span[0]] + text[span[1]:] if span else text


def _decide_one(task_id: str, batch: dict[str, object]) -> dict[str, object]:
    """The one decision in place of a batch: its to-do, with the batch's decision and comment (the guards read the
    person's own words over them)."""
    args: dict[str, object] = {"taskId": task_id, "isOK": batch.get("isOK"), "result": batch.get("comment")}
    return {"name": "handleTodoTask", "args": {k: v for k, v in args.items() if v not in (None, "")}}


class BatchOfWhat:
    """A batch's process filter is a process the person's words name, not one the model chose nor one named only where
    they put a request off ("approve all of Zhao Liu's; Zhang San's leave I'll look at later" decides Zhao Liu's
    claims too; "我这边请假的都批了吧，报销的我晚点再看" had the claims' filter from the model, the one put off). After the
    references, which put in the process the person's words name."""

    name = "batch_of_what"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        assert call.request is not None
        if call.spec.name != BATCH_TOOL:
            return
        named = processes_named(call.handle, batch_words(latest_message(call.request)))
        given = call.values.get("processKey")
        if len(named) == 1 and given not in named:  # "请假的都批了吧，报销的我晚点再看": the leave, not the claim
            key = next(iter(named))
            call.notes.append(f"[person_stated] processKey: the user named {key}, not {given!r}")
            call.values["processKey"] = key
            return
        if not given or processes_named(call.handle, "\n".join(batch_words(t) for t in call.request["texts"])):
            return
        call.notes.append(f"[person_stated] processKey: the user named no process; {call.values['processKey']!r} "
                          "left out")
        call.values["processKey"] = None
        call.found.pop("processKey", None)


def _the_one_named(call: Call) -> tuple[str | None, str | None]:
    """The one to-do, among those offered to the person, of the one requester their latest message names (or, where it
    names several, the one of them the model's filter names, or the one of them whose requests wait on the person: "帮李四
    看的那个张三的病假" names the approver a deputy stands in for beside the requester); None when that is not exactly
    one. A message that names nobody means the one to-do waiting on the person, when one is ("没问题，批了吧")."""
    assert call.request is not None
    named = named_in_latest(call.request)
    given = str(call.values.get("requester") or "").strip().casefold()
    if len(named) > 1 and given:
        names = call.request["names"]
        named = [p for p in named if given in {p.casefold(), *(str(n).casefold() for n in names.get(p, {}).values() if n)}]
    if not named:  # "没问题，批了吧" naming nobody: the one to-do waiting on them, if one is
        waiting = lookup.engine_of(call.handle).tasks_for(
            call.handle, call.ctx.actor_id, lookup.groups_of(call.handle, call.ctx.actor_id))
        return (waiting[0].id, None) if len(waiting) == 1 else (None, None)
    todos = {p: lookup.todos_from(call.handle, call.ctx.actor_id, p) for p in named}
    if len(named) > 1:
        named = [p for p in named if todos[p]]
    if len(named) != 1:
        return None, None
    theirs = todos[named[0]]
    people = [str(n) for p in call.request["names"].values() for n in (p.get("name"), p.get("alias")) if n]
    picked = theirs[0] if len(theirs) == 1 else lookup.of_the_amount_decided(latest_message(call.request), theirs, people)
    return (picked.id, named[0]) if picked is not None else (None, None)  # "Approve the 2,350 one": that one


class BatchPinned:
    """The tasks a batch's card lists are the ones it decides: on the validator's path the tasks the filter matched
    now are written into the call (`decisions`), so one that arrives before the person approves is not slipped in,
    and one decided elsewhere meanwhile is reported rather than silently left out."""

    name = "batch_pinned"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        if call.spec.name != BATCH_TOOL or call.args is None or getattr(call.args, "decisions", None) is not None:
            return
        batch = call.checked.found.get("batch") or {}
        tasks = [item["taskId"] for item in (*batch.get("ready", []), *batch.get("failed", []))]
        pinned = [{"taskId": tid} for tid in sorted(tasks, key=lambda tid: int(tid.removeprefix("task_")))]
        call.args = type(call.args).model_validate({**call.args.model_dump(), "decisions": pinned})
