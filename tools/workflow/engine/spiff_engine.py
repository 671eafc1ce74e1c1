"""`SpiffEngine`: the `ProcessEngine` on SpiffWorkflow 3.2, embedded, with its state in the caller's database.

An instance's SpiffWorkflow state is serialized (JSON) into `process_instances.state` with a `version` for
compare-and-set. Each call works in memory first (deserialize, run, serialize) and writes last, so a refusal or
a process error leaves nothing behind; `complete` writes with `UPDATE … WHERE id = :id AND version = :expected`
and `UPDATE process_tasks … WHERE id = :id AND status = 'ready'`: of two workers deciding one task, the second
updates 0 rows and gets `task_not_pending` (PostgreSQL makes it wait for the first's commit, then re-checks; on
SQLite, `BEGIN IMMEDIATE` queues it behind the first). An error raised after a write is left for the caller's
transaction to roll back, as any exception inside `engine.begin()` does.

Instance data (the data contract BPMN authors write against): the start form's values, `requester`, and
`nextUserId` when given; each decision sets `approved` and `comment` and appends
`{task_id, step, user, approved, comment, at}` to `history`. The engine keeps the authoritative copy in
`process_instances.data` and hands it to SpiffWorkflow before each step, so parallel branches see every decision.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any, cast

from SpiffWorkflow.bpmn.workflow import BpmnWorkflow
from SpiffWorkflow.exceptions import SpiffWorkflowException
from SpiffWorkflow.util.task import TaskState
from sqlalchemy import Connection, Row, and_, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from tools.workflow.engine import forms, tables
from tools.workflow.engine.errors import DeployError, EngineError
from tools.workflow.engine.expressions import evaluate, is_wrapped, split_entries, unwrap
from tools.workflow.engine.interface import (
    Completed,
    Decision,
    Definition,
    Deployed,
    DiagramMarks,
    Event,
    InstanceEnded,
    InstanceStatus,
    InstanceView,
    NextStep,
    Outcome,
    Preview,
    Started,
    TaskReady,
    TaskStatus,
    TaskView,
)
from tools.workflow.engine.model import ProcessModel
from tools.workflow.engine.spiff import dumps, loads, new_workflow
from tools.workflow.engine.validation import Loaded, load

TASK_PREFIX = "task_"
INSTANCE_PREFIX = "req_"


def utcnow() -> datetime:
    return datetime.now(UTC)


def format_task_id(number: int) -> str:
    return f"{TASK_PREFIX}{number}"


def format_instance_id(number: int) -> str:
    return f"{INSTANCE_PREFIX}{number}"


def _parse_id(value: str | int, prefix: str, code: str, what: str) -> int:
    text = str(value).strip()
    if text.startswith(prefix):
        text = text[len(prefix) :]
    if not text.isdigit():
        raise EngineError(code, f"{value!r} is not a {what} id; {what} ids look like {prefix}12.")
    return int(text)


def parse_task_id(value: str | int) -> int:
    """`task_12` (or `12`) → 12; raises `task_not_found` for anything else."""
    return _parse_id(value, TASK_PREFIX, "task_not_found", "task")


def parse_instance_id(value: str | int) -> int:
    """`req_3` (or `3`) → 3; raises `unknown_instance` for anything else."""
    return _parse_id(value, INSTANCE_PREFIX, "unknown_instance", "instance")


def read_bpmn(bpmn: str | Path) -> str:
    """The XML of `bpmn`: a Path is read; a str is XML text, or the path of an existing file when it is not XML."""
    if isinstance(bpmn, Path):
        return bpmn.read_text(encoding="utf-8")
    text = bpmn.lstrip("\ufeff \t\r\n")
    if not text.startswith("<") and "\n" not in bpmn and len(bpmn) < 4096:
        path = Path(bpmn)
        if path.is_file():
            return path.read_text(encoding="utf-8")
    return bpmn


class _LoadedCache:
    """Valid BPMN documents by the SHA-256 of their XML, shared by every engine in the process.

    A deployment's XML never changes, and checking it (the BPMN schema, SpiffWorkflow's parser) costs tens of
    milliseconds: a store that deploys the seed processes again, or an instance that starts, reuses the check.
    Only documents that passed the full check (schema included) are kept, so a cache hit is as good as a check.
    """

    MAX_ENTRIES = 256

    def __init__(self) -> None:
        self._loaded: dict[str, Loaded] = {}
        self._lock = threading.Lock()

    def get(self, xml: str, sha: str | None = None) -> Loaded:
        sha = sha or hashlib.sha256(xml.encode("utf-8")).hexdigest()
        with self._lock:
            found = self._loaded.get(sha)
        if found is None:
            found = load(xml)
            with self._lock:
                if len(self._loaded) >= self.MAX_ENTRIES:
                    self._loaded.pop(next(iter(self._loaded)))
                self._loaded[sha] = found
        return found


_LOADED = _LoadedCache()


class _ModelCache:
    """Process models by the SHA-256 of their XML (a deployment's XML never changes)."""

    def get(self, sha: str, xml: str) -> ProcessModel:
        return _LOADED.get(xml, sha).model


class SpiffEngine:
    """The `ProcessEngine` on SpiffWorkflow, its state in the engine's tables (`tools.workflow.engine.tables`).

    `clock` gives the time stamps (timezone-aware UTC); `today` for `notPast` dates defaults to its date.
    """

    def __init__(self, *, clock: Callable[[], datetime] = utcnow) -> None:
        self.clock = clock
        self._models = _ModelCache()

    # ---------------------------------------------------------------- deployments

    def deploy(self, conn: Connection, bpmn: str | Path, *, only_if_changed: bool = False) -> Deployed:
        xml = read_bpmn(bpmn)
        sha = hashlib.sha256(xml.encode("utf-8")).hexdigest()
        model = _LOADED.get(xml, sha).model
        d = tables.deployments
        latest = conn.execute(
            select(d.c.version, d.c.sha256).where(d.c.key == model.key).order_by(d.c.version.desc()).limit(1)
        ).first()
        if only_if_changed and latest is not None and latest.sha256 == sha:
            return Deployed(key=model.key, version=latest.version, name=model.name, created=False)
        version = (latest.version if latest is not None else 0) + 1
        try:
            conn.execute(
                insert(d).values(
                    key=model.key, version=version, name=model.name, bpmn_xml=xml, sha256=sha, created_at=self._now()
                )
            )
        except IntegrityError:
            raise DeployError(
                "deploy_conflict",
                f"Version {version} of {model.key} was deployed by someone else meanwhile; roll back and deploy again.",
                element_id=model.key,
            ) from None
        return Deployed(key=model.key, version=version, name=model.name)

    def definitions(self, conn: Connection) -> list[Definition]:
        d = tables.deployments
        latest = select(d.c.key, func.max(d.c.version).label("version")).group_by(d.c.key).subquery()
        rows = conn.execute(
            select(d.c.version, d.c.sha256, d.c.bpmn_xml)
            .join(latest, and_(d.c.key == latest.c.key, d.c.version == latest.c.version))
            .order_by(d.c.key)
        ).all()
        return [self._models.get(row.sha256, row.bpmn_xml).definition(row.version) for row in rows]

    def definition(self, conn: Connection, key: str, version: int | None = None) -> Definition:
        row = self._deployment(conn, key, version)
        return self._models.get(row.sha256, row.bpmn_xml).definition(row.version)

    def _deployment(self, conn: Connection, key: str, version: int | None = None) -> Row[Any]:
        d = tables.deployments
        query = select(d).where(d.c.key == key)
        query = query.where(d.c.version == version) if version is not None else query.order_by(d.c.version.desc()).limit(1)
        row = conn.execute(query).first()
        if row is None:
            known = [r.key for r in conn.execute(select(d.c.key).distinct().order_by(d.c.key))]
            what = f"version {version} of process {key!r}" if version is not None else f"process {key!r}"
            raise EngineError("unknown_process", f"There is no {what}; deployed: {', '.join(known) or 'none'}.")
        return row

    # ---------------------------------------------------------------- start

    def start(
        self, conn: Connection, key: str, *, requester: str, data: dict[str, Any], today: date | None = None
    ) -> Started:
        if not isinstance(requester, str) or not requester.strip():
            raise EngineError("invalid_requester", f"requester must be a user id, not {requester!r}.")
        deployment = self._deployment(conn, key)
        loaded = _LOADED.get(deployment.bpmn_xml, deployment.sha256)
        model = loaded.model
        values = forms.validate(model.fields, dict(data), today=today or self.clock().date())
        instance_data: dict[str, Any] = {**values, "requester": requester.strip()}
        workflow = new_workflow(loaded.spec, loaded.subprocess_specs)
        start_task = workflow.get_tasks(state=TaskState.READY)[0]
        start_task.data.update(instance_data)
        self._run(workflow)
        ready = self._ready(workflow, instance_data)
        now = self._now()
        status: InstanceStatus = "running"
        if workflow.is_completed():
            status = "ended"
        result = conn.execute(
            insert(tables.instances).values(
                deployment_id=deployment.id, process_key=model.key, process_version=deployment.version,
                requester=instance_data["requester"], status=status, data=_dump(instance_data), state=dumps(workflow),
                version=1, created_at=now, updated_at=now, ended_at=now if status != "running" else None,
            )
        )
        instance_id = int(result.inserted_primary_key[0])  # type: ignore[index]
        views = self._insert_tasks(conn, instance_id, ready, now)
        header = _Header(instance_id, model, deployment.version, instance_data["requester"], instance_data)
        tasks_out = tuple(self._view(header, row, ()) for row in views)
        events: list[Event] = [self._ready_event(header, view) for view in tasks_out]
        if status != "running":
            events.append(self._ended_event(header, "ended"))
        return Started(
            instance_id=format_instance_id(instance_id), process_key=model.key, version=deployment.version,
            status=status, data=instance_data, tasks=tasks_out, events=tuple(events),
        )

    # ---------------------------------------------------------------- tasks

    def tasks_for(self, conn: Connection, user_id: str, groups: Sequence[str]) -> list[TaskView]:
        t, o = tables.tasks, tables.task_offers
        offered = and_(o.c.kind == "user", o.c.name == user_id)
        if groups:
            offered = or_(offered, and_(o.c.kind == "group", o.c.name.in_(list(groups))))
        offered_ids = select(o.c.task_id).where(offered)
        rows = conn.execute(select(t).where(t.c.status == "ready", t.c.id.in_(offered_ids)).order_by(t.c.id)).all()
        return self._views(conn, rows)

    def task(self, conn: Connection, task_id: str) -> TaskView:
        row = self._task_row(conn, task_id)
        return self._views(conn, [row])[0]

    def _task_row(self, conn: Connection, task_id: str | int) -> Row[Any]:
        number = parse_task_id(task_id)
        row = conn.execute(select(tables.tasks).where(tables.tasks.c.id == number)).first()
        if row is None:
            raise EngineError("task_not_found", f"There is no task {format_task_id(number)}.")
        return row

    def complete(
        self,
        conn: Connection,
        task_id: str,
        *,
        user_id: str,
        approved: bool,
        comment: str,
        groups: Sequence[str] | None = None,
    ) -> Completed:
        if not isinstance(approved, bool):
            raise EngineError("invalid_decision", f"approved must be true or false, not {approved!r}.")
        row = self._task_row(conn, task_id)
        tid = format_task_id(row.id)
        if row.status != "ready":
            raise EngineError("task_not_pending", f"Task {tid} is {row.status}, not pending: it was already decided.")
        member_of = set(groups) if groups is not None else set(tables.groups_of(conn, user_id))
        candidates = set(json.loads(row.candidate_users)) | ({row.assignee} if row.assignee else set())
        if user_id not in candidates and not member_of & set(json.loads(row.candidate_groups)):
            raise EngineError("task_not_offered", f"Task {tid} ({row.step}) is not offered to {user_id}.")
        instance = conn.execute(select(tables.instances).where(tables.instances.c.id == row.instance_id)).one()
        deployment = conn.execute(select(tables.deployments).where(tables.deployments.c.id == instance.deployment_id)).one()
        model = self._models.get(deployment.sha256, deployment.bpmn_xml)
        data: dict[str, Any] = json.loads(instance.data)
        workflow = loads(instance.state)
        spiff_task = self._spiff_task(workflow, row.spiff_task_id)
        if spiff_task is None or spiff_task.state != TaskState.READY:
            raise EngineError("task_not_pending", f"Task {tid} is not pending any more.")
        now = self._now()
        decision = {
            "task_id": tid, "element_id": row.element_id, "step": row.step, "step_en": row.step_en, "user": user_id,
            "approved": approved, "comment": comment or "", "at": now,
        }
        data.update(approved=approved, comment=comment or "", history=[*data.get("history", []), decision])
        spiff_task.data.update(data)
        try:
            spiff_task.run()
        except SpiffWorkflowException as exc:
            raise _process_error(exc) from None
        self._run(workflow)
        ready = self._ready(workflow, data)
        status: InstanceStatus = "running"
        if workflow.is_completed():
            status = "approved" if approved else "rejected"
        changed = conn.execute(
            update(tables.instances)
            .where(tables.instances.c.id == instance.id, tables.instances.c.version == instance.version)
            .values(
                state=dumps(workflow), data=_dump(data), status=status, version=instance.version + 1, updated_at=now,
                ended_at=now if status != "running" else None,
            )
        ).rowcount
        if changed != 1:
            raise EngineError("task_not_pending", f"Task {tid}'s request changed meanwhile: it was decided; look again.")
        decided = conn.execute(
            update(tables.tasks)
            .where(tables.tasks.c.id == row.id, tables.tasks.c.status == "ready")
            .values(status="completed", decided_by=user_id, approved=approved, comment=comment or "", decided_at=now)
        ).rowcount
        if decided != 1:
            raise EngineError("task_not_pending", f"Task {tid} was decided meanwhile by someone else.")
        ready_ids = {str(item.task.id) for item in ready}
        t = tables.tasks
        conn.execute(
            update(t)
            .where(t.c.instance_id == instance.id, t.c.status == "ready", t.c.spiff_task_id.not_in(ready_ids or {""}))
            .values(status="cancelled", decided_at=now)
        )
        known = {r.spiff_task_id for r in conn.execute(select(t.c.spiff_task_id).where(t.c.instance_id == instance.id))}
        new_rows = self._insert_tasks(conn, instance.id, [item for item in ready if str(item.task.id) not in known], now)
        header = _Header(instance.id, model, instance.process_version, instance.requester, data)
        history = self._history(conn, [instance.id])[instance.id]
        decided_row = self._task_row(conn, row.id)
        decided_view = self._view(header, decided_row, tuple(h for h in history if h.task_id != tid))
        new_views = tuple(self._view(header, new_row, history) for new_row in new_rows)
        events: list[Event] = [self._ready_event(header, view) for view in new_views]
        if status != "running":
            events.append(self._ended_event(header, cast(Outcome, status)))
        all_ready = conn.execute(select(t).where(t.c.instance_id == instance.id, t.c.status == "ready").order_by(t.c.id)).all()
        return Completed(
            task=decided_view, instance_id=format_instance_id(instance.id), status=status,
            tasks=tuple(self._view(header, r, history) for r in all_ready), events=tuple(events),
        )

    def preview(self, conn: Connection, task_id: str, *, approved: bool) -> Preview:
        row = self._task_row(conn, task_id)
        tid = format_task_id(row.id)
        if row.status != "ready":
            raise EngineError("task_not_pending", f"Task {tid} is {row.status}, not pending: it was already decided.")
        instance = conn.execute(select(tables.instances).where(tables.instances.c.id == row.instance_id)).one()
        data: dict[str, Any] = json.loads(instance.data)
        workflow = loads(instance.state)
        spiff_task = self._spiff_task(workflow, row.spiff_task_id)
        if spiff_task is None or spiff_task.state != TaskState.READY:
            raise EngineError("task_not_pending", f"Task {tid} is not pending any more.")
        # The copy's data: the decision as it would be recorded (the comment is not known yet and routes nothing
        # in the data contract's conditions but its own).
        data.update(approved=approved, comment="", history=[*data.get("history", []), {"task_id": tid, "approved": approved}])
        spiff_task.data.update(data)
        try:
            spiff_task.run()
        except SpiffWorkflowException as exc:
            raise _process_error(exc) from None
        self._run(workflow)
        ends = workflow.is_completed()
        others = {r.spiff_task_id for r in conn.execute(
            select(tables.tasks.c.spiff_task_id).where(
                tables.tasks.c.instance_id == instance.id, tables.tasks.c.status == "ready", tables.tasks.c.id != row.id
            )
        )}
        steps = []
        for item in self._ready(workflow, data):
            if str(item.task.id) in others:
                continue  # a parallel branch already waiting: not this decision's doing
            steps.append(_next_step(item))
        outcome: InstanceStatus = ("approved" if approved else "rejected") if ends else "running"
        return Preview(task_id=tid, approved=approved, ends=ends, outcome=outcome, next=tuple(steps))

    def preview_start(
        self, conn: Connection, key: str, *, requester: str, data: dict[str, Any], today: date | None = None
    ) -> tuple[tuple[NextStep, ...], ...]:
        deployment = self._deployment(conn, key)
        loaded = _LOADED.get(deployment.bpmn_xml, deployment.sha256)
        values = forms.validate(loaded.model.fields, dict(data), today=today or self.clock().date())
        instance_data: dict[str, Any] = {**values, "requester": requester.strip()}
        workflow = new_workflow(loaded.spec, loaded.subprocess_specs)
        workflow.get_tasks(state=TaskState.READY)[0].data.update(instance_data)
        self._run(workflow)
        stages: list[tuple[NextStep, ...]] = []
        while not workflow.is_completed() and len(stages) < MAX_PREVIEW_STAGES:
            ready = self._ready(workflow, instance_data)
            if not ready:
                break
            stages.append(tuple(_next_step(item) for item in ready))
            for item in ready:  # everyone approves, on the copy
                item.task.data.update(approved=True, comment="")
                try:
                    item.task.run()
                except SpiffWorkflowException as exc:
                    raise _process_error(exc) from None
            self._run(workflow)
        return tuple(stages)

    # ---------------------------------------------------------------- instances

    def instance(self, conn: Connection, instance_id: str) -> InstanceView:
        number = parse_instance_id(instance_id)
        row = conn.execute(select(tables.instances).where(tables.instances.c.id == number)).first()
        if row is None:
            raise EngineError("unknown_instance", f"There is no request {format_instance_id(number)}.")
        deployment = conn.execute(select(tables.deployments).where(tables.deployments.c.id == row.deployment_id)).one()
        model = self._models.get(deployment.sha256, deployment.bpmn_xml)
        data = json.loads(row.data)
        header = _Header(row.id, model, row.process_version, row.requester, data)
        history = self._history(conn, [row.id])[row.id]
        t = tables.tasks
        ready_rows = conn.execute(select(t).where(t.c.instance_id == row.id, t.c.status == "ready").order_by(t.c.id)).all()
        ready = tuple(self._view(header, r, history) for r in ready_rows)
        return InstanceView(
            id=format_instance_id(row.id), process_key=row.process_key, process_name=model.name,
            process_name_en=model.name_en, version=row.process_version, requester=row.requester, status=row.status,
            data=data, history=history, tasks=ready, current_steps=tuple(dict.fromkeys(v.step for v in ready)),
            diagram=self._marks(loads(row.state), model), bpmn_xml=deployment.bpmn_xml, created_at=row.created_at,
            ended_at=row.ended_at,
        )

    # ---------------------------------------------------------------- internals

    def _now(self) -> str:
        return self.clock().astimezone(UTC).isoformat(timespec="microseconds")

    @staticmethod
    def _run(workflow: BpmnWorkflow) -> None:
        try:
            workflow.do_engine_steps()
        except SpiffWorkflowException as exc:
            raise _process_error(exc) from None

    @staticmethod
    def _spiff_task(workflow: BpmnWorkflow, spiff_task_id: str) -> Any:
        for task in workflow.get_tasks():
            if str(task.id) == spiff_task_id:
                return task
        return None

    def _ready(self, workflow: BpmnWorkflow, data: dict[str, Any]) -> list[_Ready]:
        """The ready user tasks, each with its assignment resolved on the instance data (`no_assignee` if none)."""
        found: list[_Ready] = []
        for task in workflow.get_tasks(state=TaskState.READY, manual=True):
            assignee, users, groups = _assignment(task, data)
            if not assignee and not users and not groups:
                rules = {k: v for k, v in task.task_spec.extensions.items() if k.startswith("camunda:")}
                name = task.task_spec.bpmn_name or task.task_spec.bpmn_id
                raise EngineError(
                    "no_assignee",
                    f"Step {name} ({task.task_spec.bpmn_id}) has no one to decide it: its rules "
                    f"{json.dumps(rules, ensure_ascii=False)} give nobody on this request's data; "
                    f"give the value they name (e.g. nextUserId, the approver).",
                )
            found.append(_Ready(task, assignee, users, groups))
        return found

    def _insert_tasks(self, conn: Connection, instance_id: int, ready: Iterable[_Ready], now: str) -> list[Row[Any]]:
        rows: list[Row[Any]] = []
        for item in ready:
            task, assignee, users, groups = item.task, item.assignee, item.users, item.groups
            spec = task.task_spec
            result = conn.execute(
                insert(tables.tasks).values(
                    instance_id=instance_id, spiff_task_id=str(task.id), element_id=spec.bpmn_id,
                    step=spec.bpmn_name or spec.bpmn_id, step_en=str(spec.extensions.get("label_en", "")),
                    assignee=assignee, candidate_users=_dump(users), candidate_groups=_dump(groups), status="ready",
                    created_at=now,
                )
            )
            number = int(result.inserted_primary_key[0])  # type: ignore[index]
            offered_users = dict.fromkeys([*([assignee] if assignee else []), *users])
            offers = [{"task_id": number, "kind": "user", "name": u} for u in offered_users]
            offers += [{"task_id": number, "kind": "group", "name": g} for g in groups]
            if offers:
                conn.execute(insert(tables.task_offers), offers)
            rows.append(conn.execute(select(tables.tasks).where(tables.tasks.c.id == number)).one())
        return rows

    def _history(self, conn: Connection, instance_ids: Sequence[int]) -> dict[int, tuple[Decision, ...]]:
        t = tables.tasks
        rows = conn.execute(
            select(t)
            .where(t.c.instance_id.in_(list(instance_ids)), t.c.status == "completed")
            .order_by(t.c.decided_at, t.c.id)
        ).all()
        found: dict[int, list[Decision]] = {i: [] for i in instance_ids}
        for row in rows:
            found[row.instance_id].append(
                Decision(
                    task_id=format_task_id(row.id), element_id=row.element_id, step=row.step, step_en=row.step_en,
                    user=row.decided_by, approved=bool(row.approved), comment=row.comment or "", at=row.decided_at,
                )
            )
        return {i: tuple(v) for i, v in found.items()}

    def _views(self, conn: Connection, rows: Sequence[Row[Any]]) -> list[TaskView]:
        if not rows:
            return []
        ids = sorted({row.instance_id for row in rows})
        i, d = tables.instances, tables.deployments
        headers: dict[int, _Header] = {}
        for inst in conn.execute(
            select(i.c.id, i.c.process_version, i.c.requester, i.c.data, d.c.sha256, d.c.bpmn_xml)
            .join(d, d.c.id == i.c.deployment_id)
            .where(i.c.id.in_(ids))
        ):
            model = self._models.get(inst.sha256, inst.bpmn_xml)
            headers[inst.id] = _Header(inst.id, model, inst.process_version, inst.requester, json.loads(inst.data))
        history = self._history(conn, ids)
        views = []
        for row in rows:
            earlier = history[row.instance_id]
            if row.status == "completed":
                earlier = tuple(h for h in earlier if h.task_id != format_task_id(row.id) and h.at <= (row.decided_at or ""))
            views.append(self._view(headers[row.instance_id], row, earlier))
        return views

    @staticmethod
    def _view(header: _Header, row: Row[Any], history: tuple[Decision, ...]) -> TaskView:
        return TaskView(
            id=format_task_id(row.id), instance_id=format_instance_id(header.instance_id), process_key=header.model.key,
            process_name=header.model.name, process_name_en=header.model.name_en, process_version=header.version,
            element_id=row.element_id, step=row.step, step_en=row.step_en, requester=header.requester,
            assignee=row.assignee, candidate_users=tuple(json.loads(row.candidate_users)),
            candidate_groups=tuple(json.loads(row.candidate_groups)), status=cast(TaskStatus, row.status),
            form=header.form(), history=history, created_at=row.created_at, decided_by=row.decided_by,
            approved=row.approved, comment=row.comment, decided_at=row.decided_at,
        )

    @staticmethod
    def _ready_event(header: _Header, view: TaskView) -> TaskReady:
        assignees = tuple(dict.fromkeys([*([view.assignee] if view.assignee else []), *view.candidate_users]))
        return TaskReady(
            task_id=view.id, instance_id=view.instance_id, process_key=view.process_key, process_name=view.process_name,
            step=view.step, step_en=view.step_en, requester=view.requester, assignees=assignees,
            candidate_groups=view.candidate_groups, form=header.form(),
        )

    @staticmethod
    def _ended_event(header: _Header, outcome: Outcome) -> InstanceEnded:
        return InstanceEnded(
            instance_id=format_instance_id(header.instance_id), process_key=header.model.key,
            process_name=header.model.name, requester=header.requester, outcome=outcome, form=header.form(),
        )

    @staticmethod
    def _marks(workflow: BpmnWorkflow, model: ProcessModel) -> DiagramMarks:
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


@dataclass(frozen=True)
class _Ready:
    """A ready user task and its resolved assignment."""

    task: Any
    assignee: str | None
    users: list[str]
    groups: list[str]


MAX_PREVIEW_STAGES = 10
"""A start's preview follows at most this many approval stages (a process that loops stops there)."""


def _next_step(item: _Ready) -> NextStep:
    spec = item.task.task_spec
    return NextStep(
        element_id=spec.bpmn_id, step=spec.bpmn_name or spec.bpmn_id, step_en=str(spec.extensions.get("label_en", "")),
        assignee=item.assignee, candidate_users=tuple(item.users), candidate_groups=tuple(item.groups),
    )


class _Header:
    """What every view of an instance's tasks shares."""

    def __init__(self, instance_id: int, model: ProcessModel, version: int, requester: str, data: dict[str, Any]) -> None:
        self.instance_id = instance_id
        self.model = model
        self.version = version
        self.requester = requester
        self.data = data

    def form(self) -> dict[str, Any]:
        return {f.id: self.data.get(f.id) for f in self.model.fields}


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=False)


