"""The layout holds: the engine and the apps import no toolset, only the apps take a toolset's surfaces, imports never
run back up the layers (the graph imports none of the apps), and no module imports itself round a circle. Read from the
source with `ast`, so a lazy import inside a function counts too."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("flowagent", "graph", "state", "tools", "evals")
TOOLSET_PACKAGES = ("tools.workflow", "tools.toy", "tools.travel")
LAYER = {"evals": 4, "flowagent": 3, "graph": 2, "state": 1, "tools": 0}
"""A module may import from its own layer or below: evals → flowagent (the apps and the chat model's provisioning) →
graph → state → tools."""
APP_ROOMS = ("cli", "app", "chat", "server", "models")
"""The apps and the chat model's provisioning, which live in flowagent/ and never in graph/."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@functools.cache
def parsed(path: Path) -> ast.Module:
    """A source file's syntax tree, parsed once for all the tests here."""
    return ast.parse(path.read_text(encoding="utf-8"))


def imports_of(path: Path) -> set[str]:
    """The project modules a file imports (absolute imports only: the project uses no relative ones)."""
    found: set[str] = set()
    for node in ast.walk(parsed(path)):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            # `from graph import prompts` imports graph.prompts; `from tools import WorkflowStore` imports tools
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return {name for name in found if name.split(".")[0] in PACKAGES}


@functools.cache
def modules() -> dict[str, set[str]]:
    """Each project module and the project modules it imports, read from the source once for all the tests here."""
    graph: dict[str, set[str]] = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            graph[module_name(path)] = imports_of(path)
    known = set(graph)
    # `from tools import WorkflowStore` names an attribute, not a module: keep the longest prefix that is a module
    return {m: {_module_of(i, known) for i in imports} - {m} for m, imports in graph.items()}


def _module_of(name: str, known: set[str]) -> str:
    while name not in known and "." in name:
        name = name.rsplit(".", 1)[0]
    return name


def is_engine(module: str) -> bool:
    return module.split(".")[0] in ("graph", "state") or (
        module.split(".")[0] == "tools" and not module.startswith(TOOLSET_PACKAGES)
    )


def is_app(module: str) -> bool:
    return module.split(".")[0] == "flowagent"


def test_the_engine_and_the_apps_import_no_toolset_package():
    """The apps take a toolset as the engine does, by name through `tools.toolsets`, never by importing its package."""
    engine = [m for m in modules() if is_engine(m)]
    apps = [m for m in modules() if is_app(m)]
    assert len(engine) > 40 and {"graph.builder", "tools.grounding", "state"} <= set(engine)
    assert {"flowagent.cli", "flowagent.app"} <= set(apps)
    wrong = sorted(
        f"{m} imports {i}" for m, imports in modules().items() if is_engine(m) or is_app(m) for i in imports
        if i.startswith(TOOLSET_PACKAGES)
    )
    assert wrong == []


def test_the_engine_uses_no_toolset_name_the_tools_package_re_exports():
    """`tools/__init__.py` re-exports the workflow's WorkflowStore, Mailer and REGISTRY for the public contract, loaded
    on first use; the engine and the apps never ask for them."""
    from tools import _WORKFLOW_EXPORTS

    wrong = []
    for package in ("flowagent", "graph", "state", "tools"):
        for path in (ROOT / package).rglob("*.py"):
            module = module_name(path)
            if not (is_engine(module) or is_app(module)) or path.name == "__init__.py" and package == "tools":
                continue
            for node in ast.walk(parsed(path)):
                if isinstance(node, ast.ImportFrom) and node.module == "tools":
                    wrong += [f"{module} imports tools.{a.name}" for a in node.names if a.name in _WORKFLOW_EXPORTS]
    assert wrong == []


def test_only_the_apps_take_a_toolsets_surfaces():
    """A toolset's surfaces (`/help`, slash commands, the page's panels, subcommands) are the apps': no engine module
    reads `.surfaces` or imports `tools.surfaces`, but `tools.toolset`, which declares them."""
    wrong = []
    for package in ("graph", "state", "tools"):
        for path in (ROOT / package).rglob("*.py"):
            module = module_name(path)
            if not is_engine(module) or module in ("tools.toolset", "tools.surfaces"):
                continue
            wrong += [f"{module} imports tools.surfaces" for i in modules()[module] if i == "tools.surfaces"]
            wrong += [f"{module}:{node.lineno} reads .surfaces" for node in ast.walk(parsed(path))
                      if isinstance(node, ast.Attribute) and node.attr == "surfaces"]
    assert wrong == []


def test_no_import_runs_back_up_the_layers():
    wrong = sorted(
        f"{m} imports {i}" for m, imports in modules().items() for i in imports
        if LAYER[i.split(".")[0]] > LAYER[m.split(".")[0]]
    )
    assert wrong == []


def test_the_graph_holds_and_imports_none_of_the_apps():
    """graph/ is the graph alone: the chat, the server, the command line and the chat model's provisioning live in
    flowagent/, which imports the graph; nothing in graph/ imports them back (a model reaches the graph as
    `build_graph(model=...)`: a chat model or a function of the run's `Context`)."""
    wrong = sorted(
        f"{m} imports {i}" for m, imports in modules().items() if m.split(".")[0] == "graph" for i in imports if is_app(i)
    )
    assert wrong == []
    held = sorted(m for m in modules() if any(m == f"graph.{room}" or m.startswith(f"graph.{room}.") for room in APP_ROOMS))
    assert held == []


def test_a_node_imports_no_other_node():
    wrong = sorted(
        f"{m} imports {i}" for m, imports in modules().items() if m.startswith("graph.nodes.") for i in imports
        if i.startswith("graph.nodes.")
    )
    assert wrong == []


def test_there_is_no_import_circle():
    graph = modules()
    circles: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the path, 2: done

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for target in sorted(graph.get(module, ())):
            if state.get(target) == 1:
                circles.append([*path[path.index(target):], target] if target in path else [module, target])
            elif target not in state:
                visit(target, [*path, target])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    assert circles == []
