"""The start of a run: the fields a new run resets, and the person's request read once.

A run is one person's message and everything it causes. `read_request` (the first node of every strategy) starts it:
fresh budget counters, the fields below reset, and the request record (`tools.request.Request`) that every later
node and the policy read instead of the messages.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, ToolMessage

from graph.budget import Clock, new_budget
from graph.calls import run_today
from graph.history import is_question, latest_human_index, note_of
from state.context import Context
from state.records import Ask
from tools.backend import Backend
from tools.kept import KnownRecords
from tools.message_kind import refers_back
from tools.request import RECENT_MESSAGES, Lang, Request, read_request
from tools.spec import Effect
from tools.toolset import Toolset

RUN_FIELDS = ("step", "wrap_up", "ask", "plan")
"""The fields a run sets that the next run starts without."""


def run_reset(state: Mapping[str, Any]) -> dict[str, Any]:
    """The writes that clear what the last run left (the one place they are written). A field already clear is not
    written: a channel never written is not in any checkpoint."""
    return {field: None for field in RUN_FIELDS if state.get(field) is not None}


def request_messages(messages: list[AnyMessage], writes: frozenset[str] = frozenset()) -> tuple[list[str], int]:
    """The person's messages of the request in progress: the latest, and the earlier ones it answers or corrects (each
    followed by the assistant's question, by a card the person declined, or by a write of theirs refused with nothing
    done: "金额是1080，不是1280" after declining the card of "报销打车费1280元" is the same request, its category still
    the taxi's; "then make it two" after "three comp days" was refused for the balance is still comp days); and how
    many of them came before the last such card or refusal (0: none was). `writes`: the toolset's write tools."""
    request: list[str] = []
    corrections = -1  # how many of the request's messages follow the last card declined or write refused
    for i in range(len(messages) - 1, -1, -1):
        msg = messages[i]
        if isinstance(msg, HumanMessage):
            request.insert(0, str(msg.content))
            after = messages[i + 1 :]
            after = after[: next((j for j, m in enumerate(after) if isinstance(m, HumanMessage)), len(after))]
            answers = [m for m in after if isinstance(m, AIMessage) and not m.tool_calls]
            results = [m for m in after if isinstance(m, ToolMessage) and m.name in writes]
            refused = bool(results) and all(m.status == "error" for m in results)
            declined = bool(request[1:]) and (refused or any(
                isinstance(m, ToolMessage) and note_of(m).get("rejected") for m in after))
            if request[1:] and not (answers and is_question(answers[0])) and not declined:
                request.pop(0)
                break
            if declined and corrections < 0:
                corrections = len(request) - 1
    return request, (len(request) - corrections if corrections >= 0 else 0)


def carried_out(messages: list[AnyMessage], writes: frozenset[str]) -> int:
    """How many of the person's messages came up to the last one a write was carried out after (0: none was): what
    they said was that write's."""
    humans, done = 0, 0
    for msg in messages:
        if isinstance(msg, HumanMessage):
            humans += 1
        elif isinstance(msg, ToolMessage) and msg.name in writes and msg.status != "error" and \
                not note_of(msg).get("rejected"):
            done = humans
    return done


def shown_and_answered(messages: list[AnyMessage], start: int = 0) -> list[str]:
    """The assistant's answers from `start` on that the person saw and replied to (a draft they may have confirmed)."""
    shown = []
    for i, msg in enumerate(messages[start:], start):
        if isinstance(msg, AIMessage) and not msg.tool_calls and any(isinstance(m, HumanMessage) for m in messages[i + 1 :]):
            shown.append(str(msg.content))
    return shown


def _nth_human_from_end(messages: list[AnyMessage], n: int) -> int:
    """Position of the person's n-th message counted from the end (the first of the request's messages)."""
    seen = 0
    for i in range(len(messages) - 1, -1, -1):
        if isinstance(messages[i], HumanMessage):
            seen += 1
            if seen >= n:
                return i
    return 0


def locale_lang(locale: str) -> Lang:
    return "en" if locale.lower().startswith("en") else "zh"


def start_run(
    messages: list[AnyMessage], context: Context, toolset: Toolset, backend: Backend, clock: Clock,
    previous_ask: Ask | None = None, *, alone: bool = False, known: KnownRecords | None = None,
) -> dict[str, Any]:
    """The fields of a new run: fresh counters, and the request read once (`previous_ask`: what the graph asked
    at the end of the last run, which this message may answer; `alone`: the latest message is a request of its own,
    as when another user was asked the last question). The people read for it are kept in `known`, when the toolset
    reads them whole (`Toolset.people_kind`): the run's checks find them by id without reading them again."""
    index = latest_human_index(messages)
    writes = frozenset(s.name for s in toolset.registry if s.effect is Effect.WRITE)
    texts, declined = request_messages(messages, writes)
    texts, declined = (texts[-1:], 0) if alone else (texts, declined)
    said = [str(m.content) for m in messages if isinstance(m, HumanMessage)]
    before_it = len(said) - len(texts) - 1  # the person's message before the request's first
    answered = int(not alone and before_it >= 0 and carried_out(messages, writes) <= before_it and refers_back(texts[0]))
    if answered:  # "who approves a 450 chair?" answered, then "ok, file it": the chair's claim
        texts = [said[before_it], *texts]
    # The request's drafts: what the assistant showed since the request's first message (its size stays that of
    # the request, not of the thread).
    first = _nth_human_from_end(messages, len(texts))
    with backend.read() as handle:
        people = toolset.directory(handle)
    if known is not None and toolset.people_kind is not None and toolset.people is not None:
        known.put_all(toolset.people_kind, people)
    asked = previous_ask["call"] if previous_ask else None
    before = said[: len(said) - len(texts)]
    earlier = [] if alone else before[-RECENT_MESSAGES:]  # another user's words state nothing
    request = read_request(
        texts,
        earlier=earlier,
        done=min(carried_out(messages, writes), len(before)) - (len(before) - len(earlier)),
        answering=asked["unit"] if asked is not None and asked["kind"] == "number" else "",
        index=index,
        today=run_today(clock, context.timezone),
        people=people,
        actor_id=context.user_id,
        shown=shown_and_answered(messages, first),
        default_lang=locale_lang(context.locale),
        declined=declined,
        answered=answered,
    )
    return {"request": request, "budget": new_budget(index, clock)}


def lang_of(state: Any, context: Context) -> Lang:
    """The language of the run's person (their request's; the run's locale before any request)."""
    request: Request | None = state.get("request")
    return request["lang"] if request is not None else locale_lang(context.locale)
