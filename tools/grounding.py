"""Whether a value is the person's: every value only the person can give must be found in what their request says.

No word list decides whether the person "asked for" a write. A write is admitted when each of its person values
(`ToolSpec.person_values`) is stated in the request (`tools.request.Request`), and a card shows what the person
confirms; a value that is missing or not theirs makes the graph ask them (`NeedsPersonError`), in their language."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date
from typing import Any

from pydantic import BaseModel

from tools import words
from tools.choices import Reading, options_said, read_choice
from tools.errors import DomainError, NeedsPersonError
from tools.parsers import language_of, read_date, read_text
from tools.parsers.text import mask_spans, mask_words
from tools.provenance import words_for
from tools.readers import only_an_amount, read_after
from tools.request import Request, stated_numbers
from tools.spec import CallContext, Found, PersonValue, ToolSpec, get_param, set_param
from tools.taken_back import names_someone_else, taken_instead, unchosen_hidden
from tools.toolset import Toolset

TEXT_SHARE = 0.6
"""Share of a text's telling words the person must have written for it to be their own."""
REASON_SHARE = 0.5
"""The same for a short reason, which a model rephrases more freely ("肚子疼" → "因为肚子疼需要休息")."""
MAX_CHOICES = 8


def person_label(person: dict[str, Any], lang: str) -> str:
    """A person's name as the person reading writes it: 张三 in Chinese, Zhang San in English (when known)."""
    if lang == "en" and person.get("alias"):
        return str(person["alias"])
    return str(person.get("name") or person.get("id"))


def choices(toolset: Toolset, handle: Any, actor_id: str, lang: str, ids: list[str] | None = None) -> tuple[str, ...]:
    """The people to offer when asking who: those `ids` name, else everyone but the actor (at most MAX_CHOICES); a
    name several of them share comes with the id and e-mail that tell them apart."""
    people = [p for p in toolset.directory(handle) if p["id"] != actor_id and (ids is None or p["id"] in ids)]
    labels = [person_label(p, lang) for p in people]
    sep = "，" if lang == "zh" else ", "
    names = [
        f"{label}（{sep.join(str(p[k]) for k in ('id', 'email') if p.get(k))}）" if labels.count(label) > 1 else label
        for label, p in zip(labels, people, strict=True)
    ]
    return tuple(names[:MAX_CHOICES]) + (("…",) if len(names) > MAX_CHOICES else ())


def name_written(person_id: str, request: Request) -> str:
    """How the request names a person it names: their name or alias as written, else their id."""
    known = request["names"].get(person_id, {})
    said = "\n".join(request["recent"])
    return next((n for n in (known.get("name"), known.get("alias"), person_id) if n and words.names(n, said)), "")


def people_named_for(toolset: Toolset, value: PersonValue, request: Request) -> list[str]:
    """The people the request names for this value: those its latest message naming anybody names, narrowed by
    the toolset's own cues when it names several ("Li Si rejected it; Wang Wu approves")."""
    for text, ids in zip(reversed(request["recent"]), request["people"], strict=False):
        if names_someone_else(text, [n for i in ids for n in request["names"].get(i, {}).values() if isinstance(n, str)]):
            return []  # "pass it to someone else then", "让李四批……哦不行，换个人吧": not whom they named
        if not ids:
            continue
        ids = not_taken_back(text, ids, request) if len(ids) > 1 else ids
        if toolset.pick_person is not None:
            named = [{"id": i, **request["names"].get(i, {})} for i in ids]
            picked = [p["id"] for p in toolset.pick_person(value.param, text, named)]
            if not picked:
                continue  # everyone it names is named for something else ("抄送王五" names no approver)
            return picked
        return ids
    return []


def not_taken_back(text: str, ids: list[str], request: Request) -> list[str]:
    """Of the people a text names, those it does not take back for another ("Li Si, right? Actually make it Zhao Liu
    instead", 李四，不对，王五审批, "not Li Si, Zhao Liu": `tools.taken_back`); all of them where that leaves none."""
    names = {i: [n for n in (request["names"].get(i, {}).get("name"), request["names"].get(i, {}).get("alias")) if n]
             for i in ids}
    instead = (taken_instead(text) or "").casefold()  # "…make it Zhao Liu instead, Li Si will be off too"
    named_instead = [i for i in ids if any(n.casefold() in instead for n in names[i])]
    if named_instead:
        return named_instead
    kept = unchosen_hidden(text, [n for said in names.values() for n in said], "\0").casefold()
    left = [i for i in ids if not names[i] or any(n.casefold() in kept for n in names[i])]
    return left or ids


def named_option(value: PersonValue, request: Request) -> str | None:
    """The one option of a choice the person's request names or implies (its latest message that says any), in either
    language; None when it says none or several (`tools.readers.read_choice`)."""
    found = read_choice(value.choices, value.hints, request["texts"])
    return found.value if found is not None else None


