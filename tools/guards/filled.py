"""Guard: the person's values are put in from their words, which win over the model's: a value their words state
(its own reader, or a choice they name), a choice their words imply (打车 → 差旅: inferred), a text they wrote after its
cue word (去深圳 → 深圳; where the model's runs on past where the reader ends it, "西安分公司", the reader's), the one
person they named. A value the model left out is filled, never asked again; one it gave otherwise is replaced, with
an English note for the model and the audit and the same as data in `sources`; an optional bound they never set
(`PersonValue.left_out_unsaid`) is left out."""

from __future__ import annotations

from datetime import date
from typing import Any, Literal

from tools.choices import Reading, read_choice
from tools.errors import DomainError, NeedsPersonError
from tools.grounding import (
    name_written,
    people_named_for,
    read_text_value,
    reading,
    says_something,
    stated_as_given,
    verbatim,
)
from tools.guards.call import Call
from tools.message_kind import questions_of_mine_spans
from tools.parsers.text import mask_spans
from tools.spec import PersonValue, Source, get_param, set_param


def _blank(given: Any) -> bool:
    return given is None or (isinstance(given, str) and not given.strip())


def put(call: Call, value: PersonValue, read: Reading) -> None:
    """The person's value in place of the model's, with its source (and a note when it replaced another value)."""
    given = get_param(call.values, value.param)
    blank = _blank(given)
    same = not blank and (given == read.value or bool(value.choices and value.option_of(given) == read.value))
    how: Literal["stated", "filled", "inferred"] = "inferred" if read.how == "inferred" else "filled" if blank else "stated"
    source = Source(how=how, said=str(read.said or ""))
    if not blank and not same and how == "inferred" and not read.said:  # a default: no words of theirs
        call.notes.append(f"[inferred] {value.param}: the user's words name none of its options; the default "
                          f"{read.value!r} replaced {given!r}")
        source["replaced"] = str(given)
    elif not blank and not same:
        call.notes.append(f"[person_stated] {value.param}: the user's own words {read.value!r} replaced {given!r}")
        source["replaced"] = str(given)
    elif blank and given is not None:  # the model gave it empty ("result": ""): the audit says the person's words filled it
        call.notes.append(f"[person_stated] {value.param}: the user's own words {read.value!r} filled an empty value")
    call.sources[value.param] = source
    call.values = set_param(call.values, value.param, read.value)


def _own_word(value: PersonValue, given: Any) -> Reading | None:
    """A choice the model gave in its own words ("交通"), mapped to the one option they name or imply."""
    if not value.choices or _blank(given) or value.option_of(given) is not None:
        return None
    mapped = read_choice(value.choices, value.hints, [str(given)])
    return Reading(value=mapped.value, how="inferred", said=str(given)) if mapped is not None else None


def _account(call: Call, value: PersonValue, given: Any, today: date) -> Reading | None:
    """The person's own account of why, where the model's text is not theirs as written or says nothing of its own
    ("餐饮类报销" for "上周请供应商吃饭，餐饮类，要报销"): their words are filed, and the card shows what they replaced."""
    assert call.request is not None
    if value.account is None:
        return None
    request = call.request
    # what a question about another of their requests says is that request's ("…对了，我上次请的拔牙的假批了没有？")
    said = "\n".join(mask_spans(t, questions_of_mine_spans(t)) for t in request["recent"])
    if not _blank(given) and verbatim(str(given), said) and says_something(
            str(given), request, today, value.filler):
        if value.filler is None or not value.filler.search(str(given)):
            return None  # their words as written, asking nothing
        # "回老家办点事，李四审批" copied whole: the account, where what it leaves out only asks (审批, "approves")
        text = value.account(request, today)
        rest = str(given).replace(text, " ") if text and text != given and text in str(given) else None
        if not text or rest is None or not value.filler.search(rest) or says_something(rest, request, today,
                                                                                       value.filler):
            return None  # "明天肚子疼": the day it left out is the person's too
        return Reading(value=text, how="stated", said=text)
    text = value.account(request, today)
    return Reading(value=text, how="stated", said=text) if text and text != given else None


