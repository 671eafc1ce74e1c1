"""A person's own requests, as they read them: the process by its name in their language, the form in words, where
it stands in words, the current step, who holds it now (people by name, groups by name with their members) and
since when, the comment it was sent back with, and its timeline. One read serves the `queryMyRequests` tool, the
chat's `/requests` and the page's list of requests."""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import Connection, func, select

from tools.errors import CannotError
from tools.spec import CallContext, Verdict
from tools.workflow.engine import Definition, InstanceView, StepDef, TaskView, format_instance_id, groups_of, members_of
from tools.workflow.engine import tables as t
from tools.workflow.engine.expressions import evaluate
from tools.workflow.lookup import ALL_USERS, display_name, engine_of, group_label
from tools.workflow.notify import form_summary
from tools.workflow.shown import form_words
from tools.workflow.store import users
from tools.workflow.timeline import name_of, timeline_lines, when
from tools.workflow.urge import urge_entries
from tools.workflow.views import REQUEST_STATUS

REQUESTS_SHOWN = 20
"""A person's latest requests listed, newest first."""

STATUS_WORDS = {
    "zh": {"pending": "审批中", "approved": "已批准", "rejected": "已驳回", "returned": "已退回，等你修改后重新提交或撤回",
           "withdrawn": "已撤回", "ended": "已结束"},
    "en": {"pending": "waiting for a decision", "approved": "approved", "rejected": "rejected",
           "returned": "sent back to you: change it and send it again, or withdraw it", "withdrawn": "withdrawn",
           "ended": "ended"},
}
"""A request's status as its requester reads it."""


def holders(conn: Connection, task: TaskView, people: dict[str, dict[str, Any]], lang: str) -> str:
    """Who holds a step now: its people by name, its groups by name with their members (人事（管理员）, HR (Admin))."""
    names = [name_of(people, u, lang) for u in dict.fromkeys([*([task.assignee] if task.assignee else []),
                                                               *task.candidate_users])]
    for group in task.candidate_groups:
        members = ("、" if lang == "zh" else ", ").join(name_of(people, m, lang) for m in members_of(conn, group))
        label = group_label(conn, group, lang)
        names.append(f"{label}（{members}）" if lang == "zh" else f"{label} ({members})")
    return ("、" if lang == "zh" else ", ").join(names)


def _lang(lang: str) -> str:
    return "en" if lang == "en" else "zh"


def request_item(
    conn: Connection, view: InstanceView, definition: Definition, people: dict[str, dict[str, Any]], lang: str
) -> dict[str, Any]:
    """One request as its requester reads it (and as the model reads it: every value in words)."""
    status = REQUEST_STATUS.get(view.status, view.status)
    item: dict[str, Any] = {
        "requestId": view.id,
        "process": (definition.name_en or definition.name) if lang == "en" else definition.name,
        "summary": form_words(view.data, definition, lang),
        "status": STATUS_WORDS[_lang(lang)].get(status, status),
    }
    if view.tasks:
        item["step"] = ("、" if lang == "zh" else ", ").join(
            dict.fromkeys((x.step_en or x.step) if lang == "en" else x.step for x in view.tasks))
        item["heldBy"] = ("、" if lang == "zh" else ", ").join(holders(conn, x, people, lang) for x in view.tasks)
        item["since"] = when(min(x.created_at for x in view.tasks), lang)
        item["later"] = later_steps(definition, {x.element_id for x in view.tasks}, lang, view.data)
    back = next((d for d in reversed(view.history) if d.returned), None)
    since = view.history[view.history.index(back) + 1:] if back is not None else view.history
    approved = [name_of(people, d.user, lang) for d in since if d.approved and not d.returned]
    if view.tasks and approved:  # "李四批了没有？" of a claim now at finance's step: he has
        item["approvedBy"] = ("、" if lang == "zh" else ", ").join(dict.fromkeys(approved))
    if status == "returned" and back is not None:
        item["returnedBy"] = name_of(people, back.user, lang)
        item["comment"] = back.comment
    last = view.history[-1] if view.history else None
    if view.status in ("approved", "rejected") and last is not None and not last.returned:
        item["decidedBy"] = name_of(people, last.user, lang)  # "was my leave approved?": by whom, and what they said
        if last.comment:
            item["decisionComment"] = last.comment
        earlier = [a for a in dict.fromkeys(approved[:-1]) if a != item["decidedBy"]]
        if view.status == "approved" and earlier:  # "who signed it off?" of a claim past its finance step: both
            item["approvedBy"] = ("、" if lang == "zh" else ", ").join(earlier)
    timeline = sorted([*engine_of(conn).timeline(conn, view.id), *urge_entries(conn, view.id)], key=lambda e: e.at)
    item["timeline"] = timeline_lines(timeline, people, definition, lang)
    return item


