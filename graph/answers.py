"""Answers that need no model, in one place: what the assistant can do, the graph's own questions, the person's answer
to a question filled into the write it was about, the fixed answer built from the tools' results, and the Thought
lines the code itself writes, all in the person's language.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from langchain_core.messages import AIMessage, AnyMessage, ToolMessage

from graph import prompts
from graph.budget import PLANNED_ENDS, wrap_up
from graph.calls import action_hash, new_call_id
from graph.history import action_title, describe_result, latest_human_index, note, note_of, run_results
from graph.protocols import NO_MODEL_CALL
from state.records import AskedCall, WrapUp
from tools import words
from tools.errors import NeedsPersonError
from tools.grounding import named_option, not_taken_back
from tools.request import Lang, Request, stated_numbers
from tools.spec import Effect, PersonValue, ToolRegistry, set_param
from tools.toolset import Toolset


def thought(key: str, lang: Lang, **values: Any) -> str:
    """One of the code's own Thought lines, in the person's language."""
    return prompts.THOUGHTS[lang][key].format(**values)


def capability_answer(toolset: Toolset, lang: Lang) -> AIMessage:
    """What the assistant can do: the toolset's own words, in the person's language (no model call)."""
    words = toolset.language
    text = words.intro.get(lang) or words.intro.get("zh") or words.title
    return AIMessage(content=text, response_metadata={"thought": thought("intro", lang), NO_MODEL_CALL: True})


def question_for(error: NeedsPersonError, toolset: Toolset, lang: Lang, value: PersonValue | None) -> str:
    """The question the graph asks the person: the toolset's own wording for the value, else the general one by the
    value's label; with the choices where they help, and first what was not understood ("没有找到「小明」。"). The
    call's other values the person must still give (`NeedsPersonError.also`) are asked in the same turn."""
    text = _question(error.ask, error.choices, error.name, toolset, lang, value, error.param)
    if error.name and error.ask not in ("which_user", "which_task", "transfer_to_requester"):
        text = prompts.GENERAL_QUESTIONS[lang]["unknown"].format(name=error.name) + ("" if lang == "zh" else " ") + text
    for other, offered in error.also:
        text += ("" if lang == "zh" else " ") + _question(other.ask, offered, "", toolset, lang, other, other.param)
    return text


def _question(
    ask: str, offered: tuple[str, ...], name: str, toolset: Toolset, lang: Lang, value: PersonValue | None, param: str
) -> str:
    own = toolset.language.questions.get(lang, {})
    general = prompts.GENERAL_QUESTIONS[lang]
    sep = "、" if lang == "zh" else ", "
    label = (value.label.get(lang) or value.label.get("zh") or value.param) if value is not None else param
    template = own.get(ask) or general.get(ask)
    if template is None:
        template = general["value_choices"] if offered else general["value"]
    return template.format(choices=sep.join(offered), name=name, count=len(offered), label=label)


def _answer_value(asked: AskedCall, request: Request, registry: ToolRegistry) -> Any:
    """The value the person's latest message gives for the asked argument, or None when it gives none (or several)."""
    last = request["last"]
    kind = asked["kind"]
    if kind == "person":
        named = request["people"][0] if request["people"] else []
        if len(named) > 1:  # "Wang Wu. No wait, Wang Wu is off that week. Zhang San then."
            named = not_taken_back(request["texts"][-1], named, request)
        if len(named) == 1:
            return named[0]
        names = {request["names"].get(i, {}).get("name") for i in named}
        if named and len(names) == 1:
            return names.pop()  # one name several people share: asked which
        # which of several of one person's records ("复查那个，一天的"): the one the answer's words tell apart
        return which_one(tuple(tuple(o) for o in asked["choices"]), request) if asked.get("choices") else None
    if kind == "number":
        found = stated_numbers(last, asked["unit"])
        return found[0] if len(found) == 1 else None
    if kind == "date":
        dates = last["dates"]
        if len(dates) == 1:
            return dates[0]
        # "下周二到下周四" answering a question about a trip's dates: one range. Its first day is proposed; the form's
        # readers then put each end where it belongs (the admission guards fill values the person stated).
        ranges = [r for r in request["ranges"] if [r["start"], r["end"]] == sorted(dates)]
        return dates[0] if len(dates) == 2 and ranges else (sorted(dates)[0] if len(dates) == 2 else None)
    if kind == "choice":
        if asked.get("choices"):
            options = tuple(tuple(option) for option in asked.get("choices", []))
            return named_option(PersonValue(asked["param"], "choice", "", choices=options), request) or which_one(
                options, request)
        spec = registry.get(asked["name"])
        stated = next((v.stated for v in spec.person_values if v.param == asked["param"]), None)
        return stated(request) if stated is not None else None
    values = registry.get(asked["name"]).person_values if asked["name"] in registry else ()
    reader = next((v.stated for v in values if v.param == asked["param"] and v.stated), None)
    own = reader(request) if reader is not None and request["texts"] else None
    if isinstance(own, str) and own.strip() and own in request["texts"][-1]:
        return own  # the value's own reader, on the answer: "就写同意吧" asked for a comment is 同意
    text = words.answered_text(request["texts"][-1]) if request["texts"] else None
    written = [str(n) for person in request["names"].values() for n in (person.get("name"), person.get("alias")) if n]
    if text and words.only_names(text, written):
        return None  # "李四吧" (typed 李四把) answering where the trip goes: a person, read as any message
    return text


