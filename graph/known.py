"""What a conversation knows, and the values a model's answer states beyond it (`tools.claims` has the rule).

Known are the person's messages in the thread, every tool result (its full artifact, not only the compacted content
the model read), the answers and questions the graph's own code wrote, who and when the run is (the signed-in user,
today), the figures of the toolset's own rules (its prompt), the bounds of the rules its store holds when stated as
bounds ("超过5000元的转财务"), and its directory's people (the store's). A final answer
the model wrote is read for the figures, dates, times and record ids it states; one the conversation never showed is
redone once, then
replaced by a plain "I do not know" (`graph/nodes/reasoner.py`).
The check is code: it costs no model call unless it finds such a value.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any
from zoneinfo import ZoneInfo

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, ToolMessage

from graph import prompts
from graph.answers import fixed_answer
from graph.history import (
    ThreadIndex,
    latest_human_index,
    note_of,
    outcome_text,
    refusal_text,
    run_outcome,
    run_results,
)
from graph.protocols import NO_MODEL_CALL
from tools.claims import (
    Claim,
    Known,
    claims_in,
    known_in_rules,
    known_in_text,
    known_in_value,
    known_of_run,
    unsupported,
)
from tools.message_kind import kind_of
from tools.people import names_of
from tools.request import Lang
from tools.rule_bounds import a_bound_of, rule_bounds
from tools.spec import Effect, ToolRegistry
from tools.toolset import Toolset


class AnswerCheck:
    """Reads a model's final answer against what its thread knows; the thread is read once, as it grows."""

    def __init__(self, toolset: Toolset) -> None:
        self._toolset = toolset
        self._index: ThreadIndex[Known] = ThreadIndex(self._fold, Known())
        self._today = date.min
        self._names: tuple[str, ...] = ()
        self._zone: ZoneInfo | None = None
        self._rules: Known | None = None
        self._stored: dict[str, dict[float, frozenset[str]]] = {}

    def _fold(self, known: Known, messages: Sequence[AnyMessage]) -> Known:
        """`known` and what `messages` add: the person's words, tool results, the code's own answers."""
        read = {"today": self._today, "names": self._names, "zone": self._zone}
        for message in messages:
            if isinstance(message, HumanMessage):
                known = known | known_in_text(str(message.content), **read)  # type: ignore[arg-type]
            elif isinstance(message, ToolMessage):
                known = known | _shown(str(message.content), read)
                if message.artifact is not None:
                    known = known | known_in_value(message.artifact, **read)  # type: ignore[arg-type]
            elif isinstance(message, AIMessage) and not message.tool_calls and _code_wrote(message):
                known = known | known_in_text(str(message.content), **read)  # type: ignore[arg-type]
        return known

    def invented(
        self, text: str, messages: Sequence[AnyMessage], *, thread: str | None, today: date, timezone: str,
        actor: Mapping[str, Any], people: Sequence[Mapping[str, Any]], rules: str = "",
    ) -> list[Claim]:
        """The values `text` states that the thread (`messages`, `thread` its id for the index) never showed (a copy of
        a worked example's answer states the example's), but for the bounds of `rules` (the store's, as text) it states
        as bounds. Empty for most answers, at no cost beyond reading them."""
        found = claims_in(text, today=today, people=people, record_ids=self._toolset.record_ids)
        if not found:
            return []
        self._today, self._zone = today, ZoneInfo(timezone)
        self._names = tuple(name for person in people for name in names_of(dict(person)))
        if self._rules is None:
            self._rules = known_in_rules(self._toolset.prompt, today=today)
        known = self._index.get(thread, messages) | known_of_run(today=today, actor=actor) | self._rules
        if rules not in self._stored:
            self._stored = {rules: rule_bounds(rules, today=today)}  # the store's rules, read again as they change
        bounds = self._stored[rules]
        # a person of the directory is the store's: naming a colleague (a choice of approver) invents no one
        return [c for c in unsupported(found, known, people) if c.kind != "person" and not a_bound_of(bounds, text, c)]


def _shown(content: str, read: dict[str, Any]) -> Known:
    """What an observation's content showed the model: as a result (the lists it was shown, cut to their first items,
    count as many as it saw) when it is one, else as a text."""
    try:
        value = json.loads(content)
    except ValueError:
        value = None
    if isinstance(value, dict | list):
        return known_in_value(value, **read)
    return known_in_text(content, **read)


