"""A deputy while away (代理审批): `setDeputy` names who decides a person's tasks on the days of a date range, and
`queryMyDeputies` reads the ranges a person set and those they cover for others.

A task that would come to the person by name (its assignee or a candidate user) on a day of an active range goes to
the deputy instead (`route_to_deputies`, in the transaction that made the task), marked as held on the person's
behalf in the to-do list, the card and the timeline. The deputy never decides their own request: such a task goes to
the person's own approver instead (`own_approver`: their manager, else the group `hr`, as the timers' escalation
finds them, never the requester; when nobody else is there, the task stays with the person). A group's task is not
routed: the group's other members hold it. A deputy's own deputy is not followed. A later range of the same person
replaces the ranges it overlaps.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import date, datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Connection, and_, insert, select, update

from tools.errors import NeedsPersonError, PolicyError
from tools.spec import CallContext, Found, Verdict
from tools.workflow.engine import AnyEvent, TaskReady, groups_of, members_of, parse_task_id
from tools.workflow.engine.moves import on_behalf_of
from tools.workflow.languages import Letter, languages_of
from tools.workflow.lookup import ALL_USERS, engine_of, group_label
from tools.workflow.managers import manager_of
from tools.workflow.store import SYSTEM_SENDER, outbox, utcnow
from tools.workflow.tables import deputies
from tools.workflow.timeline import SHOWN_TIMEZONE, name_of

OWN_APPROVER_GROUP = "hr"
"""Where a deputy's own request to the away person goes when the person has no manager other than the requester: the
group the seed's escalation falls back on."""
LONGEST_RANGE_DAYS = 366
LABELS = {
    "zh": {"deputy": "代理人", "period": "期间", "replaces": "替换", "next": "接下来"},
    "en": {"deputy": "deputy", "period": "dates", "replaces": "replaces", "next": "what happens next"},
}


class SetDeputyArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")
    userId: str = Field(description="Always the signed-in user (filled in by the system).")
    deputyUserId: str = Field(description="Who decides the user's tasks meanwhile: the name or userId the user gave.")
    startDate: str = Field(description="The first day, as the user said it (2026-12-07, 12月7日, next Monday).")
    endDate: str = Field(description="The last day, as the user said it.")


class QueryMyDeputiesArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")
    userId: str = Field(description="Always the signed-in user (filled in by the system).")


def _day(value: str, what: str) -> date:
    try:
        return date.fromisoformat(value.strip())
    except ValueError:
        raise PolicyError("bad_date", f"{what} {value[:30]!r} is no date; ask the user for the day (e.g. 12月7日)") from None


def check_deputy(actor_id: str, deputy_id: str, start: date, end: date, today: date) -> None:
    """A deputy is someone else, for a range that has not ended, its end on or after its start, at most a year."""
    if deputy_id == actor_id:  # "帮我找个人代我审批": the model put the person themselves in; who covers is asked
        raise NeedsPersonError("deputy_self", "a person cannot be their own deputy; the user is asked who covers for "
                               "them", ask="deputy", param="deputyUserId")
    if end < start:
        raise PolicyError("bad_range", f"the last day {end} is before the first {start}; ask the user for the dates")
    if end < today:
        raise PolicyError("range_past", f"the range {start} to {end} is over already; ask the user for the dates")
    if (end - start).days + 1 > LONGEST_RANGE_DAYS:
        raise PolicyError("range_too_long", f"a deputy covers at most {LONGEST_RANGE_DAYS} days; ask for a shorter range")


def check_set_deputy(conn: Connection, ctx: CallContext, args: SetDeputyArgs, found: Found) -> Verdict:
    start, end = _day(args.startDate, "startDate"), _day(args.endDate, "endDate")
    check_deputy(ctx.actor_id, found["deputyUserId"]["id"], start, end, ctx.today or date.today())
    return Verdict()


def _overlapping(conn: Connection, user_id: str, start: str, end: str) -> list[Any]:
    d = deputies.c
    return list(conn.execute(select(deputies).where(
        d.user_id == user_id, d.status == "active", d.start_date <= end, d.end_date >= start).order_by(d.id)))


