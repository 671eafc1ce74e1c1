"""`decideTasks`: batch decisions (issue 34). One card lists the tasks a structured filter matches (a process, the most
days, a requester; never free text run as code), each with its own decision and comment, which the person may change
on the card (edit: `decisions`); never more than the `batch_limit` setting. Each task is decided on its own
compare-and-set, in a savepoint of the write's transaction: one that fails (decided elsewhere meanwhile) is reported
and undoes none of the others. Every task meets the single decision's policy (`check_decide_task`): offered to the
person, never their own request, still waiting, a comment over one day."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator
from sqlalchemy import Connection

from tools.errors import CannotError, DomainError, NeedsPersonError, PolicyError
from tools.spec import CallContext, Found, PersonValue, Verdict
from tools.workflow.batch_words import failed_words
from tools.workflow.comment_words import stated_comment
from tools.workflow.engine import EngineError, TaskView, groups_of
from tools.workflow.leave.requests import settle
from tools.workflow.lookup import ALL_USERS, engine_of, offered_to, require_task
from tools.workflow.mine import holders
from tools.workflow.notify import form_summary, notify, process_noun
from tools.workflow.policy import COMMENT_REQUIRED_OVER_DAYS, MAX_REASON_CHARS, check_decide_task, task_days
from tools.workflow.request_lookup import own_pending
from tools.workflow.timeline import name_of
from tools.workflow.words import DECISION_ONLY

DEFAULT_BATCH_LIMIT = 10
"""The most tasks one batch decides (the toolset's `batch_limit`): more are refused, asking the person to narrow it."""

LABELS = {
    "zh": {"filter": "范围", "tasks": "逐项决定", "comment": "审批意见", "next": "接下来"},
    "en": {"filter": "which tasks", "tasks": "each task", "comment": "comment", "next": "what happens next"},
}
"""The batch card's fields a person reads, in display order."""

REQUIRED_COMMENT = PersonValue("comment", "text", "comment", stated=stated_comment, meaningful=True,
                               filler=DECISION_ONLY)
"""A batch's comment where a task over one day needs one: the approver's own words, as for a single decision."""


class BatchItem(BaseModel):
    """One task of the batch as the person set it on the card."""

    model_config = ConfigDict(extra="forbid")
    taskId: str = Field(description="A task of the batch (task_1).")
    isOK: bool | None = Field(default=None, description="Its own decision; left out: the batch's.")
    comment: str | None = Field(default=None, description="Its own comment; left out: the batch's.")
    skip: bool = Field(default=False, description="Leave this task out of the batch.")


class DecideTasksArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")
    userId: str = Field(description="The approver: always the signed-in user (filled in by the system).")
    isOK: bool = Field(description="true approves, false rejects every task of the batch.")
    processKey: str | None = Field(default=None, description="Only tasks of this process (process_qingjia: leave).")
    maxDays: float | None = Field(default=None, gt=0, le=365, description="Only requests of at most this many days.")
    requester: str | None = Field(default=None, description="Only this person's requests: a name or userId.")
    leaveOut: list[str] | None = Field(default=None, description="Not these people's requests (userIds).")
    comment: str = Field(default="", description="The user's comment for every task, in their words (may be empty).")
    decisions: list[BatchItem] | None = Field(
        default=None, description="Set on the review card only: the tasks the person decides, each its own way.")

    @field_validator("comment")
    @classmethod
    def _comment(cls, value: str) -> str:
        if len(value) > MAX_REASON_CHARS:
            raise ValueError(f"comment must be at most {MAX_REASON_CHARS} characters")
        return value.strip()


def _days(conn: Connection, task: TaskView) -> float | None:
    return task_days(conn, {"process_key": task.process_key, "process_version": task.process_version,
                            "form": task.form})


def matching(conn: Connection, actor_id: str, args: Mapping[str, Any]) -> list[TaskView]:
    """The waiting tasks offered to the actor that the filter matches, oldest first: never a step of their own
    request; with `maxDays`, only requests whose length is known and at most that."""
    tasks = [t for t in engine_of(conn).tasks_for(conn, actor_id, groups_of(conn, actor_id)) if t.requester != actor_id]
    if args.get("processKey"):
        tasks = [t for t in tasks if t.process_key == args["processKey"]]
    if args.get("requester"):
        tasks = [t for t in tasks if t.requester == args["requester"]]
    if args.get("leaveOut"):
        tasks = [t for t in tasks if t.requester not in set(args["leaveOut"])]
    if args.get("maxDays") is not None:
        bound = float(args["maxDays"])
        tasks = [t for t in tasks if (days := _days(conn, t)) is not None and days <= bound]
    return sorted(tasks, key=lambda t: int(t.id.removeprefix("task_")))


def planned(conn: Connection, actor_id: str, args: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The batch as it stands: each task with its decision and comment (the card's edits over the batch's own), in
    the order decided. With `decisions`, exactly the tasks the person kept on the card (one no longer waiting stays,
    to be reported); else every task the filter matches."""
    matched = {t.id: t for t in matching(conn, actor_id, args)}
    batch_ok, batch_comment = bool(args.get("isOK")), str(args.get("comment") or "")
    edits = args.get("decisions")
    if edits is None:
        return [{"taskId": tid, "isOK": batch_ok, "comment": batch_comment} for tid in matched]
    items, seen = [], set()
    for raw in edits:
        edit = raw.model_dump() if isinstance(raw, BaseModel) else dict(raw)
        tid = require_task(conn, edit["taskId"])["id"]
        if tid in seen:
            raise PolicyError("batch_duplicate", f"{tid} is listed twice in decisions; list each task once")
        seen.add(tid)
        if edit.get("skip"):
            continue
        if tid not in matched and require_task(conn, tid)["status"] == "ready":
            raise PolicyError("batch_outside_filter", f"{tid} waits but is outside the batch's filter; decide it on "
                              "its own (handleTodoTask) or change the filter")
        items.append({"taskId": tid, "isOK": batch_ok if edit.get("isOK") is None else bool(edit["isOK"]),
                      "comment": batch_comment if edit.get("comment") is None else str(edit["comment"]).strip()})
    return items


def batch_person_values(handle: Any, ctx: CallContext, values: dict[str, Any], found: Found) -> tuple[PersonValue, ...]:
    """`ToolSpec.person_values_for`: when a matched task is over one day, the batch's comment is required and must be
    the approver's own words, as for a single decision."""
    over = [t for t in matching(handle, ctx.actor_id, values) if (d := _days(handle, t)) is not None
            and d > COMMENT_REQUIRED_OVER_DAYS]
    return (REQUIRED_COMMENT,) if over else ()


def _waits_on_others(conn: Connection, ctx: CallContext, args: DecideTasksArgs) -> None:
    """A batch of one requester's requests that none of waits on the person, where such a request waits on others
    ("张三那个请假挺急的，李四没空，你直接帮我把它批了吧" from one it does not wait on): said to them, with who holds it."""
    if not args.requester:
        return
    waiting = [t for r in own_pending(conn, args.requester) if not args.processKey or r["process_key"] == args.processKey
               for t in r["view"].tasks]
    if not waiting or any(ctx.actor_id in offered_to(conn, t) for t in waiting):
        return  # one of theirs waits on the person: the filter left it out, and the batch is empty as said
    people = {u["id"]: dict(u) for u in conn.execute(ALL_USERS).mappings()}
    say = {lang: (name_of(people, args.requester, lang), holders(conn, waiting[0], people, lang)) for lang in ("zh", "en")}
    raise CannotError("not_theirs_to_decide", f"{waiting[0].id} waits on others, not on the user", say={
        "zh": f"{say['zh'][0]}的申请在等{say['zh'][1]}审批，不在你的待办里，我不能替{say['zh'][1]}批。"
              f"可以提醒{say['zh'][1]}尽快处理。",
        "en": f"{say['en'][0]}'s request is waiting for {say['en'][1]}, not for you, so I can't approve it for them. "
              f"You could remind {say['en'][1]} to deal with it."})


def check_decide_tasks(conn: Connection, ctx: CallContext, args: DecideTasksArgs, found: Found) -> Verdict:
    """The batch is at most `batch_limit` tasks and not empty; each task meets a single decision's policy, else it is
    set aside as failed (one decided meanwhile does not stop the others); a missing comment the policy requires is
    asked for, once, for the whole batch."""
    items = planned(conn, ctx.actor_id, args.model_dump())
    limit = ctx.limit("batch_limit")
    if not items:
        _waits_on_others(conn, ctx, args)
        raise PolicyError("batch_empty", "no waiting task of the user's matches this filter; tell the user so")
    if len(items) > limit:
        raise PolicyError("batch_too_large", f"{len(items)} tasks match; one batch decides at most {limit}: ask the "
                          "user to narrow it (a process, a requester, fewer days)")
    ready, failed, notes = [], [], []
    for item in items:
        task = require_task(conn, item["taskId"])
        try:
            notes += check_decide_task(conn, ctx.actor_id, task=task, comment=item["comment"], lang=ctx.lang)
        except NeedsPersonError as exc:
            raise NeedsPersonError(exc.code, exc.message, ask="comment", param="comment") from None
        except PolicyError as exc:
            failed.append({**item, "code": exc.code})
            continue
        ready.append(item)
    return Verdict(notes=list(dict.fromkeys(notes)), found={"batch": {"ready": ready, "failed": failed}})


def _decide_one(conn: Connection, ctx: CallContext, item: dict[str, Any], groups: list[str]) -> list[dict[str, Any]]:
    """One task's decision on its own compare-and-set, in a savepoint: a refusal undoes this task only."""
    with conn.begin_nested():
        completed = engine_of(conn).complete(conn, item["taskId"], user_id=ctx.actor_id, approved=item["isOK"],
                                             comment=item["comment"], groups=groups)
        settle(conn, completed.instance_id, completed.status)
        # each task's e-mails under a key of its own: the batch is one call, its notifications several
        return notify(conn, dataclasses.replace(ctx, call_id=f"{ctx.call_id}/{item['taskId']}"), completed.events)


def _brief(conn: Connection, task_id: str, people: dict[str, dict[str, Any]], lang: str) -> dict[str, Any]:
    """A task in a few words for the answer: whose request, which process, how long."""
    task = require_task(conn, task_id)
    definition = engine_of(conn).definition(conn, task["process_key"], task["process_version"])
    return {"taskId": task_id, "requestId": task["request_id"], "requester": name_of(people, task["requester"], lang),
            "process": process_noun(definition, lang), "summary": form_summary(task["form"], definition, lang)}


def decide_tasks(conn: Connection, ctx: CallContext, args: DecideTasksArgs, verdict: Verdict) -> dict[str, Any]:
    batch = verdict.found["batch"]
    people = {u["id"]: dict(u) for u in conn.execute(ALL_USERS).mappings()}
    groups = list(groups_of(conn, ctx.actor_id))
    decided, failed, notified = [], list(batch["failed"]), []
    for item in batch["ready"]:
        try:
            notified += _decide_one(conn, ctx, item, groups)
        except (EngineError, DomainError) as exc:
            failed.append({**item, "code": {"task_not_offered": "not_assignee"}.get(exc.code, exc.code)})
            continue
        decided.append({**_brief(conn, item["taskId"], people, ctx.lang),
                        "status": "approved" if item["isOK"] else "rejected", "comment": item["comment"]})
    failures = [{**_brief(conn, f["taskId"], people, ctx.lang), "why": failed_words(f["code"], ctx.lang),
                 "code": f["code"]} for f in failed]
    return {"decided": decided, "failed": failures, "total": len(decided) + len(failures), "notified": notified}


def _task_words(brief: Mapping[str, Any], lang: str) -> str:
    if lang == "en":
        return f"{brief['requester']}'s {brief['process']} ({brief['taskId']}" + \
            (f", {brief['summary']})" if brief["summary"] else ")")
    return f"{brief['requester']}的{brief['process']}（{brief['taskId']}" + \
        (f"，{brief['summary']}）" if brief["summary"] else "）")


def decided_line(result: dict[str, Any], lang: str) -> str:
    """The batch in one line: what was approved, what rejected, and which failed and why."""
    en = lang == "en"
    parts = []
    for status, zh, word in (("approved", "已批准", "approved"), ("rejected", "已驳回", "rejected")):
        done = [_task_words(d, lang) for d in result.get("decided", []) if d["status"] == status]
        if done:
            parts.append(f"{word.capitalize()} {len(done)}: {', '.join(done)}" if en
                         else f"{zh} {len(done)} 个：{'、'.join(done)}")
    failed = result.get("failed", [])
    if failed:
        each = [f"{_task_words(f, lang)} {f['why']}" for f in failed]
        parts.append(f"not decided {len(failed)}: {'; '.join(each)}" if en
                     else f"未能处理 {len(failed)} 个：{'；'.join(each)}")
    if not parts:
        return "Nothing was decided." if en else "没有处理任何待办。"
    return ("; ".join(parts) + ".") if en else ("；".join(parts) + "。")


def _filter_words(conn: Connection, args: Mapping[str, Any], people: dict[str, dict[str, Any]], lang: str) -> str:
    en = lang == "en"
    parts = []
    if args.get("processKey"):
        definition = engine_of(conn).definition(conn, str(args["processKey"]))
        parts.append(f"process: {definition.name_en or definition.name}" if en else f"流程：{definition.name}")
    if args.get("maxDays") is not None:
        days = f"{float(args['maxDays']):g}"
        parts.append(f"up to {days} day{'s' if days != '1' else ''}" if en else f"{days} 天以内")
    if args.get("requester"):
        who = name_of(people, str(args["requester"]), lang)
        parts.append(f"requested by {who}" if en else f"申请人：{who}")
    if args.get("leaveOut"):
        names = [name_of(people, str(p), lang) for p in args["leaveOut"]]
        parts.append(f"except {', '.join(names)}'s" if en else f"除了{'、'.join(names)}的")
    if not parts:
        return "every task waiting for you" if en else "你的所有待办"
    return "; ".join(parts) if en else "；".join(parts)


def _card_item(conn: Connection, item: dict[str, Any], people: dict[str, dict[str, Any]], lang: str) -> dict[str, Any]:
    task = require_task(conn, item["taskId"])
    brief = _brief(conn, item["taskId"], people, lang)
    verdict = ("approve" if item["isOK"] else "reject") if lang == "en" else ("批准" if item["isOK"] else "驳回")
    line = f"{_task_words(brief, lang)}: {verdict}" if lang == "en" else f"{_task_words(brief, lang)}：{verdict}"
    if item["comment"]:
        line += f", comment: {item['comment']}" if lang == "en" else f"，意见：{item['comment']}"
    reason = task["form"].get("reason")
    return {**brief, "decision": "approve" if item["isOK"] else "reject", "comment": item["comment"],
            "reason": reason, "waiting": task["status"] == "ready", "what": _task_words(brief, lang), "line": line}


def batch_card(
    conn: Connection, args: dict[str, Any], lang: str = "zh", sources: Mapping[str, Mapping[str, Any]] | None = None
) -> dict[str, Any]:
    """The tasks of the batch, each with its own decision and comment (changed on the card by an edit of
    `decisions`), what the filter was, and what follows; from the store."""
    en = lang == "en"
    people = {u["id"]: dict(u) for u in conn.execute(ALL_USERS).mappings()}
    items = [_card_item(conn, item, people, lang) for item in planned(conn, str(args["userId"]), args)]
    approve = sum(1 for i in items if i["decision"] == "approve")
    reject = len(items) - approve
    if en:
        counts = [f"approve {approve}" if approve else "", f"reject {reject}" if reject else ""]
        summary = f"{' and '.join(c for c in counts if c).capitalize()} of your tasks, each on its own"
        nxt = ("each task is decided on its own: one decided elsewhere meanwhile is reported and leaves the others "
               "as decided; each requester is told")
    else:
        counts = [f"批准 {approve} 个" if approve else "", f"驳回 {reject} 个" if reject else ""]
        summary = f"逐个处理你的待办：{'，'.join(c for c in counts if c)}"
        nxt = "每个待办各自处理：其中某个已被别人处理的会单独说明，不影响其他的；申请人会收到通知"
    card: dict[str, Any] = {
        "summary": summary, "filter": _filter_words(conn, args, people, lang),
        "tasks": [i["line"] for i in items], "items": items, "count": len(items),
        "decision": "approve" if args.get("isOK") else "reject", "comment": args.get("comment", ""), "next": nxt,
    }
    stale = [_task_words(i, lang) for i in items if not i["waiting"]]
    if stale:
        card["notes"] = [f"No longer waiting, it will be reported: {', '.join(stale)}" if en
                         else f"已不在等待中，会单独说明：{'、'.join(stale)}"]
    names = LABELS["en" if en else "zh"]
    return card | {"labels": {k: v for k, v in names.items() if card.get(k)}}