def _code_wrote(message: AIMessage) -> bool:
    """An answer or question the graph's code wrote (a fixed answer, its own question): its values are the code's."""
    return bool((message.response_metadata or {}).get(NO_MODEL_CALL))


_ZH_DONE = ("提交|发起|发送|发出|批准|审批|通过|同意|驳回|拒绝|退回|撤回|撤销|转交|转给|催办|抄送|设置|办理|处理|完成|"
            "预订|取消|创建|保存|删除|设为|设置为|设成|设好|指定为|指定|安排好|委托|批")
_EN_DONE = ("re-?submitted|re-?sent|re-?filed|"
            "submitted|sent back|sent|approved|rejected|declined|returned|withdrawn|withdrew|transferred|forwarded|passed on|"
            "filed|created|booked|cancell?ed|completed|processed|handled|started|reminded|urged|saved|deleted|set up|"
            "assigned|reassigned|moved|handed over|handed on|appointed|delegated|added|arranged|e-?mailed|mailed|messaged|"
            "notified")
_EN_SET = r"|set(?=\s+(?:[\w'-]+\s+){0,3}as\b)"
"""'set' says it was done only after has, have or was ("I've set Wang Wu as your deputy"; not "Shall I set …?")."""
_FOR_YOU = "为你|为您|帮你|帮您|给你|给您"
_ZH_STATES = {"批准": "approved", "通过": "approved", "同意": "approved", "批": "approved", "驳回": "rejected",
              "拒绝": "rejected", "退回": "returned", "撤回": "withdrawn", "撤销": "withdrawn", "取消": "cancell?ed",
              "转交": "transferred", "转给": "transferred", "催办": "reminded", "提交": "submitted", "发送": "sent",
              "发出": "sent", "发": "sent", "搞定": "(?!)"}
"""The state a tool's result or refusal shows in English for a Chinese word of one ("已批准": "was approved")."""
DONE_CLAIMS: tuple[tuple[Lang, re.Pattern[str]], ...] = (
    ("zh", re.compile(rf"已经?(?:{_FOR_YOU})?(?:成功)?({_ZH_DONE})(?!过)")),
    ("zh", re.compile(rf"({_ZH_DONE})(?:成功|完毕|好了)")),
    ("zh", re.compile(rf"(?:{_FOR_YOU})(?:把[^，。,；;！!？?]{{0,16}})?({_ZH_DONE})了(?!吗)")),
    ("zh", re.compile(rf"已经?(?:{_FOR_YOU})?(?:成功)?[把将][^，。,；;！!？?]{{0,16}}?({_ZH_DONE})")),
    ("zh", re.compile(r"已经?给[^，。,；;！!？?]{1,10}?(发)了?(?:邮件|信|消息|提醒|通知)|(搞定)(?:了|啦)")),
    ("en", re.compile(
        rf"(?:\b(?:has|have|had|was|were|is|are)|'s|'ve)\s+(?:(?:now|just|successfully|been)\s+)*({_EN_DONE}{_EN_SET})\b",
        re.IGNORECASE)),
    ("en", re.compile(rf"\bI\s+(?:(?:have|just|successfully)\s+)*({_EN_DONE})\b", re.IGNORECASE)),
    ("en", re.compile(rf"\b(?:is|are)\s+now\b[^.!?;]{{0,40}}?\band\s+(?:(?:has|have)\s+been\s+)?({_EN_DONE})\b",
                      re.IGNORECASE)),  # "Your leave is now 2 days and sent back."
    ("en", re.compile(r"\b(?:is|are)\s+now\s+(?:your|the|their|his|her)\s+(deputy|delegate|stand-in|backup)\b", re.IGNORECASE)),
    ("en", re.compile(rf"(?:^|[.!]\s+)\s*(?:(?:all|now|just)\s+)?({_EN_DONE})\s*(?:[.!,]|$)", re.IGNORECASE)),
    ("en", re.compile(r"(?:^|[.!]\s+)\s*(?:all\s+)?(done)(?=\s*(?:[.!,;:—–-]|$))|"
                      r"(?:^|[.!]\s+)\s*(e-?mailed|messaged|notified)\s+\w", re.IGNORECASE)),
)
"""An answer's words that say something was done: 已驳回, 提交成功, 帮你转交了, 已将赵六设为代理人; "has been approved",
"I sent", "Zhao Liu is now your deputy", a sentence of the verb alone ("Withdrawn.", "All approved!", "Done."), "E-mailed
Li Si …", 已给李四发了邮件, 搞定了. A person
reads them as a report that the thing happened. Not those that tell a state from before ("今天已经催办过了", "was
already reminded today"): a refusal often gives it."""


