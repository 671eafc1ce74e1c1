"""The reviewer's cards of the workflow's writes: read from the store, never from the model's words.

Each builder takes the call's validated arguments and returns the card's `summary` and fields, in the reviewer's
language; a record that cannot be found raises a `DomainError`, and the reviewer then sees the general card with the
error. A decision's card shows the step, the request's form data, this request's earlier decisions, and what
approving does (it ends the request, or sends it on to the next step), worked out by the engine on a copy of the
request (`ProcessEngine.preview`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Connection

from tools.workflow.cc import cc_names
from tools.workflow.deputies import away_note
from tools.workflow.engine import (
    Definition,
    EngineError,
    FormError,
    NextStep,
    Preview,
    TaskView,
    members_of,
    parse_task_id,
)
from tools.workflow.engine.moves import on_behalf_of
from tools.workflow.forms import form_data, param_of
from tools.workflow.leave.requests import card_lines
from tools.workflow.lookup import ALL_USERS, engine_of, group_label, require_process, require_task, require_user
from tools.workflow.notify import form_summary, process_noun
from tools.workflow.prompts import CARD_LABELS, CARD_SHOWN
from tools.workflow.shown import form_values
from tools.workflow.timeline import step_verdict
from tools.workflow.views import is_flagged


def _name(user: dict[str, Any], lang: str) -> str:
    """A user's name as the reader writes it: 张三 in Chinese, Zhang San in English."""
    return str(user["alias"]) if lang == "en" and user.get("alias") else str(user["name"])


def _person(user: dict[str, Any], lang: str = "zh") -> str:
    return f"{_name(user, lang)} ({user['id']})"


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "是" if value else "否"
    return f"{value:g}" if isinstance(value, float) else str(value)


def form_lines(form: dict[str, Any], definition: Definition, lang: str) -> str:
    """The form's data, one field a part: 请假天数：10；请假原因：肚子疼 (labels in the reader's language)."""
    sep, colon = ("；", "：") if lang == "zh" else ("; ", ": ")
    parts = []
    for field in definition.fields:
        value = form.get(field.id)
        if value in (None, ""):
            continue
        label = field.label_en or field.label if lang == "en" else field.label
        if field.choices:
            choice = next((c for c in field.choices if c.id == value), None)
            value = (choice.name_en or choice.name if lang == "en" else choice.name) if choice else value
        parts.append(f"{label}{colon}{_value(value)}")
    return sep.join(parts)


def _process_name(definition: Definition, lang: str) -> str:
    return definition.name_en or definition.name if lang == "en" else definition.name


def _step(task: TaskView | Any, lang: str) -> str:
    return str(task.step_en or task.step) if lang == "en" else str(task.step)


def history_lines(task: TaskView, people: dict[str, dict[str, Any]], lang: str) -> str:
    """This request's earlier decisions: 审批人审批：李四 批准（同意）; a step that sent it back: 李四 退回（…）."""
    parts = []
    for decision in task.history:
        who = _name(people.get(decision.user, {"name": decision.user}), lang)
        kind = "returned" if decision.returned else "approved" if decision.approved else "rejected"
        parts.append(step_verdict(decision.step, decision.step_en, who, kind, decision.comment, lang))
    return ("；" if lang == "zh" else "; ").join(parts)


def _who(conn: Connection, assignee: str | None, users_: tuple[str, ...], groups: tuple[str, ...],
         people: dict[str, dict[str, Any]], lang: str, *, ids: bool = True) -> str:
    """Who decides a step: its people (with their ids, which tell apart two of one name) and its groups' members."""
    person = _person if ids else _name
    names = [person(people[u], lang) for u in ([assignee] if assignee else []) + list(users_) if u in people]
    for group in groups:
        members = "、".join(_name(people[m], lang) for m in members_of(conn, group) if m in people)
        label = group_label(conn, group, lang)
        names.append(f"{label}：{members}" if lang == "zh" else f"{label}: {members}")
    return ("、" if lang == "zh" else ", ").join(names)


def approving_does(conn: Connection, preview: Preview, people: dict[str, dict[str, Any]], lang: str) -> str:
    """What approving does, in words: it ends the request, or sends it on to the next step (and to whom)."""
    if preview.ends:
        return "批准后申请结束（已批准）" if lang == "zh" else "approving ends the request (approved)"
    if not preview.next:
        return "批准后等待其他步骤完成" if lang == "zh" else "approving waits for the other open steps"
    steps = []
    for step in preview.next:
        who = _who(conn, step.assignee, step.candidate_users, step.candidate_groups, people, lang)
        steps.append(f"{_step(step, lang)}（{who}）" if lang == "zh" else f"{_step(step, lang)} ({who})")
    return ("批准后转到：" + "、".join(steps)) if lang == "zh" else "approving sends it on to " + ", ".join(steps)