def _names(value: Any) -> list[str]:
    """An assignment expression's value as user or group ids: a str (comma-separated allowed) or a list of them."""
    if value is None:
        return []
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    if isinstance(value, list | tuple | set):
        return [str(v).strip() for v in value if v is not None and str(v).strip()]
    return [str(value)]


def _resolve(entry: str, data: dict[str, Any]) -> list[str]:
    if not is_wrapped(entry):
        return [entry]
    try:
        return _names(evaluate(unwrap(entry), data))
    except Exception as exc:  # a name the data lacks, a type error: the rule gives nobody
        raise EngineError("no_assignee", f"The assignment {entry} cannot be evaluated on this request's data: {exc}.") from None


def _assignment(task: Any, data: dict[str, Any]) -> tuple[str | None, list[str], list[str]]:
    """The user task's assignee, candidate users and candidate groups, resolved on the instance data."""
    extensions = task.task_spec.extensions
    context = {**task.data, **data}
    assignee_rule = extensions.get("camunda:assignee", "")
    assignees = _resolve(assignee_rule, context) if assignee_rule else []
    users = [u for entry in split_entries(extensions.get("camunda:candidateUsers", "")) for u in _resolve(entry, context)]
    groups = [g for entry in split_entries(extensions.get("camunda:candidateGroups", "")) for g in _resolve(entry, context)]
    assignee = assignees[0] if len(assignees) == 1 else None
    if len(assignees) > 1:  # an assignee expression that names several people offers the task to each of them
        users = [*assignees, *users]
    return assignee, list(dict.fromkeys(users)), list(dict.fromkeys(groups))


def _process_error(exc: SpiffWorkflowException) -> EngineError:
    task = getattr(exc, "task", None)
    spec = getattr(exc, "task_spec", None) or getattr(task, "task_spec", None)
    element = getattr(spec, "bpmn_id", None) or getattr(spec, "name", "")
    return EngineError(
        "process_error",
        f"The process could not go on at {element or 'an element'}: {exc}. Fix the BPMN (conditions must cover "
        f"every case) or the request's data.",
    )
