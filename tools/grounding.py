"""Whether a value is the person's: every value only the person can give must be found in what their request says.

No word list decides whether the person "asked for" a write. A write is admitted when each of its person values
(`ToolSpec.person_values`) is stated in the request (`tools.request.Request`), and a card shows what the person
confirms; a value that is missing or not theirs makes the graph ask them (`NeedsPersonError`), in their language.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date
from typing import Any

from pydantic import BaseModel

from tools import words
from tools.errors import DomainError, NeedsPersonError
from tools.parsers import DateReadError, language_of, read_date, read_text
from tools.parsers.text import mask_spans, mask_words
from tools.request import Request
from tools.spec import CallContext, Found, PersonValue, ToolSpec, get_param, set_param
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


def _named(toolset: Toolset, value: PersonValue, request: Request) -> list[str]:
    """The people the request names for this value: those its latest message naming anybody names, narrowed by
    the toolset's own cues when it names several ("Li Si rejected it; Wang Wu approves")."""
    for text, ids in zip(reversed(request["recent"]), request["people"], strict=False):
        if not ids:
            continue
        if len(ids) > 1 and toolset.pick_person is not None:
            named = [{"id": i, **request["names"].get(i, {})} for i in ids]
            picked = [p["id"] for p in toolset.pick_person(value.param, text, named)]
            return picked or ids
        return ids
    return []


def named_option(value: PersonValue, request: Request) -> str | None:
    """The one option of a choice the person's request names (its latest message that names any), in either language;
    None when it names none or several."""
    for text in reversed(request["texts"]):
        named = {option[0] for option in value.choices if any(words.names(word, text) for word in option[1:] if word)}
        if named:
            return named.pop() if len(named) == 1 else None
    return None


def stated_value(value: PersonValue, request: Request) -> Any:
    """The value the person spelled out for a person value, or None: its own reader, else the option they named."""
    if value.stated is not None:
        return value.stated(request)
    if value.kind == "choice" and value.choices:
        return named_option(value, request)
    return None


def person_stated(
    values: Sequence[PersonValue], raw: dict[str, Any], request: Request
) -> tuple[dict[str, Any], list[str]]:
    """The arguments with every value the person spelled out put in (their words win), and a note for the reviewer's
    card for each value of the model's that they replaced."""
    filled, notes = dict(raw), []
    for value in values:
        stated = stated_value(value, request)
        if stated is None:
            continue
        given = get_param(raw, value.param)
        if given is not None and given != stated and not (value.choices and value.option_of(given) == stated):
            notes.append(f"[person_stated] {value.param}: the user's own words {stated!r} replaced {given!r}")
        filled = set_param(filled, value.param, stated)
    return filled, notes


def named_wins(
    toolset: Toolset, spec: ToolSpec, values: dict[str, Any], handle: Any, ctx: CallContext, request: Request,
    person_values: Sequence[PersonValue] | None = None,
) -> tuple[dict[str, Any], list[str]]:
    """The one person the request names for a person value is that value, however the model spelled (or chose) it;
    a note for the card says when the model's choice was replaced."""
    filled, notes = dict(values), []
    refs = {ref.param: ref for ref in spec.references}
    for value in spec.person_values if person_values is None else person_values:
        given = get_param(values, value.param)
        named = _named(toolset, value, request)
        if value.kind != "person" or len(named) != 1 or given == named[0]:
            continue
        if _blank(given):
            if not value.optional:
                filled[value.param] = named[0]  # the model left out the one person the request names
            continue
        ref = refs.get(value.param)
        resolver = toolset.resolvers.get(ref.kind) if ref is not None else None
        try:
            record = resolver(handle, given, ctx, ref, asking=False)[0] if resolver and ref else None
        except DomainError:
            record = None
        if record is None or record.get("id") != named[0]:
            notes.append(f"[person_stated] {value.param}: the user named {named[0]}, not {str(given)[:64]!r}")
            filled = set_param(filled, value.param, named[0])
    return filled, notes


def _blank(given: Any) -> bool:
    return given is None or (isinstance(given, str) and not given.strip())


def read_dates(values: Sequence[PersonValue], raw: dict[str, Any], today: date) -> dict[str, Any]:
    """The arguments with each date value written as people say it ("下周一", "12月8日", "next Monday") turned into
    its ISO date, counted from the run's `today`; one that cannot be read is left as written (the tool says why)."""
    filled = raw
    for value in values:
        given = get_param(raw, value.param)
        if value.kind != "date" or not isinstance(given, str) or _ISO_DATE.match(given.strip()):
            continue
        if len(given) > MAX_DATE_CHARS:
            continue  # no date is said in that many words: the tool refuses it as written
        try:
            filled = set_param(filled, value.param, read_date(given, today).isoformat())
        except DateReadError:
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