def period(start: str, end: str, lang: str) -> str:
    """A range as people read it: 12月7日至12月11日; 7 Dec to 11 Dec."""
    a, b = date.fromisoformat(start), date.fromisoformat(end)
    if lang == "en":
        return f"{a.day} {a:%b} to {b.day} {b:%b}" if a.year == b.year else f"{a.isoformat()} to {b.isoformat()}"
    return f"{a.month}月{a.day}日至{b.month}月{b.day}日" if a.year == b.year else f"{a.isoformat()} 至 {b.isoformat()}"


def deputy_card(
    conn: Connection, args: dict[str, Any], lang: str = "zh", sources: Mapping[str, Mapping[str, Any]] | None = None
) -> dict[str, Any]:
    """Who covers whose tasks, on which days, what it replaces, and what follows."""
    people = {u["id"]: dict(u) for u in conn.execute(ALL_USERS).mappings()}
    deputy = name_of(people, str(args.get("deputyUserId", "")), lang)
    start, end = str(args.get("startDate", "")), str(args.get("endDate", ""))
    when = period(start, end, lang)
    actor = str(args.get("userId", ""))
    replaced = [f"{name_of(people, r.deputy_id, lang)}（{period(r.start_date, r.end_date, lang)}）" if lang == "zh"
                else f"{name_of(people, r.deputy_id, lang)} ({period(r.start_date, r.end_date, lang)})"
                for r in (_overlapping(conn, actor, start, end) if actor else [])]
    card: dict[str, Any] = {"deputy": deputy, "period": when, "replaces": ("；" if lang == "zh" else "; ").join(replaced)}
    instead, groups = own_approver(conn, actor, str(args.get("deputyUserId", ""))) if actor else ((), ())
    other = ("、" if lang == "zh" else ", ").join([name_of(people, u, lang) for u in instead]
                                                 + [group_label(conn, g, lang) for g in groups])
    if lang == "en":
        card.update(summary=f"{deputy} decides your tasks from {when}",
                    next=f"tasks that come to you on those days go to {deputy}, marked as on your behalf, and "
                    f"{deputy} is told" + (f"; a request of {deputy}'s own goes to {other} instead" if other else ""))
    else:
        card.update(summary=f"{when}由{deputy}代你审批",
                    next=f"这段时间里到你名下的待办会转给{deputy}，标明「代你审批」，{deputy}会收到通知"
                    + (f"；{deputy}自己的申请改由{other}审批" if other else ""))
    card["next"] += _groups_kept(conn, actor, lang)
    names = LABELS["en" if lang == "en" else "zh"]
    return card | {"labels": {k: v for k, v in names.items() if card.get(k)}}


def _groups_kept(conn: Connection, actor: str, lang: str) -> str:
    """What a deputy does not take: steps offered to a group of the person's stay with the group, and with the person
    where no one else is in it (the eighty-seventh round's writer read the card as covering finance's step too)."""
    groups = groups_of(conn, actor) if actor else []
    shared = [g for g in groups if set(members_of(conn, g)) - {actor}]
    alone = [g for g in groups if g not in shared]
    sep = "、" if lang == "zh" else ", "
    said = ""
    if shared:
        named = sep.join(group_label(conn, g, lang) for g in shared)
        said += (f"；交给{named}组的待办不转，由组里其他人处理" if lang == "zh" else
                 f"; steps offered to {named} as a group are not passed on: its other members decide them")
    if alone:
        named = sep.join(group_label(conn, g, lang) for g in alone)
        said += (f"；交给{named}组的待办不转，仍在你这里（组里没有别人）" if lang == "zh" else
                 f"; steps offered to {named} as a group are not passed on, and stay with you: no one else is in it")
    return said