_CLAUSE_START = re.compile(r"[，。；;：！!？?\n]|:|[,.](?:\s|$)|\b(?:but|and|so)\b|但是?|而且|所以", re.IGNORECASE)
_NEGATED = re.compile(r"\b(?:nothing|not|no|never|none|nobody|neither|nor)\b|n't\b|没|未|无|并非|不是", re.IGNORECASE)
"""A claim's own clause says it did not happen: "nothing was filed", "it has not been sent", "没有提交成功"."""


def done_claims(text: str) -> list[tuple[Lang, str, str]]:
    """The words of a text that say something was done (`DONE_CLAIMS`), each with its language and verb, but not
    those whose own clause denies it ("nothing was filed")."""
    return [(words, next(g for g in m.groups() if g), m.group(0).strip())
            for words, pattern in DONE_CLAIMS for m in pattern.finditer(text)
            if not _NEGATED.search(_CLAUSE_START.split(text[: m.start()])[-1])]


def undone_claims(text: str, messages: list[AnyMessage], toolset: Toolset, lang: Lang) -> list[str]:
    """The words of a model's answer that say something was done, in a run whose every proposed write was not done
    (refused, failed, or declined at the card), unless the conversation showed that state (a look-up listed a request
    as 已驳回, a refusal said it "already ended (rejected)", or said so in the person's words). Such an answer would
    tell the person a write happened that did not: "已驳回" after the return it proposed was refused and nothing was
    decided; or nothing was proposed where the person asked for something done ("张三这个月要是没迟到过，他那个事假就给
    他批了" had "所以他的事假已经批给了他" with no write at all). Empty when the run wrote something, or proposed nothing
    to write for a question."""
    claims = done_claims(text)
    if not claims:
        return []
    outcome = run_outcome(messages, toolset.registry, lang)
    if any(line["status"] == "executed" for line in outcome):
        return []
    if not outcome and not _asked_a_write(messages):
        return []  # a look-up's answer ("你的报销已提交，审批中") says what is, not what this run did
    if not outcome and run_results(messages) and _asked_to_look(messages):  # "Show me …": "Done." ends it
        claims = [c for c in claims if c[1].lower() not in _GENERIC_DONE]
    told = outcome_text(outcome, lang, toolset.registry, toolset.language.refusals)  # the refusals as the person reads them
    shown = "\n".join([told, *(_shown_text(m) for m in messages)])
    found: list[str] = []
    for words, verb, said in claims:
        if verb.lower() in _FILED and re.search(r'"requestId"', shown):
            continue  # a request a look-up showed was filed: "Wang Wu's leave req_1 was filed and is waiting for you"
        states = [rf"已经?{verb}", rf"\b{_ZH_STATES[verb]}"] if verb in _ZH_STATES else [rf"已经?{verb}"]
        state = "|".join(states) if words == "zh" else r"(?!)" if verb.lower() == "done" else rf"\b{verb}\b"
        if re.search(state, shown, re.IGNORECASE) is None and said not in found:
            found.append(said)
    return found


_GENERIC_DONE = frozenset({"done", "完成", "处理", "办理", "搞定", "handled", "processed", "completed"})
"""Words that say something was done without saying what: after look-ups alone, their answer ("Show me the to-do
lists … Done.")."""
_FILED = frozenset({"提交", "发起", "创建", "submitted", "filed", "started", "created"})
"""Words that say a request was filed: told of a request a look-up showed, they tell what is."""


_ASKS_A_CHANGE = re.compile(
    r"批|审|同意|驳|拒|退回|打回|撤|转交|转给|催|提交|发起|报销|请假|签|设|"
    r"\b(?:approve|sign|reject|decline|send|return|bounce|withdraw|cancel|transfer|pass|hand|urge|remind|nudge|submit|"
    r"file|claim|resend|delegate|set|book|put\s+in)\b", re.IGNORECASE)