def later_steps(definition: Definition, current: set[str], lang: str, data: dict[str, Any] | None = None) -> str:
    """The steps after the current one, each with when a request comes to it ("Finance's decision (approved and over
    5000 yuan)"), or that the current one is the last: "once Wang Wu signs it, does anyone else look at it?". A step
    this request's values never come to, approved as they are (finance's, for a claim of 1,200 yuan), is none of
    its own (`data`: the request's values)."""
    at = [i for i, step in enumerate(definition.steps) if step.element_id in current]
    after = tuple(s for s in (definition.steps[max(at) + 1:] if at else ()) if data is None or _may_come_to(s, data))
    zh = lang != "en"
    if not after:
        return "无，这是最后一步" if zh else "none: this is the last step"
    parts = []
    for step in after:
        name, cond = (step.name, step.when) if zh else (step.name_en or step.name, step.when_en or step.when)
        parts.append(f"{name}（{cond}）" if zh and cond else f"{name} ({cond})" if cond else name)
    return " → ".join(parts)


def _may_come_to(step: StepDef, data: dict[str, Any]) -> bool:
    """Whether a request with these values, approved at each step before, may come to `step`: no condition into it
    holds on them (`approved and amount > 5000` for 1,200 yuan) says it never does; one that cannot be read says
    nothing."""
    if not step.conditions:
        return True
    for condition in step.conditions:
        try:
            if evaluate(condition, {**data, "approved": True}):
                return True
        except Exception:  # noqa: BLE001 - a condition on values not known yet (or another engine's): it may
            return True
    return False


def own_instance_ids(conn: Connection, user_id: str, limit: int = REQUESTS_SHOWN) -> list[int]:
    """The numbers of the user's latest requests, newest first."""
    i = t.instances
    query = select(i.c.id).where(i.c.requester == user_id).order_by(i.c.id.desc()).limit(limit)
    return list(conn.execute(query).scalars().all())


def my_requests(conn: Connection, user_id: str, lang: str, *, limit: int = REQUESTS_SHOWN) -> list[dict[str, Any]]:
    """The user's latest requests, newest first, each as `request_item` reads it."""
    engine = engine_of(conn)
    people = {u["id"]: dict(u) for u in conn.execute(ALL_USERS).mappings()}
    items = []
    for number in own_instance_ids(conn, user_id, limit):
        view = engine.instance(conn, format_instance_id(number))
        items.append(request_item(conn, view, engine.definition(conn, view.process_key, view.version), people, lang))
    return items


def query_my_requests(conn: Connection, ctx: CallContext, args: Any, verdict: Verdict) -> dict[str, Any]:
    """`queryMyRequests`: the signed-in user's own requests, newest first."""
    me = verdict.found.get("actor") or {"id": ctx.actor_id, "name": ctx.actor_id}
    i = t.instances
    total = conn.execute(select(func.count()).select_from(i).where(i.c.requester == ctx.actor_id)).scalar_one()
    result: dict[str, Any] = {"name": display_name(me, ctx.lang), "total": total,
                              "requests": my_requests(conn, ctx.actor_id, ctx.lang)}
    if not total:  # "what's on my plate?" read as their own requests: none, but the tasks waiting for them are named
        result["waiting"] = waiting_for(conn, ctx.actor_id, ctx.lang)
    return result


