"""Who is who: users, processes and tasks looked up by id, or by the name a person uses for them.

Every function reads the store through the caller's connection and raises a `DomainError` subclass
(`NotFoundError`; `NeedsPersonError` when a name fits several records) with a message that says what to do
next. None of them writes, and none of them decides whether an action is allowed: that is `tools.workflow.policy`.
Processes, requests and tasks are the process engine's (`WorkflowStore.process_engine`); a task is returned as the
engine's `TaskView` in a dict (`task_record`), with `offered` (the users it is offered to by name and through groups).
"""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import Connection, bindparam, select

from tools.errors import NeedsPersonError, NotFoundError, PolicyError
from tools.parsers.numerals import find_numerals
from tools.parsers.text import mask_spans
from tools.people import named_in
from tools.words import content_tokens, names_term, squash
from tools.workflow.engine import EngineError, ProcessEngine, TaskView, format_task_id, groups_of, members_of
from tools.workflow.engine import format_instance_id as format_request_id
from tools.workflow.engine import tables as engine_tables
from tools.workflow.shown import form_values
from tools.workflow.store import PROCESS_ENGINE_KEY, users
from tools.workflow.tables import request_cc

ID_RE = re.compile(r"^\s*(?:(?P<prefix>task|req|request)[_\-\s]?)?(?P<num>\d{1,12})\s*$", re.IGNORECASE)

__all__ = [
    "ALL_USERS", "approver_choices", "describe_user", "engine_of", "group_label", "format_request_id", "format_task_id",
    "offered_to", "parse_task_id", "require_actor", "require_process", "require_task", "require_user",
    "resolve_own_task", "resolve_task", "resolve_user", "task_record", "users_named",
]


def engine_of(conn: Connection) -> ProcessEngine:
    """The process engine of the store this connection belongs to (`WorkflowStore.process_engine`)."""
    engine = conn.info.get(PROCESS_ENGINE_KEY)
    if engine is None:
        raise RuntimeError("this connection is not the workflow store's: open it with WorkflowStore.read/transaction")
    return engine  # type: ignore[no-any-return]


# ---------------------------------------------------------------- ids


def parse_task_id(value: str) -> int:
    match = ID_RE.match(str(value))
    if not match or (match.group("prefix") or "task").lower() != "task":
        raise NotFoundError(
            "unknown_task", f"taskId {str(value)[:40]!r} is not a task id (they look like task_1); call queryTodoTask"
        )
    return int(match.group("num"))


# ---------------------------------------------------------------- by id


USER_BY_ID = select(users).where(users.c.id == bindparam("key"))
ALL_USERS = select(users).order_by(users.c.id)
MAX_CHOICES = 8
"""Users offered by name when the person is asked who approves."""


def require_user(conn: Connection, user_id: str, *, param: str = "userId") -> dict[str, Any]:
    row = conn.execute(USER_BY_ID, {"key": str(user_id)}).mappings().first()
    if row is None:
        raise NotFoundError("unknown_user", f"{param} {str(user_id)[:64]} does not exist; call getAllUser")
    return dict(row)


def require_process(conn: Connection, key: str) -> dict[str, Any]:
    """A deployed process by key (its latest version): key, name, name_en, version, and its `definition`."""
    try:
        definition = engine_of(conn).definition(conn, str(key))
    except EngineError:
        raise NotFoundError("unknown_process", f"processKey {str(key)[:64]} does not exist; call getAllWorkFlow") from None
    return {"key": definition.key, "name": definition.name, "name_en": definition.name_en,
            "version": definition.version, "definition": definition}


def group_label(conn: Connection, group_id: str, lang: str) -> str:
    """A group's name in a language (人事, HR), else its id."""
    g = engine_tables.groups
    row = conn.execute(select(g.c.name, g.c.name_en).where(g.c.id == group_id)).first()
    if row is None:
        return group_id
    return str(row.name_en or row.name) if lang == "en" else str(row.name)


def groups_as_people(conn: Connection) -> dict[str, dict[str, Any]]:
    """Every group by id as a person's record is named ({"name": 人事, "alias": "HR"}): where a step waits on a group,
    its name is shown in the person's language, never its id ("等待 财务", not "等待 finance")."""
    g = engine_tables.groups
    return {row.id: {"id": row.id, "name": row.name, "alias": row.name_en or row.name}
            for row in conn.execute(select(g.c.id, g.c.name, g.c.name_en))}


def offered_to(conn: Connection, task: TaskView) -> list[str]:
    """The users a task is offered to: its assignee, its candidate users, and the members of its candidate groups."""
    people = [*([task.assignee] if task.assignee else []), *task.candidate_users]
    for group in task.candidate_groups:
        people += members_of(conn, group)
    return list(dict.fromkeys(people))


