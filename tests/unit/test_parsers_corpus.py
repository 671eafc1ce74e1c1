"""tools.parsers on its phrase corpus, its layering, and what its libraries install."""

from __future__ import annotations

import ast
from importlib import metadata
from pathlib import Path

import pytest

from evals.bench.parsers import load_corpus
from tools.parsers import read_date, read_text

CORPUS = load_corpus()
PARSERS = Path(__file__).resolve().parents[2] / "tools" / "parsers"
CHOSEN = ("pycnnum", "text2num", "python-dateutil", "chinesecalendar", "pypinyin")
REFUSED_TOP_LEVEL = {"flowagent", "tools", "graph", "state", "evals", "build", "src", "example", "examples", "tests", "test"}


@pytest.mark.parametrize("entry", CORPUS["sentence"], ids=lambda e: e["text"][:40])
def test_corpus_sentence(entry):
    said = read_text(entry["text"], today=entry["today"], ignore=entry["ignore"])
    assert said.lang == entry["lang"]
    if "days" in entry:
        assert said.days_stated() == set(entry["days"])
    if "amounts" in entry:
        assert said.amounts_stated() == set(entry["amounts"])
    if "numbers" in entry:
        assert said.numbers_stated() == set(entry["numbers"])
    if "dates" in entry:
        assert {(d.start, d.end) for d in said.dates} == {(d["start"], d["end"]) for d in entry["dates"]}
        counted = {(d.start, d.end): d.working_days for d in said.dates}
        for expected in entry["dates"]:
            if "working_days" in expected:
                assert counted[(expected["start"], expected["end"])] == expected["working_days"]
    if "quoted" in entry:
        assert said.quoted == tuple(entry["quoted"])


@pytest.mark.parametrize("entry", CORPUS["date_phrase"], ids=lambda e: e["text"])
def test_corpus_date_phrase(entry):
    assert read_date(entry["text"], entry["today"]) == entry["date"]


def test_corpus_is_half_chinese_half_english():
    langs = [e["lang"] for e in CORPUS["sentence"]]
    assert len(langs) >= 60 and abs(langs.count("zh") - langs.count("en")) <= len(langs) // 10


def test_parsers_import_no_domain():
    """tools.parsers is generic: it imports nothing from the apps, the graph, the state or any toolset."""
    forbidden = ("flowagent", "graph", "state", "tools.workflow", "tools.toy", "tools.travel", "tools.store", "tools.policy",
                 "tools.lookup", "tools.said", "tools.words", "evals")
    for path in PARSERS.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            for name in names:
                assert not name.startswith(forbidden), f"{path.name} imports {name}"
                if name.startswith("tools"):
                    assert name.startswith("tools.parsers"), f"{path.name} imports {name}"


@pytest.mark.parametrize("distribution", CHOSEN)
def test_parsers_libraries_install_only_their_own_package(distribution):
    """cn2an 0.5.24 installs top-level build, src and example packages; none of the chosen ones may."""
    files = metadata.distribution(distribution).files or []
    top_level = {f.parts[0] for f in files if len(f.parts) > 1 and not f.parts[0].endswith((".dist-info", ".data"))}
    top_level |= {f.parts[0].removesuffix(".py") for f in files if len(f.parts) == 1 and f.suffix == ".py"}
    assert top_level and not top_level & REFUSED_TOP_LEVEL, top_level