"""Words of a person asking for a change (批, 撤回, "sign off", "withdraw"): after look-ups alone, a bare "Done." says
it was made."""


def _asked_to_look(messages: list[AnyMessage]) -> bool:
    """Whether the person's latest message asks for nothing to change ("Show me the to-do lists of these colleagues"):
    a look-up's "Done." is its answer."""
    at = latest_human_index(messages)
    return at >= 0 and not _ASKS_A_CHANGE.search(str(messages[at].content))


def _asked_a_write(messages: list[AnyMessage]) -> bool:
    """Whether the person's latest message asks for something to be done ("他那个事假就给他批了"): an answer saying it
    was done, in a run that proposed nothing to write, says what did not happen, unless what it claims is a state the
    run's look-ups showed (`undone_claims` reads them). A look-up is no write: "给他批了吧" answered "我已经批了" after
    the to-do list alone, the to-do still waiting, had told the approver it was decided."""
    at = latest_human_index(messages)
    return at >= 0 and kind_of(str(messages[at].content)) == "action"


def _shown_text(message: AnyMessage) -> str:
    """What a message showed as a state of things: a tool's result or refusal (its artifact too), or an answer the
    code wrote; nothing of the person's or the model's own words."""
    if isinstance(message, ToolMessage):
        if note_of(message).get("rejected"):
            return ""  # the card declined: "Rejected by the reviewer" shows no request rejected
        artifact = json.dumps(message.artifact, ensure_ascii=False) if message.artifact is not None else ""
        return f"{message.content}\n{artifact}"
    if isinstance(message, AIMessage) and not message.tool_calls and _code_wrote(message):
        return str(message.content)
    return ""


def undone_note(claims: Sequence[str], messages: list[AnyMessage], toolset: Toolset, lang: Lang) -> str:
    """What the model is told when its answer says something was done that was not: its words, and what happened."""
    said = "、".join(f"「{c}」" for c in claims) if lang == "zh" else ", ".join(f'"{c}"' for c in claims)
    happened = outcome_text(run_outcome(messages, toolset.registry, lang), lang, toolset.registry, toolset.language.refusals)
    return prompts.UNDONE_NOTE[lang].format(claims=said, outcome=happened)


def refused_for_a_reason(messages: list[AnyMessage], toolset: Toolset, lang: Lang) -> bool:
    """Whether a write of the run was refused by a rule the person can be told in their words ("这个待办不归你处理"),
    not only by the general check: a run stopped after refused steps says why, not "help me" ("人事那一步我能不能顺手也
    批了？": the seventy-eighth round's run)."""
    general = refusal_text("", lang, toolset.language.refusals)
    return any(line["status"] == "refused" and refusal_text(str(line["detail"]), lang, toolset.language.refusals) != general
               for line in run_outcome(messages, toolset.registry, lang))


def undone_answer(messages: list[AnyMessage], toolset: Toolset, lang: Lang) -> str:
    """The plain answer that replaces one saying something was done that was not: what the run's look-ups found, if
    anything, then that it was not done and why, in the person's words ("这件事没有办成：这个申请已经结束，不能再撤回。");
    the surfaces show what happened to each proposed write beside it."""
    why = []
    outcome = run_outcome(messages, toolset.registry, lang)
    for line in outcome:
        reason = refusal_text(line["detail"], lang, toolset.language.refusals) if line["status"] != "rejected" else ""
        if reason and reason not in why:
            why.append(reason)
    sep = "；" if lang == "zh" else "; "
    words = prompts.UNDONE_ANSWER[lang]["why" if why else "alone" if outcome else "nothing"].format(why=sep.join(why))
    return fixed_answer(messages, toolset.registry, lang) + "\n" + words if run_results(messages) else words


def redo_note(invented: Sequence[str], lang: Lang) -> str:
    """What the model is told when its answer stated values nothing showed: which (as it wrote them), and to answer
    again."""
    values = "、".join(f"「{v}」" for v in invented) if lang == "zh" else ", ".join(f'"{v}"' for v in invented)
    return prompts.REDO_UNKNOWN_NOTE[lang].format(values=values)


