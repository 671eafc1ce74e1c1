"""The workflow toolset: the seed's approval tools with their role and rules; the hooks the engine reaches the domain
through (the store as backend, users as the directory, reference resolvers, limits); its language (titles, what it
can do, its questions); and its surfaces (`/help`'s tables, the chat's commands, the page's panels, `flowagent
processes`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, select

from tools.guards import added
from tools.guards.call import Guard
from tools.language import Language
from tools.spec import CallContext, Reference
from tools.surfaces import HelpSection, Surfaces
from tools.toolset import Limit, Toolset
from tools.workflow import (
    approver_words,
    batch_guards,
    batch_words,
    cc_urge_specs,
    form_fit,
    lookup,
    request_lookup,
    request_words,
)
from tools.workflow.approver_edits import ApproverEdits
from tools.workflow.batch import DEFAULT_BATCH_LIMIT
from tools.workflow.cc import CcNamed, pick_person
from tools.workflow.commands import CLI, COMMANDS
from tools.workflow.copies_guard import TodosNotCopies
from tools.workflow.each_own import EachOwnDecision
from tools.workflow.each_own_request import EachOwnRequest
from tools.workflow.for_another import ForAnother
from tools.workflow.guards import (
    AnothersRequest,
    OwnRequest,
    ResendNotWithdraw,
    StartNotEmail,
    StepsNotPeople,
)
from tools.workflow.held import DecisionHeld
from tools.workflow.leave import words as leave_words
from tools.workflow.leave.asked import BalanceAsked
from tools.workflow.leave.cli import LEAVE_CLI
from tools.workflow.leave.ends import LeaveDaysFromDates, LeaveEndCounted
from tools.workflow.leave.if_any import LeaveTypeIfAny
from tools.workflow.leave.offered import TypeOffered
from tools.workflow.leave.others_illness import OthersIllness
from tools.workflow.leave.types import leave_types
from tools.workflow.mailer import Mailer
from tools.workflow.named import RequestTheyNamed, TaskTheyNamed, TodosOfWhom
from tools.workflow.nothing_to_do import NothingToDo
from tools.workflow.own_approval import ApprovalNotUrge
from tools.workflow.panels import diagrams_of, outbox_of, tasks_of
from tools.workflow.passed_on import PassedNotDecided, TransferNotSaid
from tools.workflow.people_asked import PeopleAsked
from tools.workflow.policy import DEFAULT_MAIL_RATE_LIMIT
from tools.workflow.prompts import INTRO, QUESTIONS, REFUSALS, UNKNOWNS, WORKFLOW_PROMPT
from tools.workflow.refile import next_asked
from tools.workflow.resubmit import UnchangedLeftOut
from tools.workflow.self_approver import SelfApproverSaid
from tools.workflow.specs import REGISTRY
from tools.workflow.start_not_deputy import DeputyNotTransfer, StartNotDeputy, WorkNotApprovals
from tools.workflow.store import WorkflowStore, users
from tools.workflow.timer_service import TIMERS_CLI, start_timer_service
from tools.workflow.todo_asked import TodoAskedAbout
from tools.workflow.todo_guards import (
    DecidedNotPassed,
    DecidedNotStarted,
    DeputyNotStarted,
    ReturnNotEmail,
    ReturnOrReject,
)
from tools.workflow.withdraw import NotTheirsToWithdraw
from tools.workflow.withdraw_kept import WithdrawKept

RECORD_IDS = r"\b(?:user|task|req)_[0-9a-z]+\b"
"""The workflow's record ids, as its tools show them: users (user_2, user_admin), tasks (task_1), requests (req_3)."""


def directory(conn: Connection) -> list[dict[str, Any]]:
    """Every user a person may name: id, name, alias (the name English speakers use) and e-mail."""
    result = conn.execute(lookup.ALL_USERS)
    keys = list(result.keys())
    return [dict(zip(keys, row, strict=True)) for row in result]  # rows as tuples: a mapping per row costs 3x


