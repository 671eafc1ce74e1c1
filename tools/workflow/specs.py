"""The six tools of the seed's approval system, each with everything the graph needs to know about it; generic over the
deployed BPMN processes (a process's start form says which values `runWorkFlow` needs from the person)."""

from __future__ import annotations

from typing import Any

from tools.spec import CallContext, Effect, Found, ObservationShape, PersonValue, Reference, ToolExample, ToolRegistry, ToolSpec
from tools.workflow import readable
from tools.workflow.approver_specs import SPECS as APPROVER_SPECS
from tools.workflow.args import (
    HandleTodoTaskArgs,
    NoArgs,
    QueryTodoTaskArgs,
    RunWorkFlowArgs,
    SendEmailArgs,
    arrange_start,
    comment_arranged,
)
from tools.workflow.batch_specs import SPECS as BATCH_SPECS
from tools.workflow.cards import decision_card, email_card, start_card
from tools.workflow.cc_urge_specs import SPECS as CC_URGE_SPECS
from tools.workflow.chains import CHAINS
from tools.workflow.comment_words import stated_comment
from tools.workflow.conditions import conditional_decision
from tools.workflow.forms import form_person_values
from tools.workflow.leave.specs import SPECS as LEAVE_SPECS
from tools.workflow.policy import COMMENT_REQUIRED_OVER_DAYS, may_decide, task_days
from tools.workflow.reads import get_all_users, get_all_workflows, query_todo_tasks
from tools.workflow.request_specs import SPECS as REQUEST_SPECS
from tools.workflow.words import DECISION_ONLY, stated_decision
from tools.workflow.writes import (
    check_email,
    check_handle_task,
    check_run_workflow,
    deliver_all,
    deliver_email,
    handle_todo_task,
    run_workflow,
    send_email,
)

DECISION = PersonValue("isOK", "choice", "decision", stated=stated_decision)
REQUIRED_COMMENT = PersonValue("result", "text", "comment", stated=stated_comment, meaningful=True, filler=DECISION_ONLY)
"""A decision's comment where the policy requires one: the approver's own words, asked for when missing, saying more
than the decision ("批了" is the decision, not its comment) unless the person spelled it out ("意见：同意")."""


def decision_person_values(
    handle: Any, ctx: CallContext, values: dict[str, Any], found: Found
) -> tuple[PersonValue, ...]:
    """`ToolSpec.person_values_for` of handleTodoTask: a request over one day needs a comment with every decision,
    and a comment the policy requires must be the approver's own, not one the model wrote for them ("已批准")."""
    task = found.get("taskId")
    if task is None or not may_decide(task, ctx.actor_id):
        return ()  # what cannot be done at all is said before anything is asked (the policy refuses it)
    days = task_days(handle, task)
    decision = PersonValue("isOK", "choice", "decision", stated=lambda request: _conditional_or_said(request, handle, task))
    # the decision is still asked about first: "approve or reject?" comes before "with what comment?"
    return (decision, REQUIRED_COMMENT) if days is not None and days > COMMENT_REQUIRED_OVER_DAYS else (decision,)


def _conditional_or_said(request: Any, handle: Any, task: dict[str, Any]) -> bool | None:
    """The decision of this to-do: the one the message's conditions give it ("三天以内的直接批；超过三天的退回"), else
    the one the person's words state."""
    decided = conditional_decision(request, handle, task)
    if decided in (None, "none"):  # none met: the guard that reads conditions says so
        return stated_decision(request)
    return {"approve": True, "reject": False}.get(decided)


