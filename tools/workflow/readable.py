"""Readable lines for the workflow tools' results: what fixed answers and a run's outcome say.

Each function takes a tool's successful result and a language ("zh" or "en") and returns one short line
built from the result alone, so a fixed answer can never state more than the tools found.
"""

from __future__ import annotations

from typing import Any

MAX_ITEMS = 10


def _named(item: dict[str, Any], key: str, lang: str) -> str:
    """A name from a result (the tools write names in the person's language already)."""
    return str(item[key])


def _days(days: float) -> str:
    return f"{days:g} day" if days == 1 else f"{days:g} days"


def _items(items: list[str], lang: str, total: int | None = None) -> str:
    shown = items[:MAX_ITEMS]
    more = (total if total is not None else len(items)) - len(shown)
    sep = "、" if lang == "zh" else ", "
    text = sep.join(shown)
    if more > 0:
        text += f"{sep}…（另有 {more} 个）" if lang == "zh" else f", … ({more} more)"
    return text


def workflows(result: dict[str, Any], lang: str) -> str:
    if lang == "zh":
        names = [f"{w['name']}（{w['processKey']}{'，可发起' if w.get('startable') else ''}）" for w in result["workflows"]]
        return "流程：" + _items(names, lang)
    names = [f"{w['name']} ({w['processKey']}{', can be started' if w.get('startable') else ''})" for w in result["workflows"]]
    return "Workflows: " + _items(names, lang)


def users(result: dict[str, Any], lang: str) -> str:
    if lang == "zh":
        return "用户：" + _items([f"{u['name']}（{u['userId']}）" for u in result["users"]], lang)
    return "Users: " + _items([f"{_named(u, 'name', lang)} ({u['userId']})" for u in result["users"]], lang)


def todo(result: dict[str, Any], lang: str) -> str:
    tasks, total = result.get("tasks", []), int(result.get("total", 0))
    owner = _named(result, "name", lang)
    if not total:
        return f"{owner}没有待办任务。" if lang == "zh" else f"{owner} has no pending tasks."
    if lang == "zh":
        items = [f"{t['taskId']}（{t['requesterName']}请假 {t['days']:g} 天，原因：{t['reason']}）" for t in tasks]
        return f"{owner}有 {total} 个待办：" + _items(items, lang, total)
    items = [f"{t['taskId']} ({_named(t, 'requesterName', lang)}, {_days(t['days'])}, reason: {t['reason']})" for t in tasks]
    return f"{owner} has {total} pending task{'s' if total != 1 else ''}: " + _items(items, lang, total)


def started(result: dict[str, Any], lang: str) -> str:
    if lang == "zh":
        return (
            f"已发起请假申请 {result['requestId']}（{result['days']:g} 天），"
            f"等待{result['assigneeName']}审批（{result['taskId']}）。"
        )
    return (
        f"Started leave request {result['requestId']} ({_days(result['days'])}); "
        f"{_named(result, 'assigneeName', lang)} approves it ({result['taskId']})."
    )


def decided(result: dict[str, Any], lang: str) -> str:
    approved = result["status"] == "approved"
    if lang == "zh":
        return f"已{'批准' if approved else '驳回'} {result['taskId']}（{result['requestId']}）。"
    return f"{'Approved' if approved else 'Rejected'} {result['taskId']} ({result['requestId']})."


def emailed(result: dict[str, Any], lang: str) -> str:
    status = str(result.get("status", "queued"))
    if lang == "zh":
        state = {"sent": "已发送", "queued": "在发件箱中", "failed": "发送失败，留在发件箱"}.get(status, status)
        return f"给{result['toName']}（{result['email']}）的邮件{state}。"
    state = {"sent": "sent", "queued": "in the outbox", "failed": "not delivered, kept in the outbox"}.get(status, status)
    return f"E-mail to {_named(result, 'toName', lang)} ({result['email']}): {state}."