def reading(value: PersonValue, request: Request) -> Reading | None:
    """The value the person spelled out for a person value, with how and from which words: its own reader (stated),
    else the option their words name (stated) or imply (inferred); None when they give none."""
    if value.stated is not None:
        stated = value.stated(request)
        return Reading(value=stated, how="stated", said=words_for(stated, request)) if stated is not None else None
    if value.kind == "choice" and value.choices:
        return read_choice(value.choices, value.hints, request["texts"])
    return None


def stated_value(value: PersonValue, request: Request) -> Any:
    """The value the person spelled out for a person value, or None: its own reader, else the option they named."""
    found = reading(value, request)
    return found.value if found is not None else None


def read_text_value(value: PersonValue, request: Request, today: date) -> str | None:
    """A text value the person wrote verbatim after one of its cue words (去深圳 → 深圳), or None."""
    if value.kind != "text" or not value.cues:
        return None
    names = [n for person in request["names"].values() for n in (person.get("name"), person.get("alias")) if n]
    return read_after(value.cues, request["texts"], names=names, today=today)


def _blank(given: Any) -> bool:
    return given is None or (isinstance(given, str) and not given.strip())


def read_dates(values: Sequence[PersonValue], raw: dict[str, Any], today: date) -> dict[str, Any]:
    """The arguments with each date value written as people say it ("下周一", "12月8日", "next Monday") turned into
    its ISO date, counted from the run's `today`; a range's end (`PersonValue.after`) is read after its start ("the
    following Monday"). One that cannot be read is left as written (the tool says why)."""
    filled = raw
    for value in sorted(values, key=lambda v: bool(v.after)):  # the starts first: an end is read after its start
        given = get_param(raw, value.param)
        if value.kind != "date" or not isinstance(given, str) or _ISO_DATE.match(given.strip()):
            continue
        if len(given) > MAX_DATE_CHARS:
            continue  # no date is said in that many words: the tool refuses it as written
        start = get_param(filled, value.after) if value.after else None
        try:
            after = date.fromisoformat(start) if isinstance(start, str) and _ISO_DATE.match(start) else None
            filled = set_param(filled, value.param, read_date(given, today, after=after).isoformat())
        except ValueError:  # a DateReadError too: left as written
            continue
    return filled


_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
MAX_DATE_CHARS = 40


def check_given(
    toolset: Toolset, spec: ToolSpec, values: dict[str, Any], handle: Any, ctx: CallContext, lang: str,
    person_values: Sequence[PersonValue] | None = None,
) -> None:
    """A value only the person can give that the model left out: the person is asked for it."""
    for value in spec.person_values if person_values is None else person_values:
        if value.optional or not _blank(get_param(values, value.param)):
            continue
        raise NeedsPersonError(
            f"missing_{value.ask}", f"{value.param} is missing; the user is asked", ask=value.ask, param=value.param,
            choices=_offered(toolset, value, handle, ctx, lang), value=value,
        )


def _offered(toolset: Toolset, value: PersonValue, handle: Any, ctx: CallContext, lang: str) -> tuple[str, ...]:
    """The options to offer when asking for a missing value: the people one may name, or the choice's options."""
    if value.kind == "person":
        return choices(toolset, handle, ctx.actor_id, lang)
    return value.option_names(lang) if value.choices else ()


def check_clear(
    spec: ToolSpec, values: dict[str, Any], person_values: Sequence[PersonValue] | None = None, lang: str = "zh"
) -> None:
    """A value only the person can give that its tool refuses as written (a placeholder e-mail, "十" days), or a choice
    that is none of its options and implies none ("娱乐"): the person is asked for it (with the options)."""
    bad = set(spec.failing_params(values))
    for value in spec.person_values if person_values is None else person_values:
        given = get_param(values, value.param)
        if value.choices and not _blank(given) and value.option_of(given) is None and not value.optional:
            raise NeedsPersonError(
                f"unclear_{value.ask}", f"{value.param} {str(given)[:40]!r} is not one of its options; the user is asked",
                ask=value.ask, param=value.param, value=value, choices=value.option_names(lang),
            )
        if value.param.partition(".")[0] in bad and not value.optional:
            try:
                spec.parse(values)
                why = ""
            except DomainError as exc:
                why = f" ({exc.message.removeprefix(f'Invalid arguments for {spec.name}: ').rstrip('.')})"
            raise NeedsPersonError(
                f"unclear_{value.ask}", f"{value.param} is not usable as given{why}; the user is asked", ask=value.ask,
                param=value.param, value=value,
            )


