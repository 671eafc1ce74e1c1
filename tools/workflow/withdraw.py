"""`withdrawRequest`: the requester takes back a request still pending. Its check (only the requester, only while
pending), its card (which request, its values, who holds it, what happens), and its effect: the instance cancelled in
the engine, its waiting steps gone from every to-do list, their holders told, in one transaction
(`tools.workflow.notify`, where a withdrawal's end meets a rejection's: `tools.workflow.ended`)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Connection

from tools.errors import CannotError, PolicyError
from tools.guards.call import Call
from tools.message_kind import others_quotes, others_words_masked
from tools.patterns import compiled
from tools.request import latest_message
from tools.spec import CallContext, Found, Verdict
from tools.workflow.engine import EngineError
from tools.workflow.lookup import ALL_USERS, engine_of, offered_to
from tools.workflow.mine import STATUS_WORDS, holders
from tools.workflow.notify import form_summary, notify, process_noun
from tools.workflow.policy import check_withdraw
from tools.workflow.request_lookup import require_request
from tools.workflow.request_words import labels
from tools.workflow.shown import form_words
from tools.workflow.timeline import name_of
from tools.workflow.views import REQUEST_STATUS
from tools.workflow.words import REQUEST_NOUN


class WithdrawRequestArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")
    requestId: str = Field(description="The request: its id from queryMyRequests (req_3), or what the user calls it "
                           "(请假, my expense claim).")


def _engine_refusal(exc: EngineError) -> PolicyError:
    code = {"instance_not_pending": "request_not_pending"}.get(exc.code, exc.code)
    return PolicyError(code, exc.message)


def check_withdraw_request(conn: Connection, ctx: CallContext, args: WithdrawRequestArgs, found: Found) -> Verdict:
    check_withdraw(ctx.actor_id, found["requestId"])
    return Verdict()


def _held(conn: Connection, request: dict[str, Any], lang: str) -> tuple[str, list[str]]:
    """Who holds the request's waiting steps (in words), and the names of the people told when it is withdrawn."""
    people = {u["id"]: dict(u) for u in conn.execute(ALL_USERS).mappings()}
    view = request["view"]
    names = ("、" if lang == "zh" else ", ").join(holders(conn, task, people, lang) for task in view.tasks)
    told = [u for task in view.tasks for u in offered_to(conn, task) if u != request["requester"]]
    return names, [name_of(people, u, lang) for u in dict.fromkeys(told)]


def withdraw_card(
    conn: Connection, args: dict[str, Any], lang: str = "zh", sources: Mapping[str, Mapping[str, Any]] | None = None
) -> dict[str, Any]:
    """Which request, its values, where it stands and who holds it, and what withdrawing does."""
    request = require_request(conn, args["requestId"])
    definition, view = request["definition"], request["view"]
    noun, what = process_noun(definition, lang), form_summary(request["form"], definition, lang)
    held, told = _held(conn, request, lang)
    status = REQUEST_STATUS.get(view.status, view.status)
    sep = "、" if lang == "zh" else ", "
    if lang == "en":
        summary = f"Withdraw your {noun} {view.id}" + (f" ({what})" if what else "")
        happens = "it is cancelled" + (f", its steps leave {sep.join(told)}'s to-do lists and they are told" if told
                                       else "") + "; this cannot be undone"
    else:
        summary = f"撤回你的{noun} {view.id}" + (f"（{what}）" if what else "")
        happens = "撤回后申请取消" + (f"，{sep.join(told)}的待办随之取消，并会收到通知" if told else "") + "；撤回后不能恢复"
    card: dict[str, Any] = {
        "summary": summary, "request": view.id,
        "process": (definition.name_en or definition.name) if lang == "en" else definition.name,
        "form": form_words(request["form"], definition, lang),
        "status": STATUS_WORDS["en" if lang == "en" else "zh"].get(status, status),
        "step": sep.join((t.step_en or t.step) if lang == "en" else t.step for t in view.tasks),
        "held_by": held, "next": happens,
    }
    return card | {"labels": labels(card, lang)}


def withdraw_request(conn: Connection, ctx: CallContext, args: WithdrawRequestArgs, verdict: Verdict) -> dict[str, Any]:
    request = verdict.found["requestId"]
    try:
        withdrawn = engine_of(conn).cancel(conn, request["id"], user_id=ctx.actor_id)
    except EngineError as exc:
        raise _engine_refusal(exc) from None
    notified = notify(conn, ctx, withdrawn.events)
    definition = request["definition"]
    people = {u["id"]: dict(u) for u in conn.execute(ALL_USERS).mappings()}
    told = list(dict.fromkeys(name_of(people, n["to"], ctx.lang) for n in notified))
    holders = {t.assignee for t in withdrawn.cancelled if t.assignee and t.assignee != ctx.actor_id}
    held = [name for name in told if any(name == name_of(people, h, ctx.lang) for h in holders)]
    return {
        "requestId": withdrawn.instance_id,
        "process": (definition.name_en or definition.name) if ctx.lang == "en" else definition.name,
        "summary": form_words(request["form"], definition, ctx.lang),
        "status": "withdrawn",
        "cancelledTasks": [t.id for t in withdrawn.cancelled],
        "told": told,
        "held": held,
        "notified": notified,
    }