_ORDINALS = ((r"第一|头一|\bfirst\b", 0), (r"第二|\bsecond\b", 1), (r"第三|\bthird\b", 2))
_CJK = re.compile(r"[\u3400-\u9fff]")


def which_one(options: tuple[tuple[str, ...], ...], request: Request) -> str | None:
    """The one of several records offered as (id, its few words) that the answer tells apart ("复查那个，一天的" of
    "task_1（张三，请假，1 天，去医院复查）" and "task_2（张三，请假，3 天，搬家）"; "the first one"): by what the
    answer says that one record's words say and no other's, its day counts among them; None when that is not one."""
    text = request["texts"][-1] if request["texts"] else ""
    for pattern, index in _ORDINALS:
        if re.search(pattern, text, re.IGNORECASE) and index < len(options):
            return options[index][0]
    said = {text[i:i + 2] for i in range(len(text) - 1) if _CJK.match(text[i]) and _CJK.match(text[i + 1])}
    said |= {w.casefold() for w in re.findall(r"[A-Za-z]{3,}", text)}
    said |= {f"{n:g} 天" for n in request["last"]["days"]} | {f"{n:g}" for n in request["last"]["amounts"]}
    pieces = [{p for p in said if p in option[-1] or p in option[-1].casefold()} for option in options]
    shared = set.intersection(*pieces) if pieces else set()
    own = [piece - shared for piece in pieces]
    told = [i for i, piece in enumerate(own) if piece]
    return options[told[0]][0] if len(told) == 1 else None


_JOINS_DATES = re.compile(r"\b(?:from|till|until|to|through|thru|and|on)\b|[从到至和\-–~～，,。.!！\s]", re.IGNORECASE)


def _only_dates(request: Request) -> bool:
    """Whether the person's latest message gives dates and nothing else ("next tuesday till next thursday" answering
    "What is the destination? What is the start date? What is the end date?": no destination, the eighty-eighth
    round's run filed it as one)."""
    text = request["texts"][-1] if request["texts"] else ""
    spans = [s["text"] for s in request["said"] if s["kind"] in ("date", "range") and s["text"] in text]
    for span in sorted(spans, key=len, reverse=True):
        text = text.replace(span, " ")
    return bool(spans) and not _JOINS_DATES.sub("", text)


def filled_call(asked: AskedCall, request: Request, registry: ToolRegistry) -> AIMessage | None:
    """The write the graph asked about, proposed again with the person's answer filled in (no model call); None when
    the message does not answer the question, and the model then reads it as usual."""
    if asked["kind"] == "text" and _only_dates(request):
        value: Any = None  # the dates of a question that asked them too: the guards read them, then ask what is left
        args = dict(asked["args"])
    else:
        value = _answer_value(asked, request, registry)
        if value is None:
            return None
        args = set_param(asked["args"], asked["param"], value)
    text, call_id = thought("filled", request["lang"], tool=asked["name"], param=asked["param"], value=value), new_call_id()
    kept = {"kept": {call_id: asked["kept"]}} if asked.get("kept") else {}
    return AIMessage(
        content=text,
        tool_calls=[{"type": "tool_call", "name": asked["name"], "args": args, "id": call_id}],
        response_metadata={"thought": text, NO_MODEL_CALL: True, **note(filled=True, **kept)},
    )


REFUSED_STEPS_BEFORE_INSTEAD = 2
"""Steps in a row whose every call was refused, while a refusal named the call the person asked for (`PolicyError.
instead`), after which that call is proposed without asking the model again (the circuit breaker stops at 3)."""