def _text_is_theirs(text: str, request: Request, share: float, *, meaningful: bool, today: date,
                    filler: re.Pattern[str] | None = None) -> bool:
    """The person's own words: verbatim in what they wrote, whatever its script ("2026-12-05" in "日期2026-12-05"), or
    in their language (a translation is not theirs) and found, without the names of the people the request names, in
    what they wrote or in a draft they were shown and answered; a `meaningful` text also says something of its own,
    beyond its dates and people ("this Friday", "approver Zhao Liu" is no reason) and the value's `filler` words."""
    if meaningful and not says_something(text, request, today, filler):
        return False  # "take 2 days off next week" is no reason; "批了" is no comment
    said = "\n".join([*request["recent"], *request["shown"]])
    if verbatim(text, said):
        return True
    if language_of(text, request["lang"]) != request["lang"]:
        return False
    return words.is_text_said(_without_people(text, request), said, share=share)


def says_something(text: str, request: Request, today: date, filler: re.Pattern[str] | None = None) -> bool:
    """Whether a text says something of its own, beyond the dates and the people it names and its `filler` words."""
    own = _without_dates_and_people(text, request, today)
    return bool(words.content_tokens(filler.sub(" ", own) if filler else own))


def verbatim(text: str, said: str) -> bool:
    """Whether the text appears as it is in what the person said (spaces, punctuation and case aside)."""
    flat = words.squash(text)
    return bool(flat) and flat in words.squash(said)


_WHEN_WORDS = re.compile(
    r"上午|下午|早上|中午|晚上|整天|全天|\b(?:morning|afternoon|evening|all[- ]day|full[- ]day|off|pls|plz|please)\b",
    re.IGNORECASE,
)
"""Words of when and how long, and of asking, that say no reason ("half day off tmrw morning pls")."""


def _without_people(text: str, request: Request) -> str:
    """The text with the names of the people the request names blanked out: a name is in the text because the request
    names that person ("send Li Si a reminder"), which makes no text around it the person's own words."""
    names = [n for person in request["names"].values() for n in (person.get("name"), person.get("alias")) if n]
    return mask_words(text, names)


def _without_dates_and_people(text: str, request: Request, today: date) -> str:
    """The text with its date phrases, its lengths (half a day, 两天), parts of the day, and the names of the people
    the request names blanked out."""
    masked = _without_people(text, request)
    facts = read_text(masked, today=today)
    lengths = [(q.start, q.end) for q in facts.quantities if q.unit in ("day", "week", "month", "hour")]
    return _WHEN_WORDS.sub(" ", mask_spans(masked, [*(span.at for span in facts.dates), *lengths]))


def check_grounded(
    toolset: Toolset, spec: ToolSpec, args: BaseModel, found: Found, handle: Any, ctx: CallContext, request: Request,
    person_values: Sequence[PersonValue] | None = None,
) -> dict[str, str]:
    """Each value only the person can give is found in their request; else they are asked for it. Returns the words
    each value judged was found in, by parameter ("" when not known)."""
    values = args.model_dump()
    said: dict[str, str] = {}
    for value in spec.person_values if person_values is None else person_values:
        words_of = _check_value(toolset, value, values, found, handle, ctx, request)
        if words_of is not None:
            said[value.param] = words_of
    return said


def unstated(
    toolset: Toolset, spec: ToolSpec, values: dict[str, Any], found: Found, handle: Any, ctx: CallContext,
    request: Request, person_values: Sequence[PersonValue] | None = None,
) -> list[tuple[PersonValue, tuple[str, ...]]]:
    """Every value only the person can give that is missing or not found in their request, each with the choices to
    offer (no exception): what one question asks for together."""
    open_values: list[tuple[PersonValue, tuple[str, ...]]] = []
    for value in spec.person_values if person_values is None else person_values:
        given = get_param(values, value.param)
        if _blank(given):
            if not value.optional:
                open_values.append((value, _offered(toolset, value, handle, ctx, request["lang"])))
            continue
        try:
            _check_value(toolset, value, values, found, handle, ctx, request)
        except NeedsPersonError as exc:
            open_values.append((value, exc.choices))
        except DomainError:
            continue  # a value the tool refuses for another reason: the refusal says so when it is proposed again
    return open_values


def _not_given(value: PersonValue, what: str, request: Request) -> NeedsPersonError:
    return NeedsPersonError(
        f"{value.ask}_not_given", f"{value.param} {what}; the user is asked", ask=value.ask, param=value.param,
        value=value, choices=value.option_names(request["lang"]) if value.choices else (),
    )


def stated_as_given(
    toolset: Toolset, value: PersonValue, values: dict[str, Any], found: Found, handle: Any, ctx: CallContext,
    request: Request,
) -> bool:
    """Whether the person stated the value the model gave, as `grounded` judges it (True where it does not judge it),
    without asking them anything."""
    try:
        _check_value(toolset, value, values, found, handle, ctx, request)
    except NeedsPersonError:
        return False
    except DomainError:
        return True  # refused for another reason: the tool's refusal says so
    return True


