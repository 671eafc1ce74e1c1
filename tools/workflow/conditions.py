"""Decisions said under conditions, one per kind of to-do ("三天以内的直接批；超过三天的都退回去", "anything over 5000 gets
rejected …, everything else approve"): each clause's decision with the bound it names on a request's length or amount,
and the one that applies to a to-do by its own form. A message of two such clauses or more, with different decisions
and a bound in one of them at least, decides each to-do by the clause it meets; the model's decision of one to-do
stands where it is that clause's, and is refused for it otherwise.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from tools.errors import CannotError, DomainError, PolicyError
from tools.guards.call import Call
from tools.parsers.numerals import find_numerals
from tools.workflow.lookup import resolve_task
from tools.workflow.policy import task_days
from tools.workflow.words import SENT_BACK, decision_in

Decision = Literal["approve", "reject", "return"]

_CLAUSES = re.compile(r"[；;。\n]|\.(?=\s|$)")
_PARTS = re.compile(r"[，,]\s*(?=(?:[^，,]*?)(?:以内|以下|之内|以上|超过|多于|少于|不到|其余|其他|剩下|别的|"
                    r"\b(?:over|above|under|below|more|less|up\s+to|at\s+most|everything|the\s+rest|others?|otherwise|"
                    r"anything)\b))",
                    re.IGNORECASE)
_AT_MOST = re.compile(r"以内|以下|之内|或以下|及以下|不超过|不到|少于|\b(?:or\s+less|or\s+fewer|or\s+under|under|below|up\s+to|"
                      r"at\s+most|within|less\s+than|no\s+more\s+than)\b", re.IGNORECASE)
_OVER = re.compile(r"超过|以上|多于|大于|\b(?:over|above|more\s+than|longer\s+than|exceeding|or\s+more)\b", re.IGNORECASE)
_ELSE = re.compile(r"其余|其他|剩下|别的|\b(?:everything\s+else|the\s+rest|all\s+the\s+others|others|otherwise|anything\s+else)"
                   r"\b", re.IGNORECASE)


@dataclass(frozen=True)
class Rule:
    """One clause: its decision, and the bound it names (`field` days or amount; `high` at most, `low` over), or none
    for "the rest"."""

    decision: Decision
    field: str | None = None
    low: float | None = None
    high: float | None = None

    def meets(self, days: float | None, amount: float | None) -> bool:
        value = days if self.field == "days" else amount
        if value is None:
            return False
        return (self.low is None or value > self.low) and (self.high is None or value <= self.high)


_DAYS_AFTER = re.compile(r"\s*(?:个)?(?:工作)?(?:天|日)|\s*(?:working\s+|business\s+)?days?\b", re.IGNORECASE)
_APPROVED_AT_END = re.compile(r"(?:直接|就|都|先|全)批(?:了|掉|吧)?\s*$")
"""批 at a clause's end after 直接, 就, 都 (三天以内的直接批): approving, as no word alone says it."""


def _rule(clause: str) -> Rule | None:
    said = decision_in(clause)
    decision: Decision | None = "return" if SENT_BACK.search(clause) else (
        "approve" if said or (said is None and _APPROVED_AT_END.search(clause)) else "reject" if said is False else None)
    if decision is None:
        return None
    bound = bound_in(clause)
    if bound is not None:
        return Rule(decision, bound.field, low=bound.low, high=bound.high)
    return Rule(decision) if _ELSE.search(clause) else None


def bound_in(text: str) -> Rule | None:
    """The bound a text names on a request's length or amount (三天以内, 超过两天, "over 5000", "up to 2 days"), as a
    rule whose decision is "approve" (what it decides is the caller's); None when it names none."""
    plain = _QUOTED.sub(lambda m: " " * len(m.group()), text)  # the comment they quote names no bound
    for number in (n for n in find_numerals(plain) if len(n.values) == 1):
        near = plain[max(0, number.start - 8):number.end + 8]
        at_most, over = _AT_MOST.search(near), _OVER.search(near)
        days = _DAYS_AFTER.match(plain, number.end)
        money = _MONEY_AROUND.match(plain, number.end) or plain[max(0, number.start - 1):number.start] in ("¥", "￥")
        if (at_most or over) and (days or money or number.system == "arabic"):  # 张三's 三 is no bound
            field = "days" if days else "amount"
            value = number.values[0]
            return Rule("approve", field, high=value) if at_most else Rule("approve", field, low=value)
    return None


_MONEY_AROUND = re.compile(r"\s*(?:元|块|(?:yuan|rmb|kuai|bucks?)\b)", re.IGNORECASE)


_QUOTED = re.compile(r"“[^”]*”|\"[^\"]*\"|「[^」]*」|'[^']*'(?!\w)")


