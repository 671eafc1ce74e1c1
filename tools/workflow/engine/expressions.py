"""Expressions in BPMN: gateway conditions and assignment rules, in Python syntax on the instance data.

A condition is a Python expression as SpiffWorkflow evaluates it (`approved and days > 3`); Camunda's `${...}`
(or `#{...}`) wrapper is accepted and stripped when the BPMN is parsed. An expression may use the instance
data's names, constants, comparisons, `and`/`or`/`not`, arithmetic, `in`, indexing and a few pure functions
(`len`, `min`, `max`, `abs`, `round`, `int`, `float`, `str`, `bool`, `any`, `all`); attribute access, other calls,
lambdas and comprehensions are refused at deploy time and evaluated with no builtins at run time, so a deployed
file cannot run code in the assistant's process.
"""

from __future__ import annotations

import ast
import re
from functools import lru_cache
from typing import Any

from SpiffWorkflow.bpmn.script_engine.python_engine import PythonScriptEngine
from SpiffWorkflow.bpmn.script_engine.python_environment import TaskDataEnvironment

FUNCTIONS: dict[str, Any] = {
    "len": len, "min": min, "max": max, "abs": abs, "round": round, "int": int, "float": float, "str": str,
    "bool": bool, "any": any, "all": all,
}
"""The functions an expression may call."""

DECISION_DEFAULTS: dict[str, Any] = {"approved": None, "comment": "", "history": []}
"""Names every expression may read before any decision set them (a gateway before the first user task)."""

_WRAPPED = re.compile(r"^\s*[$#]\{(?P<inner>.*)\}\s*$", re.DOTALL)

_ALLOWED_NODES: tuple[type[ast.AST], ...] = (
    ast.Expression, ast.BoolOp, ast.And, ast.Or, ast.UnaryOp, ast.Not, ast.USub, ast.UAdd, ast.BinOp, ast.Add,
    ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Compare, ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt,
    ast.GtE, ast.In, ast.NotIn, ast.Is, ast.IsNot, ast.Name, ast.Load, ast.Constant, ast.List, ast.Tuple, ast.Set,
    ast.Subscript, ast.Slice, ast.IfExp, ast.Call,
)


class ExpressionError(ValueError):
    """An expression that does not parse, or uses something expressions may not use. `code` says which."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def unwrap(text: str | None) -> str:
    """The expression without Camunda's `${...}` / `#{...}` wrapper and surrounding blanks ("" for None)."""
    if text is None:
        return ""
    match = _WRAPPED.match(text)
    return (match.group("inner") if match else text).strip()


def is_wrapped(text: str) -> bool:
    """True for `${...}` / `#{...}`."""
    return _WRAPPED.match(text) is not None


def split_entries(text: str) -> list[str]:
    """A Camunda list attribute (`candidateUsers`, `candidateGroups`): `a, ${b}` → ["a", "${b}"].

    Commas inside `${...}` do not split.
    """
    entries, depth, current = [], 0, ""
    for char in text:
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
        if char == "," and depth == 0:
            entries.append(current.strip())
            current = ""
        else:
            current += char
    entries.append(current.strip())
    return [entry for entry in entries if entry]


def check(expression: str, names: set[str] | None = None) -> set[str]:
    """Refuse an expression that does not parse or is not allowed; returns the data names it reads.

    With `names`, a name outside them (and outside the functions) is refused too (`unknown_name`): a typo such
    as `aproved` is found at deploy time, not when the first request reaches the gateway.
    """
    hint = ""
    if "&&" in expression or "||" in expression or re.search(r"(^|[^=!<>])!(?!=)", expression):
        hint = " Write Python: `and`, `or`, `not` instead of &&, ||, !."
    try:
        tree = ast.parse(expression, mode="eval")
    except SyntaxError as exc:
        raise ExpressionError("bad_condition", f"`{expression}` is not a Python expression ({exc.msg}).{hint}") from None
    read: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, _ALLOWED_NODES):
            raise ExpressionError(
                "unsafe_condition",
                f"`{expression}` uses {type(node).__name__}, which conditions may not use: only data names, constants, "
                f"comparisons, and/or/not, arithmetic, `in`, indexing and the functions {', '.join(FUNCTIONS)}.",
            )
        if isinstance(node, ast.Call):
            if not (isinstance(node.func, ast.Name) and node.func.id in FUNCTIONS) or node.keywords:
                raise ExpressionError(
                    "unsafe_condition",
                    f"`{expression}` calls something other than {', '.join(FUNCTIONS)} (without keyword arguments).",
                )
        if isinstance(node, ast.Name):
            if node.id.startswith("_"):
                raise ExpressionError("unsafe_condition", f"`{expression}` reads `{node.id}`: names may not start with _.")
            if node.id not in FUNCTIONS:
                read.add(node.id)
    if names is not None:
        unknown = sorted(read - names)
        if unknown:
            literals = {"true": "True", "false": "False", "null": "None"}
            python = [f"{word} → {literals[word]}" for word in unknown if word in literals]
            hint = f" Write Python literals: {', '.join(python)}." if python else ""
            raise ExpressionError(
                "unknown_name",
                f"`{expression}` reads {', '.join(unknown)}, which the instance data does not have; it has "
                f"{', '.join(sorted(names))}.{hint}",
            )
    return read


@lru_cache(maxsize=1024)
def _checked(expression: str) -> str:
    check(expression)
    return expression


class SafeEnvironment(TaskDataEnvironment):
    """SpiffWorkflow's task-data environment with no builtins but `FUNCTIONS`, and every expression re-checked."""

    def __init__(self) -> None:
        super().__init__({"__builtins__": {}, **FUNCTIONS, **DECISION_DEFAULTS})

    def evaluate(self, expression: str, context: dict[str, Any], external_context: dict[str, Any] | None = None) -> Any:
        return super().evaluate(_checked(unwrap(expression)), context, external_context)

    def execute(self, script: str, context: dict[str, Any], external_context: dict[str, Any] | None = None) -> bool:
        raise ExpressionError("unsafe_condition", "scripts are not run by this engine")


SCRIPT_ENGINE = PythonScriptEngine(environment=SafeEnvironment())
"""The script engine every workflow runs with (conditions only)."""


def evaluate(expression: str, data: dict[str, Any]) -> Any:
    """Evaluate a checked expression on instance data (assignment rules), the way gateway conditions are."""
    return SafeEnvironment().evaluate(expression, dict(data))