def task_record(conn: Connection, task: TaskView) -> dict[str, Any]:
    """A task as the tools use it: the engine's view as a dict, its request's id, and who it is offered to."""
    record = task.to_dict()
    record.update(view=task, request_id=task.instance_id, offered=offered_to(conn, task))
    return record


def require_task(conn: Connection, task_id: str) -> dict[str, Any]:
    number = parse_task_id(task_id)
    try:
        task = engine_of(conn).task(conn, format_task_id(number))
    except EngineError:
        raise NotFoundError(
            "unknown_task", f"taskId {format_task_id(number)} does not exist; call queryTodoTask to list tasks"
        ) from None
    return task_record(conn, task)


def require_actor(conn: Connection, actor_id: str) -> dict[str, Any]:
    row = conn.execute(USER_BY_ID, {"key": str(actor_id)}).mappings().first()
    if row is None:
        raise PolicyError("unknown_actor", f"the session user {actor_id!r} is not a known user; sign in as one")
    return dict(row)


# ---------------------------------------------------------------- by name


def display_name(user: Any, lang: str) -> str:
    """A user's name as the person reading writes it: 张三 in Chinese, Zhang San (their alias) in English."""
    return str(user["alias"]) if lang == "en" and user.get("alias") else str(user["name"])


def describe_user(user: dict[str, Any]) -> str:
    return f"{user['name']}（{user['id']}，{user['email']}）"


def users_named(conn: Connection, text: str, actor_id: str) -> list[dict[str, Any]]:
    """The users (other than the actor) a text names by id, e-mail, name or alias (exact naming first)."""
    return named_in(text, [dict(u) for u in conn.execute(ALL_USERS).mappings() if u["id"] != actor_id])


def resolve_user(conn: Connection, value: Any, *, param: str = "userId") -> dict[str, Any]:
    """The user a parameter means: a userId, or a display name, alias or e-mail that fits exactly one user.

    A name shared by several users is never resolved by choice: the person is asked which one they mean.
    """
    text = str(value).strip()
    row = conn.execute(USER_BY_ID, {"key": text}).mappings().first()
    if row is not None:
        return dict(row)
    flat = squash(text)
    matches = [
        dict(u) for u in conn.execute(ALL_USERS).mappings()
        if flat and flat in {squash(u["name"]), squash(u.get("alias") or ""), squash(u["email"] or "")}
    ]
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        choices = tuple(describe_user(u) for u in matches)
        raise NeedsPersonError(
            "ambiguous_user",
            f"{param} {text[:64]} fits {len(matches)} users ({', '.join(choices)}); ask the user which one they mean",
            ask="which_user", param=param, choices=choices, name=text[:64],
        )
    raise NotFoundError("unknown_user", f"{param} {text[:64]} does not exist; call getAllUser")


def _summary(conn: Connection, task: TaskView, requester: Any, lang: str) -> str:
    """A task in a few words, for choosing among several, in the reader's language: task_3（张三，请假，10 天，回老家）,
    task_3 (Zhang San, Leave, 10 days, 回老家): the requester's own words stay as written."""
    definition = engine_of(conn).definition(conn, task.process_key, task.process_version)
    process = (task.process_name_en or task.process_name) if lang == "en" else task.process_name.removesuffix("流程")
    parts = [display_name(requester, lang), process, *(shown[:30] for _, _, shown in form_values(task.form, definition,
                                                                                                  lang))]
    return f"{task.id} ({', '.join(parts)})" if lang == "en" else f"{task.id}（{'，'.join(parts)}）"


def _numbers(text: str) -> set[str]:
    """The numbers a text states, as a to-do's form values are written (三千二 → "3200")."""
    return {f"{v:g}" for n in find_numerals(text) for v in n.values[:1]}


def _form_numbers(task: TaskView) -> set[str]:
    return {f"{v:g}" for v in task.form.values() if isinstance(v, int | float)}


def _by_what_it_is(text: str, offered: list[TaskView]) -> list[TaskView]:
    """The to-dos a text names by what they are: every telling word of it among the words of the to-do's process and
    form, and every number among its form's values ("lunch" for the client-lunch claim, "打车" for 打车去客户那, 三千二
    for its 3200)."""
    numbers = _numbers(text)
    tokens = content_tokens(mask_spans(text, [(n.start, n.end) for n in find_numerals(text)]))
    if not tokens and not numbers:
        return []

    def names(task: TaskView) -> bool:
        values = [str(v) for v in task.form.values() if v not in (None, "")]
        said = " ".join([task.process_name, task.process_name_en or "", *values]).casefold()
        return numbers <= _form_numbers(task) and all(
            re.search(rf"(?<![a-z]){re.escape(t)}" if t.isascii() else re.escape(t), said) for t in tokens)

    return [t for t in offered if names(t)]


