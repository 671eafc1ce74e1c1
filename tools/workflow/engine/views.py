"""What the engine shows of its rows: task views with their instance's history, the events a change causes, an
instance's view, and its diagram marks (what is done, what waits, what may come next)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, cast

from SpiffWorkflow.bpmn.workflow import BpmnWorkflow
from SpiffWorkflow.util.task import TaskState
from sqlalchemy import Connection, Row, select

from tools.workflow.engine import tables
from tools.workflow.engine.deployments import deployment_of, model_of
from tools.workflow.engine.errors import EngineError
from tools.workflow.engine.ids import format_instance_id, format_task_id, parse_instance_id
from tools.workflow.engine.model import ProcessModel
from tools.workflow.engine.records import (
    Decision,
    DiagramMarks,
    InstanceEnded,
    InstanceView,
    Outcome,
    TaskReady,
    TaskStatus,
    TaskView,
)
from tools.workflow.engine.spiff import loads


class Header:
    """What every view of an instance's tasks shares."""

    def __init__(self, instance_id: int, model: ProcessModel, version: int, requester: str, data: dict[str, Any]) -> None:
        self.instance_id = instance_id
        self.model = model
        self.version = version
        self.requester = requester
        self.data = data

    def form(self) -> dict[str, Any]:
        return {f.id: self.data.get(f.id) for f in self.model.fields}


def history(conn: Connection, instance_ids: Sequence[int]) -> dict[int, tuple[Decision, ...]]:
    """Each instance's decisions, oldest first (a step that sent the request back to its requester included)."""
    t = tables.tasks
    rows = conn.execute(
        select(t)
        .where(t.c.instance_id.in_(list(instance_ids)), t.c.status.in_(("completed", "returned")))
        .order_by(t.c.decided_at, t.c.id)
    ).all()
    found: dict[int, list[Decision]] = {i: [] for i in instance_ids}
    for row in rows:
        found[row.instance_id].append(
            Decision(
                task_id=format_task_id(row.id), element_id=row.element_id, step=row.step, step_en=row.step_en,
                user=row.decided_by, approved=bool(row.approved), comment=row.comment or "", at=row.decided_at,
                returned=row.status == "returned",
            )
        )
    return {i: tuple(v) for i, v in found.items()}


def task_view(header: Header, row: Row[Any], earlier: tuple[Decision, ...]) -> TaskView:
    """A task row as the engine shows it, with its instance's decisions before it."""
    return TaskView(
        id=format_task_id(row.id), instance_id=format_instance_id(header.instance_id), process_key=header.model.key,
        process_name=header.model.name, process_name_en=header.model.name_en, process_version=header.version,
        element_id=row.element_id, step=row.step, step_en=row.step_en, requester=header.requester,
        assignee=row.assignee, candidate_users=tuple(json.loads(row.candidate_users)),
        candidate_groups=tuple(json.loads(row.candidate_groups)), status=cast(TaskStatus, row.status),
        form=header.form(), history=earlier, created_at=row.created_at, decided_by=row.decided_by,
        approved=row.approved, comment=row.comment, decided_at=row.decided_at,
    )


def task_views(conn: Connection, rows: Sequence[Row[Any]]) -> list[TaskView]:
    """Task rows of any instances as the engine shows them, each instance read once."""
    if not rows:
        return []
    ids = sorted({row.instance_id for row in rows})
    i, d = tables.instances, tables.deployments
    headers: dict[int, Header] = {}
    for inst in conn.execute(
        select(i.c.id, i.c.process_version, i.c.requester, i.c.data, d.c.sha256, d.c.bpmn_xml)
        .join(d, d.c.id == i.c.deployment_id)
        .where(i.c.id.in_(ids))
    ):
        headers[inst.id] = Header(inst.id, model_of(inst), inst.process_version, inst.requester, json.loads(inst.data))
    decided = history(conn, ids)
    views = []
    for row in rows:
        earlier = decided[row.instance_id]
        if row.status in ("completed", "returned"):
            earlier = tuple(h for h in earlier if h.task_id != format_task_id(row.id) and h.at <= (row.decided_at or ""))
        views.append(task_view(headers[row.instance_id], row, earlier))
    return views


