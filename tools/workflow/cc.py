"""CC (抄送): people who should know about a request without deciding it.

A process names the people or groups it copies in its BPMN (`camunda:property name="cc"` on the process: user or
group ids, comma-separated); a requester adds people at the start (runWorkFlow's `cc`), read from their own words
("抄送王五", "cc Wang Wu"), never guessed: a name the model puts in that the person did not name after a CC word is
left out (`CcNamed`). The copied people are kept per request (`request_cc`), told at its start and at its end by
outbox e-mails in the transaction that started or ended it, and may read the request, its timeline and its diagram;
they decide nothing (the decision policy refuses anyone a task is not offered to).
"""

from __future__ import annotations

import logging
import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Connection, insert, select

from tools.errors import PolicyError
from tools.guards.call import Call
from tools.people import mention_spans
from tools.request import latest_message
from tools.spec import CallContext
from tools.workflow.approver_words import named_as_approver, named_as_away, named_in_passing
from tools.workflow.conditions import CONDITION, bound_in
from tools.workflow.engine import Definition, members_of
from tools.workflow.engine import tables as et
from tools.workflow.engine.model import NS
from tools.workflow.languages import Letter, languages_of
from tools.workflow.lookup import ALL_USERS
from tools.workflow.notify import form_summary, process_noun
from tools.workflow.store import SYSTEM_SENDER, outbox, utcnow
from tools.workflow.tables import request_cc
from tools.workflow.timeline import name_of

logger = logging.getLogger(__name__)

MAX_CC = 10
"""People a requester may copy on one request."""
REFUSALS = {
    "zh": {"too_many_cc": f"一个申请最多抄送 {MAX_CC} 人", "cc_self": "不需要抄送给自己"},
    "en": {"too_many_cc": f"a request can be copied to at most {MAX_CC} people", "cc_self": "you need not copy yourself"},
}
"""Why a CC was not accepted, by refusal code."""
_CUE = re.compile(r"(?:同时|并|也|再)?(?:抄送|抄给|抄一份|抄份|知会|同步给|(?<![a-z])cc(?:'d|’d)?(?![a-z])|"
                  r"(?<![a-z])cop(?:y|ying|ied)(?: in)?(?![a-z])(?!\s+of\b)|"
                  r"\bloop(?:ing)?\b|\bkeep\b(?=[^,.;!?]*\b(?:in the loop|posted|informed)\b))", re.IGNORECASE)
_NOT = re.compile(r"(不|别|勿|无需|不用|不要|没必要)\s*$|\b(don'?t|do not|no need to|not|never|without)\s+$", re.IGNORECASE)
"""Words right before a CC word that say not to copy ("不用抄送王五", "don't cc Wang Wu")."""
_NOTHING_MORE = re.compile(r"(?:\s|一下|下|吧|了|呗|啊|哈|一份|份|\b(?:in|on it|on this|on that|too|as well|also|list|line|"
                           r"please|pls|thanks)\b)*", re.IGNORECASE)