def _of_its_process(conn: Connection, text: str, offered: list[TaskView]) -> list[TaskView]:
    """The to-dos of the one process a text names by its name or words alone ("leave" for "the leave request in my
    inbox", 报销): one is that to-do, several are asked about."""
    keys = {d.key for d in engine_of(conn).definitions(conn)
            if any(names_term(w, text) for w in (d.name, d.name_en, *d.words) if w and "{" not in w)}
    return [t for t in offered if t.process_key in keys] if len(keys) == 1 else []


def by_amount(text: str, offered: list[TaskView]) -> list[TaskView]:
    """The to-dos a whole message names by a number one of their form's values is (六千八那笔 for the 6800 claim)."""
    numbers = _numbers(text)
    return [t for t in offered if numbers & _form_numbers(t)]


def of_the_amount_decided(text: str, offered: list[TaskView], names: list[str]) -> TaskView | None:
    """The one of `offered` that a sentence deciding, passing on or sending back something names by an amount or a size
    of its form ("张三那笔一千二的报销驳回吧。¥2,350那笔我再看看": the claim of 1200; "Approve the 2,350 one … Hold off
    on the other": the one of 2350; 大的那笔转给赵六), where the message may name other amounts too; None unless exactly
    one is so named. `names`: the people's names, no numbers (the 三 of 张三)."""
    from tools.message_kind import sentences
    from tools.parsers.text import mask_words
    from tools.workflow.words import decision_in

    text = mask_words(text, names)
    acting = [s for s in sentences(text) if decision_in(s) is not None or _PASSED_OR_SENT_BACK.search(s)]
    picked = {t.id: t for s in acting for t in by_amount(s, offered)}
    if not picked:  # "金额大的那笔批了", "approve the longer one", 大的那笔转给赵六: the one at that end
        picked = {t.id: t for s in acting if (size := size_said(s)) and (t := of_the_size(size, offered)) is not None}
    return next(iter(picked.values())) if len(picked) == 1 else None


_PASSED_OR_SENT_BACK = re.compile(
    r"转给|转交|交给|移交|退回|打回|\b(?:transfer|reassign|hand|pass|forward|send|sent|bounce|return)\w*\b", re.IGNORECASE)
"""Words that act on a to-do other than deciding it: passing it on (转给赵六, "hand it to Zhao Liu"), sending it back."""
_SIZES = (
    ("amount", "larger", re.compile(r"(?:金额|数额)?(?:大|多|贵)的|\b(?:bigger|biggest|larger|largest|higher|pricier)\b", re.I)),
    ("amount", "smaller", re.compile(r"(?:金额|数额)?(?:小|少|便宜)的|\b(?:smaller|smallest|cheaper|cheapest|lower)\b", re.I)),
    ("days", "larger", re.compile(r"(?:天数多|长)的|\b(?:longer|longest)\b", re.I)),
    ("days", "smaller", re.compile(r"(?:天数少|短)的|\b(?:shorter|shortest)\b", re.I)),
)
"""Words that name one of several to-dos by its size: 金额大的那笔, "the cheaper one", 天数长的, "the longer one"."""


def size_said(text: str) -> tuple[str, str] | None:
    """The measure and end a text names a to-do by ("amount", "larger" for 大的那笔), or None: none, or more than one."""
    said = {(measure, end) for measure, end, words in _SIZES if words.search(text)}
    return next(iter(said)) if len(said) == 1 else None


def of_the_size(size: tuple[str, str], offered: list[TaskView]) -> TaskView | None:
    """Of the to-dos whose form has the measure, the one of the largest or smallest, when two or more have it and one
    alone is at that end."""
    measure, end = size
    sized = [(float(t.form[measure]), t) for t in offered if isinstance(t.form.get(measure), int | float)]
    if len(sized) < 2:
        return None
    best = (max if end == "larger" else min)(v for v, _ in sized)
    at_end = [t for v, t in sized if v == best]
    return at_end[0] if len(at_end) == 1 else None


def todos_from(conn: Connection, actor_id: str, requester_id: str) -> list[TaskView]:
    """The to-dos offered to the actor on requests of `requester_id`, oldest first."""
    offered = engine_of(conn).tasks_for(conn, actor_id, groups_of(conn, actor_id))
    return [t for t in offered if t.requester == requester_id]