def stored_rules(conn: Connection) -> str:
    """The rules the store holds, as text: each deployed process's routing (its steps' conditions, "同意且超过 5000
    元") and each leave type's limits, whose bounds an answer may state."""
    routes = [f"{step.name} {step.name_en}: {step.when}; {step.when_en}" for d in lookup.engine_of(conn).definitions(conn)
              for step in d.steps if step.when]
    limits = [f"{t.id} {t.name_en}: at most {t.max_days:g} days" + (
        f"; a document over {t.document_over:g} days" if t.document_over else "") for t in leave_types().types
        if t.max_days]  # 0: no limit, no bound
    return "\n".join(routes + limits)


def resolve_user(
    conn: Connection, value: Any, ctx: CallContext, ref: Reference, *, asking: bool
) -> tuple[dict[str, Any] | None, Any]:
    user = lookup.resolve_user(conn, value, param=ref.param)
    return user, str(user["id"])


def resolve_task(
    conn: Connection, value: Any, ctx: CallContext, ref: Reference, *, asking: bool
) -> tuple[dict[str, Any] | None, Any]:
    if ref.resolve == "requester":
        task: dict[str, Any] | None = lookup.resolve_task(conn, value, ctx.actor_id, param=ref.param, lang=ctx.lang)
    elif ref.resolve == "own":
        task = lookup.resolve_own_task(conn, value, ctx.actor_id, param=ref.param, lang=ctx.lang)
    else:
        task = lookup.require_task(conn, value)
    return task, (task["id"] if task is not None else None)


def resolve_request(
    conn: Connection, value: Any, ctx: CallContext, ref: Reference, *, asking: bool
) -> tuple[dict[str, Any] | None, Any]:
    """A request by id, or by what its requester calls it among their own (`ref.resolve`: "pending" or "returned")."""
    if ref.resolve == "urged":  # an urge's request may be named by one of its tasks too
        urged = cc_urge_specs.resolve_urged(conn, value, ctx.actor_id, param=ref.param, lang=ctx.lang)
        return urged, urged["id"]
    statuses = ("returned",) if ref.resolve == "returned" else request_lookup.PENDING
    request = request_lookup.resolve_request(conn, value, ctx.actor_id, param=ref.param, statuses=statuses,
                                             lang=ctx.lang)
    return request, request["id"]


def resolve_process(
    conn: Connection, value: Any, ctx: CallContext, ref: Reference, *, asking: bool
) -> tuple[dict[str, Any] | None, Any]:
    """A deployed process by key (its latest version, with its start form): every deployed process can be started."""
    process = lookup.require_process(conn, value)
    return process, str(process["key"])


def named_record(conn: Connection, kind: str, texts: Sequence[str]) -> str | None:
    """`Toolset.named_record`: the one deployed process the request's latest message naming any names, by its
    name (请假流程, 请假, "Leave request") or its words (the BPMN's `words`: "time off", 报销; 请半天假 names 请假),
    a process named only as what another's form is about not counted (出差 in "出差的高铁票走差旅报销" is the
    claim's category); None otherwise."""
    if kind != "process":
        return None
    definitions = list(lookup.engine_of(conn).definitions(conn))
    for text in reversed(texts):
        named = form_fit.processes_they_named(definitions, text)
        if named:
            return named[0].key if len(named) == 1 else None
    return None


def help_tables(conn: Connection, actor_id: str, lang: str) -> list[HelpSection]:
    """`/help`'s tables: the workflows and the users."""
    definitions = lookup.engine_of(conn).definitions(conn)
    people = conn.execute(select(users).order_by(users.c.id)).mappings().all()
    if lang == "zh":
        return [
            HelpSection("流程", ("流程编号", "名称", "版本", "填写"),
                        [(d.key, d.name, str(d.version), "、".join(f.label for f in d.fields)) for d in definitions]),
            HelpSection("用户", ("账号", "姓名", "邮箱"), [(u["id"], u["name"], u["email"]) for u in people]),
        ]
    return [
        HelpSection("Workflows", ("key", "name", "version", "form"),
                    [(d.key, d.name_en or d.name, str(d.version), ", ".join(f.label_en or f.label for f in d.fields))
                     for d in definitions]),
        HelpSection("Users", ("user id", "name", "e-mail"), [(u["id"], u["alias"] or u["name"], u["email"]) for u in people]),
    ]



