"""A waiting task passed on to other holders: transferred by one who holds it, or routed to an away person's deputy
(or, when the deputy is the request's requester, to the person's own approver).

`move_task` replaces the task's holders (assignee, candidate users, candidate groups and their offers) with
compare-and-set on what it read (`UPDATE process_tasks … WHERE id = :id AND status = 'ready' AND <the holders as read>`),
so of two moves, or a move and a decision, that meet, one wins and the other gets `task_not_pending`. Each move is a
row of `process_task_moves`, in the caller's transaction: the request's timeline shows it (`happened`) and the to-do
list reads on whose behalf a deputy holds a task (`on_behalf_of`).

Whether a group's task may leave its groups is the process's word: the property `transferOutsideGroup` ("true") on
the user task, else on its process (`outside_group_allowed`); without it, false.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from lxml import etree
from sqlalchemy import Connection, Row, delete, insert, select, update

from tools.workflow.engine import tables
from tools.workflow.engine.changes import Happened
from tools.workflow.engine.deployments import deployment_of
from tools.workflow.engine.errors import EngineError
from tools.workflow.engine.ids import format_task_id
from tools.workflow.engine.model import NS
from tools.workflow.engine.records import Record
from tools.workflow.engine.tasks import pending_row
from tools.workflow.engine.timer_specs import property_of

MoveKind = Literal["transferred", "deputy", "deputy_own", "group_own"]
"""transferred: a holder passed it on; deputy: it went to an away person's deputy; deputy_own: the deputy is its
requester, so it went to the away person's own approver instead; group_own: its groups hold nobody but its requester
(`from_user`), so it went to the requester's own approver."""
OUTSIDE_GROUP_PROPERTY = "transferOutsideGroup"


@dataclass(frozen=True)
class Moved(Record):
    """A waiting task passed on."""

    task_id: str
    """The task (`task_4`)."""
    instance_id: int
    """Its request's number."""
    kind: MoveKind
    """transferred, deputy or deputy_own."""
    from_user: str
    """Who held it (transferred), or on whose behalf it is held (deputy, deputy_own)."""
    to_users: tuple[str, ...]
    """The people it is offered to now."""
    to_groups: tuple[str, ...]
    """The groups it is offered to now."""
    before_users: tuple[str, ...]
    """The people it was offered to before (its assignee first)."""
    before_groups: tuple[str, ...]
    """The groups it was offered to before."""


def holders(row: Row[Any]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A task row's people (its assignee first, then its candidate users) and its groups."""
    users = dict.fromkeys([*([row.assignee] if row.assignee else []), *json.loads(row.candidate_users)])
    return tuple(users), tuple(json.loads(row.candidate_groups))


def move_task(
    conn: Connection, task_id: str | int, *, to_users: Sequence[str], to_groups: Sequence[str] = (), kind: MoveKind,
    from_user: str, by: str, comment: str = "", now: str,
) -> Moved:
    """Offer a ready task to `to_users` (the first becomes its assignee when it has no groups) and `to_groups` instead
    of its present holders, and record the move. `task_not_pending` when it was decided or moved meanwhile."""
    users, groups = tuple(dict.fromkeys(to_users)), tuple(dict.fromkeys(to_groups))
    if not users and not groups:
        raise EngineError("no_holder", "A task is passed on to someone: give a user or a group.")
    row = pending_row(conn, task_id)
    before_users, before_groups = holders(row)
    t, o = tables.tasks, tables.task_offers
    same = (t.c.assignee.is_(None) if row.assignee is None else t.c.assignee == row.assignee)
    assignee = users[0] if len(users) == 1 and not groups else None
    candidates = [u for u in users if u != assignee]
    changed = conn.execute(
        update(t).where(t.c.id == row.id, t.c.status == "ready", same, t.c.candidate_users == row.candidate_users,
                        t.c.candidate_groups == row.candidate_groups)
        .values(assignee=assignee, candidate_users=json.dumps(candidates, ensure_ascii=False),
                candidate_groups=json.dumps(list(groups), ensure_ascii=False))
    ).rowcount
    if changed != 1:
        raise EngineError("task_not_pending", f"Task {format_task_id(row.id)} was decided or passed on meanwhile.")
    conn.execute(delete(o).where(o.c.task_id == row.id))
    offers = [{"task_id": row.id, "kind": "user", "name": u} for u in users]
    offers += [{"task_id": row.id, "kind": "group", "name": g} for g in groups]
    conn.execute(insert(o), offers)
    conn.execute(insert(tables.task_moves).values(
        instance_id=row.instance_id, task_id=row.id, kind=kind, from_user=from_user,
        to_users=json.dumps(list(users), ensure_ascii=False), to_groups=json.dumps(list(groups), ensure_ascii=False),
        by_user=by, comment=comment, at=now,
    ))
    return Moved(task_id=format_task_id(row.id), instance_id=row.instance_id, kind=kind, from_user=from_user,
                 to_users=users, to_groups=groups, before_users=before_users, before_groups=before_groups)


def outside_group_allowed(conn: Connection, task_id: str | int) -> bool:
    """Whether the task's process lets it leave its groups: `transferOutsideGroup` = "true" on its user task, else
    on its process, in the BPMN of the version its request runs on."""
    row = pending_row(conn, task_id)
    instance = conn.execute(select(tables.instances).where(tables.instances.c.id == row.instance_id)).one()
    root = etree.fromstring(deployment_of(conn, instance).bpmn_xml.encode())
    task = next(iter(root.xpath(f"//bpmn:userTask[@id='{row.element_id}']", namespaces=NS)), None)
    if task is None:
        return False
    own = property_of(task, OUTSIDE_GROUP_PROPERTY)
    if own:
        return own.strip().lower() == "true"
    process = task.getparent()
    return process is not None and property_of(process, OUTSIDE_GROUP_PROPERTY).strip().lower() == "true"


def happened(conn: Connection, instance_id: int) -> list[Happened]:
    """The request's moves as timeline entries: who passed which step on, to whom, with what comment."""
    m, k = tables.task_moves, tables.tasks
    rows = conn.execute(
        select(m, k.c.step, k.c.step_en).join(k, k.c.id == m.c.task_id)
        .where(m.c.instance_id == instance_id).order_by(m.c.at, m.c.id)
    )
    found = []
    for row in rows:
        to = tuple(json.loads(row.to_users)) + tuple(
            p for g in json.loads(row.to_groups) for p in tables.members_of(conn, g))
        found.append(Happened(kind=row.kind, user=row.from_user, at=row.at, comment=row.comment, step=row.step,
                              step_en=row.step_en, task_id=format_task_id(row.task_id), to=tuple(dict.fromkeys(to))))
    return found


def on_behalf_of(conn: Connection, task_ids: Iterable[int]) -> dict[int, str]:
    """For each task a deputy holds (its last move went to a deputy, or to the away person's own approver): the
    person it is held for, by task number."""
    ids = list(task_ids)
    if not ids:
        return {}
    m = tables.task_moves
    found: dict[int, str] = {}
    for row in conn.execute(select(m).where(m.c.task_id.in_(ids)).order_by(m.c.id)):
        if row.kind in ("deputy", "deputy_own"):
            found[row.task_id] = row.from_user
        else:
            found.pop(row.task_id, None)
    return found
