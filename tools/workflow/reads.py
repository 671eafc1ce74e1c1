"""The workflow's read tools: the deployed processes with their forms, the users, and the tasks a user may decide."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, select

from tools.spec import CallContext, Verdict
from tools.workflow.args import NoArgs, QueryTodoTaskArgs
from tools.workflow.engine import Definition, FormField, StepDef, TaskView, groups_of, parse_task_id
from tools.workflow.engine.moves import on_behalf_of
from tools.workflow.engine.timers import due_dates
from tools.workflow.lookup import display_name, engine_of
from tools.workflow.mine import own_waiting
from tools.workflow.shown import form_words
from tools.workflow.store import users
from tools.workflow.timeline import when

TODO_LIST_LIMIT = 50


def _field(form_field: FormField, lang: str) -> dict[str, Any]:
    """A form field as the model reads it: id, label (in the person's language), type, required, choices."""
    label = form_field.label_en or form_field.label if lang == "en" else form_field.label
    out: dict[str, Any] = {"id": form_field.id, "label": label, "type": form_field.type, "required": form_field.required}
    if form_field.choices:
        out["choices"] = [c.name_en or c.name if lang == "en" else c.name for c in form_field.choices]
    if form_field.unit:
        out["unit"] = form_field.unit
    return out


def workflow_item(definition: Definition, lang: str) -> dict[str, Any]:
    return {
        "processKey": definition.key,
        "name": definition.name_en or definition.name if lang == "en" else definition.name,
        "version": definition.version,
        "startable": True,
        "fields": [_field(f, lang) for f in definition.fields],
    } | ({"steps": [_step(s, lang) for s in definition.steps]} if definition.steps else {})


def _step(step: StepDef, lang: str) -> dict[str, str]:
    """A step of a process as the model reads it: its name, and when a request comes to it where not every
    one does (a rule the person may ask about: "over 5000 yuan goes on to finance")."""
    out = {"step": step.name_en or step.name if lang == "en" else step.name}
    when = step.when_en or step.when if lang == "en" else step.when
    if when:
        out["when"] = when
    return out


def get_all_workflows(conn: Connection, ctx: CallContext, args: NoArgs, verdict: Verdict) -> dict[str, Any]:
    """Each deployed process (its latest version) with its start form, in the person's language."""
    return {"workflows": [workflow_item(d, ctx.lang) for d in engine_of(conn).definitions(conn)]}


def get_all_users(conn: Connection, ctx: CallContext, args: NoArgs, verdict: Verdict) -> dict[str, Any]:
    rows = conn.execute(select(users).order_by(users.c.id)).mappings().all()
    return {"users": [{"userId": r["id"], "name": display_name(r, ctx.lang), "email": r["email"]} for r in rows]}


def todo_item(
    task: TaskView, people: dict[str, dict[str, Any]], lang: str, definition: Definition | None = None
) -> dict[str, Any]:
    """A task as the model reads it: the process, the step, the requester and the request's form data (with its
    `summary` worded in the reader's language when the process `definition` is given: units, choices by name)."""
    requester = people.get(task.requester, {"name": task.requester, "alias": ""})
    item: dict[str, Any] = {
        "taskId": task.id,
        "requestId": task.instance_id,
        "processKey": task.process_key,
        "process": task.process_name_en or task.process_name if lang == "en" else task.process_name,
        "step": task.step_en or task.step if lang == "en" else task.step,
        "requester": task.requester,
        "requesterName": display_name(requester, lang),
        "createdAt": task.created_at,
    }
    for key in ("days", "reason"):
        if key in task.form:
            item[key] = task.form[key]
    others = {k: v for k, v in task.form.items() if k not in ("days", "reason")}
    if others:  # a form beyond the leave's days and reason: the decider reads it all (an amount, a destination)
        item["form"] = others
    if definition is not None:
        item["summary"] = form_words(task.form, definition, lang)
    if task.candidate_groups and not task.assignee:
        item["groups"] = list(task.candidate_groups)
    return item


def query_todo_tasks(conn: Connection, ctx: CallContext, args: QueryTodoTaskArgs, verdict: Verdict) -> dict[str, Any]:
    """The ready tasks the user may decide: assigned to them, offered to them as a candidate, or to one of their
    groups; never a step of their own request (a group member who asked is not offered it)."""
    owner = verdict.found["userId"]
    tasks = [t for t in engine_of(conn).tasks_for(conn, owner["id"], groups_of(conn, owner["id"]))
             if t.requester != owner["id"]]
    people = {r["id"]: dict(r) for r in conn.execute(select(users)).mappings()}
    engine = engine_of(conn)
    definitions = {(t.process_key, t.process_version): engine.definition(conn, t.process_key, t.process_version)
                   for t in tasks}
    items = [todo_item(t, people, ctx.lang, definitions[(t.process_key, t.process_version)]) for t in tasks]
    behalf = on_behalf_of(conn, [parse_task_id(t.id) for t in tasks])
    due = due_dates(conn, [parse_task_id(t.id) for t in tasks])
    for task, item in zip(tasks, items, strict=True):
        if parse_task_id(task.id) in behalf:  # held by a deputy: on whose behalf
            item["onBehalfOf"] = display_name(people.get(behalf[parse_task_id(task.id)], {"name": "?"}), ctx.lang)
        if parse_task_id(task.id) in due:  # its due date, or when it moves on: worded in the reader's language
            item["due"] = when(due[parse_task_id(task.id)], ctx.lang)
    result = {"userId": owner["id"], "name": display_name(owner, ctx.lang), "total": len(items),
              "tasks": items[:TODO_LIST_LIMIT]}
    if not items and owner["id"] == ctx.actor_id:  # "what have I got pending?": what of theirs waits on others
        result["ownWaiting"] = own_waiting(conn, ctx.actor_id, ctx.lang)
    return result