SPECS: tuple[ToolSpec, ...] = (
    ToolSpec(
        name="getAllWorkFlow",
        title={"zh": "查看流程", "en": "list the workflows"},
        description="List every deployed workflow (BPMN process) with its processKey, name, version, start-form "
        "fields (id, label, type, required, choices) and approval steps (each with when a request comes to it).",
        args_model=NoArgs,
        effect=Effect.READ,
        handler=get_all_workflows,
        backend_bound=True,
        # who else decides a kind of request, or from how much, asked as a question: a process's steps say it
        answers=(r"^(?=.*[?？吗])(?:.*除了[^，。？?]{0,12}(?:还|也)|.*还(?:要|得|需要)(?:谁|哪些人|别人|财务|人事)|"
                 r".*(?:超过|多少钱?以上|多大)[^，。？?]{0,10}(?:要|得|需要|才)[^，。？?]{0,4}(?:批|审|签|过))",
                 r"^(?=.*\?)(?:.*\b(?:else|besides|as\s+well|also|other\s+than|apart\s+from|in\s+addition)\b.*\b"
                 r"(?:approv\w*|sign\w*\s+off|look\w*\s+at|review\w*)\b|.*\b(?:approv\w*|sign\w*\s+off|"
                 r"look\w*\s+at|review\w*)\b.*\b(?:else|as\s+well|too)\b|.*\bhow\s+(?:big|much|large)\b.*\bbefore\b)"),
        # the steps after this one of a request looked up ("If I approve, does it go to someone else after me?"): its
        # view, the to-dos and the requests lists show them as well
        answered_by=("viewTask", "queryTodoTask", "queryMyRequests", "queryCcRequests"),
        observation=ObservationShape(drop=frozenset({"startable", "version"}), list_limits={"workflows": 20}),
        describe=readable.workflows,
        model_description="List the workflows: processKey, name, the form fields a request needs, and who approves when.",
    ),
    ToolSpec(
        name="getAllUser",
        title={"zh": "查看同事", "en": "list the users"},
        description="List every user with userId, name and e-mail. Use it to turn a name (李四) into a userId.",
        args_model=NoArgs,
        effect=Effect.READ,
        handler=get_all_users,
        backend_bound=True,
        observation=ObservationShape(drop=frozenset({"email"}), list_limits={"users": 20}),
        describe=readable.users,
        model_description="List the users: userId and name.",
    ),
    ToolSpec(
        name="runWorkFlow",
        title={"zh": "发起申请", "en": "start a request"},
        description=(
            "Start a request (leave, expense claim, business trip, ...) for the signed-in user. processKey comes from "
            "getAllWorkFlow; userId is the signed-in user; nextUserId is the approver the user named, looked up with "
            "getAllUser; days and reason are the leave form's (and reason every form's that has one), the process's "
            "other form fields go in fields by id. Ask the user for what they did not give."
        ),
        args_model=RunWorkFlowArgs,
        arrange=arrange_start,
        effect=Effect.WRITE,
        handler=run_workflow,
        requires_approval=True,
        references=(
            Reference("processKey", "process", resolve="startable"),
            Reference("userId", "user"),
            Reference("nextUserId", "user"),
        ),
        identity_params=("userId",),
        person_values=(PersonValue("nextUserId", "person", "approver"),),
        person_values_for=form_person_values,
        check=check_run_workflow,
        card=start_card,
        observation=ObservationShape(drop=frozenset({"notified", "version", "processKey"})),
        after_commit=deliver_all,
        describe=readable.started,
        examples=(
            ToolExample(
                question="我下周要回老家，请3天假，王五审批",
                args={"processKey": "process_qingjia", "reason": "回老家", "days": 3, "nextUserId": "王五"},
                observation='{"process":"请假流程","status":"pending","step":"审批人审批","assigneeName":"王五",'
                '"days":3.0}',
                answer="已为你发起3天的请假申请，等待王五审批。",
            ),
            ToolExample(
                question="I'm going back to my hometown next week, please file 3 days of leave, Wang Wu approves",
                args={"processKey": "process_qingjia", "reason": "going back to my hometown", "days": 3,
                      "nextUserId": "Wang Wu"},
                observation='{"process":"Leave request","status":"pending","step":"Approver\'s decision",'
                '"assigneeName":"Wang Wu","days":3.0}',
                answer="Your 3-day leave request is filed and waits for Wang Wu's approval.",
                lang="en",
            ),
        ),
        model_description=(
            "Start a request for the signed-in user. processKey: process_qingjia for leave (请假), process_baoxiao "
            "for an expense claim (报销), process_chuchai for a business trip (出差). reason: why, in the user's words. "
            "days: leave only (0.5, 1, 3). fields: an expense's {\"amount\": 6000, \"category\": \"差旅\"}, a trip's "
            "{\"destination\": \"上海\", \"startDate\": \"下周一\", \"endDate\": \"下周三\"}. nextUserId: the approver "
            "the user named (李四, or a userId). cc: only people the user asked to copy (抄送)."
        ),
    ),
    ToolSpec(
        name="queryTodoTask",
        title={"zh": "查看待办", "en": "list the to-do tasks"},
        description="List the to-do tasks a user may decide (assigned, as a candidate, or through a group): taskId, "
        "process, step, requester and form data. userId comes from getAllUser.",
        args_model=QueryTodoTaskArgs,
        effect=Effect.READ,
        handler=query_todo_tasks,
        backend_bound=True,
        references=(Reference("userId", "user"),),
        actor_defaults=("userId",),
        # how many or which to-dos wait on someone, asked as such ("李四那边压着几个", "待办有哪些"); "那几个都批了" decides
        answers=(r"(待办|待审批|待批|没批|压着|积压)[^，。,;；]{0,6}((?<![那这])几|多少|哪些)|"
                 r"((?<![那这])几|多少|哪些)(个|条|件|份|单)?[^，。,;；]{0,6}(待办|待审批|待批|没批|要审批)|"
                 # what came in for them to decide ("财务这边是不是又进来一单？", "有没有新的单子要我审")
                 r"(?:又|新)?(?:进来|来了|收到|到了)(?:一|几|个|新的)?(?:单|笔|份)|有没有(?:新的?)?(?:单子|待办|要审|要批)|"
                 # whether anything waits on them ("我现在有待办吗？", "张三的报销是不是在等我批？")
                 r"有(?:什么|啥)?待办|待办[^，。,;；]{0,4}[吗么没]|(?:是不是|是否|有没有)[^，。？?]{0,16}(?:等|要)我(?:审|批|处理)|"
                 r"(?<!抄送)(?<!抄)(?<!发)(?:在|到)我(?:这儿|这里|这边|手上|手里|这)[^，。,;；]{0,3}[吗么没]",
                 r"\bhow many\b[^.;]{0,40}\b(to-?dos?|tasks?|to approve|approvals?|sitting)\b|"
                 r"\bwhat(?:'s| is| has)?\b[^.;]{0,30}\b(to-?dos?|waiting for (?:me|him|her|them|approval))\b|"
                 r"\b(?:anything|something)\b[^.;?]{0,20}\b(?:come in|came in|landed|for me to (?:approve|sign|review|look at)|"
                 r"waiting on me)\b|\b(?:waiting|pending|sitting)\s+(?:for|on|with)\s+me\b|"
                 r"\bdo\s+i\s+have\s+(?:any(?:thing)?\s+)?(?:tasks?|to-?dos?|approvals?|to\s+approve)\b|"
                 # which wait on a group or a person ("Which claims are waiting on finance?", "what's sitting with HR")
                 # (not what the person filed: "Is anything I filed still waiting on someone?" asks after their own)
                 r"\b(?:which|what|anything|something)\b(?![^.;?]*\b(?:my|mine|i\s+(?:filed|submitted|sent|put\s+in|"
                 r"raised|requested|claimed|applied\s+for|asked\s+for)|i've\s+(?:filed|submitted|sent))\b)[^.;?]{0,30}"
                 r"\b(?:waiting|sitting)\s+(?:on|with|for)\s+(?!a\b|an\b|the\b|my\b|some(?:one|body)\b|any(?:one|body)\b)\w+|"
                 # a queue ("What's in the HR queue?", "anything in my inbox to approve")
                 r"\b(?:what(?:'s|\s+is)?|anything)\b[^.;?]{0,20}\b(?:in|on)\s+(?:the\s+|my\s+|our\s+)?(?:hr\s+|finance\s+|"
                 r"approvals?\s+)?(?:queue|inbox|tray)\b"),
        observation=ObservationShape(  # a task's form is read in words (`summary`: units, choices by name)
            drop=frozenset({"createdAt", "processKey", "form"}), list_limits={"tasks": 10}
        ),
        describe=readable.todo,
        examples=(
            ToolExample(
                question="王五有几个待办？",
                args={"userId": "王五"},
                observation='{"name":"王五","total":0,"tasks":[]}',
                answer="王五目前没有待办任务。",
            ),
            ToolExample(
                question="How many to-dos does Wang Wu have?",
                args={"userId": "Wang Wu"},
                observation='{"name":"Wang Wu","total":0,"tasks":[]}',
                answer="Wang Wu has no pending tasks.",
                lang="en",
            ),
        ),
        model_description="List the to-do tasks waiting for a user's decision (待办, 要处理/审批的: others' requests). "
        "userId: a name or userId; leave it out for the signed-in user.",
    ),
    ToolSpec(
        name="handleTodoTask",
        title={"zh": "审批", "en": "decide a task"},
        description=(
            "Approve (isOK=true) or reject (isOK=false) a to-do task of the signed-in user. taskId can be "
            "obtained from queryTodoTask (可以通过queryTodoTask工具获取). result is the approver's comment."
        ),
        args_model=HandleTodoTaskArgs,
        arrange=comment_arranged("result"),
        effect=Effect.WRITE,
        handler=handle_todo_task,
        requires_approval=True,
        references=(Reference("taskId", "task", resolve="requester"),),
        person_values=(
            DECISION,
            PersonValue("result", "text", "comment", optional=True, stated=stated_comment, on_card=True),
        ),
        person_values_for=decision_person_values,
        check=check_handle_task,
        card=decision_card,
        observation=ObservationShape(drop=frozenset({"notified"})),
        after_commit=deliver_all,
        examples=(
            ToolExample(
                question="同意赵六的请假，意见：注意休息",
                args={"taskId": "赵六", "isOK": True, "result": "注意休息"},
                observation='{"step":"审批人审批","status":"approved","comment":"注意休息","request":"approved"}',
                answer="已批准赵六的请假，意见：注意休息。",
            ),
            ToolExample(
                question="Approve Zhao Liu's leave, comment: get well soon",
                args={"taskId": "Zhao Liu", "isOK": True, "result": "get well soon"},
                observation='{"step":"Approver\'s decision","status":"approved","comment":"get well soon",'
                '"request":"approved"}',
                answer="Zhao Liu's leave is approved, with your comment: get well soon.",
                lang="en",
            ),
        ),
        describe=readable.decided,
        model_description=(
            "Approve (isOK true) or reject (isOK false: 驳回, 打回, 不批) a to-do task of the signed-in user. taskId: the "
            "requester's name (张三) or a taskId from queryTodoTask. result: the user's comment, in their words."
        ),
    ),
    ToolSpec(
        name="sendEmail",
        title={"zh": "发送邮件", "en": "send an e-mail"},
        description=(
            "Send an e-mail. With taskId (from queryTodoTask) it reminds that task's assignee; otherwise userId "
            "(from getAllUser) is the recipient. emailContent is the complete message, never a placeholder."
        ),
        args_model=SendEmailArgs,
        effect=Effect.WRITE,
        handler=send_email,
        requires_approval=True,
        references=(Reference("userId", "user"), Reference("taskId", "task", resolve="own")),
        person_values=(
            PersonValue("emailContent", "text", "email_text"),
            PersonValue("userId", "person", "recipient", optional=True, found_key="recipient"),
        ),
        check=check_email,
        card=email_card,
        after_commit=deliver_email,
        describe=readable.emailed,
        model_description=(
            "Send an e-mail: a reminder about a task to its assignee (taskId), or a message to a user (userId: "
            "a name or userId). emailContent: the text the user gave."
        ),
    ),
)

REGISTRY = ToolRegistry((*SPECS, *REQUEST_SPECS, *LEAVE_SPECS, *APPROVER_SPECS, *CC_URGE_SPECS, *BATCH_SPECS),
                        chains=CHAINS)
"""The default tool registry: the seed's six tools, then the requester's (`tools.workflow.request_specs`), then the
leave balance (`tools.workflow.leave.specs`), then transfer and deputies (`tools.workflow.approver_specs`), CC and urge
(`tools.workflow.cc_urge_specs`), then batch decisions and the approver's view of a task (`tools.workflow.batch_specs`)."""
