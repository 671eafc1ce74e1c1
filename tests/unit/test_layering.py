"""The engine imports no toolset: `graph/`, `state/` and `tools/` outside its toolset packages name none of
`tools.workflow`, `tools.toy`, `tools.travel` in any import (a toolset plugs in through its `Toolset` hooks)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOOLSETS = ("tools.workflow", "tools.toy", "tools.travel")


def engine_files() -> list[Path]:
    files = [*ROOT.joinpath("graph").rglob("*.py"), *ROOT.joinpath("state").rglob("*.py")]
    tools = ROOT / "tools"
    files += [p for p in tools.rglob("*.py") if p.relative_to(tools).parts[0] not in ("workflow", "toy", "travel")]
    return sorted(files)


def imported(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
            names += [f"{node.module}.{alias.name}" for alias in node.names]
    return names


def test_the_engine_imports_no_toolset() -> None:
    files = engine_files()
    assert len(files) > 40 and ROOT / "graph" / "cli.py" in files and ROOT / "tools" / "grounding.py" in files
    offending = {
        str(path.relative_to(ROOT)): names
        for path in files
        if (names := [n for n in imported(path) if n.startswith(TOOLSETS)])
    }
    assert offending == {}