def decision_card(
    conn: Connection, args: dict[str, Any], lang: str = "zh", sources: Mapping[str, Mapping[str, Any]] | None = None
) -> dict[str, Any]:
    """handleTodoTask: the step being decided, who asked, the request's form data, the earlier decisions, what
    approving does, and the decision."""
    task = require_task(conn, args["taskId"])
    view: TaskView = task["view"]
    engine = engine_of(conn)
    definition = engine.definition(conn, view.process_key, view.process_version)
    people = {u["id"]: dict(u) for u in conn.execute(ALL_USERS).mappings()}
    requester = people.get(view.requester) or require_user(conn, view.requester)
    req = view.instance_id
    noun = process_noun(definition, lang)
    what = form_summary(view.form, definition, lang)
    approve = bool(args.get("isOK"))
    if lang == "en":
        verb = "Approve" if approve else "Reject"
        days = view.form.get("days")
        if isinstance(days, int | float) and "days" in view.form:
            summary = f"{verb} {_name(requester, lang)}'s {days:g}-day request {req}"
        else:
            summary = f"{verb} {_name(requester, lang)}'s {noun} {req}" + (f" ({what})" if what else "")
    else:
        days = view.form.get("days")
        verb = "批准" if approve else "驳回"
        if isinstance(days, int | float) and "days" in view.form:
            summary = f"{verb}{_name(requester, lang)}的 {days:g} 天申请 {req}"
        else:
            summary = f"{verb}{_name(requester, lang)}的{noun} {req}" + (f"（{what}）" if what else "")
    card: dict[str, Any] = {
        "summary": summary,
        "task": view.id,
        "task_status": "pending" if view.status == "ready" else view.status,
        "request": req,
        "process": _process_name(definition, lang),
        "process_key": view.process_key,
        "process_version": view.process_version,
        "step": _step(view, lang),
        "requester": _person(requester, lang),
    }
    if view.status != "ready":
        card["task_state"] = "already decided" if lang == "en" else "已处理"
    for key in ("days", "reason"):
        if key in view.form and view.form[key] is not None:
            card[key] = view.form[key]
    card["form"] = form_lines(view.form, definition, lang)
    card["history"] = history_lines(view, people, lang)
    card["assignee"] = _who(conn, view.assignee, view.candidate_users, view.candidate_groups, people, lang)
    away = on_behalf_of(conn, [parse_task_id(view.id)]).get(parse_task_id(view.id))
    if away:  # held by a deputy
        card["on_behalf"] = _name(people.get(away, {"name": away}), lang) if lang == "en" else \
            f"代{_name(people.get(away, {'name': away}), lang)}审批"
    try:
        card["on_approve"] = approving_does(conn, engine.preview(conn, view.id, approved=True), people, lang)
    except EngineError:
        card["on_approve"] = ""  # decided meanwhile: the decision will be refused, the card says the status
    card.update(
        decision="approve" if approve else "reject",
        verdict=("approve" if approve else "reject") if lang == "en" else ("批准" if approve else "驳回"),
        comment=args.get("result", ""),
        flagged=is_flagged(view.form, definition.fields),
    )
    if card["flagged"]:
        card["notes"] = ["This request is over one day: your decision needs a comment." if lang == "en"
                         else "这是超过一天的申请，审批需要填写意见。"]
    return card | {"labels": labels_for(card, lang)}


def email_card(
    conn: Connection, args: dict[str, Any], lang: str = "zh", sources: Mapping[str, Mapping[str, Any]] | None = None
) -> dict[str, Any]:
    """sendEmail: the recipient (a reminder's goes to whoever decides its task) and the full text."""
    card: dict[str, Any] = {}
    if args.get("taskId"):
        task = require_task(conn, args["taskId"])
        offered = task["offered"]
        recipient_id = args["userId"] if args.get("userId") in offered else (offered[0] if offered else args.get("userId"))
        recipient = require_user(conn, str(recipient_id))
        card["task"] = task["id"]
    else:
        recipient = require_user(conn, args["userId"])
    to = f"{_name(recipient, lang)} <{recipient['email']}>"
    card |= {
        "summary": f"Send an e-mail to {to}" if lang == "en" else f"发邮件给 {to}",
        "recipient": _person(recipient, lang),
        "recipient_email": recipient["email"],
        "text": args.get("emailContent", ""),
    }
    return card | {"labels": labels_for(card, lang)}


def _from_words(source: Mapping[str, Any] | None, shown: str, lang: str) -> str:
    """Where a value came from, after it: ← 6千8百元; ← 打车（推断）; (filled from your words)."""
    if not source:
        return ""
    said, how = str(source.get("said") or "").strip(), source.get("how")
    inferred = how == "inferred"
    if said and said != shown:
        tag = ("（推断）" if lang == "zh" else " (inferred)") if inferred else ""
        return f" ← {said}{tag}"
    if inferred:
        return "（推断）" if lang == "zh" else " (inferred)"
    return ""


