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


def _form_words(form: dict[str, Any], lang: str) -> str:
    """A task's form data in a few words (its days, its reason, else its values)."""
    if form.get("days") is not None:
        days = f"{form['days']:g} 天" if lang == "zh" else _days(form["days"])
        reason = form.get("reason")
        if not reason:
            return days
        return f"{days}，原因：{reason}" if lang == "zh" else f"{days}, reason: {reason}"
    values = [f"{v:g}" if isinstance(v, float) else str(v) for v in form.values() if v not in (None, "")]
    return ("，" if lang == "zh" else ", ").join(values)[:120]


def _task_words(task: dict[str, Any], lang: str) -> str:
    """A to-do item's form in words: the summary its tool wrote in the reader's language, else its raw values."""
    return str(task["summary"]) if task.get("summary") else _form_words(_task_form(task), lang)


def _task_form(task: dict[str, Any]) -> dict[str, Any]:
    """A to-do item's form data: its days and reason, then the rest of its form."""
    return {**{k: task[k] for k in ("days", "reason") if task.get(k) is not None}, **(task.get("form") or {})}


def _form(fields: list[dict[str, Any]], lang: str) -> str:
    """A form's fields as a person reads them: what must be filled, then what may be ("可选")."""
    needed = [f["label"] for f in fields if f.get("required", True)]
    optional = [f["label"] for f in fields if not f.get("required", True)]
    if lang == "zh":
        return "、".join(needed) + (f"；可选：{'、'.join(optional)}" if optional else "")
    return ", ".join(needed) + (f"; optional: {', '.join(optional)}" if optional else "")


def workflows(result: dict[str, Any], lang: str) -> str:
    if lang == "zh":
        names = []
        for w in result["workflows"]:
            fields, steps = _form(w.get("fields", []), lang), _steps(w.get("steps", []), lang)
            names.append(f"{w['name']}（{w['processKey']}{'，填写：' + fields if fields else ''}"
                         f"{'；审批：' + steps if steps else ''}）")
        return "流程：" + _items(names, lang)
    names = []
    for w in result["workflows"]:
        fields, steps = _form(w.get("fields", []), lang), _steps(w.get("steps", []), lang)
        names.append(f"{w['name']} ({w['processKey']}{'; form: ' + fields if fields else ''}"
                     f"{'; steps: ' + steps if steps else ''})")
    return "Workflows: " + _items(names, lang)


def _steps(steps: list[dict[str, str]], lang: str) -> str:
    """A process's steps in order, each with when a request comes to it where not every one does; one step alone is
    said to be the only one ("does a trip go on to HR?": no)."""
    arrow = " → "
    if len(steps) == 1 and not steps[0].get("when"):
        return f"仅{steps[0]['step']}一步" if lang == "zh" else f"{steps[0]['step']} only"
    if lang == "zh":
        return arrow.join(f"{s['step']}（{s['when']}）" if s.get("when") else s["step"] for s in steps)
    return arrow.join(f"{s['step']} ({s['when']})" if s.get("when") else s["step"] for s in steps)


def users(result: dict[str, Any], lang: str) -> str:
    if lang == "zh":
        return "用户：" + _items([f"{u['name']}（{u['userId']}）" for u in result["users"]], lang)
    return "Users: " + _items([f"{_named(u, 'name', lang)} ({u['userId']})" for u in result["users"]], lang)


def todo(result: dict[str, Any], lang: str) -> str:
    tasks, total = result.get("tasks", []), int(result.get("total", 0))
    owner = _named(result, "name", lang)
    if not total:
        own = result.get("ownWaiting") or []
        if lang == "zh":
            return f"{owner}没有待办任务。" + (f"你自己还在审批中的申请：{'；'.join(own)}。" if own else "")
        return f"{owner} has no pending tasks." + (f" Your own requests still waiting: {'; '.join(own)}." if own else "")
    if lang == "zh":
        items = [
            f"{t['taskId']}（{t['requesterName']}的{str(t.get('process', '')).removesuffix('流程')}，{t.get('step', '')}："
            f"{_task_words(t, lang)}{'；截止 ' + str(t['due']) if t.get('due') else ''}）"
            for t in tasks
        ]
        return f"{owner}有 {total} 个待办：" + _items(items, lang, total)
    items = [
        f"{t['taskId']} ({_named(t, 'requesterName', lang)}, {t.get('process', '')}, {t.get('step', '')}: "
        f"{_task_words(t, lang)}{'; due ' + str(t['due']) if t.get('due') else ''})"
        for t in tasks
    ]
    return f"{owner} has {total} pending task{'s' if total != 1 else ''}: " + _items(items, lang, total)