def _default(call: Call, value: PersonValue) -> Reading | None:
    """A choice's default, where the person's words name and imply none of its options (inferred: the card shows it);
    where they name several and the model chose none, the person is asked which."""
    assert call.request is not None
    if value.default is None:
        return None
    named = [option for option in value.choices
             if read_choice([option], [h for h in value.hints if h[0] == option[0]], call.request["texts"]) is not None]
    if len(named) > 1 and _blank(get_param(call.values, value.param)):  # "年假调休哪个都行": which is theirs to say
        raise NeedsPersonError(f"{value.ask}_not_given", f"{value.param}: the user named {len(named)} of its options; "
                               "ask which", ask=value.ask, param=value.param, value=value,
                               choices=value.option_names(call.request["lang"]))
    return None if named else Reading(value=value.default, how="inferred", said="")


def named_person(call: Call, value: PersonValue) -> None:
    """The one person the request names for a person value is that value, however the model spelled (or chose) it."""
    assert call.request is not None
    given = get_param(call.values, value.param)
    named = people_named_for(call.toolset, value, call.request)
    if len(named) != 1 or given == named[0]:
        return
    said = name_written(named[0], call.request)
    if _blank(given):
        if not value.optional:  # the model left out the one person the request names
            call.values = set_param(call.values, value.param, named[0])
            call.sources[value.param] = Source(how="filled", said=said)
        return
    ref = next((r for r in call.spec.references if r.param == value.param), None)
    resolver = call.toolset.resolvers.get(ref.kind) if ref is not None else None
    try:
        record = resolver(call.handle, given, call.ctx, ref, asking=False)[0] if resolver and ref else None
    except DomainError:
        record = None
    if record is None or record.get("id") != named[0]:
        call.notes.append(f"[person_stated] {value.param}: the user named {named[0]}, not {str(given)[:64]!r}")
        call.values = set_param(call.values, value.param, named[0])
        call.sources[value.param] = Source(how="stated", said=said, replaced=str(given))


def _said_since(call: Call, given: str, text: str) -> bool:
    """Whether the person's latest message gives `text` in place of what the model kept from before ("…对了，地点改成
    苏州" after 南京 in the message before): their latest words win."""
    assert call.request is not None
    latest = call.request["texts"][-1] if call.request["texts"] else ""
    return given != text and text in latest and given not in latest


class Filled:
    """Puts in every value the person's words give."""

    name = "filled"
    needs_request = True
    asks_together = False

    def __call__(self, call: Call) -> None:
        assert call.request is not None
        today = call.ctx.today or date.today()
        for value in call.person_values:
            read = reading(value, call.request)
            given = get_param(call.values, value.param)
            kept = call.kept_as_is(value.param)  # their own value from before: what their words now say wins
            if read is None and (_blank(given) or isinstance(given, str)):
                text = read_text_value(value, call.request, today)
                runs_on = bool(text) and not _blank(given) and given != text and str(given).startswith(str(text))
                # a place the model wrote in its own words (上海 for "to Shanghai"): the person's words are filed
                recent = "\n".join(call.request["recent"])
                unsaid = bool(text) and not _blank(given) and (
                    kept or not verbatim(str(given), recent) or _said_since(call, str(given), text or ""))
                read = Reading(value=text, how="stated", said=text) if text and (_blank(given) or runs_on or unsaid) else None
            if read is None and kept:
                continue  # nothing in their words in place of it: it stands
            read = read or _own_word(value, given) or _account(call, value, given, today) or _default(call, value)
            if read is not None:
                put(call, value, read)
            elif value.left_out_unsaid is not None and not _blank(given) and value.left_out_unsaid(call.request) and \
                    not (value.optional and stated_as_given(
                        call.toolset, value, call.values, call.found, call.handle, call.ctx, call.request)):
                call.notes.append(f"[person_stated] {value.param}: the user did not say {str(given)[:40]!r}; left out")
                call.values = set_param(call.values, value.param, None)
        for value in call.person_values:
            if value.kind == "person":
                named_person(call, value)
        if call.spec.person_values_for is not None and call.sources:  # what the call asks for, by the person's values
            call.person_values = call.spec.values_for(call.handle, call.ctx, call.values, call.found)