def set_deputy(conn: Connection, ctx: CallContext, args: SetDeputyArgs, verdict: Verdict) -> dict[str, Any]:
    deputy = verdict.found["deputyUserId"]
    start, end = args.startDate.strip(), args.endDate.strip()
    old = _overlapping(conn, ctx.actor_id, start, end)
    if old:
        conn.execute(update(deputies).where(deputies.c.id.in_([r.id for r in old])).values(status="replaced"))
    conn.execute(insert(deputies).values(user_id=ctx.actor_id, deputy_id=deputy["id"], start_date=start, end_date=end,
                                         status="active", created_at=utcnow()))
    people = {u["id"]: dict(u) for u in conn.execute(ALL_USERS).mappings()}
    zh, en = name_of(people, ctx.actor_id, "zh"), name_of(people, ctx.actor_id, "en")
    letter = Letter(("代理审批", "Deputy", f": {zh}"), (
        f"{zh}请您在{period(start, end, 'zh')}代为审批：这段时间里到{zh}名下的待办会转给您，标明「代{zh}审批」。",
        f"{en} asked you to decide their tasks from {period(start, end, 'en')}: tasks that come to them on those "
        f"days come to you, marked as on {en}'s behalf."))
    subject, body = letter.written(languages_of(conn, [deputy["id"]]).get(deputy["id"]))
    result = conn.execute(insert(outbox).values(
        idempotency_key=f"{ctx.idempotency_key}#1", thread_id=ctx.thread_id, sender_id=SYSTEM_SENDER,
        recipient_id=deputy["id"], recipient_email=deputy["email"], subject=subject,
        body=body, task_id=None, status="queued", attempts=0, created_at=utcnow(),
    ))
    return {"deputy": name_of(people, deputy["id"], ctx.lang), "startDate": start, "endDate": end,
            "period": period(start, end, ctx.lang), "replaced": len(old),
            "notified": [{"emailId": int(result.inserted_primary_key[0]),  # type: ignore[index]
                          "to": deputy["id"], "kind": "deputy_set"}]}


def deputy_set_line(result: dict[str, Any], lang: str) -> str:
    if lang == "en":
        return f"{result['deputy']} decides your tasks from {result['period']} and is told."
    return f"已设置{result['period']}由{result['deputy']}代你审批，{result['deputy']}已收到通知。"


def query_my_deputies(conn: Connection, ctx: CallContext, args: QueryMyDeputiesArgs, verdict: Verdict) -> dict[str, Any]:
    """The ranges the user set that have not ended, and those in which they cover for someone else."""
    today = (ctx.today or date.today()).isoformat()
    d = deputies.c
    people = {u["id"]: dict(u) for u in conn.execute(ALL_USERS).mappings()}
    rows = conn.execute(select(deputies).where(d.status == "active", d.end_date >= today,
                                               (d.user_id == ctx.actor_id) | (d.deputy_id == ctx.actor_id))
                        .order_by(d.start_date, d.id)).all()
    mine = [{"deputy": name_of(people, r.deputy_id, ctx.lang), "period": period(r.start_date, r.end_date, ctx.lang)}
            for r in rows if r.user_id == ctx.actor_id]
    covering = [{"for": name_of(people, r.user_id, ctx.lang), "period": period(r.start_date, r.end_date, ctx.lang)}
                for r in rows if r.deputy_id == ctx.actor_id]
    return {"myDeputies": mine, "coveringFor": covering}


def deputies_line(result: dict[str, Any], lang: str) -> str:
    mine, covering = result.get("myDeputies", []), result.get("coveringFor", [])
    if lang == "en":
        parts = [f"{m['deputy']} covers for you from {m['period']}" for m in mine]
        parts += [f"you cover for {c['for']} from {c['period']}" for c in covering]
        return ("; ".join(parts) + ".") if parts else "You have no deputy set, and cover for nobody."
    parts = [f"{m['period']}由{m['deputy']}代你审批" for m in mine] + [f"{c['period']}你代{c['for']}审批" for c in covering]
    return ("；".join(parts) + "。") if parts else "你没有设置代理人，也没有代别人审批。"


# ---------------------------------------------------------------- routing new tasks


def company_today() -> date:
    """Today in the company's time zone: the day a range is active on when the run gives none."""
    return datetime.now(SHOWN_TIMEZONE).date()


def held_for(conn: Connection, task_id: str | None, lang: str) -> dict[str, str]:
    """For a new task a deputy (or the person's own approver) holds: who holds it now and on whose behalf, in the
    reader's words (`heldBy`, `onBehalfOf`); {} for any other task."""
    if not task_id:
        return {}
    away = on_behalf_of(conn, [parse_task_id(task_id)]).get(parse_task_id(task_id))
    if away is None:
        return {}
    task = engine_of(conn).task(conn, task_id)
    people = {u["id"]: dict(u) for u in conn.execute(ALL_USERS).mappings()}
    holders = [name_of(people, u, lang) for u in ([task.assignee] if task.assignee else []) + list(task.candidate_users)]
    holders += [group_label(conn, g, lang) for g in task.candidate_groups]
    return {"heldBy": ("、" if lang == "zh" else ", ").join(holders), "onBehalfOf": name_of(people, away, lang)}