def check_clear(spec: ToolSpec, values: dict[str, Any], person_values: Sequence[PersonValue] | None = None) -> None:
    """A value only the person can give that its tool refuses as written (a placeholder e-mail, "十" days): the person
    is asked for it, instead of the model guessing again."""
    bad = set(spec.failing_params(values))
    for value in spec.person_values if person_values is None else person_values:
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
    """The person's own words: in their language (a translation is not theirs) and found in what they wrote or in a
    draft they were shown and answered; a `meaningful` text must also say something of its own, beyond the dates
    and the people it names ("this Friday", "approver Zhao Liu" is no reason) and the value's `filler` words."""
    if meaningful:
        own = _without_dates_and_people(text, request, today)
        if not words.content_tokens(filler.sub(" ", own) if filler else own):
            return False  # "take 2 days off next week" is no reason; "批了" is no comment
    if language_of(text, request["lang"]) != request["lang"]:
        return False
    said = "\n".join([*request["recent"], *request["shown"]])
    return words.is_text_said(text, said, share=share)


_WHEN_WORDS = re.compile(
    r"上午|下午|早上|中午|晚上|整天|全天|\b(?:morning|afternoon|evening|all[- ]day|full[- ]day|off|pls|plz|please)\b",
    re.IGNORECASE,
)
"""Words of when and how long, and of asking, that say no reason ("half day off tmrw morning pls")."""


def _without_dates_and_people(text: str, request: Request, today: date) -> str:
    """The text with its date phrases, its lengths (half a day, 两天), parts of the day, and the names of the people
    the request names blanked out."""
    names = [n for person in request["names"].values() for n in (person.get("name"), person.get("alias")) if n]
    masked = mask_words(text, names)
    facts = read_text(masked, today=today)
    lengths = [(q.start, q.end) for q in facts.quantities if q.unit in ("day", "week", "month", "hour")]
    return _WHEN_WORDS.sub(" ", mask_spans(masked, [*(span.at for span in facts.dates), *lengths]))


def check_grounded(
    toolset: Toolset, spec: ToolSpec, args: BaseModel, found: Found, handle: Any, ctx: CallContext, request: Request,
    person_values: Sequence[PersonValue] | None = None,
) -> None:
    """Each value only the person can give is found in their request; else they are asked for it."""
    values = args.model_dump()
    for value in spec.person_values if person_values is None else person_values:
        _check_value(toolset, value, values, found, handle, ctx, request)


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


def _check_value(
    toolset: Toolset, value: PersonValue, values: dict[str, Any], found: Found, handle: Any, ctx: CallContext,
    request: Request,
) -> None:
    """One value only the person can give is found in their request; else `NeedsPersonError` asks for it."""
    given = get_param(values, value.param)
    if _blank(given) and not (value.kind == "person" and value.found_key):
        return  # an optional value left out
    if value.optional and value.on_card and value.kind != "person":
        return  # an optional value the model filled in is shown on the card, for the person's own decision
    if value.kind == "person":
        _check_person(toolset, value, found.get(value.found_key or value.param), handle, ctx, request)
    elif value.kind == "number":
        numbers = {"day": request["days"], "yuan": request["amounts"]}.get(value.unit, request["numbers"])
        number = _number(given)
        if number not in numbers:
            shown = f"{number:g}" if number is not None else str(given)[:40]
            raise NeedsPersonError(
                f"{value.ask}_not_given", f"{value.param} {shown} was not said by the user; the user is asked",
                ask=value.ask, param=value.param, value=value,
            )
    elif value.kind == "date":
        if str(given) not in request["dates"]:
            raise NeedsPersonError(
                f"{value.ask}_not_given", f"{value.param} {given} was not said by the user; the user is asked",
                ask=value.ask, param=value.param, value=value,
            )
    elif value.kind == "text":
        if value.stated is not None and given == value.stated(request):
            return  # the text the person spelled out ("comment: 同意"), in whatever language they wrote it
        share = REASON_SHARE if len(words.content_tokens(str(given))) <= 4 else TEXT_SHARE
        if not _text_is_theirs(str(given), request, share, meaningful=value.meaningful, today=ctx.today or date.today(),
                               filler=value.filler):
            raise NeedsPersonError(
                f"{value.ask}_not_given",
                f"{value.param} is not the user's own words (in their language); the user is asked",
                ask=value.ask, param=value.param, value=value,
            )
    elif value.kind == "choice" and not (value.optional and value.on_card):
        stated = stated_value(value, request)
        meant = value.option_of(given) if value.choices else given
        if stated is None or stated != meant:
            raise NeedsPersonError(
                f"{value.ask}_not_given", f"{value.param} was not said by the user; the user is asked",
                ask=value.ask, param=value.param, value=value,
                choices=value.option_names(request["lang"]) if value.choices else (),
            )


def _number(given: Any) -> float | None:
    try:
        return float(str(given))
    except ValueError:
        return None


def _check_person(
    toolset: Toolset, value: PersonValue, person: dict[str, Any] | None, handle: Any, ctx: CallContext, request: Request
) -> None:
    """The person, not the model, chooses: the one person the request names for this value."""
    if person is None:
        return
    named = _named(toolset, value, request)
    if not named and value.optional:
        return  # nobody named: the value came from elsewhere (a reminder goes to its task's assignee)
    if named == [person["id"]]:
        return
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
