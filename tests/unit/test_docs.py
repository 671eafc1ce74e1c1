"""The documents hold: the README stays short, every relative link goes somewhere, every command shown is run by a
named test, the maps of the code name paths that exist, and the README's graph is the pinned drawing."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").rglob("*.md"))
README_MAX_LINES = 200

RUN_BY = {
    # `./run chat` sets up .venv and the offline model, then execs `flowagent chat`: the test drives that chat.
    "./run chat": "tests/e2e/test_chat_cli.py::test_chat_starts_leave_approves_reminder_and_resumes_after_restart",
    "./run web": "tests/e2e/test_run_web.py::test_run_web_prints_the_pages_address_with_its_port_after_the_servers_banner",
    # `./run serve` builds .venv-serve (as `./run test` does), then execs `python -m flowagent.server.serve`: the test runs that.
    "./run serve": "tests/e2e/test_serve.py::test_without_a_database_it_starts_local_postgresql_and_redis_and_serves",
    "./run test": ".ci/run",
    "./run test --fast": ".ci/run",
    "flowagent processes deploy my_process.bpmn": (
        "tests/unit/test_processes_cli.py::test_a_bpmn_file_is_deployed_as_the_next_version_and_listed"
    ),
    "flowagent processes list": "tests/unit/test_processes_cli.py::test_a_bpmn_file_is_deployed_as_the_next_version_and_listed",
}
"""Every command in a shell block of the README or a guide, and the test that runs it: `path::test` for a pytest test,
or a script that runs the command itself."""

SHOWN_IN = [README, *sorted((ROOT / "docs" / "guides").glob("*.md"))]
"""The documents whose shell blocks must be run by a test."""

MAPS = {README: "Map of the code", ROOT / "docs" / "development.md": "The code, module by module"}
"""The tables that map the code: the heading each sits under."""

BUILT = {"flowagent/server/static/"}
"""Paths a map names that `./run` builds (git-ignored), absent from a fresh clone."""

SHELL = {"bash", "sh", "shell", "console"}
FENCE = re.compile(r"^```([\w-]*)[^\n]*\n(.*?)^```", re.M | re.S)
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$", re.M)
FILE_LIKE = re.compile(r"^[\w.\-/]+(?:\.(?:py|md|json|toml|txt|sh|db|bpmn|mmd)|/)$")


def rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


def without_blocks(text: str) -> str:
    """The text with its fenced blocks blanked, their line count kept."""
    return FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), text)


def without_code(text: str) -> str:
    """The text with its fenced blocks blanked and its inline code removed."""
    return re.sub(r"`[^`\n]*`", "", without_blocks(text))


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped (but `-` and `_`), spaces as hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading).lower()
    kept = (c for c in text if c in " -" or c.isalnum() or unicodedata.category(c) in {"Mn", "Mc", "Me", "Pc"})
    return "".join(kept).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    found = set()
    for _, title in HEADING.findall(without_blocks(path.read_text(encoding="utf-8")).replace("`", "")):
        base = slug(title)
        n = seen.get(base, 0)
        seen[base] = n + 1
        found.add(base if n == 0 else f"{base}-{n}")
    return found


def links(path: Path) -> list[str]:
    return LINK.findall(without_code(path.read_text(encoding="utf-8")))


def shell_commands(path: Path) -> list[str]:
    """The commands of a document's shell blocks: comments dropped, continued lines joined, spaces collapsed."""
    commands = []
    for language, body in FENCE.findall(path.read_text(encoding="utf-8")):
        if language not in SHELL:
            continue
        for line in body.replace("\\\n", " ").splitlines():
            command = " ".join(re.split(r"(?:^|\s)#", line, maxsplit=1)[0].split())
            if command:
                commands.append(command)
    return commands


def map_rows(path: Path, heading: str) -> list[tuple[list[str], list[str]]]:
    """The rows of the table under `heading`: the paths of the first column, the code names of the second."""
    text = path.read_text(encoding="utf-8")
    start = text.index(f"## {heading}\n")
    end = text.find("\n## ", start + 1)
    rows = []
    for line in text[start:end if end != -1 else None].splitlines():
        cells = line.split(" | ")
        if line.startswith("| `") and len(cells) >= 2:
            rows.append((re.findall(r"`([^`]+)`", cells[0]), re.findall(r"`([^`]+)`", " | ".join(cells[1:]))))
    return rows


def test_the_readme_is_read_in_five_minutes() -> None:
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines; move the rest into docs/"


