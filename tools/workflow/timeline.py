"""A request's timeline in a person's words: who did what, when, with what comment. One wording of a step's decision
serves the approver's card (`tools.workflow.cards.history_lines`) and the requester's timeline (`timeline_lines`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from tools.workflow.engine import Definition, Happened
from tools.workflow.shown import shown_value

SHOWN_TIMEZONE = ZoneInfo("Asia/Shanghai")
"""The time zone times are shown in: the company's (`Context.timezone`'s default)."""

VERDICTS = {
    "zh": {"approved": "批准", "rejected": "驳回", "returned": "退回"},
    "en": {"approved": "approved", "rejected": "rejected", "returned": "returned it"},
}
"""A step's outcome, as a decision reads: 李四 批准, Li Si approved."""
ACTS = {
    "zh": {"started": "发起申请", "resubmitted": "修改后重新提交", "resent": "原样重新提交", "withdrawn": "撤回了申请"},
    "en": {"started": "started the request", "resubmitted": "changed it and sent it again",
           "resent": "sent it again as it was", "withdrawn": "withdrew the request"},
}
"""What a requester did, as the timeline reads it."""
TIMERS = {
    "zh": {"reminded": "超时未处理，已提醒{to}", "escalated": "超时未处理，已转给{to}", "overdue": "已过期限"},
    "en": {"reminded": "not decided in time, reminder sent to {to}", "escalated": "not decided in time, moved to {to}",
           "overdue": "past its due date"},
}
"""A step's timer that fired, as the timeline reads it (who was reminded, whom the step moved to)."""
MOVES = {
    "zh": {"transferred": "{who} 转交给{to}", "deputy": "转给{to}代{who}审批",
           "deputy_own": "{who}的代理人是申请人本人，改由{to}代{who}审批",
           "group_own": "这一步的组里只有申请人{who}本人，改由{to}审批"},
    "en": {"transferred": "{who} passed it on to {to}", "deputy": "went to {to}, on behalf of {who}",
           "deputy_own": "went to {to} on behalf of {who}, as {who}'s deputy filed it",
           "group_own": "went to {to}, as no one but {who}, who filed it, is in the step's group"},
}
"""A step passed on, as the timeline reads it (`tools.workflow.engine.moves`): who passed it to whom; on whose behalf."""
URGED = {"zh": "{who} 催办", "en": "{who} sent a reminder"}
"""A requester's urge of a step (`tools.workflow.urge`), as the timeline reads it."""


def name_of(people: Mapping[str, Mapping[str, Any]], user_id: str, lang: str) -> str:
    """A user's name as the reader writes it (张三 / Zhang San); the id when the user is unknown."""
    user = people.get(user_id)
    if user is None:
        return user_id
    return str(user.get("alias") or user["name"]) if lang == "en" else str(user["name"])


def step_verdict(step: str, step_en: str, who: str, kind: str, comment: str, lang: str) -> str:
    """One step's outcome: 审批人审批：李四 批准（同意）; Approver's decision: Li Si returned it (add the dates)."""
    verdict = VERDICTS["en" if lang == "en" else "zh"][kind]
    if lang == "en":
        return f"{step_en or step}: {who} {verdict}" + (f" ({comment})" if comment else "")
    return f"{step}：{who} {verdict}" + (f"（{comment}）" if comment else "")


def when(at: str, lang: str) -> str:
    """A time stamp as a person reads it, in the company's time zone: 12月3日 18:15; 3 Dec 18:15."""
    try:
        moment = datetime.fromisoformat(at).astimezone(SHOWN_TIMEZONE)
    except ValueError:
        return at
    return f"{moment.day} {moment:%b %H:%M}" if lang == "en" else f"{moment.month}月{moment.day}日 {moment:%H:%M}"


def changes_words(changes: Mapping[str, tuple[Any, Any]], definition: Definition, lang: str) -> str:
    """A resubmission's changed values: 请假天数：5 天 → 2 天."""
    colon, sep = ("：", "；") if lang == "zh" else (": ", "; ")
    parts = []
    for field in definition.fields:
        if field.id not in changes:
            continue
        before, after = changes[field.id]
        label = (field.label_en or field.label) if lang == "en" else field.label
        old = shown_value(before, field, lang) if before not in (None, "") else "—"
        parts.append(f"{label}{colon}{old} → {shown_value(after, field, lang)}")
    return sep.join(parts)


def happened_line(entry: Happened, people: Mapping[str, Mapping[str, Any]], definition: Definition, lang: str) -> str:
    """One timeline entry with its time: 12月3日 18:20 审批人审批：李四 退回（请写明日期）."""
    who = name_of(people, entry.user, lang)
    if entry.kind in TIMERS["zh"]:
        to = ("、" if lang == "zh" else ", ").join(name_of(people, p, lang) for p in entry.to)
        said = TIMERS["en" if lang == "en" else "zh"][entry.kind].format(to=to or ("—"))
        what = f"{entry.step_en or entry.step}: {said}" if lang == "en" else f"{entry.step}：{said}"
    elif entry.kind in MOVES["zh"]:
        to = ("、" if lang == "zh" else ", ").join(name_of(people, p, lang) for p in entry.to)
        said = MOVES["en" if lang == "en" else "zh"][entry.kind].format(who=who, to=to or "—")
        if entry.comment:
            said += f"（{entry.comment}）" if lang == "zh" else f" ({entry.comment})"
        what = f"{entry.step_en or entry.step}: {said}" if lang == "en" else f"{entry.step}：{said}"
    elif entry.kind == "urged":
        said = URGED["en" if lang == "en" else "zh"].format(who=who)
        what = f"{entry.step_en or entry.step}: {said}" if lang == "en" else f"{entry.step}：{said}"
    elif entry.kind in ("approved", "rejected", "returned"):
        what = step_verdict(entry.step, entry.step_en, who, entry.kind, entry.comment, lang)
    else:
        kind = "resent" if entry.kind == "resubmitted" and not entry.changes else entry.kind  # a resend with a note
        what = f"{who} {ACTS['en' if lang == 'en' else 'zh'][kind]}"
        changed = changes_words(entry.changes, definition, lang)
        if changed:
            what += f"（{changed}）" if lang == "zh" else f" ({changed})"
        if entry.comment:
            what += f"（{entry.comment}）" if lang == "zh" else f" ({entry.comment})"
    return f"{when(entry.at, lang)} {what}"


def timeline_lines(
    entries: Sequence[Happened], people: Mapping[str, Mapping[str, Any]], definition: Definition, lang: str
) -> list[str]:
    """A request's timeline, oldest first, one line an entry."""
    return [happened_line(entry, people, definition, lang) for entry in entries]
