"""The workflow's own commands: in the terminal chat (decided tasks, a request's process as text, the e-mail outbox)
and on the command line (`flowagent outbox [--retry]`, `flowagent processes deploy FILE.bpmn`, `flowagent processes
list`)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from sqlalchemy import select

from tools.errors import DomainError
from tools.grounding import person_label
from tools.surfaces import ChatCommand, CliCommand, HelpSection
from tools.workflow.diagram import describe
from tools.workflow.engine import DeployError, EngineError, format_instance_id, groups_of
from tools.workflow.engine import tables as t
from tools.workflow.lookup import ALL_USERS, groups_as_people
from tools.workflow.mailer import Mailer
from tools.workflow.mine import my_requests, request_text
from tools.workflow.store import WorkflowStore
from tools.workflow.views import requests_view, tasks_view

SMTP_NOT_SET = {
    "zh": "FLOWAGENT_SMTP_URL 未设置：邮件留在发件箱里。",
    "en": "FLOWAGENT_SMTP_URL is not set: e-mails stay in the outbox.",
}
PROCESSES_SHOWN = 5


def decided_tasks(store: WorkflowStore) -> list[dict[str, Any]]:
    """Every decided task (approved, rejected, or sent back to its requester) with its request's requester and form, in
    the order they were decided."""
    with store.read() as conn:
        requests = {r["id"]: r for r in requests_view(conn, store.process_engine)}
        rows = [r for r in tasks_view(conn) if r["status"] in ("approved", "rejected", "returned")]
    out = [{**task, "requester_id": requests[task["request_id"]]["requester_id"],
            "days": requests[task["request_id"]]["days"], "reason": requests[task["request_id"]]["reason"]}
           for task in rows]
    return sorted(out, key=lambda r: r["decided_at"] or "")


def complete(store: Any, actor_id: str, arg: str, lang: str) -> list[HelpSection] | str:
    rows = decided_tasks(store)
    if not rows:
        return "还没有已处理的待办。" if lang == "zh" else "No decided tasks yet."
    with store.read() as conn:
        people = {u["id"]: dict(u) for u in conn.execute(ALL_USERS).mappings()}

    def name(user_id: str | None) -> str:
        person = people.get(user_id or "")
        return person_label(person, lang) if person else (user_id or "")

    columns = COMPLETE_COLUMNS[lang if lang in COMPLETE_COLUMNS else "zh"]
    results = DECISION_WORDS[lang if lang in DECISION_WORDS else "zh"]
    return [HelpSection("已处理的待办" if lang == "zh" else "Decided tasks", columns, [
        (f"task_{r['id']}", r["step"], name(r["requester_id"]), f"{r['days']:g}" if r["days"] is not None else "",
         r["reason"] or "", results.get(r["status"], r["status"]), r["comment"] or "", name(r["decided_by"]),
         (r["decided_at"] or "")[:19].replace("T", " "))
        for r in rows
    ])]


COMPLETE_COLUMNS = {
    "zh": ("待办", "步骤", "申请人", "天数", "原因", "结果", "意见", "处理人", "时间"),
    "en": ("task", "step", "requester", "days", "reason", "result", "comment", "decided by", "at"),
}
DECISION_WORDS = {"zh": {"approved": "已批准", "rejected": "已驳回", "returned": "已退回"},
                  "en": {"approved": "approved", "rejected": "rejected", "returned": "sent back"}}
OUTBOX_COLUMNS = {
    "zh": ("编号", "收件人", "主题", "正文", "状态", "尝试次数", "错误"),
    "en": ("id", "to", "subject", "text", "status", "attempts", "error"),
}
DELIVERY_WORDS = {
    "zh": {"queued": "待发送", "sent": "已发送", "failed": "发送失败"},
    "en": {"queued": "waiting to be sent", "sent": "sent", "failed": "not delivered"},
}


def process(store: Any, actor_id: str, arg: str, lang: str) -> list[HelpSection] | str:
    """`/process [req_N]`: a request's steps as text (done, waiting now, may come next); without an id, the actor's
    latest requests. Only the requester and the people its steps are offered to see a request."""
    engine = store.process_engine
    with store.read() as conn:
        people = groups_as_people(conn) | {u["id"]: dict(u) for u in conn.execute(ALL_USERS).mappings()}
        if arg.strip():
            try:
                view = engine.instance(conn, arg.strip())
            except EngineError:
                return (f"没有申请 {arg.strip()}。" if lang == "zh" else f"There is no request {arg.strip()}.")
            offered = {o for task in engine.tasks_for(conn, actor_id, groups_of(conn, actor_id)) for o in [task.instance_id]}
            decided = conn.execute(
                select(t.tasks.c.id).where(t.tasks.c.instance_id == int(view.id.removeprefix("req_")),
                                           t.tasks.c.decided_by == actor_id)
            ).first()
            if view.requester != actor_id and view.id not in offered and decided is None:
                return (f"申请 {view.id} 与你无关。" if lang == "zh" else f"Request {view.id} is not yours to see.")
            views = [view]
        else:
            ids = conn.execute(
                select(t.instances.c.id).where(t.instances.c.requester == actor_id)
                .order_by(t.instances.c.id.desc()).limit(PROCESSES_SHOWN)
            ).scalars().all()
            views = [engine.instance(conn, format_instance_id(number)) for number in ids]
    if not views:
        return "你还没有发起过申请。" if lang == "zh" else "You have not started any request yet."
    return "\n\n".join(describe(view, people, lang) for view in views)


def requests(store: Any, actor_id: str, arg: str, lang: str) -> list[HelpSection] | str:
    """`/requests`: the actor's own requests, as `queryMyRequests` lists them, each with its timeline."""
    with store.read() as conn:
        items = my_requests(conn, actor_id, lang)
    if not items:
        return "你还没有发起过申请。" if lang == "zh" else "You have not started any request yet."
    return "\n\n".join(request_text(item, lang) for item in items)


