"""A scripted reply checked, then made into OpenAI chat completion objects: whole, or as stream chunks."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

ReplyFn = Callable[[dict[str, Any]], Any]
"""A dynamic reply: called with the parsed request body, returns a static reply (or another callable)."""

Reply = str | dict[str, Any] | ReplyFn
"""A plain string (assistant text), a reply dict, or a callable returning one of those."""

MODEL_ID = "scripted"
REPLY_KEYS = frozenset({"content", "tool_calls", "finish_reason", "delay_s", "http_status", "error"})
MAX_CALLABLE_DEPTH = 8


class ReplyError(ValueError):
    """A reply in the script (or returned by a callable reply) has an invalid shape."""


def validate_reply(reply: Any) -> None:
    """Raise ReplyError unless ``reply`` is a well-formed string or reply dict (callables are accepted)."""
    if callable(reply) or isinstance(reply, str):
        return
    if not isinstance(reply, dict):
        raise ReplyError(f"a reply must be a str, a dict or a callable, not {type(reply).__name__}")
    unknown = set(reply) - REPLY_KEYS
    if unknown:
        raise ReplyError(f"unknown reply keys {sorted(unknown)}; allowed: {sorted(REPLY_KEYS)}")
    if "http_status" in reply:
        status = reply["http_status"]
        if not isinstance(status, int) or not 100 <= status <= 599:
            raise ReplyError(f"http_status must be an int HTTP status, got {status!r}")
    if not isinstance(reply.get("error", {}), dict):
        raise ReplyError("error must be a dict like {'message': ..., 'type': ..., 'code': ...}")
    content = reply.get("content")
    if content is not None and not isinstance(content, str):
        raise ReplyError(f"content must be a str or None, got {type(content).__name__}")
    delay = reply.get("delay_s", 0)
    if not isinstance(delay, int | float) or delay < 0:
        raise ReplyError(f"delay_s must be a non-negative number, got {delay!r}")
    tool_calls = reply.get("tool_calls") or []
    if not isinstance(tool_calls, list):
        raise ReplyError("tool_calls must be a list")
    for call in tool_calls:
        if not isinstance(call, dict) or not isinstance(call.get("name"), str):
            raise ReplyError(f"each tool call needs a str 'name', got {call!r}")
        args = call.get("arguments", {})
        if not isinstance(args, dict | str):
            raise ReplyError(f"tool call arguments must be a dict or a JSON string, got {args!r}")


def resolve(reply: Any, request: dict[str, Any]) -> dict[str, Any]:
    """Call callable replies with the request, validate, and return the reply as a dict."""
    for _ in range(MAX_CALLABLE_DEPTH):
        if not callable(reply):
            break
        reply = reply(request)
    else:
        raise ReplyError(f"callable replies nested deeper than {MAX_CALLABLE_DEPTH}")
    validate_reply(reply)
    if isinstance(reply, str):
        return {"content": reply}
    return dict(reply)


def tool_calls(reply: dict[str, Any], seq: int) -> list[dict[str, Any]]:
    """OpenAI-shaped tool calls (arguments as a JSON string) with deterministic default ids."""
    out: list[dict[str, Any]] = []
    for i, call in enumerate(reply.get("tool_calls") or []):
        args = call.get("arguments", {})
        out.append(
            {
                "id": str(call.get("id") or f"call_{seq}_{i}"),
                "type": "function",
                "function": {
                    "name": call["name"],
                    "arguments": args if isinstance(args, str) else json.dumps(args),
                },
            }
        )
    return out


def usage(request: dict[str, Any], content: str | None, calls: list[dict[str, Any]]) -> dict[str, int]:
    """Token counts estimated at four characters a token, never zero for the completion."""
    prompt_tokens = len(json.dumps(request.get("messages", []))) // 4
    produced = len(content or "") + sum(len(c["function"]["name"]) + len(c["function"]["arguments"]) for c in calls)
    completion_tokens = max(1, produced // 4)
    return {
        "prompt_tokens": prompt_tokens,
        "completion_tokens": completion_tokens,
        "total_tokens": prompt_tokens + completion_tokens,
    }


def error_body(message: str, type_: str, code: str | None = None, param: str | None = None) -> dict[str, Any]:
    return {"error": {"message": message, "type": type_, "param": param, "code": code}}


def split(text: str, parts: int) -> list[str]:
    """Split ``text`` into up to ``parts`` non-empty pieces (so streaming exercises delta accumulation)."""
    if not text:
        return []
    size = max(1, -(-len(text) // parts))
    return [text[i : i + size] for i in range(0, len(text), size)]


@dataclass(frozen=True)
class Completion:
    """One answer to a chat completion request, before it is sent whole or streamed."""

    id: str
    created: int
    model: str
    content: str | None
    calls: list[dict[str, Any]]
    finish: str
    usage: dict[str, int]


def completion(answer: Completion) -> dict[str, Any]:
    """The whole chat.completion object, as OpenAI returns it when the request does not stream."""
    message: dict[str, Any] = {"role": "assistant", "content": answer.content, "refusal": None}
    if answer.calls:
        message["tool_calls"] = answer.calls
    elif answer.content is None:
        message["content"] = ""
    return {
        "id": answer.id,
        "object": "chat.completion",
        "created": answer.created,
        "model": answer.model,
        "system_fingerprint": None,
        "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": answer.finish}],
        "usage": answer.usage,
    }


def stream_chunks(answer: Completion, include_usage: bool) -> Iterator[dict[str, Any]]:
    """chat.completion.chunk objects in the order OpenAI sends them (the usage last, when it was asked for)."""
    base: dict[str, Any] = {
        "id": answer.id,
        "object": "chat.completion.chunk",
        "created": answer.created,
        "model": answer.model,
        "system_fingerprint": None,
    }
    if include_usage:
        base["usage"] = None

    def chunk(delta: dict[str, Any], finish_reason: str | None = None) -> dict[str, Any]:
        choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish_reason}
        return {**base, "choices": [choice]}

    content, calls = answer.content, answer.calls
    yield chunk({"role": "assistant", "content": "" if content is not None or not calls else None})
    for piece in split(content or "", 3):
        yield chunk({"content": piece})
    for index, call in enumerate(calls):
        head = {"index": index, "id": call["id"], "type": "function"}
        yield chunk({"tool_calls": [{**head, "function": {"name": call["function"]["name"], "arguments": ""}}]})
        for piece in split(call["function"]["arguments"], 2):
            yield chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
    yield chunk({}, answer.finish)
    if include_usage:
        yield {**base, "choices": [], "usage": answer.usage}
