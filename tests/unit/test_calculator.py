"""The toy calculator: arithmetic by a syntax-tree walk, and a readable refusal for everything else."""

from __future__ import annotations

import pytest

from tools.toy.calculator import MAX_EXPRESSION_CHARS, CalculatorError, calculate


@pytest.mark.parametrize(
    ("expression", "value"),
    [
        ("1 + 2 * 3", 7), ("(29 - 26) * 2", 6), ("10 / 4", 2.5), ("7 // 2", 3), ("7 % 4", 3), ("2 ** 10", 1024),
        ("-3 ** 2", -9), ("+5 - -5", 10), ("0.1 + 0.2", 0.3), ("6 / 3", 2), ("3×4", 12), ("8÷2", 4), ("2^8", 256),
        ("（1＋2）＊3", 9), ("2 ** -1", 0.5),
    ],
)
def test_calculator_computes_arithmetic(expression, value):
    assert calculate(expression) == value


@pytest.mark.parametrize(
    ("expression", "code", "words"),
    [
        ("1 / 0", "calc_division_by_zero", "Division by zero"),
        ("5 // (2 - 2)", "calc_division_by_zero", "Division by zero"),
        ("5 % 0", "calc_division_by_zero", "Division by zero"),
        ("0 ** -1", "calc_division_by_zero", "divides by zero"),
        ("x + 1", "calc_unknown_name", "'x' is not a number"),
        ("pi * 2", "calc_unknown_name", "names are not allowed"),
        ("__import__('os').system('id')", "calc_not_allowed", "A function call is not allowed"),
        ("(1).real", "calc_not_allowed", "An attribute is not allowed"),
        ("[1, 2][0]", "calc_not_allowed", "not allowed"),
        ("lambda: 1", "calc_not_allowed", "A lambda is not allowed"),
        ("1 < 2", "calc_not_allowed", "A comparison is not allowed"),
        ("1 & 3", "calc_not_allowed", "& is not allowed"),
        ("'a' * 3", "calc_not_a_number", "'a' is not a number"),
        ("True + 1", "calc_not_a_number", "True is not a number"),
        ("2 ** 100000", "calc_too_large", "exponent 100000 is too large"),
        ("9 ** 999 * 9 ** 999", "calc_too_large", "more than 400 digits"),
        ("1e308 * 10", "calc_too_large", "too large"),
        ("(-8) ** 0.5", "calc_not_real", "not a real number"),
        ("1 +", "calc_syntax", "is not an arithmetic expression"),
        ("", "calc_empty", "empty"),
        ("1+" * 150 + "1", "calc_too_long", f"at most {MAX_EXPRESSION_CHARS}"),
        ("-" * 70 + "1", "calc_too_long", "nests deeper"),
    ],
)
def test_calculator_refuses_with_a_readable_error(expression, code, words):
    with pytest.raises(CalculatorError) as refused:
        calculate(expression)
    assert refused.value.code == code
    assert words in refused.value.message


def test_calculator_never_runs_code(tmp_path):
    marker = tmp_path / "pwned"
    with pytest.raises(CalculatorError):
        calculate(f"__import__('pathlib').Path('{marker}').touch()")
    assert not marker.exists()
