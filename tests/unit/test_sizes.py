"""Sizes hold (issue 35): no product module under tools/, state/, graph/, flowagent/ or evals/ is over 400 lines,
and no function in them over 80. Read from the source with `ast`; a function's size is `end_lineno - lineno + 1` (its
decorators left out)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("tools", "state", "graph", "flowagent", "evals")
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 80


def sources() -> list[Path]:
    """Every Python module of the measured packages."""
    return sorted(path for package in PACKAGES for path in (ROOT / package).rglob("*.py"))


def functions(tree: ast.AST, prefix: str = "") -> Iterator[tuple[str, int]]:
    """Each function and method of a module (nested ones too), by qualified name, with its size in lines."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            name = f"{prefix}{node.name}"
            yield name, (node.end_lineno or node.lineno) - node.lineno + 1
            yield from functions(node, f"{name}.")
        elif isinstance(node, ast.ClassDef):
            yield from functions(node, f"{prefix}{node.name}.")
        else:
            yield from functions(node, prefix)


def test_the_measure_sees_every_package():
    found = {path.relative_to(ROOT).parts[0] for path in sources()}
    assert found == set(PACKAGES) and len(sources()) > 50


def test_the_measure_counts_a_function_from_def_to_its_last_line():
    source = "class A:\n    @staticmethod\n    def f():\n        def g():\n            pass\n\n        return g\n"
    assert dict(functions(ast.parse(source))) == {"A.f": 5, "A.f.g": 2}


def test_no_module_is_over_400_lines():
    long = {}
    for path in sources():
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_MODULE_LINES:
            long[str(path.relative_to(ROOT))] = lines
    assert long == {}


def test_no_function_is_over_80_lines():
    long = {}
    for path in sources():
        for name, lines in functions(ast.parse(path.read_text(encoding="utf-8"))):
            if lines > MAX_FUNCTION_LINES:
                long[f"{path.relative_to(ROOT)}:{name}"] = lines
    assert long == {}