def own_waiting(conn: Connection, user_id: str, lang: str, *, limit: int = 5) -> list[str]:
    """The user's own requests waiting on someone else, a few words each: 你的报销流程（req_1）在李四那里 / your expense
    claim (req_1), with Li Si. What a to-do list with nothing on it names, for "what have I got pending?"."""
    mine = [item for item in my_requests(conn, user_id, lang) if item.get("heldBy")][:limit]
    if lang == "zh":
        return [f"你的{item['process']}（{item['requestId']}）在{item['heldBy']}那里" for item in mine]
    return [f"your {item['process'].lower()} ({item['requestId']}), with {item['heldBy']}" for item in mine]


def waiting_for(conn: Connection, user_id: str, lang: str, *, limit: int = 5) -> list[str]:
    """The tasks waiting for the user's decision, a few words each: 张三的请假（2 天，task_1）/ Zhang San's expense claim
    (5600 yuan; task_2): "Do I have anything waiting?" answered from their own requests named the to-do without what it
    is for (the sixty-first round's run)."""
    engine = engine_of(conn)
    people = {u["id"]: dict(u) for u in conn.execute(ALL_USERS).mappings()}
    tasks = [task for task in engine.tasks_for(conn, user_id, groups_of(conn, user_id)) if task.requester != user_id]
    words: list[str] = []
    definitions: dict[tuple[str, int], Definition] = {}
    for task in tasks[:limit]:
        who = display_name(people.get(task.requester or "", {"name": task.requester or "?"}), lang)
        key = (task.process_key, task.process_version)
        definitions[key] = definitions.get(key) or engine.definition(conn, *key)
        brief = form_summary(task.form, definitions[key], lang)
        if lang == "zh":
            words.append(f"{who}的{task.process_name.removesuffix('流程')}（{brief + '，' if brief else ''}{task.id}）")
        else:
            words.append(f"{who}'s {(task.process_name_en or task.process_name).lower()} "
                          f"({brief + '; ' if brief else ''}{task.id})")
    return words


_CLOCK = re.compile(r"\s+\d{1,2}:\d{2}$")


def _day(since: str) -> str:
    """Since which day a step waits, as the one line of a person's requests says it ("since 7 Dec"): a clock time there
    was read as when it would be decided ("what time will he get to my claim?"); the minute is in its history."""
    return _CLOCK.sub("", since)


