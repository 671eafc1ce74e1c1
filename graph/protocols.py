"""Output protocols: native function calling, `react` text and `json`, all normalised into tool calls.

Whatever the protocol, the reasoner ends with one `AIMessage` whose `tool_calls` are the proposed
actions, whose content is the visible thought (or the final answer), and whose unparseable output is
an `invalid_tool_calls` entry that the validator turns into a format-correction observation.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, SystemMessage, ToolMessage

from graph import prompts
from graph.calls import new_call_id
from graph.jsonscan import scan_value
from state.context import Protocol
from tools.parsers import language_of

NO_MODEL_CALL = "no_model_call"
"""Marks an answer the graph wrote without calling the model (a fixed answer, its own question)."""

FORMAT_ERROR_NAME = "format_error"
"""Name given to the invalid tool call that carries unparseable model output."""


@dataclass
class Parsed:
    """What a text reply said: a thought, and either actions or a final answer, or a format problem."""

    thought: str = ""
    final: str | None = None
    calls: list[dict[str, Any]] = field(default_factory=list)
    problem: str | None = None


# ---------------------------------------------------------------- lenient JSON


_FENCE_RE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL)


def _first_json_object(text: str) -> tuple[Any, str | None]:
    """The first balanced {...} in text, parsed leniently; returns (value, problem)."""
    start = text.find("{")
    if start < 0:
        return None, "no JSON object found"
    end, depth, in_str = scan_value(text, start)
    if end is not None:
        return _loads_lenient(text[start:end])
    if not in_str and depth > 0:
        # A small model often stops right before the last brace: close it, and keep it only if it parses.
        value, problem = _loads_lenient(text[start:].rstrip() + "}" * depth)
        if problem is None:
            return value, None
    return None, "the JSON object is not closed"


def first_json_object(text: str) -> tuple[Any, str | None]:
    """The first balanced JSON object in a model's text, parsed leniently: (value, None) or (None, problem)."""
    return _first_json_object(text)


def _loads_lenient(candidate: str) -> tuple[Any, str | None]:
    for attempt in (candidate, re.sub(r",\s*([}\]])", r"\1", candidate), candidate.replace("'", '"')):
        try:
            return json.loads(attempt), None
        except json.JSONDecodeError:
            continue
    try:
        json.loads(candidate)
    except json.JSONDecodeError as exc:
        return None, f"invalid JSON: {exc.msg} at position {exc.pos}"
    return None, "invalid JSON"  # pragma: no cover


# ---------------------------------------------------------------- react


_ACTION_RE = re.compile(r"^\s*Action\s*[:：]\s*(.+?)\s*$", re.MULTILINE | re.IGNORECASE)
_INPUT_RE = re.compile(r"Action\s*Input\s*[:：]\s*", re.IGNORECASE)
_FINAL_RE = re.compile(r"Final\s*Answer\s*[:：]\s*", re.IGNORECASE)
_THOUGHT_RE = re.compile(r"^\s*Thought\s*[:：]\s*", re.IGNORECASE)
_OBSERVATION_RE = re.compile(r"^\s*Observation\s*[:：]", re.MULTILINE | re.IGNORECASE)


def parse_react(text: str) -> Parsed:
    """Parse `Thought: / Action: / Action Input: {json}` or `Final Answer: ...`, leniently."""
    # A model that goes on to write its own Observation is cut there: it never gets to invent results.
    cut = _OBSERVATION_RE.search(text)
    body = text[: cut.start()] if cut else text
    action = _ACTION_RE.search(body)
    final = _FINAL_RE.search(body)
    if final and (not action or final.start() < action.start()):
        thought = _THOUGHT_RE.sub("", body[: final.start()]).strip()
        return Parsed(thought=thought, final=body[final.end() :].strip())
    if not action:
        plain = _THOUGHT_RE.sub("", body).strip()
        if not plain:
            return Parsed(problem="the reply is empty")
        return Parsed(thought="", final=plain)
    thought = _THOUGHT_RE.sub("", body[: action.start()]).strip()
    name = action.group(1).strip().strip("`'\"[]")
    name = re.split(r"[\s(（]", name, maxsplit=1)[0]
    rest = body[action.end() :]
    inp = _INPUT_RE.search(rest)
    if not inp:
        if re.search(r"\{", rest):
            args_text = rest
        else:
            return Parsed(thought=thought, calls=[{"name": name, "args": {}, "id": new_call_id()}])
    else:
        args_text = rest[inp.end() :]
    fenced = _FENCE_RE.search(args_text)
    if fenced:
        args_text = fenced.group(1)
    stripped = args_text.strip()
    if not stripped or stripped.lower() in ("none", "{}", "null"):
        return Parsed(thought=thought, calls=[{"name": name, "args": {}, "id": new_call_id()}])
    args, problem = _first_json_object(stripped)
    if problem:
        return Parsed(thought=thought, problem=f"Action Input of {name}: {problem}")
    if not isinstance(args, dict):
        return Parsed(thought=thought, problem=f"Action Input of {name} must be a JSON object")
    return Parsed(thought=thought, calls=[{"name": name, "args": args, "id": new_call_id()}])


# ---------------------------------------------------------------- json