def withdrawn_line(result: dict[str, Any], lang: str) -> str:
    """What withdrawing did: whose waiting step is gone from their list, and who else (those copied) was told."""
    told = result.get("told") or []
    held = [n for n in result.get("held", told) if n in told]
    others = [n for n in told if n not in held]
    if lang == "en":
        process = str(result["process"])
        return f"Your {process[:1].lower() + process[1:]} {result['requestId']} is withdrawn." + (
            f" {', '.join(held)} {'was' if len(held) == 1 else 'were'} told, and the step is gone from their list."
            if held else "") + (f" {', '.join(others)} {'was' if len(others) == 1 else 'were'} told too." if others
                                else "")
    return f"已撤回你的{result['process'].removesuffix('流程')}申请 {result['requestId']}。" + (
        f"已通知{'、'.join(held)}，其待办已取消。" if held else "") + (
        f"{'也' if held else ''}已通知{'、'.join(others)}。" if others else "")


_THEIRS = "(?:his|her|their)\\s+(?:[\\w'’-]+\\s+){0,2}"
"""A request spoken of as another's by pronoun, after their name ("Li Si … cancel his leave request", "李四…他的请假")."""


_MINE = re.compile(r"\b(?:my|mine)\b|我(?:自己)?的|我(?:自己)?(?:提|交|申请|请|报)(?:了)?的", re.IGNORECASE)
"""Words of the person's own request: the refusal is only for a message that speaks of none."""


def _theirs_in_quote(text: str, quoted: list[tuple[str, tuple[int, int]]], name: str) -> re.Match[str] | None:
    """Where a quotation of `name`'s speaks of a request of its speaker's ('Zhang San texted me: "withdraw my leave
    request"'), or None."""
    mine = compiled(rf"\b(?:my|mine)\s+(?:[\w'’-]+\s+){{0,2}}?{REQUEST_NOUN}|"
                    rf"我(?:自己)?(?:的|[那这](?:个|笔|条|份|张))?{REQUEST_NOUN}", re.IGNORECASE)
    return next((m for whose, (start, end) in quoted if name in whose
                 for m in [mine.search(text, start, end)] if m), None)


class NotTheirsToWithdraw:
    """Refuses withdrawing or resending where the person's words speak of someone else's request by pronoun after
    naming them ("Li Si texted me to cancel his leave request for him", 王五让我帮他把他的报销撤回, 张三说不请了，你帮他把
    请假撤回吧): only its
    requester withdraws or resends it (`not_requester`, told to the person). A message that speaks of the person's own
    request too is left to the other checks (the lookup finds only their own)."""

    name = "not_theirs_to_withdraw"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        assert call.request is not None
        if call.spec.name not in ("withdrawRequest", "resubmitRequest"):
            return
        latest = latest_message(call.request)
        if _MINE.search(others_words_masked(latest)):
            return  # "withdraw my leave, not Wang Wu's claim he asked me about": the model's call may be the own one
        quoted = others_quotes(latest)  # 'Zhang San texted me: "please withdraw my leave for me"': his
        for person_id, person in call.request["names"].items():
            if person_id == call.ctx.actor_id:
                continue
            for name in (n for n in (person.get("name"), person.get("alias")) if n):
                who = re.escape(name)
                said = compiled(rf"{who}[^?!]{{0,120}}?\b{_THEIRS}{REQUEST_NOUN}|"
                                rf"{who}[^。？！?!]{{0,30}}?[他她](?:的|那个|那条|那笔){REQUEST_NOUN}|"
                                rf"{who}[^。？！?!]{{0,30}}?(?:帮|替|给)[他她](?:把|将)?(?:那个|那条|那笔)?{REQUEST_NOUN}",
                                re.IGNORECASE).search(latest) or _theirs_in_quote(latest, quoted, name)
                if said:  # said by the code, with whose it is: the model had failed to, step after step
                    raise only_its_requester(call.spec.name, person_id, person, said.group())


ONLY_ITS_REQUESTER = {
    "withdrawRequest": ("撤回或重新提交", "withdraw or resubmit it", "撤回", "withdraw it"),
    "resubmitRequest": ("撤回或重新提交", "withdraw or resubmit it", "撤回", "withdraw it"),
    "urgeTask": ("催办", "send its approver a reminder", "催办", "remind the approver"),
}
"""What only a request's requester does, by tool: as the person is told it, and what that requester can do."""


def only_its_requester(tool: str, person_id: str, person: Mapping[str, Any], said: str) -> CannotError:
    """The refusal, told to the person, of withdrawing, resending or urging the request of `person` (its requester,
    named in the person's words `said`): only they do that, and can."""
    zh_act, en_act, zh_can, en_can = ONLY_ITS_REQUESTER[tool]
    zh = person.get("name") or person_id
    en = person.get("alias") or zh
    return CannotError("not_requester", f"The user speaks of {person_id}'s request ({said!r}): only its requester "
                       f"can {en_act}", say={
                           "zh": f"这是{zh}的申请，只有{zh}本人能{zh_act}，我不能替别人操作；可以请{zh}自己{zh_can}。",
                           "en": f"That is {en}'s request: only {en} can {en_act}, and I can't do it for someone "
                                 f"else. {en} can {en_can} themselves."})
