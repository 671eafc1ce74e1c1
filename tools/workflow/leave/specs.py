"""The leave balance as a read tool (`getLeaveBalance`): "我还有几天年假？" / "How much annual leave do I have left?" is
answered from the store, with no write. Its one parameter is the signed-in user, filled in by code."""

from __future__ import annotations

from datetime import date
from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Connection

from tools.spec import CallContext, Effect, ObservationShape, ToolExample, ToolSpec, Verdict
from tools.workflow.leave.balances import balances_of
from tools.workflow.leave.types import leave_types
from tools.workflow.lookup import display_name


class GetLeaveBalanceArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")
    userId: str = Field(description="Whose balance: always the signed-in user (filled in by the system).")


def get_leave_balance(conn: Connection, ctx: CallContext, args: Any, verdict: Verdict) -> dict[str, Any]:
    """The signed-in user's leave balances of this year and later, by type: allocated, pending, used, left."""
    me = verdict.found.get("actor") or {"id": ctx.actor_id, "name": ctx.actor_id}
    this_year = (ctx.today or date.today()).year
    types = leave_types()
    balances = []
    for b in balances_of(conn, ctx.actor_id):
        leave_type = types.get(b.leave_type)
        if b.year < this_year or leave_type is None:
            continue
        balances.append({"type": leave_type.name(ctx.lang), "year": b.year, "left": b.left, "allocated": b.allocated,
                         "pending": b.held, "used": b.used})
    no_balance = [t.name(ctx.lang) for t in types.types if not t.balance]
    return {"name": display_name(me, ctx.lang), "year": this_year, "balances": balances, "noBalance": no_balance}


def described(result: dict[str, Any], lang: str) -> str:
    """The balances in one line: 2026 年：年假剩余 7 天（共 10 天，审批中 3 天，已用 0 天）；调休剩余 2 天（…）."""
    items = [b for b in result.get("balances", []) if b["year"] == result.get("year")] or result.get("balances", [])
    if not items:
        return ("你还没有分配假期额度（年假、调休），请联系人事。" if lang == "zh"
                else "No leave is allocated to you yet (annual, compensatory): ask HR.")
    year = items[0]["year"]
    if lang == "zh":
        parts = [f"{b['type']}剩余 {b['left']:g} 天（共 {b['allocated']:g} 天，审批中 {b['pending']:g} 天，"
                 f"已用 {b['used']:g} 天）" for b in items]
        return f"你 {year} 年的假期余额：" + "；".join(parts) + "。"
    parts = [f"{b['type']}: {b['left']:g} day{'' if b['left'] == 1 else 's'} left ({b['allocated']:g} allocated, "
             f"{b['pending']:g} pending, "
             f"{b['used']:g} used)" for b in items]
    return f"Your leave balance for {year}: " + "; ".join(parts) + "."


LEAVE_BALANCE = ToolSpec(
    name="getLeaveBalance",
    title={"zh": "查看假期余额", "en": "look up the leave balance"},
    description="The signed-in user's leave balances (annual, compensatory) for this year and later: allocated, "
    "pending, used and left, by type; personal, sick, marriage and bereavement leave take no balance.",
    args_model=GetLeaveBalanceArgs,
    effect=Effect.READ,
    handler=get_leave_balance,
    backend_bound=True,
    identity_params=("userId",),
    answers=(r"(年假|调休|假期|休假)的?(余额|还有|还剩|剩)|(还有|还剩|剩下?|剩余)(几|多少)天的?(年假|调休|假)|假期余额|"
             r"leave balance|how (much|many days of) (annual |paid |comp(ensatory)? )?(leave|time off|vacation|pto)|"
             r"(leave|vacation|pto|time off|days off)( days)? (do i have )?left|"
             r"\bhow (?:much|many)\b[^.?]{0,40}\b(?:leave|vacation|pto|time off|days? off|nian ?jia|tiao ?xiu|"
             r"comp (?:days?|time))\b[^.?]{0,30}\b(?:left|remaining)\b",),
    observation=ObservationShape(list_limits={"balances": 10}),
    describe=described,
    examples=(
        ToolExample(
            question="我还有几天年假？",
            args={},
            observation='{"name":"张三","year":2026,"balances":[{"type":"年假","year":2026,"left":7,"allocated":10,'
            '"pending":3,"used":0}]}',
            answer="你今年的年假还剩 7 天（共 10 天，3 天在审批中）。",
        ),
        ToolExample(
            question="How much annual leave do I have left?",
            args={},
            observation='{"name":"Zhang San","year":2026,"balances":[{"type":"annual leave","year":2026,"left":7,'
            '"allocated":10,"pending":3,"used":0}]}',
            answer="You have 7 days of annual leave left this year (10 allocated, 3 pending approval).",
            lang="en",
        ),
    ),
    model_description="The signed-in user's leave balance: days left of annual and compensatory leave.",
)

SPECS: tuple[ToolSpec, ...] = (LEAVE_BALANCE,)
"""The leave's tools."""