def parse_json_reply(text: str) -> Parsed:
    """Parse `{"thought", "action", "action_input"}` or `{"thought", "final"}`, leniently."""
    fenced = _FENCE_RE.search(text)
    body = fenced.group(1) if fenced else text
    if "{" not in body:
        plain = body.strip()
        return Parsed(final=plain) if plain else Parsed(problem="the reply is empty")
    value, problem = _first_json_object(body)
    if problem:
        return Parsed(problem=problem)
    if not isinstance(value, dict):
        return Parsed(problem="the reply must be one JSON object")
    thought = str(value.get("thought", "") or "")
    if "final" in value or "final_answer" in value:
        return Parsed(thought=thought, final=str(value.get("final", value.get("final_answer")) or ""))
    action = value.get("action")
    if not action or not isinstance(action, str):
        return Parsed(thought=thought, problem='the object has neither "action" nor "final"')
    args = value.get("action_input", value.get("args", {}))
    if isinstance(args, str):
        parsed, args_problem = _first_json_object(args) if args.strip() else ({}, None)
        if args_problem:
            return Parsed(thought=thought, problem=f"action_input of {action}: {args_problem}")
        args = parsed
    if args is None:
        args = {}
    if not isinstance(args, dict):
        return Parsed(thought=thought, problem=f"action_input of {action} must be a JSON object")
    return Parsed(thought=thought, calls=[{"name": action.strip(), "args": args, "id": new_call_id()}])


# ---------------------------------------------------------------- normalisation


def to_ai_message(parsed: Parsed, raw: AIMessage, protocol: Protocol) -> AIMessage:
    """Turn a parsed text reply into the same AIMessage shape native function calling gives."""
    meta = {"protocol": protocol, "raw": raw.content}
    usage = raw.usage_metadata
    if parsed.problem:
        expected = "Thought / Action / Action Input, or Thought / Final Answer" if protocol == "react" else (
            'one JSON object with "action" and "action_input", or "final"'
        )
        return AIMessage(
            content=str(raw.content),
            invalid_tool_calls=[
                {
                    "type": "invalid_tool_call",
                    "name": FORMAT_ERROR_NAME,
                    "args": str(raw.content)[:2000],
                    "id": new_call_id(),
                    "error": prompts.FORMAT_CORRECTION.format(problem=parsed.problem, expected=expected),
                }
            ],
            response_metadata=meta,
            usage_metadata=usage,
        )
    if parsed.final is not None:
        content = parsed.final
        meta["thought"] = parsed.thought
        return AIMessage(content=content, response_metadata=meta, usage_metadata=usage)
    return AIMessage(
        content=parsed.thought,
        tool_calls=[{"type": "tool_call", **c} for c in parsed.calls],
        response_metadata=meta,
        usage_metadata=usage,
    )


def parse_reply(raw: AIMessage, protocol: Protocol) -> AIMessage:
    """Normalise a model reply of any protocol into an AIMessage with tool_calls."""
    if protocol == "native":
        return raw
    text = raw.content if isinstance(raw.content, str) else _text_of(raw.content)
    parsed = parse_react(text) if protocol == "react" else parse_json_reply(text)
    return to_ai_message(parsed, raw, protocol)


def _text_of(content: Any) -> str:
    if isinstance(content, list):
        return "".join(p.get("text", "") if isinstance(p, dict) else str(p) for p in content)
    return str(content)


# ---------------------------------------------------------------- rendering history for text protocols


def render_ai_as_text(msg: AIMessage, protocol: Protocol) -> str:
    """A past reply as the model would have written it: its own text when it wrote one (so a local model's
    prompt cache still holds it), else rendered from the parsed thought, action or answer."""
    meta = msg.response_metadata or {}
    raw = meta.get("raw")
    if isinstance(raw, str) and raw.strip() and meta.get("protocol") == protocol and not meta.get("ungrounded"):
        return raw
    thought = meta.get("thought", "")
    if msg.invalid_tool_calls and not msg.tool_calls:
        return str(meta.get("raw", msg.content))
    if not msg.tool_calls:
        if protocol == "react":
            return (f"Thought: {thought}\n" if thought else "") + f"Final Answer: {msg.content}"
        return json.dumps({"thought": thought, "final": msg.content}, ensure_ascii=False)
    call = msg.tool_calls[0]
    if protocol == "react":
        return (
            f"Thought: {msg.content or '...'}\nAction: {call['name']}\n"
            f"Action Input: {json.dumps(call['args'], ensure_ascii=False)}"
        )
    return json.dumps(
        {"thought": msg.content, "action": call["name"], "action_input": call["args"]}, ensure_ascii=False
    )


def render_for_text_protocol(messages: list[AnyMessage], protocol: Protocol) -> list[AnyMessage]:
    """History as plain user/assistant turns: tool results become `Observation:` user messages.

    Every group of observations ends with the nudge that repeats the person's question (small models
    otherwise keep calling tools). It is rendered the same way in every later prompt, so a prompt cache
    re-reads only what is new.
    """
    out: list[AnyMessage] = []
    observations: list[str] = []
    asked = ""

    def flush(following: AnyMessage | None) -> None:
        if not observations:
            return
        # The nudge stands where the model read it: after the last observations, and after those the model
        # went on from. A fixed answer after observations was written without a model call, so the model never
        # read a nudge there, and none is rendered (fewer tokens for the next call to read).
        if following is None or not (following.response_metadata or {}).get(NO_MODEL_CALL):
            observations.append(prompts.NEXT_STEP_NUDGE[protocol][language_of(asked)].format(question=asked[:300]))
        out.append(HumanMessage(content="\n".join(observations)))
        observations.clear()

    for msg in messages:
        if isinstance(msg, ToolMessage):
            observations.append(prompts.OBSERVATION_PREFIX + str(msg.content))
            continue
        flush(msg)
        if isinstance(msg, AIMessage):
            out.append(AIMessage(content=render_ai_as_text(msg, protocol)))
        elif isinstance(msg, SystemMessage):
            out.append(msg)
        else:
            asked = str(msg.content)
            out.append(HumanMessage(content=asked))
    flush(None)
    return out