def _check_value(
    toolset: Toolset, value: PersonValue, values: dict[str, Any], found: Found, handle: Any, ctx: CallContext,
    request: Request,
) -> str | None:
    """One value only the person can give is found in their request (the words it was found in, "" when not known;
    None when it is not judged: left out, or left to the card); else `NeedsPersonError` asks for it."""
    given = get_param(values, value.param)
    if _blank(given) and not (value.kind == "person" and value.found_key):
        return None  # an optional value left out
    if value.optional and value.on_card and value.kind != "person":
        return None  # an optional value the model filled in is shown on the card, for the person's own decision
    if value.kind == "person":
        return _check_person(toolset, value, found.get(value.found_key or value.param), handle, ctx, request)
    read = reading(value, request)
    if value.kind == "number":
        numbers = stated_numbers(request, value.unit)
        number = _number(given)
        if number not in numbers and not (read is not None and number == _number(read.value)):
            shown = f"{number:g}" if number is not None else str(given)[:40]
            raise _not_given(value, f"{shown} was not said by the user", request)
        return words_for(number, request)
    if value.kind == "date":
        if str(given) not in request["dates"] and not (read is not None and str(given) == str(read.value)):
            raise _not_given(value, f"{given} was not said by the user", request)
        if value.after and request.get("dates_unread") and len(set(request["dates"])) == 1 and read is None and \
                str(given) == str(get_param(values, value.after)):
            # "下周一出发，第二天回来": the one date said is the start's; the end was said in words not read
            raise _not_given(value, f"{given} is the first day; the user named the last in words not read", request)
        return words_for(str(given), request)
    if value.kind == "text":
        if only_an_amount(str(given), ctx.today or date.today()):  # "一共326块5" is no destination
            raise _not_given(value, "is an amount of money, not this text", request)
        if read is not None and given == read.value:
            return str(given)  # the text the person spelled out ("comment: 同意"), in whatever language they wrote it
        share = REASON_SHARE if len(words.content_tokens(str(given))) <= 4 else TEXT_SHARE
        if not _text_is_theirs(str(given), request, share, meaningful=value.meaningful, today=ctx.today or date.today(),
                               filler=value.filler):
            raise _not_given(value, "is not the user's own words (in their language)", request)
        return str(given) if verbatim(str(given), "\n".join(request["recent"])) else ""
    if value.kind == "choice" and not (value.optional and value.on_card):
        meant = value.option_of(given) if value.choices else given
        if read is None and value.default is not None and meant == value.default:
            return ""  # the person's words name no option: the default, shown on the card as inferred
        said = options_said(value.choices, value.hints, request["texts"])
        if read is None and meant in said and len(request["last"]["amounts"]) >= len(said):
            return ""  # one of the options they named for two things, each its amount ("吃饭860元，另外买纸320元")
        if read is None or read.value != meant:
            raise _not_given(value, "was not said by the user", request)
        return read.said
    return None


def _number(given: Any) -> float | None:
    try:
        return float(str(given))
    except ValueError:
        return None


def _check_person(
    toolset: Toolset, value: PersonValue, person: dict[str, Any] | None, handle: Any, ctx: CallContext, request: Request
) -> str | None:
    """The person, not the model, chooses: the one person the request names for this value (the name as they wrote
    it; None when there is no one to judge)."""
    if person is None:
        return None
    named = people_named_for(toolset, value, request)
    if not named and value.optional:
        return None  # nobody named: the value came from elsewhere (a reminder goes to its task's assignee)
    if named == [person["id"]]:
        return name_written(person["id"], request)
    lang = request["lang"]
    if person["id"] in named:
        offered = choices(toolset, handle, ctx.actor_id, lang, named)
        shared = {request["names"].get(i, {}).get("name") for i in named}
        one_name = len(shared) == 1
        raise NeedsPersonError(
            f"{value.ask}_not_named",
            f"the user named {len(named)} people; the user is asked which one is meant for {value.param}",
            ask="which_user" if one_name else "which_of", param=value.param, choices=offered,
            name=person_label({**request["names"].get(named[0], {}), "id": named[0]}, lang) if one_name else "",
            value=value,
        )
    raise NeedsPersonError(
        f"{value.ask}_not_named",
        f"{value.param} {person['id']} ({person_label(person, request['lang'])}) was not named by the user in this "
        "request; the user is asked. Never choose it yourself",
        ask=value.ask, param=value.param,
        choices=choices(toolset, handle, ctx.actor_id, lang, named if len(named) > 1 else None), value=value,
    )