def value_lines(
    form: dict[str, Any], definition: Definition, lang: str, sources: Mapping[str, Mapping[str, Any]]
) -> tuple[list[str], list[dict[str, Any]]]:
    """Each value as it will be filed, beside the words it was read from: "报销金额：6,800 元 ← 6千8百元"; and the same
    as records (field, label, value, shown, said, how) for a page or a client."""
    colon = "：" if lang == "zh" else ": "
    lines, records = [], []
    for form_field, label, shown in form_values(form, definition, lang):
        source = sources.get(param_of(form_field.id)) or {}
        lines.append(f"{label}{colon}{shown}{_from_words(source, shown, lang)}")
        records.append({"field": form_field.id, "label": label, "value": form[form_field.id], "shown": shown,
                        "said": str(source.get("said") or ""), "how": str(source.get("how") or ""),
                        "replaced": str(source.get("replaced") or "")})
    return lines, records


def _stage_words(conn: Connection, stage: Sequence[NextStep], people: dict[str, dict[str, Any]], lang: str) -> str:
    steps = []
    for step in stage:
        who = _who(conn, step.assignee, step.candidate_users, step.candidate_groups, people, lang, ids=False)
        steps.append(f"{_step(step, lang)}（{who}）" if lang == "zh" else f"{_step(step, lang)} ({who})")
    return "、".join(steps) if lang == "zh" else ", ".join(steps)


def after_start(conn: Connection, stages: Sequence[Sequence[NextStep]], people: dict[str, dict[str, Any]],
                lang: str) -> str:
    """What happens once the request is filed: who is told first, and where approving sends it on."""
    if not stages:
        return "提交后申请即结束" if lang == "zh" else "filing it ends the request"
    first = _stage_words(conn, stages[0], people, lang)
    rest = [_stage_words(conn, stage, people, lang) for stage in stages[1:]]
    if lang == "en":
        text = f"it goes first to {first}, who is told"
        return text + (f"; once approved, on to {', then '.join(rest)}" if rest else "")
    text = f"提交后先送{first}，审批人会收到通知"
    return text + (f"；批准后转到{'，再到'.join(rest)}" if rest else "")


def start_card(
    conn: Connection, args: dict[str, Any], lang: str = "zh", sources: Mapping[str, Mapping[str, Any]] | None = None
) -> dict[str, Any]:
    """runWorkFlow: what the person confirms before their request is filed: the process, each value as it will be
    filed beside the words it was read from (and what was inferred), the first approver, and what happens next."""
    process = require_process(conn, args["processKey"])
    definition: Definition = process["definition"]
    approver = require_user(conn, args["nextUserId"])
    requester = require_user(conn, args["userId"])
    people = {u["id"]: dict(u) for u in conn.execute(ALL_USERS).mappings()}
    form = form_data(args, definition)
    noun = process_noun(definition, lang)
    what = form_summary(form, definition, lang)
    lines, records = value_lines(form, definition, lang, sources or {})
    if lang == "en":
        summary = f"File your {noun}" + (f": {what}" if what else "")
    else:
        summary = f"提交你的{noun}" + (f"：{what}" if what else "")
    card: dict[str, Any] = {
        "summary": summary,
        "process": _process_name(definition, lang),
        "requester": _person(requester, lang),
    }
    for key in ("days", "reason"):
        if form.get(key) is not None:
            card[key] = form[key]
    card["values"] = lines
    card["fields"] = records
    card["leave"] = card_lines(conn, requester["id"], definition, form, sources or {}, lang)  # none for no leave
    card["approver"] = _person(approver, lang)
    card["approver_email"] = approver.get("email") or ""
    card["cc"] = cc_names(conn, definition, requester["id"], args.get("cc"), lang)
    try:
        stages = engine_of(conn).preview_start(conn, definition.key, requester=requester["id"],
                                               data={**form, "nextUserId": approver["id"]})
        card["next"] = after_start(conn, stages, people, lang)
    except (EngineError, FormError):
        card["next"] = ""  # the form is refused: the refusal says why when the request is filed
    notes = []
    away = away_note(conn, approver["id"], requester["id"], lang)  # the approver is away: who decides instead
    if away:
        notes.append(away)
    inferred = [r["label"] for r in records if r["how"] == "inferred"]
    if inferred:
        notes.append(f"Inferred from your words, please check: {', '.join(inferred)}" if lang == "en"
                     else f"以下内容是根据你的话推断的，请核对：{'、'.join(inferred)}")
    filled = [r["label"] for r in records if r["how"] == "filled"]
    if filled:
        notes.append(f"Filled in from what you said, please check: {', '.join(filled)}" if lang == "en"
                     else f"以下内容是从你的话里补上的，请核对：{'、'.join(filled)}")
    for r in records:
        if r["replaced"]:
            notes.append(f"{r['label']} is what you said, not {r['replaced']} as the assistant proposed" if lang == "en"
                         else f"{r['label']}按你的原话填写，不是助手提出的 {r['replaced']}")
    if notes:
        card["notes"] = notes
    return card | {"labels": labels_for(card, lang)}


def labels_for(card: dict[str, Any], lang: str) -> dict[str, str]:
    """The card's fields a person reads, each with its label in their language, in display order."""
    names = CARD_LABELS[lang if lang in CARD_LABELS else "zh"]
    return {key: names[key] for key in CARD_SHOWN if key in card and card[key] not in (None, "", [])}