CONDITION = re.compile(r"(?:如果|要是|假如|若是)(?!可以|方便|不麻烦|行的话)|只要|万一|"
                       r"\b(?:unless|provided|whenever|as\s+long\s+as)\b|"
                       r"\bif\b(?!\s+(?:you\s+can|you\s+could|possible|that'?s\s+(?:ok|okay|fine|alright)|you\s+don'?t\s+mind)\b)",
                       re.IGNORECASE)
"""Words that put what follows under a condition (要是不超过三天就直接批了吧, "only copy Wang Wu if it comes to more than two
days", "If Li Si sent it back"); not a courtesy ("if you can", 如果可以的话)."""


def conditional_rules(text: str) -> list[Rule]:
    """The decisions a message says under conditions, in its order: two or more that differ, one of them with a bound;
    or one with a bound said as a condition (要是…就批, "if it's under …"). Empty otherwise ("approve all the one-day
    leaves" is a batch's filter)."""
    clauses = [p for c in _CLAUSES.split(text) for p in _PARTS.split(c) if p.strip()]
    rules = [r for r in map(_rule, clauses) if r is not None]
    if not any(r.field for r in rules):
        return []
    if len({r.decision for r in rules}) >= 2 or (len(rules) == 1 and CONDITION.search(text)):
        return rules
    return []


def decision_for(rules: list[Rule], task: dict[str, Any], days: float | None) -> Decision | None:
    """The decision the rules give a to-do by its length and amount: the first bounded clause it meets, else "the
    rest"; None when none applies."""
    amount = task.get("form", {}).get("amount")
    number = float(amount) if isinstance(amount, int | float) else None
    met = next((r for r in rules if r.field and r.meets(days, number)), None)
    rest = next((r for r in rules if not r.field), None)
    return met.decision if met else rest.decision if rest else None


def conditional_decision(request: Any, handle: Any, task: dict[str, Any] | None) -> Decision | Literal["none"] | None:
    """The decision the request's messages give this to-do under their conditions; "none" where they say conditions
    and this to-do meets none of them; None where they say none."""
    if task is None or request is None:
        return None
    rules = _rules_of(request)
    return (decision_for(rules, task, task_days(handle, task)) or "none") if rules else None


def _rules_of(request: Any) -> list[Rule]:
    """The conditions of the latest of the request's messages that says any (an answer to "with what comment?" after
    them says none of its own)."""
    return next((rules for text in reversed(request["texts"]) if (rules := conditional_rules(text))), [])


def as_its_condition_says(call: Call) -> bool:
    """Whether the message decides its to-dos under conditions ("三天以内的直接批；超过三天的都退回去") and the call
    does to this one what its condition says (True: nothing more to judge); refused where it does another."""
    if call.spec.name not in ("handleTodoTask", "returnTask"):
        return False
    found = _task(call)
    decided = conditional_decision(call.request, call.handle, found)
    if decided is None:
        return False
    task, comment = call.values.get("taskId"), call.values.get("result") or call.values.get("comment")
    if decided == "none":
        raise CannotError("condition_not_met", f"{task} does not meet the condition the user set for deciding it; "
                          "decide nothing", say=_not_met(call.handle, found or {}))
    done = "return" if call.spec.name == "returnTask" else (
        "approve" if call.values.get("isOK") in (True, "true", "True") else "reject")
    if done == decided:
        return True
    instead = _call("returnTask", taskId=task, comment=comment) if decided == "return" else _call(
        "handleTodoTask", taskId=task, isOK=decided == "approve", result=comment)
    raise PolicyError("as_its_condition_says", f"The user's condition for {task} says to {decided} it, not to "
                      f"{done} it: call {instead['name']}.", instead=instead)


def _call(name: str, **args: Any) -> dict[str, Any]:
    return {"name": name, "args": {k: v for k, v in args.items() if v not in (None, "")}}


def _task(call: Call) -> dict[str, Any] | None:
    """The to-do the call names, as the look-up reads it (None when it names none, or none of the person's)."""
    if call.found.get("taskId") is not None:
        return dict(call.found["taskId"])
    if call.spec.name not in ("handleTodoTask", "returnTask") or not _rules_of(call.request):
        return None
    try:
        return resolve_task(call.handle, call.values.get("taskId"), call.ctx.actor_id)
    except DomainError:
        return None


def _not_met(handle: Any, task: dict[str, Any]) -> dict[str, str]:
    """What the person is told when the to-do they named does not meet their condition: its length or amount."""
    days = task_days(handle, task) if task else None
    amount = (task.get("form") or {}).get("amount")
    what_zh = f"{days:g} 天" if days is not None else f"{amount:g} 元" if isinstance(amount, int | float) else ""
    what_en = f"{days:g} day{'s' if days != 1 else ''}" if days is not None else (
        f"{amount:g} yuan" if isinstance(amount, int | float) else "")
    return {"zh": f"这个待办（{what_zh}）不符合你说的条件，所以没有审批，什么都没有改动。",
            "en": f"That to-do ({what_en}) does not meet your condition, so nothing was decided or changed."}