def not_known_answer(messages: list[AnyMessage], toolset: Toolset, lang: Lang) -> str:
    """The plain answer that replaces one stating what nothing showed: what the run's tools found, if anything, then
    that the assistant does not know the rest (and, when nothing was found, what it can do); where the run's writes
    were refused and none was done, why not (`undone_answer`: "这件事没有办成：不能审批自己的申请"). It names none of
    the values it replaces."""
    outcome = run_outcome(messages, toolset.registry, lang)
    asked_for = [line for line in outcome if "[question_only]" not in str(line.get("detail") or "")]
    if asked_for and not any(line["status"] in ("executed", "rejected") for line in outcome):
        return undone_answer(messages, toolset, lang)  # a write asked for and refused: why it was not done is known
    words = prompts.NOT_KNOWN[lang]
    if run_results(messages):
        return fixed_answer(messages, toolset.registry, lang) + "\n" + words["beyond"]
    intro = toolset.language.intro.get(lang) or ""
    return words["alone"] + ("\n" + intro if intro else "")


_NOT_KNOWING = re.compile(
    r"不知道|不清楚|无法(?:得知|知道|确定|查到|查询|看到)|看不到|查不到|没有(?:相关|这方面的)?(?:信息|记录|数据)|"
    r"\b(?:I\s+)?(?:don'?t|do\s+not|can'?t|cannot|am\s+unable\s+to|have\s+no\s+way\s+to)\s+(?:know|tell|see|say|access|"
    r"find|check)\b|\bno\s+(?:information|record|data|access)\b|\bunable\s+to\s+(?:know|tell|see|access)\b",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"(?<=[。！？!?])\s*|(?<=\.)\s+|\n")


def told_first(told: str, answer: str) -> str:
    """What no tool knows, said first, and the model's answer after it without its own sentences of not knowing (the
    person is told once: "I don't know … Finance or HR can tell you." and not again "I do not know your bonus.")."""
    kept = [s.strip() for s in _SENTENCE_END.split(answer) if s.strip() and not _NOT_KNOWING.search(s)]
    if not kept:
        return told
    return told + "\n" + ("" if re.search(r"[\u3400-\u9fff]", told) else " ").join(kept)



def unknown_told(told: str, answer: str, messages: list[AnyMessage], registry: ToolRegistry, text: str, *,
                 ungrounded: bool) -> str:
    """The answer to a question of what no tool knows (`told`, the toolset's words for it): said alone where the
    question asks nothing a tool looks up and the run's look-ups only listed what is everyone's (the processes, the
    people: look-ups that take no parameter), or where the model's answer was replaced and nothing was found: such
    lists answer nothing asked ("how much can a hotel cost a night?" had the processes listed with their 5000 yuan, the
    seventieth round's run). Else said first, with the answer's other sentences after it (`told_first`): what a look-up
    of the person's own found stays ("my claim is approved, when is the money in my account?": where the claim is)."""
    run = [m for m in messages[latest_human_index(messages) + 1:] if isinstance(m, ToolMessage) and m.status != "error"]
    lists_only = bool(run) and all(m.name and m.name in registry and not registry.get(m.name).args_model.model_fields
                                   for m in run)
    if lists_only and not any(spec.answers_question(text) for spec in registry):
        return told
    if ungrounded and not run_results(messages):
        return told  # the plain "I don't know" it replaced says less than what no tool knows
    return told_first(told, answer)


def nothing_found(messages: list[AnyMessage], registry: ToolRegistry, text: str, lang: Lang) -> str | None:
    """What the person is told first where their question asks for nothing the tools look up (no tool's `answers`
    fits its words) and every look-up the model chose found nothing: that it is not known here. "What's the daily meal
    allowance on a trip?" had the requests copied to them looked up, and the answer told of those (the forty-first and
    forty-second rounds, read after their run). None otherwise."""
    run = [m for m in messages[latest_human_index(messages) + 1:] if isinstance(m, ToolMessage)]
    if not run or any(m.status == "error" or not m.name or m.name not in registry
                      or registry.get(m.name).effect is not Effect.READ or not _found_nothing(m.artifact) for m in run):
        return None
    if any(spec.answers_question(text) for spec in registry):
        return None
    return prompts.NOT_KNOWN[lang]["alone"]


def _found_nothing(result: Any) -> bool:
    """Whether a look-up's result holds nothing: a count of none, or every list in it empty."""
    if not isinstance(result, dict):
        return False
    lists = [value for value in result.values() if isinstance(value, list)]
    return result.get("total") == 0 or (bool(lists) and not any(lists))