def ready_rows(conn: Connection, instance_id: int) -> Sequence[Row[Any]]:
    """An instance's ready task rows, oldest first."""
    t = tables.tasks
    return conn.execute(select(t).where(t.c.instance_id == instance_id, t.c.status == "ready").order_by(t.c.id)).all()


def ready_event(header: Header, view: TaskView) -> TaskReady:
    assignees = tuple(dict.fromkeys([*([view.assignee] if view.assignee else []), *view.candidate_users]))
    return TaskReady(
        task_id=view.id, instance_id=view.instance_id, process_key=view.process_key, process_name=view.process_name,
        step=view.step, step_en=view.step_en, requester=view.requester, assignees=assignees,
        candidate_groups=view.candidate_groups, form=header.form(),
    )


def ended_event(header: Header, outcome: Outcome) -> InstanceEnded:
    return InstanceEnded(
        instance_id=format_instance_id(header.instance_id), process_key=header.model.key,
        process_name=header.model.name, requester=header.requester, outcome=outcome, form=header.form(),
    )


def instance_view(conn: Connection, instance_id: str) -> InstanceView:
    """An instance's status, data, history, current steps, diagram marks and BPMN XML (`unknown_instance` if none)."""
    number = parse_instance_id(instance_id)
    row = conn.execute(select(tables.instances).where(tables.instances.c.id == number)).first()
    if row is None:
        raise EngineError("unknown_instance", f"There is no request {format_instance_id(number)}.")
    deployment = deployment_of(conn, row)
    model = model_of(deployment)
    data = json.loads(row.data)
    header = Header(row.id, model, row.process_version, row.requester, data)
    decided = history(conn, [row.id])[row.id]
    ready = tuple(task_view(header, r, decided) for r in ready_rows(conn, row.id))
    return InstanceView(
        id=format_instance_id(row.id), process_key=row.process_key, process_name=model.name,
        process_name_en=model.name_en, version=row.process_version, requester=row.requester, status=row.status,
        data=data, history=decided, tasks=ready, current_steps=tuple(dict.fromkeys(v.step for v in ready)),
        diagram=diagram_marks(loads(row.state), model), bpmn_xml=deployment.bpmn_xml, created_at=row.created_at,
        ended_at=row.ended_at,
    )


def diagram_marks(workflow: BpmnWorkflow, model: ProcessModel) -> DiagramMarks:
    """The elements a run has done (flows taken included), the user tasks it waits on, and what may come next."""
    done: set[str] = set()
    current: set[str] = set()
    joins: set[str] = set()  # parallel gateways reached (done, or waiting for their other branches)
    steps: set[tuple[str, str]] = set()  # (from, to) node pairs the token went along
    for task in workflow.get_tasks():
        element = getattr(task.task_spec, "bpmn_id", None)
        if element not in model.nodes:
            continue
        if model.nodes[element] == "parallelGateway" and task.state in (TaskState.COMPLETED, TaskState.WAITING):
            joins.add(element)
        if task.state == TaskState.COMPLETED:
            done.add(element)
        elif task.state == TaskState.READY and task.task_spec.manual:
            current.add(element)
        else:
            continue
        parent = task.parent
        while parent is not None and getattr(parent.task_spec, "bpmn_id", None) not in model.nodes:
            parent = parent.parent
        if parent is not None:
            steps.add((parent.task_spec.bpmn_id, element))
    # SpiffWorkflow hangs a join under one of its incoming branches only; every finished branch reached it.
    taken = {
        flow.id for flow in model.flows
        if (flow.source, flow.target) in steps or (flow.target in joins and flow.source in done)
    }
    upcoming = model.next_nodes(current) - done - current
    order = list(model.nodes) + [flow.id for flow in model.flows]
    return DiagramMarks(
        done=tuple(x for x in order if x in done or x in taken),
        current=tuple(x for x in order if x in current),
        next=tuple(x for x in order if x in upcoming),
    )
