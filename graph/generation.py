"""Generate only what is used: a text-protocol reply ends as soon as the call it proposes is complete.

The graph keeps, of a `react` reply, the first `Action` with its `Action Input` object, and of a JSON reply
(the `json` protocol, a plan, a chain step's arguments) the first JSON value; whatever the model writes after
it is discarded. Small models go on writing there: the offline Qwen, asked "有哪些用户？" in a running chat,
wrote its call in 20 tokens and then, in three runs of five on 2026-12-01, 69 more (an invented
``Action Output: {...}`` and a ``Final Answer``), which no stop sequence caught.

So the reply is streamed and the stream is closed at the first chunk that completes the call
(`call_end`). The server stops generating once the client is gone (llama-cpp-python's server checks after
every token; OpenAI-compatible servers abort a request whose client disconnected). Only what follows a
complete call is cut, and every prefix the cut can leave is parsed into the same call as the whole reply
(`graph.protocols.parse_react`, `parse_json_reply`, `graph.plans.parse_plan`, `parse_args`), so a cut never
makes a complete call unparseable. Final answers, and replies whose call is not complete yet, run to the
end as before (the protocol's stop sequences and the token cap still apply).

`generate` is the one place the reasoner, the planner and a chain step call: it has a model that can cut stream
and cut, and calls any other model as before. The graph knows such a model only by its ``cuts_at_call`` attribute
(the apps' `flowagent.models.endpoint.make_chat_model` builds one, `flowagent.models.cut_openai.CallCutChatOpenAI`);
it never imports the client.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AnyMessage

from graph.jsonscan import scan_value

ReplyKind = Literal["react", "json"]
"""What a reply holds: `react` text (Thought / Action / Action Input, or Final Answer), or one JSON value."""

CUT_AT_CALL = "cut_at_call"
"""The invoke keyword that asks a model with ``cuts_at_call`` (`flowagent.models.cut_openai.CallCutChatOpenAI`) to
stop at the complete call; its value is a `ReplyKind`."""

CUT_FINISH_REASON = "call_complete"
"""`response_metadata["finish_reason"]` of a reply whose stream was closed at the complete call."""

CUT_ENV = "FLOWAGENT_CUT_AT_CALL"
"""Set to 0 to generate whole replies as before (to measure what the cut saves)."""

REACT_STOP = ["\nObservation:", "Observation:"]
"""The `react` protocol's stop sequences: the model never gets to write its own observation."""

# The same expressions as graph.protocols.parse_react: the cut must see a reply as the parser does.
_ACTION_RE = re.compile(r"^\s*Action\s*[:：]\s*(.+?)\s*$", re.MULTILINE | re.IGNORECASE)
_INPUT_RE = re.compile(r"Action\s*Input\s*[:：]\s*", re.IGNORECASE)
_FINAL_RE = re.compile(r"Final\s*Answer\s*[:：]\s*", re.IGNORECASE)
_OBSERVATION_RE = re.compile(r"^\s*Observation\s*[:：]", re.MULTILINE | re.IGNORECASE)
_FENCE_OPEN_RE = re.compile(r"```[A-Za-z]*[ \t]*\n")
_EMPTY_INPUTS = ("none", "null", "{}")


def generation_limits(kind: ReplyKind | None) -> dict[str, Any]:
    """The stop sequences of a reply of this kind, as `invoke` keywords (the token cap is the model's own)."""
    return {"stop": list(REACT_STOP)} if kind == "react" else {}


def _value_end(text: str, start: int) -> int | None:
    """The index just after the JSON object or array that opens at ``text[start]``, once it is closed."""
    return scan_value(text, start).end


def _skip_fence(text: str, start: int) -> int | None:
    """Where the value starts after optional blanks and a code fence's opening line; None while that line is
    still being written."""
    i = len(text) - len(text[start:].lstrip())
    if text.startswith("```", i):
        fence = _FENCE_OPEN_RE.match(text, i)
        if fence is None:
            return None
        i = len(text) - len(text[fence.end() :].lstrip())
    return i


def _react_call_end(text: str) -> int | None:
    observation = _OBSERVATION_RE.search(text)
    body = text[: observation.start()] if observation else text
    action = _ACTION_RE.search(body)
    if action is None:
        return None
    final = _FINAL_RE.search(body)
    if final is not None and final.start() < action.start():
        return None  # a final answer: parse_react keeps all of it
    given = _INPUT_RE.search(body, action.end())
    if given is None:
        return None
    start = _skip_fence(body, given.end())
    if start is None or start >= len(body):
        return None
    if body[start] == "{":
        return _value_end(body, start)
    line_end = body.find("\n", start)
    if line_end >= 0 and body[start:line_end].strip().strip("`").lower() in _EMPTY_INPUTS:
        return line_end  # "Action Input: none": a call without arguments
    return None


def _json_value_end(text: str) -> int | None:
    start = _skip_fence(text, 0)
    if start is None or start >= len(text):
        return None
    if text[start] not in "{[":
        # Prose first: parse_json_reply and first_json_object read the first object in it.
        start = text.find("{", start)
        if start < 0:
            return None
    return _value_end(text, start)


def call_end(text: str, kind: ReplyKind) -> int | None:
    """Where the complete call in ``text`` ends (everything after it is discarded by the parser), or None
    while the reply is not a complete call yet (or is a final answer, which is never cut).

    `react`: the first ``Action:`` (no ``Final Answer`` before it), its ``Action Input:`` and the JSON object
    after it, closed (or an input of ``none``/``null``/``{}`` and the end of its line). `json`: the first
    JSON value, closed: the object or array the reply opens with (after an optional code fence), else the
    first object in it.
    """
    return _react_call_end(text) if kind == "react" else _json_value_end(text)


def reply_end(text: str, kind: ReplyKind, stops: Sequence[str] = ()) -> tuple[int, bool] | None:
    """Where a streamed reply ends, and whether at its complete call: the first stop sequence (it and what
    follows are not part of the reply, as when a server applies it) or the complete call (`call_end`) in the
    text before it, whichever comes first; None while neither is there."""
    found = [i for i in (text.find(s) for s in stops) if i >= 0]
    stop_at = min(found) if found else None
    body = text if stop_at is None else text[:stop_at]
    end = call_end(body, kind)
    if end is not None:
        return end, True
    return (stop_at, False) if stop_at is not None else None


def generate(model: BaseChatModel, prompt: Sequence[AnyMessage], kind: ReplyKind, **kwargs: Any) -> AIMessage:
    """One reply of a text protocol, generated only until the call it proposes is complete.

    ``kwargs`` go to ``invoke`` (``stop`` defaults to the kind's own, `generation_limits`). A model that is not a
    `CallCutChatOpenAI` (a scripted test model, another client), or any model with ``$FLOWAGENT_CUT_AT_CALL=0``,
    is invoked as before, without the cut.
    """
    options = {**generation_limits(kind), **kwargs}
    if getattr(model, "cuts_at_call", False) and os.environ.get(CUT_ENV, "").strip() != "0":
        options[CUT_AT_CALL] = kind
    raw = model.invoke(list(prompt), **options)
    assert isinstance(raw, AIMessage)
    return raw