def _guards() -> tuple[Guard, ...]:
    """The engine's pipeline with the workflow's own guards, each right after the one it needs."""
    # First whether the tool is the one the person's words ask for: refused for its arguments ("userId must be the
    # session user"), the wrong tool sent the model to fix them, not to the tool it should have called.
    guards = added(AnothersRequest(), before="identity")  # another person's request is not the person's to act on
    guards = added(NotTheirsToWithdraw(), after="anothers_request", guards=guards)  # "cancel his leave for him"
    guards = added(ResendNotWithdraw(), after="not_theirs_to_withdraw", guards=guards)  # "再提一次" is no withdrawal
    guards = added(WithdrawKept(), after="resend_not_withdraw", guards=guards)  # "撤回吧——算了，先不撤了": kept
    guards = added(DeputyNotTransfer(), after="withdraw_kept", guards=guards)  # "这几天我的审批让王五替我处理": a deputy
    guards = added(OwnRequest(), after="deputy_not_transfer", guards=guards)  # "我的假" is no one else's to-do
    guards = added(ApprovalNotUrge(), after="own_request", guards=guards)  # "你帮我直接批了吧": no reminder of it
    guards = added(NothingToDo(), after="approval_not_urge", guards=guards)  # no to-do held: they ask for something else
    guards = added(DecidedNotStarted(), after="nothing_to_do", guards=guards)  # "sign off on Wang Wu's one"
    guards = added(DeputyNotStarted(), after="decided_not_started", guards=guards)  # "赵六帮我顶一下审批": a deputy
    guards = added(WorkNotApprovals(), after="deputy_not_started", guards=guards)  # "王五帮我顶着手上的活": no deputy
    guards = added(StartNotDeputy(), after="work_not_approvals", guards=guards)  # "休一天年假，让李四批": no deputy
    guards = added(StartNotEmail(), after="start_not_deputy", guards=guards)  # "claim 1,150 RMB, copy Wang Wu"
    guards = added(ReturnOrReject(), after="start_not_email", guards=guards)  # "退回" is no rejection, "驳回" no return
    guards = added(DecisionHeld(), after="return_or_reject", guards=guards)  # "leave it for now": nothing decided
    guards = added(DecidedNotPassed(), after="decision_held", guards=guards)  # "我同意了，…交接给赵六" decides
    guards = added(PassedNotDecided(), after="decided_not_passed", guards=guards)  # "over to someone else" passes on
    guards = added(TransferNotSaid(), after="passed_not_decided", guards=guards)  # 我替他处理一下: no transfer
    guards = added(ReturnNotEmail(), after="passed_not_decided", guards=guards)  # "bounce it back to him": no e-mail
    guards = added(SelfApproverSaid(), after="people", guards=guards)  # "put me down as the approver": why not
    guards = added(TaskTheyNamed(), before="references", guards=guards)  # the to-do is the one whose requester they named
    guards = added(TodosOfWhom(), before="references", guards=guards)  # "李四那边几个待办" lists 李四's
    guards = added(RequestTheyNamed(), before="references", guards=guards)  # "resend it" is no "leave" they never said
    guards = added(form_fit.FieldsOfTheForm(), after="references", guards=guards)  # a leave files no "amount"
    guards = added(form_fit.NoMoneyNoClaim(), after="fields_of_the_form", guards=guards)  # "head to Chengdu": no claim
    guards = added(form_fit.AmountIsAClaim(), after="no_money_no_claim", guards=guards)  # "打车票报一下，326块": a claim
    guards = added(CcNamed(), after="amount_is_a_claim", guards=guards)  # CC only the people the person named
    guards = added(UnchangedLeftOut(), after="cc_named", guards=guards)  # a resend changes what the person says
    guards = added(BalanceAsked(), after="identity", guards=guards)  # the leave balance answers questions of leave
    guards = added(ForAnother(), after="identity", guards=guards)  # "帮他请两天假": only for oneself (a userId not the
    # actor's is refused first, by identity: the defence the attacks name)
    guards = added(StepsNotPeople(), after="balance_asked", guards=guards)  # who decides a claim: its process's steps
    guards = added(PeopleAsked(), after="steps_not_people", guards=guards)  # the users answer questions of people
    guards = added(TodosNotCopies(), after="return_not_email", guards=guards)  # "有啥要我过的单子": their to-dos
    guards = added(TodoAskedAbout(), after="todos_not_copies", guards=guards)  # "how much is that claim in my queue"
    guards = added(ApproverEdits(), before="anothers_request", guards=guards)  # "金额改成3000再给他批了": not theirs
    guards = added(EachOwnDecision(), before=guards[0].name, guards=guards)  # "张三的批了，王五的驳回": each its own
    guards = added(EachOwnRequest(), after="each_own_decision", guards=guards)  # "a sick day. Also claim the taxi"
    guards = added(batch_guards.BatchAsked(), after="identity", guards=guards)  # a batch only when the person asks one
    guards = added(batch_guards.BatchOfWhom(), after="batch_asked", guards=guards)  # of whom they named, no more
    guards = added(batch_guards.SeveralNotOne(), after="batch_of_whom", guards=guards)  # "全部驳回" is no one decision
    guards = added(batch_guards.BatchOfWhat(), after="references", guards=guards)  # no process they put off filters
    guards = added(LeaveEndCounted(), after="dates", guards=guards)  # "下周一开始连休5天": the fifth working day ends it
    guards = added(LeaveDaysFromDates(), after="leave_end_counted", guards=guards)  # 周三下午和周四: 1.5 days, not 2
    guards = added(TypeOffered(), after="fields_of_the_form", guards=guards)  # 陪产假: no such type here
    guards = added(LeaveTypeIfAny(), after="type_offered", guards=guards)  # "有调休就调休，没有就年假"
    guards = added(OthersIllness(), after="filled", guards=guards)  # "孩子发烧，我下午请半天": no sick leave of theirs
    return added(batch_guards.BatchPinned(), after="policy", guards=guards)  # a batch decides the tasks its card lists


