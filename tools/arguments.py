"""A tool call's raw arguments read and explained: decoded into a JSON object or refused, a validation error worded
for the model, and the tool as the model sees it (an OpenAI function definition)."""

from __future__ import annotations

import json
from typing import Any, Protocol

from pydantic import BaseModel, ValidationError

from tools.errors import InvalidArgumentsError


class Tool(Protocol):
    """What these helpers read of a tool (`tools.spec.ToolSpec`)."""

    @property
    def name(self) -> str: ...

    @property
    def args_model(self) -> type[BaseModel]: ...


def decode(tool: Tool, raw: Any) -> dict[str, Any]:
    """Raw arguments (a dict or a JSON string) as a dict, refused when they are not a JSON object."""
    if raw is None:
        raw = {}
    if isinstance(raw, str):
        try:
            raw = json.loads(raw) if raw.strip() else {}
        except (ValueError, RecursionError) as exc:  # JSONDecodeError, too many digits, too deep
            reason = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)[:80]
            raise InvalidArgumentsError(
                "invalid_json",
                f"The arguments of {tool.name} are not valid JSON ({reason}); "
                'send a JSON object such as {"taskId": "task_1"}.',
            ) from exc
    if not isinstance(raw, dict):
        raise InvalidArgumentsError(
            "invalid_arguments", f"The arguments of {tool.name} must be a JSON object, not {type(raw).__name__}."
        )
    bad = first_unencodable(raw)
    if bad is not None:
        raise InvalidArgumentsError(
            "invalid_arguments",
            f"The arguments of {tool.name} contain text that is not valid Unicode ({bad}); send plain UTF-8 text.",
        )
    return raw


def first_unencodable(raw: Any) -> str | None:
    """The first string (key or value, at any depth) that cannot be stored as UTF-8, e.g. a lone surrogate."""
    pending, seen = [raw], set()
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError as exc:
                return f"{exc.reason} at position {exc.start}"
        elif isinstance(item, dict | list | tuple) and id(item) not in seen:  # iterative, cycle-safe
            seen.add(id(item))
            pending.extend([*item.keys(), *item.values()] if isinstance(item, dict) else item)
    return None


def describe_validation_error(spec: Tool, exc: ValidationError) -> str:
    """A short, actionable explanation of a pydantic validation error."""
    parts = []
    for err in exc.errors()[:5]:
        loc = ".".join(str(p) for p in err["loc"]) or "arguments"
        if err["type"] == "extra_forbidden":
            if spec.args_model.model_fields:
                allowed = ", ".join(spec.args_model.model_fields)
                parts.append(f"{loc} is not a parameter of {spec.name} (parameters: {allowed})")
            else:
                parts.append(f"{spec.name} takes no parameters: call it with {{}}")
        elif err["type"] == "missing":
            parts.append(f"{loc} is required")
        else:
            msg = err["msg"].removeprefix("Value error, ")
            parts.append(f"{loc}: {msg}")
    return f"Invalid arguments for {spec.name}: " + "; ".join(parts) + "."


def openai_definition(tool: Tool, description: str, params: dict[str, bool]) -> dict[str, Any]:
    """The tool as an OpenAI function-calling definition: `params` are the parameters the model sees, each with
    whether it must give it; the others are left out of the argument model's schema."""
    schema = tool.args_model.model_json_schema()
    schema.pop("title", None)
    properties = {k: v for k, v in schema.get("properties", {}).items() if k in params}
    for prop in properties.values():
        prop.pop("title", None)
        prop.pop("default", None)
    schema["properties"] = properties
    schema["required"] = [k for k, required in params.items() if required]
    if not schema["required"]:
        schema.pop("required")
    schema["additionalProperties"] = False
    return {"type": "function", "function": {"name": tool.name, "description": description, "parameters": schema}}
