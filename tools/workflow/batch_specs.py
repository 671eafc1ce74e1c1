"""The approver's tools of issue 34 for deciding several tasks and for seeing one: `decideTasks` (a batch on one
card, `tools.workflow.batch`) and `viewTask` (a task's diagram, timeline and the requester's earlier requests,
`tools.workflow.task_view`)."""

from __future__ import annotations

from typing import Any

from tools.spec import Effect, ObservationShape, PersonValue, Reference, ToolExample, ToolSpec
from tools.workflow.batch import (
    DecideTasksArgs,
    batch_card,
    batch_person_values,
    check_decide_tasks,
    decide_tasks,
    decided_line,
)
from tools.workflow.batch_words import no_length_said, stated_max_days
from tools.workflow.comment_words import stated_comment
from tools.workflow.notify import deliver_all
from tools.workflow.task_view import ViewTaskArgs, check_view_task, view_task, viewed_line
from tools.workflow.words import stated_decision


def _arrange_batch(values: dict[str, Any]) -> dict[str, Any]:
    """A bound of no days (maxDays 0 or below) is no bound: a model that writes 0 for "all" means none, which the
    person is not asked about and the schema would refuse. A `result` (the one decision's name for its comment, which
    the model carries over) is the batch's `comment`."""
    if "result" in values and not values.get("comment"):
        values = {**{k: v for k, v in values.items() if k != "result"}, "comment": values["result"]}
    days = values.get("maxDays")
    if isinstance(days, int | float) and not isinstance(days, bool) and days <= 0:
        return {k: v for k, v in values.items() if k != "maxDays"}
    return values


DECIDE_TASKS = ToolSpec(
    name="decideTasks",
    title={"zh": "批量审批", "en": "decide several tasks"},
    description="Approve (isOK=true) or reject (isOK=false) every waiting task of the signed-in user that a filter "
    "matches, on one card where the user may change each one: processKey, maxDays (requests of at most that many "
    "days), requester (a name). At most the batch limit; each task is decided on its own.",
    args_model=DecideTasksArgs,
    effect=Effect.WRITE,
    handler=decide_tasks,
    requires_approval=True,
    identity_params=("userId",),
    card_params=("decisions",),
    references=(Reference("processKey", "process"), Reference("requester", "user")),
    person_values=(
        PersonValue("isOK", "choice", "decision", stated=stated_decision),
        # a bound is a number the person said of the requests' length (stated_max_days), never the one day a date
        # gives a leave ("我明天一早出差，先把请假全部批掉": 明天 is no bound of one day): its unit is no "day"
        PersonValue("maxDays", "number", "max_days", unit="none", optional=True, stated=stated_max_days,
                    left_out_unsaid=no_length_said),
        PersonValue("requester", "person", "which_of", optional=True),
        PersonValue("comment", "text", "comment", optional=True, stated=stated_comment, on_card=True),
    ),
    person_values_for=batch_person_values,
    arrange=_arrange_batch,
    check=check_decide_tasks,
    card=batch_card,
    observation=ObservationShape(drop=frozenset({"notified"}), list_limits={"decided": 10, "failed": 10}),
    after_commit=deliver_all,
    describe=decided_line,
    examples=(
        ToolExample(
            question="批准所有一天以内的请假",
            args={"isOK": True, "processKey": "process_qingjia", "maxDays": 1},
            observation='{"decided":[{"requester":"赵六","status":"approved"}],"failed":[]}',
            answer="已批准赵六的一天请假。",
        ),
        ToolExample(
            question="Approve all the one-day leaves",
            args={"isOK": True, "processKey": "process_qingjia", "maxDays": 1},
            observation='{"decided":[{"requester":"Zhao Liu","status":"approved"}],"failed":[]}',
            answer="Zhao Liu's one-day leave is approved.",
            lang="en",
        ),
    ),
    model_description="Approve or reject several to-dos at once (所有/全部, all). isOK: the decision. processKey, "
    "maxDays, requester: only those the user named; leaveOut: people whose requests they left out.",
)

VIEW_TASK = ToolSpec(
    name="viewTask",
    title={"zh": "查看待办详情", "en": "look at a task"},
    description="One task's request as its approver sees it: its steps (done, waiting now, next), its timeline, and "
    "the requester's earlier requests of the same kind this year. taskId: the requester's name or a taskId.",
    args_model=ViewTaskArgs,
    effect=Effect.READ,
    handler=view_task,
    backend_bound=True,
    references=(Reference("taskId", "task", resolve="requester"),),
    check=check_view_task,
    observation=ObservationShape(list_limits={"steps": 8, "timeline": 8, "earlier": 5}),
    describe=viewed_line,
    model_description="Another person's request waiting on the user, in detail (详情, 啥情况, 到哪了, 流程图, 经过): "
    "steps, timeline, the requester's earlier requests. taskId: the requester's name or a taskId.",
)

SPECS: tuple[ToolSpec, ...] = (DECIDE_TASKS, VIEW_TASK)
"""Batch decisions and the approver's view of a task, in the order the model reads them."""
