"""The workflow's own slash commands in the terminal chat: decided tasks, and the e-mail outbox."""

from __future__ import annotations

from typing import Any

from tools.toolset import ChatCommand, HelpSection
from tools.workflow.mailer import Mailer
from tools.workflow.store import WorkflowStore

SMTP_NOT_SET = {
    "zh": "FLOWAGENT_SMTP_URL 未设置：邮件留在发件箱里。",
    "en": "FLOWAGENT_SMTP_URL is not set: e-mails stay in the outbox.",
}


def decided_tasks(store: WorkflowStore) -> list[dict[str, Any]]:
    """Every decided task with its request's requester, days and reason, in the order they were decided."""
    snapshot = store.snapshot()
    by_request = {r["id"]: r for r in snapshot["requests"]}
    rows = []
    for task in snapshot["tasks"]:
        if task["status"] == "pending":
            continue
        request = by_request[task["request_id"]]
        rows.append({**task, "requester_id": request["requester_id"], "days": request["days"], "reason": request["reason"]})
    return sorted(rows, key=lambda r: r["decided_at"] or "")


def complete(store: Any, actor_id: str, arg: str, lang: str) -> list[HelpSection] | str:
    rows = decided_tasks(store)
    if not rows:
        return "还没有已处理的待办。" if lang == "zh" else "No decided tasks yet."
    columns = ("task", "requester", "days", "reason", "result", "comment", "decided by", "at")
    return [HelpSection("已处理的待办" if lang == "zh" else "Decided tasks", columns, [
        (f"task_{r['id']}", r["requester_id"], f"{r['days']:g}", r["reason"], r["status"], r["comment"] or "",
         r["decided_by"] or "", (r["decided_at"] or "")[:19]) for r in rows
    ])]


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
    columns = ("id", "to", "subject", "text", "status", "attempts", "error")
    title = ("发件箱" if lang == "zh" else "Outbox") + (f" ({note})" if note else "")
    return [HelpSection(title, columns, [
        (str(r["id"]), f"{r['recipient_id']} <{r['recipient_email']}>", r["subject"], r["body"][:80], r["status"],
         str(r["attempts"]), (r["last_error"] or "")[:60]) for r in rows
    ])]


COMMANDS = {
    "complete": ChatCommand({"zh": "已处理的待办，含结果和意见", "en": "decided tasks with result and comment"}, complete),
    "outbox": ChatCommand(
        {"zh": "邮件及投递状态；/outbox retry 重新投递",
         "en": "e-mails and their delivery state; /outbox retry delivers queued ones"},
        outbox,
    ),
}
