"""A process run in memory on SpiffWorkflow: a new run, a task run with its data, the engine steps, and the user
tasks it waits on with their assignment resolved on the instance data. Nothing here reads or writes a table."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from SpiffWorkflow.bpmn.workflow import BpmnWorkflow
from SpiffWorkflow.exceptions import SpiffWorkflowException
from SpiffWorkflow.util.task import TaskState

from tools.workflow.engine.errors import EngineError
from tools.workflow.engine.expressions import evaluate, is_wrapped, split_entries, unwrap
from tools.workflow.engine.records import NextStep
from tools.workflow.engine.spiff import new_workflow
from tools.workflow.engine.validation import Loaded

MAX_PREVIEW_STAGES = 10
"""A start's preview follows at most this many approval stages (a process that loops stops there)."""


@dataclass(frozen=True)
class ReadyTask:
    """A ready user task and its resolved assignment."""

    task: Any
    assignee: str | None
    users: list[str]
    groups: list[str]
    timers: tuple[Any, ...] = ()
    """Its timers with their due times (`timer_specs.PlannedTimer`), when the engine planned them."""


Ready = Callable[[BpmnWorkflow, dict[str, Any]], list[ReadyTask]]
"""Finds a run's ready user tasks on the instance data (`ready_tasks`, or the engine's wrapper of it)."""


def process_error(exc: SpiffWorkflowException) -> EngineError:
    task = getattr(exc, "task", None)
    spec = getattr(exc, "task_spec", None) or getattr(task, "task_spec", None)
    element = getattr(spec, "bpmn_id", None) or getattr(spec, "name", "")
    return EngineError(
        "process_error",
        f"The process could not go on at {element or 'an element'}: {exc}. Fix the BPMN (conditions must cover "
        f"every case) or the request's data.",
    )


def run_engine(workflow: BpmnWorkflow) -> None:
    """Run the engine's own steps (gateways, events) until the run waits on user tasks or ends."""
    try:
        workflow.do_engine_steps()
    except SpiffWorkflowException as exc:
        raise process_error(exc) from None


def run_task(task: Any, data: Mapping[str, Any]) -> None:
    """Complete a ready user task with `data` set on it (a decision)."""
    task.data.update(data)
    try:
        task.run()
    except SpiffWorkflowException as exc:
        raise process_error(exc) from None


def new_run(loaded: Loaded, instance_data: dict[str, Any]) -> BpmnWorkflow:
    """A new run of a deployment, the instance data on its start, run on to its first user tasks or its end."""
    workflow = new_workflow(loaded.spec, loaded.subprocess_specs)
    workflow.get_tasks(state=TaskState.READY)[0].data.update(instance_data)
    run_engine(workflow)
    return workflow


def find_task(workflow: BpmnWorkflow, spiff_task_id: str) -> Any:
    """The run's task of that SpiffWorkflow id, or None."""
    for task in workflow.get_tasks():
        if str(task.id) == spiff_task_id:
            return task
    return None


def ready_tasks(workflow: BpmnWorkflow, data: dict[str, Any]) -> list[ReadyTask]:
    """The ready user tasks, each with its assignment resolved on the instance data (`no_assignee` if none)."""
    found: list[ReadyTask] = []
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
        found.append(ReadyTask(task, assignee, users, groups))
    return found


def next_step(item: ReadyTask) -> NextStep:
    spec = item.task.task_spec
    return NextStep(
        element_id=spec.bpmn_id, step=spec.bpmn_name or spec.bpmn_id, step_en=str(spec.extensions.get("label_en", "")),
        assignee=item.assignee, candidate_users=tuple(item.users), candidate_groups=tuple(item.groups),
    )


def approved_stages(workflow: BpmnWorkflow, data: dict[str, Any], ready: Ready) -> tuple[tuple[NextStep, ...], ...]:
    """The steps a run goes through if every step approves, stage by stage (at most `MAX_PREVIEW_STAGES`), run on
    `workflow` itself: give it a run nobody stores."""
    stages: list[tuple[NextStep, ...]] = []
    while not workflow.is_completed() and len(stages) < MAX_PREVIEW_STAGES:
        found = ready(workflow, data)
        if not found:
            break
        stages.append(tuple(next_step(item) for item in found))
        for item in found:  # everyone approves
            run_task(item.task, {"approved": True, "comment": ""})
        run_engine(workflow)
    return tuple(stages)


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