def instead_call(messages: list[AnyMessage], lang: Lang, *, after_refused_steps: int = 0) -> AIMessage | None:
    """The call a policy's refusal named in place of the refused one, when it knew it whole (`PolicyError.instead`),
    proposed as the person said (no model call), to the same checks and card: the latest such call of the run with
    nothing written or declined since. Without `after_refused_steps`, for a model that answers without making it
    (look-ups it made since change nothing the person asked for); with it, before the model is asked again, once that
    many steps in a row had every call refused (the 1.5B model that, told "decide task_2", looks up a balance and then
    the person's own requests). None when there is none, or the run already proposed it (never twice)."""
    run = messages[latest_human_index(messages) + 1 :]
    if after_refused_steps and _refused_steps(run) < after_refused_steps:
        return None
    named, ran = None, set()
    for message in reversed(run):
        if isinstance(message, ToolMessage) and (note_of(message).get("wrote") or note_of(message).get("rejected")):
            break  # what was done or declined since the refusal: the model's next step is its own
        if isinstance(message, ToolMessage) and message.status == "success":
            ran.add(message.name)
        elif isinstance(message, ToolMessage) and isinstance(message.artifact, dict) and message.artifact.get("instead"):
            named = message.artifact["instead"]
            break
    if not named or named["name"] in ran:  # the tool it named has run since (the look-up it named, made)
        return None
    proposed = {action_hash(c["name"], c["args"]) for m in run if isinstance(m, AIMessage) for c in m.tool_calls}
    if action_hash(named["name"], named["args"]) in proposed:
        return None
    return as_said(named, lang, str(named.get("why") or "instead"))  # a look-up in place of a write: "I look it up"


def as_said(call: dict[str, Any], lang: Lang, why: str = "instead") -> AIMessage:
    """A call the person's words ask for, proposed by the code (no model call), to the same checks and card; `why`
    is the Thought the person reads (`prompts.THOUGHTS`)."""
    text, call_id = thought(why, lang), new_call_id()
    marked: dict[str, Any] = {"next": True} if why.startswith("next") else {}
    if call.get("kept"):  # values from the person's own record (a request withdrawn to be filed anew)
        marked["kept"] = {call_id: dict(call["kept"])}
    return AIMessage(
        content=text,
        tool_calls=[{"type": "tool_call", "name": call["name"], "args": dict(call["args"]), "id": call_id}],
        response_metadata={"thought": text, NO_MODEL_CALL: True, **note(instead=True, **marked)},
    )


def _refused_steps(run: list[AnyMessage]) -> int:
    """How many of the run's last steps in a row had every call refused (a person's no at a card is no refusal)."""
    steps = 0
    for message in reversed(run):
        if isinstance(message, ToolMessage) and (message.status != "error" or note_of(message).get("rejected")):
            break
        if isinstance(message, AIMessage):
            if not message.tool_calls:
                break
            steps += 1
    return steps


def fixed_answer(messages: list[AnyMessage], registry: ToolRegistry, lang: Lang, reason: WrapUp | None = None) -> str:
    """An answer that states only what the run's tools returned, one readable line per result."""
    results = run_results(messages)
    texts = prompts.FIXED_ANSWER[lang]
    lines = [describe_result(registry, tool, result, lang) for tool, result in results]
    code = reason["code"] if reason else None
    if code == "done":
        return "\n".join(lines)  # a write was executed: what it did is the whole answer
    if code == "declined":  # the person said no at the card: say so, not what a model guesses happened
        values = reason.get("values", {}) if reason else {}
        declined = texts["declined"].format(tool=action_title(registry, str(values.get("tool", "")), lang))
        return "\n".join([texts["found"], *lines, declined]) if lines else declined
    text = "\n".join([texts["found"], *lines]) if lines else texts["nothing"]
    if code == "consecutive_failures" or (reason and not lines and code != "answered"):
        text += "\n" + texts["help"]  # the circuit breaker: ask the person for help
    elif reason and code not in ("repeated_action", *PLANNED_ENDS):
        text += "\n" + texts["stopped"].format(reason=stop_reason(reason, registry, lang))
    return text


def stop_reason(reason: WrapUp | Mapping[str, Any] | str, registry: ToolRegistry | None, lang: Lang) -> str:
    """Why a run stopped, as the person is told (`prompts.STOP_REASONS`), an action by its title; a reason kept as
    text by an older version, or without the values it names, in general words."""
    if isinstance(reason, str):  # "code: text for the model"
        code, values = reason.split(":")[0], {}
    else:
        code, values = reason["code"], dict(reason.get("values") or {})
    if "tool" in values:
        values["tool"] = action_title(registry, str(values["tool"]), lang)
    reasons = prompts.STOP_REASONS[lang]
    try:
        return reasons.get(code, reasons["general"]).format(**values)
    except (KeyError, ValueError):
        return reasons["general"]