def away_note(conn: Connection, person: str, requester: str, lang: str, day: date | None = None) -> str | None:
    """A start card's note when its approver is away on `day`: who decides in their place; None otherwise."""
    deputy = active_deputies(conn, [person], day or company_today()).get(person)
    if deputy is None:
        return None
    people = {u["id"]: dict(u) for u in conn.execute(ALL_USERS).mappings()}
    if deputy == requester:
        users, groups = own_approver(conn, person, requester)
        if not users and not groups:
            return None
        instead = [name_of(people, u, lang) for u in users] + [group_label(conn, g, lang) for g in groups]
    else:
        instead = [name_of(people, deputy, lang)]
    who, by = name_of(people, person, lang), ("、" if lang == "zh" else ", ").join(instead)
    if lang == "en":
        return f"{who} is away: {by} decides it on {who}'s behalf"
    return f"{who}不在，由{by}代{who}审批"


def active_deputies(conn: Connection, user_ids: Sequence[str], day: date) -> dict[str, str]:
    """The deputy of each of these people on `day`, by person (the latest range set wins)."""
    if not user_ids:
        return {}
    d, iso = deputies.c, day.isoformat()
    rows = conn.execute(select(d.user_id, d.deputy_id).where(and_(
        d.user_id.in_(list(user_ids)), d.status == "active", d.start_date <= iso, d.end_date >= iso)).order_by(d.id))
    return {r.user_id: r.deputy_id for r in rows}


def own_approver(conn: Connection, person: str, requester: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Who decides in place of an away person when their deputy filed the request, as the timers' escalation finds
    it (`escalateTo="${manager}, hr"`): the person's manager from the reporting lines (`tools.workflow.managers`)
    unless that is the requester, else the group `hr` unless it holds nobody but the requester; (people, groups),
    both empty when nobody is left (the task then stays with the person)."""
    manager = manager_of(conn, person)
    if manager is not None and manager != requester:
        return (manager,), ()
    if [m for m in members_of(conn, OWN_APPROVER_GROUP) if m != requester]:
        return (), (OWN_APPROVER_GROUP,)
    return (), ()


def _routed(conn: Connection, event: TaskReady, day: date) -> TaskReady:
    away = active_deputies(conn, event.assignees, day)
    if not away:
        return event
    engine = engine_of(conn)
    users, groups = list(event.assignees), list(event.candidate_groups)
    for person, deputy in away.items():
        if deputy == event.requester:
            instead, fallback = own_approver(conn, person, event.requester)
            if not instead and not fallback:
                continue
            users = [*[u for u in users if u != person], *instead]
            groups = [*groups, *fallback]
            engine.move_task(conn, event.task_id, to_users=users, to_groups=groups, kind="deputy_own",
                             from_user=person, by="")
        else:
            users = [deputy if u == person else u for u in users]
            engine.move_task(conn, event.task_id, to_users=users, to_groups=groups, kind="deputy",
                             from_user=person, by="")
    return replace(event, assignees=tuple(dict.fromkeys(users)), candidate_groups=tuple(dict.fromkeys(groups)))


def _not_alone(conn: Connection, event: TaskReady) -> TaskReady:
    """A step offered only to groups that hold nobody but its requester (赵六, alone in finance, with a claim of his own
    over 5000 yuan: the eighty-seventh round's writer found it could never be decided) goes to the requester's own
    approver, found as a deputy's is (`own_approver`); it stays when nobody is left."""
    if event.assignees or not event.candidate_groups or any(
            set(members_of(conn, g)) - {event.requester} for g in event.candidate_groups):
        return event
    users, groups = own_approver(conn, event.requester, event.requester)
    if not users and not groups:
        return event
    engine_of(conn).move_task(conn, event.task_id, to_users=users, to_groups=groups, kind="group_own",
                              from_user=event.requester, by="")
    return replace(event, assignees=tuple(users), candidate_groups=tuple(groups))


def route_to_deputies(conn: Connection, events: Sequence[AnyEvent], day: date | None = None) -> list[AnyEvent]:
    """The events with each new task that would come to an away person on `day` (default: the company's today)
    routed to their deputy (or their own approver), and each offered only to its requester's own groups routed to
    their approver (`_not_alone`), moved in the caller's transaction; the other events as they were."""
    return [_not_alone(conn, _routed(conn, e, day or company_today())) if isinstance(e, TaskReady) else e
            for e in events]