def _what(result: dict[str, Any], lang: str) -> str:
    """What was started, in a few words: 请假申请 req_1（年假，10 天）, expense claim req_2 (6000 yuan)."""
    process = str(result.get("process") or "")
    form = result.get("form") or {}
    if result.get("days") is not None:
        size = f"{result['days']:g} 天" if lang == "zh" else _days(result["days"])
    elif result.get("summary"):
        size = clipped(str(result["summary"]), 120)
    else:
        size = clipped(("，" if lang == "zh" else ", ").join(
            f"{v:g}" if isinstance(v, float) else str(v) for k, v in form.items() if v not in (None, "") and k != "reason"
        ), 80)
    if result.get("leaveType"):  # a leave says its type: 请假申请 req_1（病假，2 天）, "(sick leave, 2 days)"
        size = ("，" if lang == "zh" else ", ").join(p for p in (str(result["leaveType"]), size) if p)
    if lang == "zh":
        noun = process.removesuffix("流程").removesuffix("申请") + "申请"
        return f"{noun} {result['requestId']}" + (f"（{size}）" if size else "")
    noun = (process[:1].lower() + process[1:]) if process else "request"
    return f"{noun} {result['requestId']}" + (f" ({size})" if size else "")


def clipped(text: str, limit: int) -> str:
    """The text, or as much of it as fits in `limit` characters, cut after a whole word and marked "…" as cut
    ("Reason: sort out the installation at the customer…", not "…at the customer )")."""
    if len(text) <= limit:
        return text
    cut = text[:limit - 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > limit // 2 else cut).rstrip(" ,，;；:：") + "…"


def _who(item: dict[str, Any], lang: str) -> str:
    groups = item.get("groupNames") or item.get("groups") or []  # 人事, HR: a group by its name, not its id
    if item.get("assignee"):
        return str(item["assignee"])
    return ("、" if lang == "zh" else ", ").join(groups)


def started(result: dict[str, Any], lang: str) -> str:
    copied = result.get("copiedTo") or []
    if lang == "zh":
        cc = f"抄送{'、'.join(copied)}。" if copied else ""
    else:
        cc = f" Copied to {', '.join(copied)}." if copied else ""
    if result.get("document"):  # what the requester is to hand in ("Sick leave over 2 days needs a doctor's note …")
        cc += f"{result['document']}。" if lang == "zh" else f" {result['document']}."
    if result.get("onBehalfOf"):  # its approver is away: who decides in their place
        if lang == "zh":
            return f"已发起{_what(result, lang)}，等待{result['heldBy']}代{result['onBehalfOf']}审批（{result['taskId']}）。" + cc
        return (f"Started {_what(result, lang)}; {result['heldBy']} approves it on {result['onBehalfOf']}'s behalf "
                f"({result['taskId']}).") + cc
    if lang == "zh":
        return f"已发起{_what(result, lang)}，等待{result['assigneeName']}审批（{result['taskId']}）。" + cc
    return f"Started {_what(result, lang)}; {_named(result, 'assigneeName', lang)} approves it ({result['taskId']})." + cc


def decided(result: dict[str, Any], lang: str) -> str:
    approved = result["status"] == "approved"
    following = result.get("next") or []
    ended = result.get("request")
    whose = f"{result['requester']}的{result['what']}" if result.get("requester") and result.get("what") else ""
    brief = clipped(str(result.get("summary") or ""), 60)  # what was decided: 请假天数：2 天；…, "Destination: Beijing; …"
    if lang == "zh":
        text = (f"已{'批准' if approved else '驳回'}{whose}（{brief + '，' if brief else ''}{result['taskId']}）。" if whose else
                f"已{'批准' if approved else '驳回'} {result['taskId']}（{result['requestId']}）。")
        if following:
            text += "已转到" + "、".join(f"{n['step']}（{n['taskId']}，{_who(n, lang)}）" for n in following) + "。"
        elif ended in ("approved", "rejected"):
            text += f"申请已结束：{'已批准' if ended == 'approved' else '已驳回'}。"
        return text
    whose = f"{result['requester']}'s {result['what']}" if result.get("requester") and result.get("what") else ""
    text = (f"{'Approved' if approved else 'Rejected'} {whose} ({brief + '; ' if brief else ''}{result['taskId']})." if whose else
            f"{'Approved' if approved else 'Rejected'} {result['taskId']} ({result['requestId']}).")
    if following:
        text += " Sent on to " + ", ".join(f"{n['step']} ({n['taskId']}, {_who(n, lang)})" for n in following) + "."
    elif ended in ("approved", "rejected"):
        text += f" The request is {ended}."
    return text


def emailed(result: dict[str, Any], lang: str) -> str:
    status = str(result.get("status", "queued"))
    if lang == "zh":
        state = {"sent": "已发送", "queued": "在发件箱中", "failed": "发送失败，留在发件箱"}.get(status, status)
        return f"给{result['toName']}（{result['email']}）的邮件{state}。"
    state = {"sent": "sent", "queued": "in the outbox", "failed": "not delivered, kept in the outbox"}.get(status, status)
    return f"E-mail to {_named(result, 'toName', lang)} ({result['email']}): {state}."