@pytest.mark.parametrize("document", [README, *DOCS], ids=rel)
def test_every_relative_link_resolves_to_a_file_and_its_heading(document: Path) -> None:
    broken = []
    for target in links(document):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        resolved = (document.parent / path).resolve() if path else document
        if not resolved.exists():
            broken.append(f"{target}: no such file")
        elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
            broken.append(f"{target}: no heading #{anchor} in {rel(resolved)}")
    assert not broken, f"{rel(document)}: " + "; ".join(broken)


@pytest.mark.parametrize("document", SHOWN_IN, ids=rel)
def test_every_command_shown_is_run_by_a_named_test(document: Path) -> None:
    unmapped = [c for c in shell_commands(document) if c not in RUN_BY]
    assert not unmapped, f"{rel(document)} shows commands no test is named for (add them to RUN_BY): {unmapped}"


@pytest.mark.parametrize(("command", "test"), sorted(RUN_BY.items()))
def test_the_test_named_for_a_command_exists_and_runs_it(command: str, test: str) -> None:
    path, _, name = test.partition("::")
    source = (ROOT / path).read_text(encoding="utf-8")
    if name:
        assert re.search(rf"^def {re.escape(name)}\(", source, re.M), f"{path} has no test {name}"
    else:
        assert command in source, f"{path} does not run `{command}`"


def test_the_commands_named_are_all_shown() -> None:
    shown = {c for document in SHOWN_IN for c in shell_commands(document)}
    assert sorted(set(RUN_BY) - shown) == []


COPIED_FROM = re.compile(r"`([\w./-]+\.(?:py|toml))`[^`\n]*:\n\n```(?:python|toml)\n(.*?)^```", re.M | re.S)
"""A code block and the file the line before it names ("From `tools/toy/specs.py`:")."""


def test_the_toolset_guides_code_is_copied_from_the_files_it_names():
    """The add-a-toolset guide's example is the toy toolset's declaration as the code has it, and so are the workflow's
    surfaces and the entry points it shows."""
    guide = ROOT / "docs" / "guides" / "add-a-toolset.md"
    text = guide.read_text(encoding="utf-8")
    blocks = [body for language, body in FENCE.findall(text) if language in ("python", "toml")]
    copied = COPIED_FROM.findall(text)
    assert len(copied) == len(blocks) >= 3, "name the file each code block of the guide is copied from"
    assert copied[0][0] == "tools/toy/specs.py" and copied[0][1].startswith("TOOLSET = Toolset(")
    stale = [path for path, body in copied if body not in (ROOT / path).read_text(encoding="utf-8")]
    assert stale == [], f"{rel(guide)} shows code its files no longer have: {stale}"


@pytest.mark.parametrize(("document", "heading"), sorted(MAPS.items()), ids=lambda x: rel(x) if isinstance(x, Path) else x)
def test_every_path_a_map_of_the_code_names_exists(document: Path, heading: str) -> None:
    rows = map_rows(document, heading)
    assert rows, f"no map under '## {heading}' in {rel(document)}"
    missing = []
    for paths, names in rows:
        folders = [ROOT / p if p.endswith("/") else (ROOT / p).parent for p in paths]
        missing += [p for p in paths if not (ROOT / p).exists() and p not in BUILT]
        folders += [f / n for f in folders for n in names if n.endswith("/")]
        for name in filter(FILE_LIKE.match, names):
            if name not in BUILT and not any((f / name).exists() for f in [ROOT, *folders]):
                missing.append(f"{name} (in the row of {', '.join(paths)})")
    assert not missing, f"{rel(document)} names paths that do not exist: {missing}"


def edges(mermaid: str) -> set[tuple[str, str, str]]:
    """A Mermaid drawing's edges as (from, to, solid or dotted), labels and node shapes left out."""
    found = set()
    for line in mermaid.splitlines():
        m = re.match(r"\s*(\w+)(?:\(\[[^\]]*\]\))?\s+(-->|-\.->|-\.\s.*?\s\.->)(?:\|[^|]*\|)?\s+(\w+)", line)
        if m:
            found.add((m.group(1), m.group(3), "solid" if m.group(2) == "-->" else "dotted"))
    return found


def test_the_readmes_graph_is_the_pinned_drawing() -> None:
    [drawn] = [body for language, body in FENCE.findall(README.read_text(encoding="utf-8")) if language == "mermaid"]
    pinned = (ROOT / "tests" / "graph" / "snapshots" / "graph.mmd").read_text(encoding="utf-8")
    assert edges(drawn) == edges(pinned)