GUARDS = _guards()

TOOLSET = Toolset(
    name="workflow",
    graph_id="flowagent",
    registry=REGISTRY,
    prompt=WORKFLOW_PROMPT,
    language=Language(
        title="Approvals on BPMN processes: workflows, requests, to-do tasks, reminders",
        titles={
            "zh": "审批：BPMN 流程、申请、待办、提醒",
            "en": "Approvals on BPMN processes: workflows, requests, to-do tasks, reminders",
        },
        intro=INTRO,
        questions=request_words.merged(request_words.merged(QUESTIONS, request_words.QUESTIONS),
                                       request_words.merged(approver_words.QUESTIONS, batch_words.QUESTIONS)),
        refusals=request_words.merged(request_words.merged(request_words.merged(REFUSALS, request_words.REFUSALS),
                                                           leave_words.REFUSALS),
                                      request_words.merged(request_words.merged(approver_words.REFUSALS,
                                                                                cc_urge_specs.REFUSALS),
                                                           batch_words.REFUSALS)),
        unknowns=UNKNOWNS,
    ),
    surfaces=Surfaces(
        help=help_tables,
        commands=COMMANDS,
        panels={"tasks": tasks_of, "diagrams": diagrams_of, "outbox": outbox_of},
        cli={**CLI, "leave": LEAVE_CLI, "timers": TIMERS_CLI},
        services=(start_timer_service,),
    ),
    lookup_answers=True,
    guards=GUARDS,
    record_ids=RECORD_IDS,
    backend=WorkflowStore,
    deps=Mailer.from_env,
    actor=lookup.require_actor,
    people=directory,
    stored_rules=stored_rules,
    people_kind="user",
    actor_kind="user",
    resolvers={"user": resolve_user, "task": resolve_task, "process": resolve_process, "request": resolve_request},
    stable_kinds=("user",),
    named_record=named_record,
    pick_person=approver_words.taker_first(pick_person),  # a transfer's or a deputy's taker first (issue 34)
    asked_next=next_asked,  # the other to-do "张三和赵六的都批了" decides; the new request once the old is withdrawn
    limits={"mail_rate_limit": Limit(DEFAULT_MAIL_RATE_LIMIT, "E-mails one conversation thread may send per hour."),
            "batch_limit": Limit(DEFAULT_BATCH_LIMIT, "The most tasks one batch decision decides.")},
)
"""The seed's approval system on the process engine (the default)."""
