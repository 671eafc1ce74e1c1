"""The approver's tools for passing work on: `transferTask` (转交 a waiting step to a colleague), `setDeputy` (who
decides one's tasks while away, 代理审批) and `queryMyDeputies` (the deputies one set, and whom one covers for)."""

from __future__ import annotations

from tools.spec import Effect, ObservationShape, PersonValue, Reference, ToolExample, ToolSpec
from tools.workflow.args import comment_arranged
from tools.workflow.comment_words import stated_comment
from tools.workflow.deputies import (
    QueryMyDeputiesArgs,
    SetDeputyArgs,
    check_set_deputy,
    deputies_line,
    deputy_card,
    deputy_set_line,
    query_my_deputies,
    set_deputy,
)
from tools.workflow.form_dates import range_or_days_of_mine
from tools.workflow.notify import deliver_all
from tools.workflow.transfer import TransferTaskArgs, check_transfer_task, transfer_card, transfer_task, transferred_line

TRANSFER = ToolSpec(
    name="transferTask",
    title={"zh": "转交待办", "en": "pass a task on"},
    description="Pass one of the signed-in user's to-do tasks to a colleague (转交), who decides it instead and is "
    "told. taskId: the requester's name or a taskId from queryTodoTask. nextUserId: who takes it. comment: the "
    "user's note, if any.",
    args_model=TransferTaskArgs,
    arrange=comment_arranged("comment"),
    effect=Effect.WRITE,
    handler=transfer_task,
    requires_approval=True,
    references=(Reference("taskId", "task", resolve="requester"), Reference("nextUserId", "user")),
    person_values=(PersonValue("nextUserId", "person", "transfer_to"),
                   PersonValue("comment", "text", "comment", optional=True, stated=stated_comment, on_card=True)),
    check=check_transfer_task,
    card=transfer_card,
    observation=ObservationShape(drop=frozenset({"notified"})),
    after_commit=deliver_all,
    describe=transferred_line,
    examples=(
        ToolExample(
            question="赵六的报销转给王五处理吧",
            args={"taskId": "赵六", "nextUserId": "王五"},
            observation='{"requester":"赵六","to":"王五","status":"transferred"}',
            answer="已把赵六的报销转交给王五审批，王五已收到通知。",
        ),
        ToolExample(
            question="Pass Zhao Liu's claim on to Wang Wu",
            args={"taskId": "Zhao Liu", "nextUserId": "Wang Wu"},
            observation='{"requester":"Zhao Liu","to":"Wang Wu","status":"transferred"}',
            answer="Zhao Liu's claim is passed on to Wang Wu, who is told.",
            lang="en",
        ),
    ),
    model_description="Pass a to-do to a colleague (转交). taskId: the requester's name or a taskId. nextUserId: "
    "who takes it.",
)

SET_DEPUTY = ToolSpec(
    name="setDeputy",
    title={"zh": "设置代理审批", "en": "set a deputy"},
    description="Name who decides the signed-in user's tasks while they are away (代理审批), from startDate to "
    "endDate: tasks that come to them on those days go to the deputy. Dates as the user said them.",
    args_model=SetDeputyArgs,
    effect=Effect.WRITE,
    handler=set_deputy,
    requires_approval=True,
    identity_params=("userId",),
    references=(Reference("deputyUserId", "user"),),
    person_values=(PersonValue("deputyUserId", "person", "deputy"),
                   # the days the person said: the one range ("下周一到下周三"), else the one day or the two days
                   # or the days of their own time away said before ("出差那几天")
                   PersonValue("startDate", "date", "deputy_start", stated=range_or_days_of_mine("start")),
                   PersonValue("endDate", "date", "deputy_end", stated=range_or_days_of_mine("end"), after="startDate")),
    check=check_set_deputy,
    card=deputy_card,
    observation=ObservationShape(drop=frozenset({"notified"})),
    after_commit=deliver_all,
    describe=deputy_set_line,
    examples=(
        ToolExample(
            question="12月7日到11日我休假，让王五代我审批",
            args={"deputyUserId": "王五", "startDate": "12月7日", "endDate": "12月11日"},
            observation='{"deputy":"王五","period":"12月7日至12月11日"}',
            answer="已设置12月7日至12月11日由王五代你审批。",
        ),
        ToolExample(
            question="Wang Wu covers my approvals 7–11 Dec",
            args={"deputyUserId": "Wang Wu", "startDate": "7 Dec", "endDate": "11 Dec"},
            observation='{"deputy":"Wang Wu","period":"7 Dec to 11 Dec"}',
            answer="Wang Wu decides your tasks from 7 Dec to 11 Dec.",
            lang="en",
        ),
    ),
    model_description="Who approves for the user while away (代我审批). deputyUserId: that person. startDate, "
    "endDate: as said.",
)

MY_DEPUTIES = ToolSpec(
    name="queryMyDeputies",
    title={"zh": "查看代理审批", "en": "list my deputies"},
    description="The deputies the signed-in user set (who covers for them, on which days) and whom they cover for.",
    args_model=QueryMyDeputiesArgs,
    effect=Effect.READ,
    handler=query_my_deputies,
    backend_bound=True,
    identity_params=("userId",),
    describe=deputies_line,
    model_description="The user's deputies (代理审批), and whom they cover for.",
    # asked as a question only: "set Wang Wu as my deputy" sets one, and asks for no list
    answers=(r"(?:有没有|有|谁)[^，。,;；？?]{0,6}代理|代理人?(?:是谁|是哪位|有吗|设了吗|设好了吗|呢)|谁(?:在)?(?:帮|替|代)我(?:审|批)|"
             r"(?:有没有|是不是|是否)(?:设|设置|安排|找)(?:了|过|好)?(?:人|谁)?(?:帮|替|代)我(?:审|批)",
             r"\b(?:who(?:'s|\s+is)?|is\s+(?:anyone|anybody|someone)|are\s+there\s+any|do\s+I\s+have(?:\s+any)?)\b[^.?!]{0,30}"
             r"\b(?:deput(?:y|ies)|covering|covers?\s+for)\b|"
             r"\b(?:did|have|had)\s+I\s+(?:\w+\s+)?(?:set|put|got|arranged?)\s+(?:up\s+)?(?:someone|somebody|anyone|anybody|a\s+deputy)"
             r"\b[^.?!]{0,30}\b(?:approv\w*|sign\w*|cover\w*|decid\w*)\b"),
)

SPECS: tuple[ToolSpec, ...] = (TRANSFER, SET_DEPUTY, MY_DEPUTIES)
"""The approver's tools for passing work on, in the order the model reads them."""