"""What may follow a CC word that names nobody after it ("抄送一下", "cc'd on it", "on the cc list", "a copy too")."""
_NOT_FIRST = re.compile(r"\s*(?:(?:不|别|勿|无需|不用|不要|没必要)|(?:don'?t|do not|no need|not|never)\b)", re.IGNORECASE)
"""The same words at the start of a clause ("别让王五知道", "no need for Wang Wu to get a copy")."""
_CLAUSE_END = re.compile(r"[。；;，,!！?？\n]|\.(?=\s|$)|审批|批准|approv|sign", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[。；;!！?？\n]|\.(?=\s|$)|审批|批准|approv\w*|sign\w*(?:\s+off)?", re.IGNORECASE)
_PRONOUN = re.compile(r"\s*(?:他们|她们|他|她|\b(?:him|her|them)\b)", re.IGNORECASE)
"""A CC word's person said by a pronoun ("抄送他", "copy him in"): the one named before it in its sentence."""


def _sentence(text: str, cue: re.Match[str]) -> tuple[int, int]:
    """Where the sentence a CC word stands in starts and ends."""
    start = max((m.end() for m in _SENTENCE_END.finditer(text, 0, cue.start())), default=0)
    end = _SENTENCE_END.search(text, cue.end())
    return start, end.start() if end else len(text)


def _conditional(text: str, cue: re.Match[str]) -> bool:
    """Whether the CC word's sentence puts it under a condition, before it or after it ("Only copy Wang Wu if it comes
    to more than two days", 如果超过两天就抄送王五): it copies nobody as said; `CcNamed` judges the condition."""
    return bool(CONDITION.search(text, *_sentence(text, cue)))


def conditional_cc(text: str) -> list[tuple[tuple[int, int], str]]:
    """Each CC word's clause said under a condition, with its sentence ("要是超过两天就抄送一下王五")."""
    found = []
    for cue in _CUE.finditer(text):
        if _conditional(text, cue) and not _NOT.search(text[max(0, cue.start() - 12):cue.start()]):
            start, end = _sentence(text, cue)
            clause_end = _CLAUSE_END.search(text, cue.end())
            found.append(((cue.end(), clause_end.start() if clause_end else len(text)), text[start:end]))
    return found


def cc_spans(text: str) -> list[tuple[int, int]]:
    """Where a text names whom to copy: each CC word's clause, after it ("抄送王五和赵六", "cc Wang Wu", "keep Wang Wu in
    the loop") and before it ("Wang Wu on cc"); a CC word said not to ("不用抄送", "don't cc") or under a condition
    ("only copy Wang Wu if …") names nobody."""
    spans = []
    for cue in _CUE.finditer(text):
        if _NOT.search(text[max(0, cue.start() - 12):cue.start()]) or _conditional(text, cue):
            continue
        end = _CLAUSE_END.search(text, cue.end())
        after = (cue.end(), end.start() if end else len(text))
        spans.append(after)
        pronoun = _PRONOUN.match(text, after[0], after[1])
        if pronoun and _NOTHING_MORE.fullmatch(text[pronoun.end():after[1]]):
            # "李四跟我一块儿去，抄送他一下", "Li Si's coming along so copy him in": the one named before, in its sentence
            start = max((m.end() for m in _SENTENCE_END.finditer(text, 0, cue.start())), default=0)
            if not _NOT_FIRST.match(text, start):
                spans.append((start, cue.start()))
            continue
        if not _NOTHING_MORE.fullmatch(text[after[0]:after[1]]):
            continue
        # a CC word that ends its clause names whom before it ("王五那边也抄送一下", "Wang Wu should be cc'd", "make
        # sure Wang Wu gets a copy"), unless the clause says not to ("别让王五…", "no need for …")
        start = max((m.end() for m in _CLAUSE_END.finditer(text, 0, cue.start())), default=0)
        if start < cue.start() and not _NOT_FIRST.match(text, start):
            spans.append((start, cue.start()))
    return spans


def _cc_mention(text: str, person: Mapping[str, Any]) -> int | None:
    """Where the text first names the person as one to copy, or None."""
    spans = cc_spans(text)
    return next((start for start, end in mention_spans(text, dict(person)) for a, b in spans if a <= start and end <= b),
                None)


def named_as_cc(text: str, person: Mapping[str, Any]) -> bool:
    """Whether the text names the person as one to copy."""
    return _cc_mention(text, person) is not None


def stated_cc(texts: Sequence[str], people: Mapping[str, Mapping[str, Any]], actor_id: str) -> list[str]:
    """The ids of the people the texts name to copy, in the order named (never the actor)."""
    found: list[str] = []
    for text in texts:
        at = {pid: _cc_mention(text, {"id": pid, **person}) for pid, person in people.items() if pid != actor_id}
        found += [pid for pid, where in sorted(at.items(), key=lambda kv: kv[1] or 0) if where is not None
                  and pid not in found]
    return found


def pick_person(param: str, text: str, named: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`Toolset.pick_person`: an approver is never one the message names to copy ("李四审批，抄送王五": 李四), only as
    away ("李四这两周都在外地": `named_as_away`) or in passing ("跟李四一起去北京": `named_in_passing`); of the rest, the
    one named as approver (`named_as_approver`). Nobody left: the message names no approver."""
    if param == "nextUserId":
        named = [p for p in named if not named_as_cc(text, p) and not named_as_away(text, p)
                 and not named_in_passing(text, p)]
        if not named:
            return []
    else:  # an e-mail's recipient: not one who told them something, nor one named in the text it dictates
        content = _CONTENT.search(text)
        kept = [p for p in named if not named_in_passing(text, p) and not (content and all(
            start >= content.end() for start, _ in mention_spans(text, p)))]
        if len(kept) == 1:
            return kept
    return named_as_approver(param, text, named)


_CONTENT = re.compile(r"(?:内容|正文|邮件里写|\b(?:content|body|text|message|saying)\b)\s*(?:是|为)?\s*[:：]", re.IGNORECASE)
"""Where a message starts dictating an e-mail's text ("内容是：…", "content: …"): people named after it are its words."""


class CcNamed:
    """runWorkFlow's `cc` is the people the person named after a CC word, as ids: the model's list is replaced by
    theirs (a name they did not say is left out with a note), and left out when they named nobody."""

    name = "cc_named"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        assert call.request is not None
        if call.spec.name != "runWorkFlow":
            return
        given = call.values.get("cc")
        given_list = [given] if isinstance(given, str) else list(given or []) if isinstance(given, list) else []
        named = stated_cc(call.request["texts"], call.request["names"], call.ctx.actor_id)
        named += [i for i in self._copied_as_its_condition_says(call) if i not in named]
        if named:
            call.values["cc"] = named
            said = "、".join(str(call.request["names"][i].get("name") or i) for i in named)
            call.sources["cc"] = {"how": "stated" if given_list else "filled", "said": said}
        else:
            call.values.pop("cc", None)
        spoken = {str(n).strip().casefold() for i in named for n in (i, *call.request["names"][i].values()) if n}
        dropped = [str(g) for g in given_list if str(g).strip().casefold() not in spoken]
        if dropped:
            call.notes.append(f"[cc] left out {', '.join(dropped)[:80]}: the user named nobody else to copy (抄送/cc)")

    @staticmethod
    def _copied_as_its_condition_says(call: Call) -> list[str]:
        """The people a CC under a condition on the request's length or amount names, where the request meets it
        ("要是超过两天就抄送一下王五" on a 3-day leave); a condition the code cannot judge copies nobody, said in a note."""
        assert call.request is not None
        latest = latest_message(call.request)
        given = call.values.get("fields")
        fields: dict[str, Any] = given if isinstance(given, dict) else {}
        days, amount = _number(call.values.get("days")), _number(fields.get("amount"))
        found: list[str] = []
        for (start, end), sentence in conditional_cc(latest):
            bound = bound_in(sentence)
            if bound is None:
                call.notes.append(f"[cc] {sentence[:60]!r}: a condition the code cannot judge; nobody copied on it")
                continue
            if bound.meets(days, amount):
                found += [pid for pid, person in call.request["names"].items() if pid != call.ctx.actor_id and any(
                    start <= a and b <= end for a, b in mention_spans(latest, {"id": pid, **person}))]
        return found


def _number(value: Any) -> float | None:
    try:
        return float(value) if value not in (None, "") else None
    except (TypeError, ValueError):
        return None


def check_cc(conn: Connection, actor_id: str, cc: Sequence[str] | None) -> list[dict[str, Any]]:
    """The people a requester copies: known users, never themselves, at most MAX_CC."""
    ids = list(dict.fromkeys(cc or []))
    if len(ids) > MAX_CC:
        raise PolicyError("too_many_cc", f"cc names {len(ids)} people; at most {MAX_CC} may be copied")
    people = {u["id"]: dict(u) for u in conn.execute(ALL_USERS).mappings()}
    unknown = [i for i in ids if i not in people]
    if unknown:
        raise PolicyError("unknown_user", f"cc {unknown[0][:40]} is no user; name people from getAllUser")
    if actor_id in ids:
        raise PolicyError("cc_self", "the requester cannot copy themselves; leave them out of cc")
    return [people[i] for i in ids]


def process_cc(conn: Connection, key: str, version: int) -> list[str]:
    """The user and group ids a process version copies (its BPMN's `cc` property), in the order written."""
    d = et.deployments
    xml = conn.execute(select(d.c.bpmn_xml).where(d.c.key == key, d.c.version == version)).scalar_one_or_none()
    if not xml:
        return []
    root = ET.fromstring(xml.encode() if isinstance(xml, str) else xml)
    process = next((p for p in root.findall("bpmn:process", NS) if p.get("id") == key), None)
    for prop in process.iterfind("bpmn:extensionElements/camunda:properties/camunda:property", NS) if process else ():
        if prop.get("name") == "cc":
            return [part.strip() for part in (prop.get("value") or "").split(",") if part.strip()]
    return []


def _process_people(conn: Connection, entries: Sequence[str], people: Mapping[str, Any], key: str) -> list[str]:
    """A process's cc entries as users: a user id as itself, a group id as its members."""
    found: list[str] = []
    for entry in entries:
        members = [entry] if entry in people else members_of(conn, entry)
        if not members:
            logger.warning("process %s copies %r, which is no user and no group with members: nobody copied", key, entry)
        found += members
    return found


def _write_mails(conn: Connection, ctx: CallContext, to: Sequence[str], people: Mapping[str, Mapping[str, Any]],
                 letter: Letter, tag: str) -> list[dict[str, Any]]:
    """The letter to each person, in their language (`tools.workflow.languages`)."""
    written: list[dict[str, Any]] = []
    kept = languages_of(conn, to)
    for user in to:
        subject, body = letter.written(kept.get(user))
        row = conn.execute(insert(outbox).values(
            idempotency_key=f"{ctx.idempotency_key}#{tag}{len(written) + 1}", thread_id=ctx.thread_id,
            sender_id=SYSTEM_SENDER, recipient_id=user, recipient_email=people[user]["email"], subject=subject,
            body=body, task_id=None, status="queued", attempts=0, created_at=utcnow()))
        written.append({"emailId": int(row.inserted_primary_key[0]), "to": user, "kind": tag})  # type: ignore[index]
    return written


def _what(definition: Definition, form: Mapping[str, Any], rid: str, lang: str) -> str:
    summary = form_summary(dict(form), definition, lang)
    if lang == "en":
        return f"{process_noun(definition, 'en')} ({summary + ', ' if summary else ''}{rid})"
    return f"{process_noun(definition, 'zh')}（{summary + '，' if summary else ''}{rid}）"


def copy_request(conn: Connection, ctx: CallContext, rid: str, definition: Definition, form: Mapping[str, Any],
                 requester_cc: Sequence[str]) -> tuple[list[str], list[dict[str, Any]]]:
    """A request just started: its copied people kept (the process's and the requester's) and told, in this
    transaction. Returns their ids and the e-mails written."""
    people = {u["id"]: dict(u) for u in conn.execute(ALL_USERS).mappings()}
    by_process = _process_people(conn, process_cc(conn, definition.key, definition.version), people, definition.key)
    sources = {**{u: "requester" for u in requester_cc}, **{u: "process" for u in by_process if u not in requester_cc}}
    copied = [u for u in sources if u != ctx.actor_id and u in people]
    for user in copied:
        conn.execute(insert(request_cc).values(instance_id=rid, user_id=user, source=sources[user], at=utcnow()))
    who_zh, who_en = name_of(people, ctx.actor_id, "zh"), name_of(people, ctx.actor_id, "en")
    letter = Letter(("抄送", "Copied to you", f": {rid}"), (
        f"{who_zh}的{_what(definition, form, rid, 'zh')}抄送给您，供您知悉，无需处理。",
        f"{who_en}'s {_what(definition, form, rid, 'en')} is copied to you for your information; nothing to do."))
    mails = _write_mails(conn, ctx, copied, people, letter, "cc_started")
    return copied, mails


def cc_names(conn: Connection, definition: Definition, requester: str, requester_cc: Sequence[str] | None,
             lang: str) -> str:
    """Who a request about to be filed is copied to, for its card: the requester's people, then the process's."""
    people = {u["id"]: dict(u) for u in conn.execute(ALL_USERS).mappings()}
    by_process = _process_people(conn, process_cc(conn, definition.key, definition.version), people, definition.key)
    ids = list(dict.fromkeys([*(requester_cc or []), *by_process]))
    return ("、" if lang == "zh" else ", ").join(name_of(people, u, lang) for u in ids if u in people and u != requester)
