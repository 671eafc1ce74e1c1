"""A safe arithmetic evaluator: the expression's syntax tree is walked, never `eval`-ed.

Numbers, + - * / // % **, unary plus and minus, and parentheses; nothing else parses. Every refusal is a
`CalculatorError` with a stable code and a message that says how to write the expression instead.
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable

from tools.errors import DomainError

MAX_EXPRESSION_CHARS = 200
MAX_EXPONENT = 1_000
"""The largest exponent `**` takes (2 ** 1000 has 302 digits; 10 ** 100000 would stall the process)."""
MAX_RESULT_DIGITS = 400
MAX_DEPTH = 60
"""The deepest nesting walked (a very deep expression exhausts the recursion limit first)."""

_BINARY: dict[type[ast.operator], Callable[[float, float], float]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}
_UNARY: dict[type[ast.unaryop], Callable[[float], float]] = {ast.UAdd: operator.pos, ast.USub: operator.neg}
_SYMBOLS = {"×": "*", "÷": "/", "（": "(", "）": ")", "＋": "+", "－": "-", "＊": "*", "／": "/", "^": "**"}
"""Signs people type that mean an operator here (full-width, ×, ÷, and ^ for a power)."""

Number = int | float
_WHAT: dict[type[ast.AST], str] = {
    ast.Call: "A function call", ast.Attribute: "An attribute", ast.Subscript: "An index", ast.Lambda: "A lambda",
    ast.Compare: "A comparison", ast.BoolOp: "and/or", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "xor",
    ast.LShift: "<<", ast.RShift: ">>", ast.Invert: "~", ast.Not: "not", ast.MatMult: "@",
}
"""How a refusal names what it found (anything else by its syntax-tree name)."""


class CalculatorError(DomainError):
    """An expression the calculator refuses or cannot compute."""


def normalise(expression: str) -> str:
    """The expression with the signs people type (×, ÷, full-width brackets, ^) as Python's operators."""
    for sign, op in _SYMBOLS.items():
        expression = expression.replace(sign, op)
    return expression.strip()


def parse(expression: str) -> ast.expr:
    """The syntax tree of an arithmetic expression; refuses over-long input, syntax errors and anything
    that is not a number, an operator or parentheses (names, calls, attributes, strings)."""
    text = normalise(expression)
    if not text:
        raise CalculatorError("calc_empty", "The expression is empty; send one such as \"(29 - 26) * 2\".")
    if len(text) > MAX_EXPRESSION_CHARS:
        raise CalculatorError(
            "calc_too_long", f"The expression has {len(text)} characters; at most {MAX_EXPRESSION_CHARS} are allowed."
        )
    try:
        tree = ast.parse(text, mode="eval").body
    except SyntaxError:
        raise CalculatorError(
            "calc_syntax", f"{text[:60]!r} is not an arithmetic expression; use numbers, + - * / // % ** and parentheses."
        ) from None
    _check(tree, 0)
    return tree


def _check(node: ast.AST, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise CalculatorError("calc_too_long", f"The expression nests deeper than {MAX_DEPTH} levels.")
    if isinstance(node, ast.Constant):
        if isinstance(node.value, bool) or not isinstance(node.value, int | float):
            raise CalculatorError("calc_not_a_number", f"{node.value!r} is not a number; only numbers can be computed.")
        return
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        _check(node.left, depth + 1)
        _check(node.right, depth + 1)
        return
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        _check(node.operand, depth + 1)
        return
    if isinstance(node, ast.Name):
        raise CalculatorError(
            "calc_unknown_name", f"{node.id!r} is not a number; names are not allowed in an expression (only numbers)."
        )
    kind = type(node.op) if isinstance(node, ast.BinOp | ast.UnaryOp) else type(node)
    what = _WHAT.get(kind, kind.__name__)
    raise CalculatorError(
        "calc_not_allowed", f"{what} is not allowed in an expression; use numbers, + - * / // % ** and parentheses only."
    )


def _evaluate(node: ast.expr) -> Number:
    if isinstance(node, ast.Constant):
        assert isinstance(node.value, int | float)  # checked by parse
        return node.value
    if isinstance(node, ast.UnaryOp):
        return _UNARY[type(node.op)](_evaluate(node.operand))
    assert isinstance(node, ast.BinOp)
    left, right = _evaluate(node.left), _evaluate(node.right)
    op = type(node.op)
    if op in (ast.Div, ast.FloorDiv, ast.Mod) and right == 0:
        raise CalculatorError("calc_division_by_zero", "Division by zero: the divisor is 0, so there is no result.")
    if op is ast.Pow and abs(right) > MAX_EXPONENT:
        raise CalculatorError("calc_too_large", f"The exponent {right:g} is too large; at most {MAX_EXPONENT} is allowed.")
    if op is ast.Pow and left == 0 and right < 0:
        raise CalculatorError("calc_division_by_zero", "0 to a negative power divides by zero, so there is no result.")
    value = _BINARY[op](left, right)
    if isinstance(value, complex):
        raise CalculatorError("calc_not_real", "The result is not a real number (a negative number to a fractional power).")
    if isinstance(value, int) and value.bit_length() > MAX_RESULT_DIGITS * 3.33:
        raise CalculatorError("calc_too_large", f"The result has more than {MAX_RESULT_DIGITS} digits.")
    if isinstance(value, float) and not math.isfinite(value):
        raise CalculatorError("calc_too_large", "The result is too large to compute.")
    return value


def calculate(expression: str) -> Number:
    """The value of an arithmetic expression; a whole float comes back as an int (29.0 → 29)."""
    try:
        value = _evaluate(parse(expression))
    except OverflowError:
        raise CalculatorError("calc_too_large", "The result is too large to compute.") from None
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return int(value)
    return round(value, 10) if isinstance(value, float) else value
