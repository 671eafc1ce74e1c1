"""Guard: one message that decides several to-dos, each its own way ("张三的假批了，王五的报销驳回", "approve Zhang San's
leave and send Wang Wu's claim back"), is read for each call as the part about that call's to-do.

Read whole, such a message both approves and rejects, and every reader of a decision (the decision itself, return or
reject, the comment) found it undecided and asked "approve or reject?" for each. The rule, as a person would state it:
a decision belongs to the people named in its clause, or, where its clause names nobody, to those named just before it
("Zhang San's leave: approve"), never to those of a clause before it that decides nothing ("hold Zhang San's, approve
Wang Wu's"); the clauses after it that name nobody and decide nothing are its comment ("reject Wang
Wu's, over budget"). Only a message whose clauses decide different people different ways is narrowed; any other
message is read whole, as before.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from sqlalchemy import Connection

from tools.errors import DomainError
from tools.guards.call import Call
from tools.request import Request, latest_message, persons_in_latest
from tools.workflow import lookup
from tools.workflow.batch_words import BATCH_TOOL, asks_for_several
from tools.workflow.comment_words import dictated_span
from tools.workflow.engine import TaskView, groups_of
from tools.workflow.lookup import require_task
from tools.workflow.request_lookup import processes_named
from tools.workflow.words import ASKED, REPORTED, REQUEST_NOUN, SENT_BACK, decision_in

TO_DO_TOOLS = frozenset({"handleTodoTask", "returnTask", "transferTask"})
_SEGMENT_END = re.compile(r"\s*[，,;；。!！?？\n]\s*|\.\s+|\s+(?:and|but|then|while)\s+|然后|但是|不过|另外", re.IGNORECASE)
_TASK_ID = re.compile(r"\btask_\d+\b")
_HELD = re.compile(
    r"回头|以后再|晚点|待会|先不|先放|先别|先等|等等|等一下|再说|再看|放一放|先留|不急|别动|不要动|我自己|我来看|[明后]天再|下周再|"
    r"\blater\b|\bnot\s+yet\b|\bhold\b|\bwait\b|\bfor\s+now\b|\bI'?ll\b|\bI\s+will\b|\blet\s+me\b|\bpark\b",
    re.IGNORECASE,
)
"""Words that put a to-do off rather than decide it ("王五的明天再看", "hold Wang Wu's for now")."""
_OWN_SENTENCE = re.compile(
    r"[我你他她]|说|告诉|问过|\b(?:I|he|she|they|told|said|asked|says|is|was|has|had|already)\b", re.IGNORECASE)
"""Words that make a stretch naming someone a sentence of its own ("Wang Wu already told me"), not a name listed
with the decision before or after it ("and Wang Wu's", "还有赵六的出差")."""
SEVERAL = "*several*"
"""Whose a part is that decides several to-dos at once and names nobody ("两个请假都批了", "approve both leave
requests"): the batch's, beside the to-dos the same message decides by name ("…，张三的报销驳回")."""
_SEVERAL_REQUESTS = re.compile(REQUEST_NOUN, re.IGNORECASE)


def _several(segment: str) -> bool:
    return asks_for_several(segment) and not _THE_REST.search(segment)


_THE_REST = re.compile(r"其他|其它|其余|剩下|剩余|\b(?:the\s+)?(?:rest|others?|remaining)\b", re.IGNORECASE)
"""Several said as the rest of those named ("其他的都驳回"): the decision before it decides them, as written."""


@dataclass(frozen=True)
class Part:
    """Whose to-do a stretch of the message decides, how, and the words of it (decision and comment)."""

    who: frozenset[str]
    decided: str
    words: str


def _decision(segment: str) -> str | None:
    if SENT_BACK.search(segment):
        return "return"
    decided = decision_in(segment)
    return None if decided is None else "approve" if decided else "reject"


def _named(segment: str, people: dict[str, tuple[str, ...]]) -> set[str]:
    """The people (by id), task ids and sizes ("*amount:larger*" for 大的那笔) a stretch of the message names."""
    folded = segment.casefold()
    named = {pid for pid, names in people.items() if any(n.casefold() in folded for n in names)}
    size = lookup.size_said(segment)
    if size:  # "张三金额大的那笔": the one of 张三's at that end, not every one of his
        return {_size_key(size)} | set(_TASK_ID.findall(segment))
    return named | set(_TASK_ID.findall(segment))


def _size_key(size: tuple[str, str]) -> str:
    return f"*{size[0]}:{size[1]}*"


def _sizes(text: str) -> set[str]:
    """The sizes each stretch of a text names a to-do by ("小的那笔批，大的那笔退回": two)."""
    bounds = [0, *(m.end() for m in _SEGMENT_END.finditer(text)), len(text)]
    return {_size_key(size) for a, b in pairwise(bounds) if (size := lookup.size_said(text[a:b]))}


def _of_size(key: str, offered: list[Any], named: set[str]) -> list[str]:
    """The to-do a size names, of those from the people the message names (of all offered when it names nobody)."""
    measure, end = key.strip("*").split(":")
    mine = [t for t in offered if not named or t.requester in named]
    found = lookup.of_the_size((measure, end), mine)
    return [found.id] if found is not None else []


def _people(request: Request, actor_id: str) -> dict[str, tuple[str, ...]]:
    """The names of each person the latest message names (not the actor), by id."""
    return {p["id"]: tuple(n for n in (p.get("name"), p.get("alias")) if n) for p in persons_in_latest(request, actor_id)}


def decided(request: Request, actor_id: str) -> list[Part]:
    """Every decision the latest message states, in the order written, each with whose to-do it is about: one part per
    decision, however many people it names ("张三和赵六的都给过了" is one part of two people); [] when it decides
    nobody. Names left at the end with nothing of their own belong to the decision before them ("approve Zhang San's
    and Wang Wu's"); names with a word that puts them off belong to none ("王五的明天再看")."""
    people = _people(request, actor_id)
    latest = _names_dictated_masked(latest_message(request), people)  # "意见写：同意，王五代班": 王五 decides nothing
    found: list[Part] = []
    pending: set[str] = set()
    listed: set[str] = set()  # of those, the ones only listed, in no sentence of their own
    bounds = [0, *(m.end() for m in _SEGMENT_END.finditer(latest)), len(latest)]
    segments = [latest[a:b] for a, b in pairwise(bounds) if latest[a:b].strip()]
    several_said = ""  # "Both leave requests are fine": several named as requests, decided by the stretch after it
    for segment in segments:
        named, decided_here = _named(segment, people), _decision(segment)
        if decided_here is None:
            if not named and _several(segment) and _SEVERAL_REQUESTS.search(segment):
                several_said = segment
            elif named and _HELD.search(segment):
                pending -= named
            elif named and REPORTED.search(segment):
                continue  # "王五说那天他能帮张三顶班": whom someone's words name, no to-do the person decides
            elif named:
                pending |= named
                listed |= set() if _OWN_SENTENCE.search(segment) else named
            elif found:  # nobody named, nothing decided: the comment of the decision before it
                last = found[-1]
                found[-1] = Part(last.who, last.decided, last.words + segment)
            continue
        several = not named and not pending and (bool(several_said) or _several(segment))
        # "hold Zhang San's, approve Wang Wu's"; "两个请假都批了" names nobody and decides several: the batch's part
        who = frozenset(named or pending or ({SEVERAL} if several else found[-1].who if found else set()))
        words = (several_said if several else "") + segment
        if found and found[-1].who == who and found[-1].decided == decided_here:  # "王五的不行，驳回": said twice
            found[-1] = Part(who, decided_here, found[-1].words + words)
        else:
            found.append(Part(who, decided_here, words))
        pending, listed, several_said = set(), set(), ""
    if pending & listed and found:  # "approve Zhang San's and Wang Wu's": names listed after it are the decision's
        found[-1] = Part(found[-1].who | (pending & listed), found[-1].decided, found[-1].words)
    return [p for p in found if p.who]


def _names_dictated_masked(text: str, people: dict[str, tuple[str, ...]]) -> str:
    """The text with the names inside a comment it dictates blanked ("意见写：同意，王五代班"): the comment's words, no
    person whose to-do is decided."""
    found = dictated_span(text)
    if found is None:
        return text
    start, end = found
    inner = text[start:end]
    for name in sorted({n for names in people.values() for n in names if n}, key=len, reverse=True):
        inner = re.sub(re.escape(name), lambda m: " " * len(m.group()), inner, flags=re.IGNORECASE)
    return text[:start] + inner + text[end:]


def parts(request: Request, actor_id: str) -> list[Part]:
    """The decisions the latest message states (`decided`); [] when fewer than two people are decided different ways
    (the message is then read whole)."""
    latest = latest_message(request)
    if len(_people(request, actor_id)) + len(set(_TASK_ID.findall(latest))) + asks_for_several(latest) + len(
            _sizes(latest)) < 2:
        return []
    found = decided(request, actor_id)
    if len({p.decided for p in found}) < 2 or len(set().union(*(p.who for p in found))) < 2:
        return []
    return found


def next_asked(conn: Connection, request: Request, actor_id: str,
               done: Sequence[tuple[str, dict[str, Any]]] = ()) -> dict[str, Any] | None:
    """The next decision the person's latest message asks for that still waits on them, as a call (`name`, `args`),
    where the message decides the to-dos of two or more people (`decided`): of each part in the order written, the
    to-do of each person it names, in the order named, that is the one still offered to the actor from them (a person
    with several waiting is not guessed at). None when the message asks for no more."""
    found = decided(request, actor_id)
    if len(set().union(set(), *(p.who for p in found))) < 2:  # the batch asked, unless the run made it
        return None if any(tool == BATCH_TOOL for tool, _ in done) else _batch_asked(conn, request)
    latest = latest_message(request).casefold()
    people = _people(request, actor_id)

    def first_said(who: str) -> int:
        places = [latest.find(n.casefold()) for n in (*people.get(who, ()), who)]
        return min((i for i in places if i >= 0), default=len(latest))

    offered = lookup.engine_of(conn).tasks_for(conn, actor_id, groups_of(conn, actor_id))
    decided_now = [str(r.get("taskId")) for tool, r in done if tool in TO_DO_TOOLS and r.get("taskId")]
    sized = [*offered, *(lookup.engine_of(conn).task(conn, t) for t in decided_now)]  # "小的批，大的退回": both, still
    for part in found:
        keys = processes_named(conn, part.words)
        if part.who == {SEVERAL}:  # the batch, while a to-do of its one process still waits
            if len(keys) == 1 and any(t.process_key in keys for t in offered):
                return {"name": BATCH_TOOL, "args": {"isOK": part.decided == "approve", "processKey": next(iter(keys))}}
            continue
        for who in sorted(part.who, key=first_said):
            # "张三的报销" of 张三's leave and claim: the one of the process named (none once it was decided)
            todos = [t for t in _of_size(who, sized, set(people)) if t not in decided_now] if ":" in who else [
                t.id for t in offered if who in (t.id, t.requester) and (not keys or t.process_key in keys)]
            if len(todos) != 1:
                continue
            if part.decided == "return":
                return {"name": "returnTask", "args": {"taskId": todos[0]}}
            return {"name": "handleTodoTask", "args": {"taskId": todos[0], "isOK": part.decided == "approve"}}
    return None


def _batch_asked(conn: Connection, request: Request) -> dict[str, Any] | None:
    """The batch the latest message asks for, where it decides several of one process at once and says so plainly
    ("报销的都过了", "approve all the expense claims"); None otherwise (its bound and comment are read by its guards)."""
    latest = latest_message(request)
    decision = decision_in(latest)
    keys = processes_named(conn, latest)
    if decision is None or not asks_for_several(latest) or ASKED.search(latest) or len(keys) != 1:
        return None
    return {"name": BATCH_TOOL, "args": {"isOK": decision, "processKey": next(iter(keys))}}


def _whose(call: Call, request: Request) -> tuple[set[str], str]:
    """The people and task id the call's to-do is known by (its requester, and the id or name the model gave), and
    its process ("" when not known)."""
    given = str(call.values.get("taskId") or "").strip()
    if not given:
        return set(), ""
    whose, process = {given}, ""
    if _TASK_ID.fullmatch(given):
        try:
            task = require_task(call.handle, given)
            whose.add(str(task["requester"]))
            process = str(task["process_key"])
        except DomainError:
            pass  # no such to-do: the references guard says so
    people = _people(request, call.ctx.actor_id)
    said = _sizes(latest_message(request))  # the to-dos are read only where a size is said
    sizes = {key for key in said if given in _of_size(key, _offered(call), set(people))} if said else set()
    return whose | sizes | {pid for pid, names in people.items() if any(n.casefold() == given.casefold() for n in names)}, process


def _of_process(call: Call, found: list[Part], mine: list[Part], process: str) -> list[Part]:
    """Of the parts about the to-do's requester, those of its process, or else the part deciding several of its
    process: in "两个请假都批了，张三的报销驳回", 张三's leave is the batch's, not the claim's."""
    if not process:
        return mine
    own = [p for p in mine if not (keys := processes_named(call.handle, p.words)) or process in keys]
    several = [p for p in found if p.who == {SEVERAL} and process in processes_named(call.handle, p.words)]
    return own or several


class EachOwnDecision:
    """Narrows the person's latest message to the part about the call's to-do, where it decides several differently."""

    name = "each_own_decision"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        assert call.request is not None
        if call.spec.name not in TO_DO_TOOLS | {BATCH_TOOL}:
            return
        found = parts(call.request, call.ctx.actor_id)
        if not found:
            return
        if call.spec.name != BATCH_TOOL:
            _by_size(call, found)
        whose, process = ({SEVERAL}, "") if call.spec.name == BATCH_TOOL else _whose(call, call.request)
        mine = _of_process(call, found, [p for p in found if p.who & whose], process)
        if len(mine) != 1:
            return  # not known which part: read whole (the readers then ask)
        texts = [*call.request["texts"][:-1], mine[0].words.strip(" ，,;；")]
        people = [[p for p in call.request["people"][0] if p in mine[0].who], *call.request["people"][1:]] if \
            call.request["people"] else []
        call.request = {**call.request, "texts": texts, "people": people}  # type: ignore[typeddict-item]


def _by_size(call: Call, found: list[Part]) -> None:
    """A to-do the model named in its own words ("报销小") for a message deciding by size ("小的那笔直接批，大的那笔退
    回去"): the one of the size whose part decides as the call does (a return, an approval, a rejection)."""
    assert call.request is not None
    given = str(call.values.get("taskId") or "").strip()
    if _TASK_ID.fullmatch(given):
        return
    ok = call.values.get("isOK")
    kind = "return" if call.spec.name == "returnTask" else "approve" if ok in (True, "true", "True") else \
        "reject" if ok in (False, "false", "False") else None
    sized = [w for p in found if p.decided == kind for w in p.who if ":" in w]
    if kind is None or len(sized) != 1:
        return
    task = _of_size(sized[0], _offered(call), set(_people(call.request, call.ctx.actor_id)))
    if task:
        call.notes.append(f"[person_stated] taskId: the to-do of the size they named, {task[0]}, not {given[:40]!r}")
        call.values["taskId"] = task[0]


def _offered(call: Call) -> list[TaskView]:
    """The to-dos offered to the person making the call."""
    return lookup.engine_of(call.handle).tasks_for(call.handle, call.ctx.actor_id, groups_of(call.handle, call.ctx.actor_id))
