"""The page's panels of the workflow (`GET /flowagent/api/…`), each for the signed-in user only:

- `tasks`: the steps offered to them (newest first; decided ones too), the requests they started and those copied to
  them (抄送), each with its process, current step, who holds it and since when, form data, decisions, timeline and
  diagram marks (done, current and next BPMN elements); a step also with the requester's earlier requests of the
  same kind that year, as its approver sees them (`tools.workflow.task_view`);
- `diagrams`: the BPMN XML of the process versions those requests (copied ones too) and tasks run on, by
  `key@version`, for the viewer;
- `outbox`: the e-mails they sent or were sent.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection, or_, select

from tools.workflow.cc_urge_specs import copied_numbers
from tools.workflow.engine import Definition, FormField, format_instance_id, format_task_id, groups_of, parse_task_id
from tools.workflow.engine import tables as t
from tools.workflow.engine.moves import on_behalf_of
from tools.workflow.engine.timers import due_dates
from tools.workflow.lookup import ALL_USERS, engine_of, group_label
from tools.workflow.mine import REQUESTS_SHOWN, own_instance_ids, request_item
from tools.workflow.store import outbox, users
from tools.workflow.task_view import task_extras
from tools.workflow.timeline import when
from tools.workflow.views import REQUEST_STATUS, is_flagged, task_status

TASKS_SHOWN = 50


def _user(row: Any) -> dict[str, str]:
    return {"id": row["id"], "name": row["name"], "name_en": row["alias"] or row["name"]}


def _names(conn: Connection) -> dict[str, dict[str, str]]:
    return {row["id"]: _user(row) for row in conn.execute(select(users)).mappings()}


def _field(field: FormField, value: Any) -> dict[str, Any]:
    choice = next((c for c in field.choices if c.id == value), None)
    shown = choice.name if choice else value
    shown_en = (choice.name_en or choice.name) if choice else value
    return {"id": field.id, "label": field.label, "label_en": field.label_en or field.label, "value": shown,
            "value_en": shown_en}


def _form(data: dict[str, Any], definition: Definition) -> list[dict[str, Any]]:
    return [_field(f, data.get(f.id)) for f in definition.fields if data.get(f.id) not in (None, "")]


def _decisions(history: Any, people: dict[str, dict[str, str]]) -> list[dict[str, Any]]:
    return [
        {"task": h.task_id, "step": h.step, "step_en": h.step_en or h.step,
         "user": people.get(h.user, {"id": h.user, "name": h.user, "name_en": h.user}),
         "approved": h.approved, "returned": h.returned, "comment": h.comment, "at": h.at}
        for h in history
    ]


def tasks_of(conn: Connection, user_id: str) -> dict[str, list[dict[str, Any]]]:
    """The steps offered to the user (newest first), and the requests they started with where each stands."""
    engine = engine_of(conn)
    people = _names(conn)
    groups = groups_of(conn, user_id)
    offered = select(t.task_offers.c.task_id).where(
        or_((t.task_offers.c.kind == "user") & (t.task_offers.c.name == user_id),
            (t.task_offers.c.kind == "group") & t.task_offers.c.name.in_(groups or [""]))
    )
    ids = conn.execute(
        select(t.tasks.c.id).where(or_(t.tasks.c.id.in_(offered), t.tasks.c.decided_by == user_id))
        .order_by(t.tasks.c.id.desc()).limit(TASKS_SHOWN)
    ).scalars().all()
    definitions: dict[tuple[str, int], Definition] = {}

    def definition(key: str, version: int) -> Definition:
        if (key, version) not in definitions:
            definitions[key, version] = engine.definition(conn, key, version)
        return definitions[key, version]

    todo = []
    for number in ids:
        task = engine.task(conn, format_task_id(number))
        if task.status == "cancelled":
            continue
        d = definition(task.process_key, task.process_version)
        todo.append({
            "id": task.id, "request": task.instance_id, "process": task.process_name,
            "process_en": task.process_name_en or task.process_name, "process_key": task.process_key,
            "version": task.process_version, "step": task.step, "step_en": task.step_en or task.step,
            "requester": people.get(task.requester, {"id": task.requester, "name": task.requester}),
            "days": task.form.get("days"), "reason": task.form.get("reason"), "form": _form(task.form, d),
            "flagged": is_flagged(task.form, d.fields), "status": task_status(task),
            "group": list(task.candidate_groups) if not task.assignee else [],
            "group_names": [group_label(conn, g, "zh") for g in task.candidate_groups] if not task.assignee else [],
            "group_names_en": [group_label(conn, g, "en") for g in task.candidate_groups] if not task.assignee else [],
            "mine": task.requester == user_id, "decided_by": task.decided_by, "comment": task.comment,
            "history": _decisions(task.history, people), "created_at": task.created_at, "decided_at": task.decided_at,
        })
    behalf = on_behalf_of(conn, ids)
    due = due_dates(conn, ids)
    for row in todo:  # held by a deputy: on whose behalf
        away = behalf.get(parse_task_id(str(row["id"])))
        row["on_behalf_of"] = people.get(away, {"id": away, "name": away}) if away else None
        at = due.get(parse_task_id(str(row["id"])))  # a waiting step's due date, or when it moves on
        row["due"] = {"zh": when(at, "zh"), "en": when(at, "en")} if at else None
    users_ = {u["id"]: dict(u) for u in conn.execute(ALL_USERS).mappings()}
    for row in todo:  # what an approver sees of a task: its diagram, timeline and the requester's earlier requests
        row.update(task_extras(conn, str(row["id"]), str(row["request"]), users_))
    own = own_instance_ids(conn, user_id, REQUESTS_SHOWN)
    copied = copied_numbers(conn, user_id)
    return {"todo": todo, "requests": _requested(conn, own, people, definition),
            "copied": _requested(conn, copied, people, definition)}


def _requested(conn: Connection, numbers: list[int], people: dict[str, dict[str, str]],
               definition: Callable[[str, int], Definition]) -> list[dict[str, Any]]:
    """Requests by number (the user's own, or those copied to them), newest first, each with who filed it and where it
    stands: its current step, who holds it and since when, the comment it was sent back with, and its timeline, in
    both languages (`tools.workflow.mine`)."""
    engine = engine_of(conn)
    users_ = {u["id"]: dict(u) for u in conn.execute(ALL_USERS).mappings()}
    requested = []
    for number in numbers:
        view = engine.instance(conn, format_instance_id(number))
        d = definition(view.process_key, view.version)
        current = view.tasks[0] if view.tasks else None
        first = conn.execute(
            select(t.tasks).where(t.tasks.c.instance_id == number).order_by(t.tasks.c.id).limit(1)
        ).first()
        last = view.history[-1] if view.history else None
        words = {lang: request_item(conn, view, d, users_, lang) for lang in ("zh", "en")}
        requested.append({
            "id": view.id, "requester": people.get(view.requester, {"id": view.requester, "name": view.requester}),
            "process": view.process_name, "process_en": view.process_name_en or view.process_name,
            "process_key": view.process_key, "version": view.version,
            "days": view.data.get("days"), "reason": view.data.get("reason"), "form": _form(view.data, d),
            "status": REQUEST_STATUS.get(view.status, view.status),
            "step": "、".join(view.current_steps) or None,
            "steps": [{"task": x.id, "step": x.step, "step_en": x.step_en or x.step} for x in view.tasks],
            "task": current.id if current else None,
            "approver": people.get(first.assignee) if first is not None and first.assignee else None,
            "comment": last.comment if last else None,
            "history": _decisions(view.history, people),
            "held_by": {lang: w.get("heldBy") for lang, w in words.items()},
            "since": {lang: w.get("since") for lang, w in words.items()},
            "timeline": {lang: w["timeline"] for lang, w in words.items()},
            "diagram": {"key": f"{view.process_key}@{view.version}", **view.diagram.to_dict()},
            "created_at": view.created_at, "decided_at": view.ended_at,
        })
    return requested


def diagrams_of(conn: Connection, user_id: str) -> dict[str, dict[str, str]]:
    """The BPMN XML of every process version the user's requests and offered steps run on, by `key@version`."""
    panel = tasks_of(conn, user_id)
    wanted = {(r["process_key"], r["version"]) for r in [*panel["requests"], *panel["copied"]]}
    wanted |= {(x["process_key"], x["version"]) for x in panel["todo"]}
    d = t.deployments
    rows = conn.execute(select(d.c.key, d.c.version, d.c.bpmn_xml)).all() if wanted else []
    return {"diagrams": {f"{r.key}@{r.version}": r.bpmn_xml for r in rows if (r.key, r.version) in wanted}}


def outbox_of(conn: Connection, user_id: str) -> dict[str, list[dict[str, Any]]]:
    """The e-mails the user sent or was sent, newest first."""
    people = _names(conn)
    rows = conn.execute(
        select(outbox).where(or_(outbox.c.sender_id == user_id, outbox.c.recipient_id == user_id))
        .order_by(outbox.c.id.desc())
    ).mappings().all()
    return {"emails": [
        {
            "id": row["id"],
            "from": people.get(row["sender_id"], {"id": row["sender_id"], "name": row["sender_id"]}),
            "to": {**people[row["recipient_id"]], "email": row["recipient_email"]},
            "subject": row["subject"],
            "body": row["body"],
            "task": format_task_id(row["task_id"]) if row["task_id"] is not None else None,
            "status": row["status"],
            "created_at": row["created_at"],
            "sent_at": row["sent_at"],
        }
        for row in rows
    ]}


__all__ = ["diagrams_of", "outbox_of", "tasks_of"]