def resolve_task(
    conn: Connection, value: Any, actor_id: str, *, param: str = "taskId", lang: str = "zh"
) -> dict[str, Any]:
    """A task by id, by its request's id when one step of it is offered to the actor (req_3 → task_3), or by its
    requester's name among the tasks offered to the actor ("张三" → task_1).

    Several such tasks from that requester are never resolved by choice: the person is asked which one.
    """
    text = str(value).strip()
    by_request = _REQ_RE.match(text)
    if ID_RE.match(text) and not by_request:
        return require_task(conn, text)
    offered = engine_of(conn).tasks_for(conn, actor_id, groups_of(conn, actor_id))
    if by_request:  # a request's id for its to-do ("req_3"): the one step of it offered to the actor
        of_it = [t for t in offered if t.instance_id == format_request_id(int(by_request.group("num")))]
        return task_record(conn, of_it[0]) if len(of_it) == 1 else require_task(conn, text)
    requesters = {u["id"]: dict(u) for u in conn.execute(ALL_USERS).mappings()}
    named = {u["id"] for u in named_in(text, [requesters[t.requester] for t in offered if t.requester in requesters])}
    found = [t for t in offered if t.requester in named] or _by_what_it_is(text, offered) or _of_its_process(
        conn, text, offered)
    if not found and not named_in(text, list(requesters.values())):
        found = offered  # "the new guy", "his request": no one and nothing it names tells which; the person is asked
    if len(found) == 1:
        return task_record(conn, found[0])
    if len(found) > 1:
        choices = tuple(_summary(conn, t, requesters[t.requester], lang) for t in found)
        raise NeedsPersonError(
            "ambiguous_task", f"{param} {text[:40]} fits {len(found)} of your tasks; ask the user which one",
            ask="which_task", param=param, choices=choices, name=text[:40],
        )
    raise NotFoundError(
        "unknown_task", f"{param} {text[:40]!r} is no pending task of yours; use the requester's name or call queryTodoTask"
    )


_REQ_RE = re.compile(r"^\s*(?:req|request)[_\-\s]?(?P<num>\d{1,12})\s*$", re.IGNORECASE)


def holds_todo_of(conn: Connection, actor_id: str, requesters: set[str]) -> bool:
    """Whether a to-do the actor may decide is of one of `requesters` (False for none)."""
    return bool(requesters) and any(task.requester in requesters for task in engine_of(conn).tasks_for(
        conn, actor_id, groups_of(conn, actor_id)))


def _own_ready(conn: Connection, actor_id: str, copied: int | None = None) -> list[TaskView]:
    """The ready tasks of the actor's own running requests, oldest first; with `copied` (a request's number), those of
    that request where it is copied to the actor (a copied person reminding its approver by the request's id)."""
    i, t = engine_tables.instances, engine_tables.tasks
    mine = i.c.requester == actor_id
    if copied is not None:
        mine = (i.c.id == copied) & select(request_cc.c.user_id).where(
            request_cc.c.instance_id == format_request_id(copied), request_cc.c.user_id == actor_id).exists()
    ids = conn.execute(
        select(t.c.id).join(i, i.c.id == t.c.instance_id)
        .where(mine, t.c.status == "ready").order_by(t.c.id)
    ).scalars().all()
    engine = engine_of(conn)
    return [engine.task(conn, format_task_id(number)) for number in ids]


def resolve_own_task(
    conn: Connection, value: Any, actor_id: str, *, param: str = "taskId", lang: str = "zh"
) -> dict[str, Any] | None:
    """A task by id; or the waiting task of the actor's own pending request, named by its request id (req_1) or by
    anything else that is no task id ("my leave", the actor's id) when the actor has exactly one, or of a request
    copied to them, named by its id; None when such a value names no task because the actor has no pending request (a
    plain message, not a reminder)."""
    text = str(value).strip()
    match = ID_RE.match(text)
    if match and (match.group("prefix") or "task").lower() == "task":
        return require_task(conn, text)
    own = _own_ready(conn, actor_id)
    me = conn.execute(USER_BY_ID, {"key": actor_id}).mappings().first()
    named_as = dict(me) if me is not None else {"name": actor_id}
    by_request = _REQ_RE.match(text)
    if by_request:
        number = int(by_request.group("num"))
        own = [t for t in own if t.instance_id == format_request_id(number)] or _own_ready(conn, actor_id, copied=number)
    if len(own) == 1:
        return task_record(conn, own[0])
    if len(own) > 1:
        choices = tuple(_summary(conn, t, named_as, lang) for t in own)
        raise NeedsPersonError(
            "ambiguous_task", f"{param} {text[:40]} fits {len(own)} of your pending requests; ask the user which one",
            ask="which_task", param=param, choices=choices, name=text[:40],
        )
    if not match and not by_request:
        return None  # no task meant: the actor has no pending request, and this is no task id
    raise NotFoundError("unknown_task", f"{param} {text[:40]!r} is not a task id (they look like task_1); call queryTodoTask")


def approver_choices(conn: Connection, actor_id: str, lang: str = "zh") -> tuple[str, ...]:
    """Everyone but the requester, named as the person reading writes names (张三 / Zhang San)."""
    names = [display_name(u, lang) for u in conn.execute(ALL_USERS).mappings() if u["id"] != actor_id]
    return tuple(names[:MAX_CHOICES]) + (("…",) if len(names) > MAX_CHOICES else ())
