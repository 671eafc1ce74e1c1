"""The tools of CC and urge: the requests copied to the signed-in user (`queryCcRequests`, a read) and a requester's
reminder about their own pending request (`urgeTask`, a write with its own card, once a day per task)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Connection, func, select

from tools.spec import CallContext, Effect, ObservationShape, Reference, ToolExample, ToolSpec, Verdict
from tools.workflow import cc, urge
from tools.workflow.engine import format_instance_id, parse_instance_id
from tools.workflow.lookup import ALL_USERS, engine_of
from tools.workflow.mine import REQUESTS_SHOWN, request_item
from tools.workflow.notify import deliver_all
from tools.workflow.tables import request_cc
from tools.workflow.timeline import name_of
from tools.workflow.urge import UrgeTaskArgs, check_urge, resolve_urged, urge_card, urge_task, urged_line


def copied_numbers(conn: Connection, user_id: str, limit: int = REQUESTS_SHOWN) -> list[int]:
    """The numbers of the latest requests copied to the user, newest first."""
    rows = conn.execute(select(request_cc.c.instance_id).where(request_cc.c.user_id == user_id)).scalars().all()
    return sorted((parse_instance_id(rid) for rid in rows), reverse=True)[:limit]


def copied_requests(conn: Connection, user_id: str, lang: str) -> list[dict[str, Any]]:
    """The requests copied to the user, newest first, each as its requester reads it, with who filed it."""
    engine = engine_of(conn)
    people = {u["id"]: dict(u) for u in conn.execute(ALL_USERS).mappings()}
    items = []
    for number in copied_numbers(conn, user_id):
        view = engine.instance(conn, format_instance_id(number))
        item = request_item(conn, view, engine.definition(conn, view.process_key, view.version), people, lang)
        items.append({"requester": name_of(people, view.requester, lang), **item})
    return items


class QueryCcRequestsArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")
    userId: str = Field(description="Who was copied: always the signed-in user (filled in by the system).")


def query_cc_requests(conn: Connection, ctx: CallContext, args: Any, verdict: Verdict) -> dict[str, Any]:
    """`queryCcRequests`: the requests copied to the signed-in user, newest first."""
    total = conn.execute(select(func.count()).select_from(request_cc).where(request_cc.c.user_id == ctx.actor_id))
    return {"total": total.scalar_one(), "requests": copied_requests(conn, ctx.actor_id, ctx.lang)}


def copied_line(result: dict[str, Any], lang: str) -> str:
    """`queryCcRequests`'s result in one line."""
    items, total = result.get("requests", []), int(result.get("total", 0))
    if not total:
        return "目前没有抄送给你的申请。" if lang == "zh" else "No request is copied to you."
    if lang == "en":
        return f"{total} request{'s' if total != 1 else ''} copied to you: " + "; ".join(
            f"{r['requestId']} {r['requester']}'s {r['process']} ({r['summary']}): {r['status']}"
            + (f", now at {r['step']}, held by {r['heldBy']}" if r.get("step") else "") for r in items[:10]) + "."
    return f"抄送给你的申请有 {total} 个：" + "；".join(
        f"{r['requestId']} {r['requester']}的{r['process']}（{r['summary']}）{r['status']}"
        + (f"，当前步骤：{r['step']}，由{r['heldBy']}处理" if r.get("step") else "") for r in items[:10]) + "。"


CC_REQUESTS = ToolSpec(
    name="queryCcRequests",
    title={"zh": "查看抄送我的申请", "en": "list the requests copied to me"},
    description="List the requests other people copied (抄送, cc) to the signed-in user, newest first: requester, "
    "process, values, status, current step, who holds it, and the timeline. Copied people read; they never decide.",
    args_model=QueryCcRequestsArgs,
    effect=Effect.READ,
    handler=query_cc_requests,
    backend_bound=True,
    identity_params=("userId",),
    # being copied, said of oneself ("抄送了我", "I got cc'd on it"): what was copied to them answers it
    answers=(r"抄送(?:给|了)?我|抄(?:给|了)我|我[^，。,;；]{0,4}被抄|cc(?:给|了)?我",
             r"\b(?:I|I'm|I've|me|was|been|got|am)\b[^.?!,;]{0,12}\b(?:cc'?d|cc-?ed|copied)\b|"
             r"\b(?:cc'?d|cc-?ed|copied)\b[^.?!,;]{0,6}\bme\b"),
    observation=ObservationShape(list_limits={"requests": 10, "timeline": 8}),
    describe=copied_line,
    model_description="Requests copied (抄送, cc) to the signed-in user: who filed them, where they stand.",
)

URGE = ToolSpec(
    name="urgeTask",
    title={"zh": "催办", "en": "send a reminder"},
    description="Remind (催办) the approver of one of the signed-in user's own pending requests: the system writes the "
    "reminder (who asks, which request, how long it waited); once a day per task. requestId: a req id, a task id, or "
    "what the user calls it (请假). For a free-text e-mail use sendEmail.",
    args_model=UrgeTaskArgs,
    effect=Effect.WRITE,
    handler=urge_task,
    requires_approval=True,
    references=(Reference("requestId", "request", resolve="urged"),),
    check=check_urge,
    card=urge_card,
    observation=ObservationShape(drop=frozenset({"notified"})),
    after_commit=deliver_all,
    describe=urged_line,
    examples=(
        ToolExample(
            question="我的请假还没批，帮我催一下",
            args={"requestId": "请假"},
            observation='{"process":"请假流程","told":["李四"],"waited":"1 天 2 小时","nextPossible":"2026-12-04"}',
            answer="已催办李四：你的请假申请已等待 1 天 2 小时。明天可以再催办。",
        ),
        ToolExample(
            question="Nudge the approver of my leave request",
            args={"requestId": "leave"},
            observation='{"process":"Leave request","told":["Li Si"],"waited":"1 day 2 hours",'
            '"nextPossible":"2026-12-04"}',
            answer="Li Si got a reminder about your leave request, waiting 1 day 2 hours; the next is possible tomorrow.",
            lang="en",
        ),
    ),
    model_description="Urge (催办, remind) the approver of the user's own pending request; the system writes the text. "
    "requestId: a req id or what they call it (请假).",
)

SPECS: tuple[ToolSpec, ...] = (URGE, CC_REQUESTS)
"""CC's and urge's tools, in the order the model reads them."""

REFUSALS = {lang: {**cc.REFUSALS[lang], **urge.REFUSALS[lang]} for lang in ("zh", "en")}
"""Why a CC or an urge was not done, by refusal code."""

__all__ = ["CC_REQUESTS", "REFUSALS", "SPECS", "URGE", "copied_numbers", "copied_requests", "resolve_urged"]