def outbox(store: Any, actor_id: str, arg: str, lang: str) -> list[HelpSection] | str:
    """The outbox; `retry` first delivers queued and failed e-mails when SMTP is configured."""
    note = ""
    if arg.strip() == "retry":
        mailer = Mailer.from_env()
        note = SMTP_NOT_SET[lang] if mailer is None else str(mailer.retry_pending(store))
    rows = store.snapshot()["outbox"]
    if not rows:
        empty = "发件箱是空的。" if lang == "zh" else "The outbox is empty."
        return f"{note}\n{empty}".strip()
    columns = OUTBOX_COLUMNS[lang if lang in OUTBOX_COLUMNS else "zh"]
    states = DELIVERY_WORDS[lang if lang in DELIVERY_WORDS else "zh"]
    title = ("发件箱" if lang == "zh" else "Outbox") + (f" ({note})" if note else "")
    return [HelpSection(title, columns, [
        (str(r["id"]), f"{r['recipient_id']} <{r['recipient_email']}>", r["subject"], r["body"][:80],
         states.get(r["status"], r["status"]), str(r["attempts"]), (r["last_error"] or "")[:60]) for r in rows
    ])]


COMMANDS = {
    "complete": ChatCommand({"zh": "已处理的待办，含结果和意见", "en": "decided tasks with result and comment"}, complete),
    "process": ChatCommand(
        {"zh": "申请的流程图（文字）：已完成、当前、下一步；/process req_1 看某个申请",
         "en": "a request's process as text: done, current and next steps; /process req_1 for one request"},
        process,
    ),
    "requests": ChatCommand(
        {"zh": "我发起的申请：状态、当前步骤、谁在处理、从何时起，以及经过",
         "en": "my requests: status, current step, who holds it since when, and what happened"},
        requests,
    ),
    "outbox": ChatCommand(
        {"zh": "邮件及投递状态；/outbox retry 重新投递",
         "en": "e-mails and their delivery state; /outbox retry delivers queued ones"},
        outbox,
    ),
}


# ---------------------------------------------------------------- flowagent outbox, flowagent processes deploy|list


def _store(db: str | None) -> WorkflowStore:
    if db and "://" not in db:
        db = f"sqlite:///{db}"
    return WorkflowStore(db)


def outbox_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--retry", action="store_true", help="deliver queued and failed e-mails (needs FLOWAGENT_SMTP_URL)")
    parser.add_argument("--db", help="workflow store URL or file")


def outbox_run(args: Any) -> list[HelpSection] | str:
    """The outbox, as the chat's `/outbox` shows it in English; `--retry` first delivers what waits."""
    store = _store(args.db)
    try:
        return outbox(store, "", "retry" if args.retry else "", "en")
    finally:
        store.dispose()


def processes_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", required=True)
    deploy = actions.add_parser("deploy", help="deploy a BPMN file (a key deployed again becomes its next version)")
    deploy.add_argument("file", type=Path, help="the BPMN 2.0 file (Camunda Modeler or bpmn.io)")
    deploy.add_argument("--db", help="workflow store URL or file (default FLOWAGENT_DB or .flowagent/workflow.db)")
    listing = actions.add_parser("list", help="the deployed processes: key, name, latest version, form fields")
    listing.add_argument("--db", help="workflow store URL or file (default FLOWAGENT_DB or .flowagent/workflow.db)")


def processes_run(args: Any) -> list[HelpSection] | str:
    """`deploy FILE`: one line with the key and version; `list`: the deployed processes."""
    if args.action == "deploy" and not Path(args.file).is_file():
        raise ValueError(f"{args.file}: no such file")
    store = _store(args.db)
    try:
        if args.action == "deploy":
            try:
                deployed = store.deploy(Path(args.file))
            except DeployError as exc:
                where = f" (element {exc.element_id})" if exc.element_id else ""
                raise DomainError(exc.code, f"{args.file} was not deployed{where}: {exc.message}") from None
            return f"deployed {deployed['key']} version {deployed['version']}"
        with store.read() as conn:
            definitions = store.process_engine.definitions(conn)
        rows: list[tuple[str, ...]] = [
            (d.key, d.name, d.name_en, str(d.version),
             ", ".join(f"{f.id}{'*' if f.required else ''} ({f.type})" for f in d.fields),
             " → ".join(s.name for s in d.steps))
            for d in definitions
        ]
        return [HelpSection("Processes", ("key", "name", "English name", "version", "form (* required)", "steps"), rows)]
    finally:
        store.dispose()


CLI = {
    "outbox": CliCommand(help="show the e-mail outbox", arguments=outbox_arguments, run=outbox_run),
    "processes": CliCommand(
        help="deploy a BPMN process, or list the deployed ones (flowagent processes deploy FILE.bpmn | list)",
        arguments=processes_arguments,
        run=processes_run,
    ),
}
