"""The workflow's guards that read which record the person means, where the model named it in words of its own: a
to-do named in words that name nobody's to-do (转交 "报销", or "赵六" who passed it on) is the one whose requester the
person named; the to-dos listed are those of whom the person says they sit with (李四那边压着几个); a request named by a
process the person never said ("leave" for their returned expense claim) is read from their words."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from tools.errors import DomainError, NotFoundError
from tools.guards.call import Call
from tools.guards.identity import names_actor
from tools.parsers.date_phrases import phrases
from tools.patterns import compiled
from tools.request import latest_message, persons_in_latest
from tools.workflow import form_fit, lookup
from tools.workflow.batch_words import batch_words
from tools.workflow.engine.ids import parse_instance_id
from tools.workflow.engine.moves import happened
from tools.workflow.request_lookup import PENDING, own_pending, processes_named, require_request, value_named
from tools.workflow.words import OF_OWNER, REQUEST_NOUN


class TaskTheyNamed:
    """Puts in the to-do whose requester the person named, for one the model named in words that name nobody's to-do:
    after "张三这笔差旅报销我不太清楚，转给赵六吧" its taskId "报销" or "出差" is 张三's to-do, and after
    "赵六转过来的王五的假，我批了" its taskId "赵六" (who passed it on, no requester of theirs) is 王五's. Which
    request is the person's to say: it is read from their latest message that names anyone, among the to-dos offered
    to them; when that names several, the model's words are left to the task's own look-up (refused, or the person
    asked which). A message that names nobody, where one to-do waits on them and the model's words name none ("财务这
    边看了，票据都齐，通过" from 赵六: taskId "赵六"), means that one; one that names who passed a to-do on to them
    ("李四转过来的那个出差，我同意": taskId "出差"), the one that person passed on."""

    name = "task_they_named"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        assert call.request is not None
        names = [n.lower() for p in call.request["names"].values() for n in (p.get("name"), p.get("alias")) if n]
        for ref in call.spec.references:
            given = call.values.get(ref.param)
            if ref.kind != "task" or ref.resolve != "requester" or not isinstance(given, str) or not given.strip():
                continue
            if lookup.ID_RE.match(given):
                self._id_of_another(call, given, ref.param)
                continue  # an id: the look-up reads it
            if any(name in given.lower() for name in names) and self._names_a_todo(call, given, ref.param):
                self._of_the_amount(call, given, ref.param)  # of several of theirs, the one of the amount decided
                continue  # a name of one whose to-do they hold: the look-up reads it
            text, named = next(((t, ids) for t, ids in zip(
                reversed(call.request["recent"]), call.request["people"], strict=False) if ids), (None, []))
            offered = lookup.engine_of(call.handle).tasks_for(
                call.handle, call.ctx.actor_id, lookup.groups_of(call.handle, call.ctx.actor_id))
            try:
                task = lookup.resolve_task(call.handle, text, call.ctx.actor_id, param=ref.param) if text else None
            except NotFoundError:  # they named no requester of theirs: one who passed a to-do on to them, perhaps
                passed = [t for t in offered if _passed_on_by(call, t, named)]
                if len(passed) == 1 and not self._names_a_todo(call, given, ref.param):
                    call.notes.append(f"[person_stated] {ref.param}: the to-do the one they named passed on, "
                                      f"{passed[0].id}, not {given[:64]!r}")
                    call.values[ref.param] = passed[0].id
                return
            except DomainError:  # several of their to-dos: the model's words go to the look-up as they are
                return
            if task is None:  # they named nobody: the one to-do waiting on them, or the one of the amount they said
                of_amount = lookup.by_amount(latest_message(call.request), offered)
                if len(offered) > 1 and len(of_amount) == 1:
                    call.notes.append(f"[person_stated] {ref.param}: the to-do of the amount they said, {of_amount[0].id}")
                    call.values[ref.param] = of_amount[0].id
                    return
                if len(offered) == 1 and not self._names_a_todo(call, given, ref.param):
                    call.notes.append(f"[person_stated] {ref.param}: the one to-do waiting, {offered[0].id}, not "
                                      f"{given[:64]!r}")
                    call.values[ref.param] = offered[0].id
                return
            call.notes.append(f"[person_stated] {ref.param}: the user named {task['id']}, not {given[:64]!r}")
            call.values[ref.param] = task["id"]

    @staticmethod
    def _of_the_amount(call: Call, given: str, param: str) -> None:
        """Where the requester the model named has several to-dos waiting on the person, the one the sentence deciding
        it names by its amount ("张三那笔一千二的报销驳回吧，…¥2,350那笔我再看看": the 1200 one; the seventy-third
        round's run asked which of the two)."""
        assert call.request is not None
        ids = {pid for pid, p in call.request["names"].items()
               if any(n and str(n).lower() in given.lower() for n in (p.get("name"), p.get("alias")))}
        offered = lookup.engine_of(call.handle).tasks_for(
            call.handle, call.ctx.actor_id, lookup.groups_of(call.handle, call.ctx.actor_id))
        theirs = [t for t in offered if t.requester in ids]
        names = [str(n) for p in call.request["names"].values() for n in (p.get("name"), p.get("alias")) if n]
        picked = lookup.of_the_amount_decided(latest_message(call.request), theirs, names) if len(theirs) > 1 else None
        said_dates = set(call.request["last"]["dates"])  # "Zhang San's Thursday trip": the one of that date
        dated = [t for t in theirs if said_dates & {str(v) for v in t.form.values()}] if len(theirs) > 1 else []
        if len(theirs) > 1 and not dated:  # a bare weekday, the trip a later week's: the one starting on that weekday
            days = _bare_weekdays(latest_message(call.request), call.request.get("today"))
            dated = [t for t in theirs if _starts_on(t, days)] if days else []
        picked = picked or (dated[0] if len(dated) == 1 else None)
        if picked is not None:
            call.notes.append(f"[person_stated] {param}: the to-do of the amount or date they said, {picked.id}")
            call.values[param] = picked.id

    @staticmethod
    def _id_of_another(call: Call, given: str, param: str) -> None:
        """An id the model gave that the person never said, of a to-do other than the one of the requester their
        latest message names ("Open Zhang San's claim": req_1, Wang Wu's leave, had been shown): that person's to-do,
        where it is the one of theirs waiting on the person."""
        assert call.request is not None
        latest = latest_message(call.request)
        if given.lower() in " ".join(call.request["recent"]).lower() or not persons_in_latest(
                call.request, but=call.ctx.actor_id):
            return
        try:
            if not _record_there(call, given):
                return  # no such record: its look-up says so
            task = lookup.resolve_task(call.handle, latest, call.ctx.actor_id, param=param)
        except DomainError:
            return  # several, or none: the model's id goes to its look-up
        if task is not None and given.lower() not in (str(task["id"]).lower(), str(task["request_id"]).lower()):
            call.notes.append(f"[person_stated] {param}: the to-do of the requester they named, {task['id']}, not "
                              f"{given[:64]!r}")
            call.values[param] = task["id"]

    @staticmethod
    def _names_a_todo(call: Call, given: str, param: str) -> bool:
        """Whether the model's words name the requester of one or more of the person's to-dos: "赵六" for the to-do
        赵六 passed on to them names nobody's request, and the person's own words say whose it is."""
        try:
            lookup.resolve_task(call.handle, given, call.ctx.actor_id, param=param)
        except NotFoundError:
            return False
        except DomainError:
            return True  # several: the person is asked which
        return True


def _bare_weekdays(text: str, today: str | None) -> set[int]:
    """The weekdays the text names bare ("周四那个出差", "Thursday's trip"), not in a week it names (下周四, "this
    Thursday")."""
    on = date.fromisoformat(today) if today else date.today()
    return {p.weekday for p in phrases(text, on) if p.weekday is not None}


def _starts_on(task: Any, weekdays: set[int]) -> bool:
    """Whether the to-do's request starts on one of `weekdays` (its form's start date)."""
    try:
        return date.fromisoformat(str(task.form.get("startDate"))).weekday() in weekdays
    except ValueError:
        return False


def _passed_on_by(call: Call, task: Any, people: list[str]) -> bool:
    """Whether one of `people` passed `task` on (a transfer or a deputy's: the request's timeline says so)."""
    moves = happened(call.handle, parse_instance_id(task.instance_id))
    return any(move.task_id == task.id and move.user in people for move in moves)


_HELD_BY = (r"(?:那边|那儿|那里|手上|手里|名下|桌上|这边)|(?:现在|目前|还|手头)?(?:有|压着|积压了?)(?:几|多少|哪些)",
            r"(?:'s\s+(?:desk|plate|queue|list|to-?dos?)|\s+(?:has|have|is\s+sitting\s+on|has\s+got|got)\s+(?:waiting|pending|"
            r"to\s+approve|on\s+(?:his|her|their)\s+(?:desk|plate)))")
"""What says to-dos sit with someone: 李四那边, 王五手上, 赵六有几个, "Li Si's desk", "Zhao Liu has waiting"."""


class TodosOfWhom:
    """Lists the to-dos of the one person the message says they sit with ("李四那边压着几个待审批的"), where the model
    listed the person's own: whose list it is is the person's to say."""

    name = "todos_of_whom"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        assert call.request is not None
        if call.spec.name != "queryTodoTask":
            return
        latest = latest_message(call.request)
        held = {person_id for person_id, person in call.request["names"].items() if person_id != call.ctx.actor_id
                for name, cue in ((n, c) for n in (person.get("name"), person.get("alias")) if n for c in _HELD_BY)
                if compiled(f"{re.escape(name)}(?:{cue})", re.IGNORECASE).search(latest)}
        # the message first: only when it says whose, is the model's userId read (a name may need the store)
        if len(held) == 1 and _own(call, call.values.get("userId")):
            [person_id] = held
            call.notes.append(f"[person_stated] userId: the user asked about {person_id}'s to-dos, not their own")
            call.values["userId"] = person_id
        elif not held and _WITH_ME.search(latest) and not _own(call, call.values.get("userId")):
            # "Wang Wu says his leave is stuck with me. What's waiting on me?": the list is the person's own
            call.notes.append("[person_stated] userId: the user asked about their own to-dos")
            call.values["userId"] = call.ctx.actor_id
        elif not held and _only_whose_request(call, latest, call.values.get("userId")):
            # "王五6800那个报销帮我批了 还有啥待办": 王五 is whose claim it is; the to-dos asked about are the person's
            call.notes.append("[person_stated] userId: the one the model named is whose request the user spoke of; "
                              "the to-dos asked about are the user's own")
            call.values["userId"] = call.ctx.actor_id


_WITH_ME = re.compile(r"\b(?:waiting|sitting|stuck|pending)\s+(?:on|for|with)\s+me\b|\bmy\s+(?:to-?dos?|tasks|queue|inbox|"
                      r"approvals)\b|\bfor\s+me\s+to\s+(?:approve|sign|review|decide)\b|我(?:这边|这儿|这里|手上|手里)?的?(?:待办|"
                      r"待审批|待批)|等着?我(?:审|批|处理)|(?:压|卡|堆)在我", re.IGNORECASE)
"""Words that ask about the to-dos that wait on the person ("What's waiting on me?", 我手上的待办, 卡在我这)."""


_REQUEST_OF = re.compile(rf"^(?:\s*[\d.,]+\s*(?:元|块|天|yuan|days?)?)?{OF_OWNER}{REQUEST_NOUN}", re.IGNORECASE)
"""What follows a name whose request it is: "王五的报销", "王五6800那个报销", "Zhang San's leave" (not "王五的待办",
their list)."""


def _only_whose_request(call: Call, latest: str, given: object) -> bool:
    """Whether the model's userId is another person the latest message names only as whose request it speaks of."""
    if _own(call, given) or not isinstance(given, str):
        return False
    wanted = given.strip().casefold()
    for person_id, person in call.request["names"].items() if call.request else ():
        said = [n for n in (person.get("name"), person.get("alias")) if n]
        if wanted not in {person_id.casefold(), *(n.casefold() for n in said)}:
            continue
        spans = [(m.start(), m.end()) for n in said for m in re.finditer(re.escape(n), latest, re.IGNORECASE)]
        return bool(spans) and all(_REQUEST_OF.match(latest[end:]) for _, end in spans)
    return False


def _own(call: Call, given: object) -> bool:
    """Whether the model's userId is the person's own: left out, their id, or their name, alias or e-mail (read from
    the actor's record the identity guard keeps, no store read)."""
    return given in (None, "", call.ctx.actor_id) or names_actor(call.actor, given)


def _exists(call: Call, given: str) -> bool:
    try:
        require_request(call.handle, given)
    except NotFoundError:
        return False
    return True


def _id_said(call: Call, given: str) -> bool:
    """Whether the person wrote the id themselves ("withdraw req_9", "撤回申请 9"): theirs to be told it is no request.
    Digits they wrote as something else ("我那笔1860的差旅报销": an amount) are no id of theirs."""
    assert call.request is not None
    digits = re.sub(r"\D", "", given).lstrip("0")
    as_id = rf"(?:req|request|申请|单号|编号|#|no\.?)\s*[_\-#]?\s*0*{digits}(?!\d)|^\s*0*{digits}\s*$"
    return bool(digits) and any(re.search(as_id, text, re.IGNORECASE) for text in call.request["texts"])


class RequestTheyNamed:
    """Reads which of the person's requests a call means from their words, where the model named it by a process they
    never said ("fix it and resend" after an expense claim came back had requestId "leave", refused as no such
    request), or by an id of no request that the person never wrote (req_2 for their one request, req_1). The person's
    latest message goes to the look-up instead (their one request that can take the action, or the one their words
    name; several: they are asked which)."""

    name = "request_they_named"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        assert call.request is not None
        for ref in call.spec.references:
            given = call.values.get(ref.param)
            if ref.kind != "request" or not isinstance(given, str):
                continue
            if (found := lookup.ID_RE.match(given)) and (found["prefix"] or "").lower() == "task":
                continue  # a task's id, for a reminder: its look-up reads it, whatever the words
            held = _held_by_whom_they_named(call) if ref.resolve != "returned" else None
            if held is not None and held != given.strip():
                call.notes.append(f"[person_stated] {ref.param}: the one of theirs still with whom they named, {held}")
                call.values[ref.param] = held
                continue
            valued = _of_the_value_they_named(call, ref.resolve) if not _exists(call, given) else None
            if valued is not None:  # "my Beijing trip", 广州那趟出差: the one of theirs with that value
                call.notes.append(f"[person_stated] {ref.param}: the one of theirs whose value they named, {valued}")
                call.values[ref.param] = valued
                continue
            if re.fullmatch(r"\s*(?:req|request)?[_\-\s]?\d{1,12}\s*", given, re.IGNORECASE):
                if _exists(call, given) or _id_said(call, given):
                    continue  # a request's id: the look-up reads it (and the policy refuses one not theirs)
            else:
                named = processes_named(call.handle, given)
                definitions = list(lookup.engine_of(call.handle).definitions(call.handle))
                said = {d.key for t in call.request["recent"] for d in form_fit.processes_they_named(definitions, t)}
                if not named or named & said:  # "西安出差那笔报销" names a claim, its trip only what it is about
                    continue
            latest = latest_message(call.request)
            call.notes.append(f"[person_stated] {ref.param}: the user named no {given[:40]!r}; read from their words")
            call.values[ref.param] = latest[:200]


def _not_yet_by(name: str) -> re.Pattern[str]:
    """Words that say a request still waits on the one named: 李四还没批的, 还在李四那边, 卡在李四手上, "Li Si hasn't
    approved yet", "still with Li Si", "not yet signed off by Li Si"."""
    who = re.escape(name)
    return compiled(
        rf"{who}(?:那边|那儿|那里|手上|手里|这边)?(?:还|仍然?|一直|都)?(?:没有?|未)(?:批|审|签|同意|通过|处理|看|动)|"
        rf"(?:还|仍然?|一直)?(?:在|压在|卡在|停在|躺在|放在){who}(?:那边|那儿|那里|手上|手里|这边|那)|"
        rf"\b{who}\s+(?:still\s+)?(?:hasn['’]?t|has\s+not|didn['’]?t|did\s+not|is\s+yet\s+to|has\s+yet\s+to|"
        rf"never)\s+(?:yet\s+)?(?:approved?|signed?|decided?|looked|reviewed?|got(?:ten)?\s+to|touched|okayed|ok['’]?d)|"
        rf"\b(?:still|sitting|stuck|waiting|pending|held\s+up)\s+(?:with|at|on|for)\s+{who}\b|"
        rf"\b(?:not\s+(?:yet\s+)?|un)(?:approved|signed|decided|reviewed)\s+(?:yet\s+)?by\s+{who}\b",
        re.IGNORECASE)


def _held_by_whom_they_named(call: Call) -> str | None:
    """The one request of the person's still waiting on someone their latest message says it waits on ("withdraw
    whichever of my claims Li Si hasn't approved yet", 撤回还在李四那边的那个报销), among those of the process it
    names if it names one; None when the message says no such thing, or it fits none or several (the look-up then
    reads the words, or asks)."""
    assert call.request is not None
    latest = latest_message(call.request)
    waited_on = {person_id for person_id, person in call.request["names"].items() if person_id != call.ctx.actor_id
                 and any(_not_yet_by(n).search(latest) for n in (person.get("name"), person.get("alias")) if n)}
    if len(waited_on) != 1:
        return None
    [person_id] = waited_on
    own = own_pending(call.handle, call.ctx.actor_id, ("running",))
    named = processes_named(call.handle, latest)
    held = [r for r in own if (not named or r["process_key"] in named)
            and any(person_id in lookup.offered_to(call.handle, task) for task in r["view"].tasks)]
    return str(held[0]["id"]) if len(held) == 1 else None


def _of_the_value_they_named(call: Call, resolve: str | None) -> str | None:
    """The one request of the person's, among several that could be meant, whose written value their latest message
    names ("nudge whoever has my Beijing trip" beside a pending leave; 广州那趟出差 beside one to 上海), or the day it
    names ("下周一那个假", "my leave on the 21st"), or the one of the process it names, less what it leaves alone
    ("帮我把请假撤回，报销别动"); None when one or none could be meant, or the words fit several."""
    assert call.request is not None
    kept = batch_words(latest_message(call.request))  # "报销别动", "leave the claim alone": not the one meant
    own = own_pending(call.handle, call.ctx.actor_id, ("returned",) if resolve == "returned" else PENDING)
    if len(own) < 2:
        return None
    named = processes_named(call.handle, kept)
    meant = [r for r in own if not named or r["process_key"] in named]
    valued = [r for r in meant if value_named(r, kept)]
    said = set(call.request["last"]["dates"])  # "下周一那个假撤回": the one of theirs on that day
    dated = [r for r in meant if said and _on_a_day_said(r["form"], said)]
    one = valued if len(valued) == 1 else dated if len(dated) == 1 else meant if named and len(meant) == 1 else []
    return str(one[0]["id"]) if one else None


def _on_a_day_said(form: dict[str, Any], said: set[str]) -> bool:
    """Whether a request's form has one of the days `said`, or spans it (startDate to endDate)."""
    if said & {str(v) for v in form.values()}:
        return True
    start, end = str(form.get("startDate") or ""), str(form.get("endDate") or form.get("startDate") or "")
    return bool(start) and any(start <= day <= end for day in said)  # ISO dates compare as text


def _record_there(call: Call, given: str) -> bool:
    """Whether an id names a task or a request there is (the model's own "task_9" is refused by its look-up)."""
    match = lookup.ID_RE.match(given)
    if match is None:
        return False
    if (match.group("prefix") or "task").lower() == "task":
        lookup.require_task(call.handle, given)
    else:
        require_request(call.handle, given)
    return True
