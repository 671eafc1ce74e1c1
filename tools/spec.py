"""Tool specs and the registry that renders them for models (OpenAI schemas and a plain-text list)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ValidationError

from tools.errors import InvalidArgumentsError

if TYPE_CHECKING:
    from sqlalchemy import Connection

    from tools.runtime import CallContext

UNKNOWN_TOOL_TEMPLATE = "{name} is not a valid tool; use one of: {available}."


class Effect(StrEnum):
    """Whether a tool only reads the store or changes it."""

    READ = "read"
    WRITE = "write"


RefKind = Literal["user", "task", "process"]


@dataclass(frozen=True)
class Reference:
    """An argument that names a record which must exist (checked before the tool runs)."""

    param: str
    kind: RefKind


Handler = Callable[["Connection", "CallContext", Any], dict[str, Any]]


@dataclass(frozen=True)
class ToolSpec:
    """Everything the graph needs to know about one tool."""

    name: str
    description: str
    args_model: type[BaseModel]
    effect: Effect
    handler: Handler
    requires_approval: bool = False
    references: tuple[Reference, ...] = ()
    identity_params: tuple[str, ...] = ()
    person_named: tuple[str, ...] = ()
    """User arguments the person must have named in the conversation (the model never picks an approver)."""
    """Arguments that must equal the session's actor (the actor never comes from the model)."""
    precheck: Callable[[Connection, CallContext, Any], list[str]] | None = None
    """The policy check that runs before the effect, without side effects; returns notes for the reviewer."""

    def parse(self, raw: Any) -> BaseModel:
        """Validate raw arguments (a dict or a JSON string) into the argument model."""
        if raw is None:
            raw = {}
        if isinstance(raw, str):
            try:
                raw = json.loads(raw) if raw.strip() else {}
            except (ValueError, RecursionError) as exc:  # JSONDecodeError, too many digits, too deep
                reason = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)[:80]
                raise InvalidArgumentsError(
                    "invalid_json",
                    f"The arguments of {self.name} are not valid JSON ({reason}); "
                    'send a JSON object such as {"taskId": "task_1"}.',
                ) from exc
        if not isinstance(raw, dict):
            raise InvalidArgumentsError(
                "invalid_arguments", f"The arguments of {self.name} must be a JSON object, not {type(raw).__name__}."
            )
        bad = _first_unencodable(raw)
        if bad is not None:
            raise InvalidArgumentsError(
                "invalid_arguments",
                f"The arguments of {self.name} contain text that is not valid Unicode ({bad}); send plain UTF-8 text.",
            )
        try:
            return self.args_model.model_validate(raw)
        except ValidationError as exc:
            raise InvalidArgumentsError("invalid_arguments", describe_validation_error(self, exc)) from exc

    def missing_required(self, raw: dict[str, Any]) -> list[str]:
        """Required parameters absent (or blank) in raw arguments."""
        missing = []
        for name in self.required_params():
            value = raw.get(name)
            if value is None or (isinstance(value, str) and not value.strip()):
                missing.append(name)
        return missing

    def required_params(self) -> list[str]:
        return [n for n, f in self.args_model.model_fields.items() if f.is_required()]

    def openai_schema(self) -> dict[str, Any]:
        """The tool as an OpenAI function-calling definition."""
        schema = self.args_model.model_json_schema()
        schema.pop("title", None)
        for prop in schema.get("properties", {}).values():
            prop.pop("title", None)
        schema.setdefault("properties", {})
        schema["additionalProperties"] = False
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": schema},
        }

    def text_signature(self) -> str:
        """One block of the plain-text tool list used by the text protocols."""
        lines = [f"- {self.name}: {self.description}"]
        for pname, field_info in self.args_model.model_fields.items():
            req = "required" if field_info.is_required() else "optional"
            ann = field_info.annotation
            type_name = getattr(ann, "__name__", str(ann)).replace("typing.", "")
            lines.append(f"    - {pname} ({type_name}, {req}): {field_info.description or ''}".rstrip())
        if not self.args_model.model_fields:
            lines.append("    (no parameters: use {})")
        return "\n".join(lines)


def _first_unencodable(raw: Any) -> str | None:
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


def describe_validation_error(spec: ToolSpec, exc: ValidationError) -> str:
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


class ToolRegistry:
    """The tools the agent may call, by name."""

    def __init__(self, specs: Iterable[ToolSpec]) -> None:
        self._specs = {s.name: s for s in specs}

    def __contains__(self, name: object) -> bool:
        return name in self._specs

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self._specs.values())

    def __len__(self) -> int:
        return len(self._specs)

    @property
    def names(self) -> list[str]:
        return list(self._specs)

    def get(self, name: str) -> ToolSpec:
        """The spec of a tool; unknown names raise an error that lists the available tools."""
        try:
            return self._specs[name]
        except KeyError:
            raise InvalidArgumentsError(
                "unknown_tool", UNKNOWN_TOOL_TEMPLATE.format(name=name, available=", ".join(self._specs))
            ) from None

    def openai_schemas(self) -> list[dict[str, Any]]:
        return [s.openai_schema() for s in self._specs.values()]

    def text_list(self) -> str:
        return "\n".join(s.text_signature() for s in self._specs.values())

    def approval_required(self) -> list[str]:
        return [s.name for s in self._specs.values() if s.requires_approval]