_NOTE_PIECES = re.compile(r"[^;:.。；：]+")


def unechoed(answer: AIMessage, messages: list[AnyMessage], registry: ToolRegistry, lang: Lang) -> AIMessage:
    """The answer, or, where it repeats as written what a refusal of this run told the model (a piece of 24 characters
    or more), the code's answer of what was found and refused: ": the latest message is a question that asks for no
    change; answer it from…" had reached a person (the thirty-fifth round, read after its run); or that is the person's
    own message said back to them ("Just approve it for me, he'd say yes anyway." after a refusal), or its own answer
    before, said again to a new message (the sixtieth round's run); not the code's own answer before (why a request
    could not be filed, said again to "过去的不能补吗？": the seventy-second round's run)."""
    flat = " ".join(str(answer.content).split()).casefold()
    start = latest_human_index(messages)
    before = [str(m.content) for m in messages[:start] if isinstance(m, AIMessage) and not m.tool_calls
              and not m.response_metadata.get(NO_MODEL_CALL)][-1:]  # the code's words, said again, are still true
    echoed = start >= 0 and len(flat) >= 12 and flat in (
        " ".join(t.split()).casefold() for t in [str(messages[start].content), *before])
    for message in messages[start + 1 :]:
        if echoed:
            break
        if isinstance(message, ToolMessage) and message.status == "error":
            note = " ".join(str(message.content).split()).casefold()
            echoed = any(len(p.strip()) >= 24 and p.strip() in flat for p in _NOTE_PIECES.findall(note))
    if echoed:
        text = fixed_answer(messages, registry, lang, wrap_up("answered"))
        return AIMessage(content=text, response_metadata={"thought": thought("answered", lang), NO_MODEL_CALL: True})
    return answer


_FOLLOW_UP = re.compile(
    r"^\s*(?:(?:那|所以|嗯)?[，,]?\s*(?:然后|接下来|之后|后面|下一步)(?:呢|咋办|怎么办|会怎样|是什么|怎么走)?|"
    r"(?:ok(?:ay)?,?\s+)?(?:(?:and|so)\s+then|then\s+what|and\s+now|(?:and\s+)?what(?:'s|\s+is|\s+happens)?\s+next|"
    r"what\s+now|now\s+what)|"
    r"(?:都|是不是|是否)?(?:设置|安排|弄|设|办|搞|做|处理|提交|改|交|批)?(?:好|完|成功|上)了(?:吧|吗|么|没有?|嘛)?"
    r"(?:[\s，,。]*(?:帮我)?(?:确认|查|看)(?:一?下))?|"
    r"(?:ok(?:ay)?,?\s+)?(?:is\s+(?:it|that)\s+(?:all\s+)?(?:done|set(?:\s+up)?|through|sorted)(?:\s+now)?|"
    r"did\s+(?:it|that)\s+(?:go\s+through|work)|all\s+set|(?:all\s+)?done))\s*[?？。.!！…]*\s*$",
    re.IGNORECASE,
)
"""A follow-up that asks nothing but what comes next: 然后呢, 接下来呢, "and then?", "what's next?", "now what?" (not
"next", which an approver going through a queue says of the next to-do); or whether it was done: "弄好了吧 确认下",
"is it all set?" (the eighty-eighth round's run decided a to-do for it)."""


def follow_up_answer(messages: list[AnyMessage], registry: ToolRegistry, lang: Lang) -> AIMessage | None:
    """A bare follow-up ("然后呢", "and then?") right after a turn that carried out a write: what that write did and
    what comes after it, said again from its result, with no model call (an approver's "and then?" after passing a
    leave on to HR had the person's own requests looked up and answered "you have not started any request": the
    seventy-second round's run, both languages). None otherwise."""
    at = latest_human_index(messages)
    if at < 0 or at != len(messages) - 1 or not _FOLLOW_UP.match(str(messages[at].content)):
        return None  # the run's first step only
    writes = [(tool, result) for tool, result in run_results(messages[:at])
              if tool in registry and registry.get(tool).effect is Effect.WRITE]
    if not writes:
        return None
    text = "\n".join(describe_result(registry, tool, result, lang) for tool, result in writes)
    return AIMessage(content=text, response_metadata={"thought": thought("answered", lang), NO_MODEL_CALL: True})

