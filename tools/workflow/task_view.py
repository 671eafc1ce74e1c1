"""What an approver sees of a task (issue 34): the request's diagram (its steps marked done, waiting now, next), its
timeline, and the requester's earlier requests of the same kind this year. One read serves the `viewTask` tool in the
chat and the to-do rows of the page's tasks panel (`task_extras`)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Connection, select

from tools.errors import PolicyError
from tools.spec import CallContext, Found, Verdict
from tools.workflow.diagram import process_lines
from tools.workflow.engine import Definition, InstanceView, format_instance_id
from tools.workflow.engine import tables as t
from tools.workflow.lookup import ALL_USERS, engine_of, groups_as_people
from tools.workflow.mine import STATUS_WORDS
from tools.workflow.shown import form_words
from tools.workflow.timeline import SHOWN_TIMEZONE, name_of, timeline_lines, when
from tools.workflow.views import REQUEST_STATUS

EARLIER_SHOWN = 10
"""The requester's earlier requests of the same kind listed, newest first."""


class ViewTaskArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")
    taskId: str = Field(description="The task: its requester's name (张三), or a taskId from queryTodoTask (task_1).")


def check_view_task(conn: Connection, ctx: CallContext, args: ViewTaskArgs, found: Found) -> Verdict:
    """An approver sees a task offered to them or one they decided; its requester sees their own."""
    task = found["taskId"]
    if ctx.actor_id not in task["offered"] and task.get("decided_by") != ctx.actor_id \
            and task["requester"] != ctx.actor_id:
        raise PolicyError("not_assignee", f"{task['id']} is not offered to you ({ctx.actor_id}); only its approvers "
                          "and its requester see it")
    return Verdict()


def _status(view: InstanceView, lang: str) -> str:
    status = REQUEST_STATUS.get(view.status, view.status)
    return STATUS_WORDS["en" if lang == "en" else "zh"].get(status, status)


def _year(at: str) -> int:
    """The year of a time stamp in the company's time zone (a request filed at 2 a.m. on 1 January in Shanghai is of
    the new year, though it is still 31 December in UTC)."""
    return datetime.fromisoformat(at).astimezone(SHOWN_TIMEZONE).year


def earlier_requests(conn: Connection, view: InstanceView, lang: str) -> tuple[int, list[dict[str, Any]]]:
    """The requester's requests of the same process filed before this one in the year it was filed (this year, for
    a task waiting now), newest first: how many, and the latest `EARLIER_SHOWN` in words (what was asked, how it
    ended, when)."""
    year = _year(view.created_at)
    i = t.instances
    number = int(view.id.removeprefix("req_"))
    rows = conn.execute(
        select(i.c.id, i.c.created_at).where(i.c.requester == view.requester, i.c.process_key == view.process_key,
                                             i.c.id < number).order_by(i.c.id.desc())
    ).all()
    this_year = [r.id for r in rows if _year(str(r.created_at)) == year]
    engine = engine_of(conn)
    items = []
    for earlier in this_year[:EARLIER_SHOWN]:
        before = engine.instance(conn, format_instance_id(earlier))
        definition = engine.definition(conn, before.process_key, before.version)
        items.append({"requestId": before.id, "summary": form_words(before.data, definition, lang),
                      "status": _status(before, lang), "filed": when(before.created_at, lang)})
    return len(this_year), items


def task_words(conn: Connection, task: dict[str, Any], people: dict[str, dict[str, Any]], lang: str) -> dict[str, Any]:
    """A task's request as its approver reads it, in one language: what it asks, where it stands, its steps (the
    diagram as text), its timeline, and the requester's earlier requests of the same kind this year."""
    engine = engine_of(conn)
    view = engine.instance(conn, task["request_id"])
    definition: Definition = engine.definition(conn, view.process_key, view.version)
    total, earlier = earlier_requests(conn, view, lang)
    return {
        "taskId": task["id"], "requestId": view.id,
        "process": (definition.name_en or definition.name) if lang == "en" else definition.name,
        "requester": name_of(people, view.requester, lang),
        "summary": form_words(view.data, definition, lang), "status": _status(view, lang),
        "steps": process_lines(view, people, lang, {
            step.element_id: (step.when_en or step.when) if lang == "en" else step.when
            for step in definition.steps if step.when}),
        "timeline": timeline_lines(engine.timeline(conn, view.id), people, definition, lang),
        "earlierTotal": total, "earlier": earlier,
    }


def view_task(conn: Connection, ctx: CallContext, args: ViewTaskArgs, verdict: Verdict) -> dict[str, Any]:
    """`viewTask`: the task's request, its diagram as steps, its timeline and the requester's earlier requests."""
    people = groups_as_people(conn) | {u["id"]: dict(u) for u in conn.execute(ALL_USERS).mappings()}
    return task_words(conn, verdict.found["taskId"], people, ctx.lang)


def task_extras(conn: Connection, task_id: str, request_id: str, people: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """For a to-do row of the page: the diagram's marks, and the timeline and earlier requests in both languages."""
    view = engine_of(conn).instance(conn, request_id)
    task = {"id": task_id, "request_id": request_id}
    words = {lang: task_words(conn, task, people, lang) for lang in ("zh", "en")}
    return {
        "diagram": {"key": f"{view.process_key}@{view.version}", **view.diagram.to_dict()},
        "timeline": {lang: w["timeline"] for lang, w in words.items()},
        "earlier": {lang: [f"{e['requestId']} · {e['filed']} · {e['summary']} · {e['status']}" for e in w["earlier"]]
                    for lang, w in words.items()},
        "earlier_total": words["zh"]["earlierTotal"],
    }


def viewed_line(result: dict[str, Any], lang: str) -> str:
    """`viewTask`'s result as a person reads it: the request, its steps, its timeline, the earlier requests."""
    en = lang == "en"
    head = (f"{result['requester']}'s {result['process']} {result['requestId']} ({result['summary']}): "
            f"{result['status']}." if en else
            f"{result['requester']}的{result['process']} {result['requestId']}（{result['summary']}）：{result['status']}。")
    lines = [head, "Steps:" if en else "流程：", *(f"  {s}" for s in result["steps"]),
             "What happened:" if en else "经过：", *(f"  {s}" for s in result["timeline"])]
    total = int(result.get("earlierTotal", 0))
    if not total:
        lines.append(f"No earlier {result['process'].lower()} from {result['requester']} this year." if en
                     else f"{result['requester']}今年没有更早的{result['process']}。")
    else:
        lines.append(f"Earlier this year ({total}):" if en else f"今年更早的同类申请（{total} 个）：")
        lines += [f"  {e['requestId']} {e['filed']} {e['summary']}: {e['status']}" if en
                  else f"  {e['requestId']} {e['filed']} {e['summary']}：{e['status']}" for e in result["earlier"]]
    return "\n".join(lines)