def described(result: dict[str, Any], lang: str) -> str:
    """`queryMyRequests`'s result in one short line: each request, where it stands, who holds it and since when."""
    items, total = result.get("requests", []), int(result.get("total", 0))
    if not total:
        waiting = result.get("waiting") or []
        if lang == "zh":
            return "你还没有发起过申请。" + (f"等你审批的：{'、'.join(waiting)}。" if waiting else "")
        return "You have not started any request yet." + (f" Waiting for your decision: {', '.join(waiting)}."
                                                           if waiting else "")
    parts = []
    for r in items[:10]:
        if lang == "zh":
            text = f"{r['requestId']} {r['process']}（{r['summary']}）{r['status']}"
            if r.get("approvedBy"):  # before its last step's decision, or before the one pending now
                text += f"，{r['approvedBy']}已批准" + (f"，再由{r['decidedBy']}批准" if r.get("decidedBy") else "")
            if r.get("step"):
                text += f"，当前步骤：{r['step']}，由{r['heldBy']}处理，自{_day(r['since'])}起，之后：{r['later']}"
            if r.get("comment"):
                text += f"，{r['returnedBy']}的意见：{r['comment']}"
            if r.get("decidedBy") and not r.get("approvedBy"):
                text += f"（{r['decidedBy']}" + (f"：{r['decisionComment']}）" if r.get("decisionComment") else "）")
            elif r.get("decisionComment"):
                text += f"（{r['decidedBy']}：{r['decisionComment']}）"
        else:
            text = f"{r['requestId']} {r['process']} ({r['summary']}): {r['status']}"
            if r.get("approvedBy"):
                text += f"; approved by {r['approvedBy']}" + (", then" if r.get("decidedBy") else "")
            if r.get("step"):
                text += f"; now at {r['step']}, held by {r['heldBy']} since {_day(r['since'])}; after it: {r['later']}"
            if r.get("comment"):
                text += f"; {r['returnedBy']} said: {r['comment']}"
            if r.get("decidedBy"):
                text += f" by {r['decidedBy']}" + (f" ({r['decisionComment']})" if r.get("decisionComment") else "")
        parts.append(text)
    if lang == "zh":
        return f"你有 {total} 个申请：" + "；".join(parts) + "。"
    return f"You have {total} request{'s' if total != 1 else ''}: " + "; ".join(parts) + "."


def request_text(item: dict[str, Any], lang: str) -> str:
    """One request as the chat's `/requests` prints it: a heading, where it stands, and its timeline."""
    zh = lang != "en"
    lines = [f"{item['requestId']} {item['process']} · {item['summary']}",
             ("  状态：" if zh else "  status: ") + item["status"]]
    if item.get("step"):
        lines.append(f"  当前步骤：{item['step']} · 处理人：{item['heldBy']} · 自 {item['since']} 起" if zh
                     else f"  now at: {item['step']} · held by {item['heldBy']} · since {item['since']}")
    if item.get("comment"):
        lines.append(f"  {item['returnedBy']}的意见：{item['comment']}" if zh
                     else f"  {item['returnedBy']} said: {item['comment']}")
    lines.append("  经过：" if zh else "  what happened:")
    lines += [f"    {line}" for line in item["timeline"]]
    return "\n".join(lines)


def not_yours(conn: Connection, name: str, lang: str) -> CannotError | None:
    """The refusal told to someone nothing waits on who would decide the pending request of the person of that name,
    saying who holds it ("Zhang San's request waits on Li Si's decision"); None when not one person holds them."""
    rows = conn.execute(select(users.c.id, users.c.name, users.c.alias).where(
        (users.c.name == name) | (users.c.alias == name))).all()
    holders = {item["heldBy"] for row in rows for item in my_requests(conn, row.id, lang) if item.get("heldBy")}
    if len(holders) != 1:
        return None
    holder = holders.pop()
    if len(rows) == 1:  # the name in the reader's language: 张三 in Chinese, Zhang San in English
        name = (rows[0].alias or rows[0].name) if lang == "en" else rows[0].name
    return CannotError("not_theirs_to_decide", f"{name}'s request waits on {holder}, not on the user.", say={
        "zh": f"{name}的申请在{holder}那里等审批，不是你的待办，你不能审批；只有{holder}本人或{holder}设置的代理人可以审批。",
        "en": f"{name}'s request waits on {holder}'s decision; it is not yours, so you can't decide it. Only {holder}, "
              f"or a deputy {holder} sets, can."})


def told_where(conn: Connection, user_id: str, say: dict[str, str]) -> dict[str, str]:
    """What a person is told about their own request, after where it is now ("你的请假流程（req_1）在王五那里。You cannot
    approve your own request…"): a refusal that says who decides says who that is."""
    out = {}
    for lang, words in say.items():
        where = ("；" if lang == "zh" else "; ").join(own_waiting(conn, user_id, lang))
        head = (f"{where}。" if lang == "zh" else f"{where[:1].upper()}{where[1:]}. ") if where else ""
        out[lang] = head + words
    return out
