"""The request parsers measured: their speed, and their accuracy on the phrase corpus against the alternatives.

    python -m evals.bench.parsers              # import time of tools.parsers, read_text per message (the budget)
    python -m evals.bench.parsers --compare    # + each job scored on tests/unit/data/parsers_corpus.toml for
                                               #   tools.parsers, the hand rules it replaces, and every candidate
                                               #   library that can be imported
    python -m evals.bench.parsers --compare --site /tmp/scratch/lib/python3.11/site-packages

The candidates are read in `evals.bench.parsers_candidates` and scored in `evals.bench.parsers_accuracy`.
`--site` appends a directory to the import path (last, so this project's packages win): the candidates that
were tried and not chosen (cn2an, dateparser, jionlp, lingua, ChineseTimeNLP, Microsoft's recognizers) live in
a scratch environment, not in the project's. The numbers are written up in docs/parsers.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
import tomllib
from datetime import date
from pathlib import Path
from typing import Any

from evals.bench.parsers_accuracy import Score, compare

CORPUS = Path(__file__).resolve().parents[2] / "tests" / "unit" / "data" / "parsers_corpus.toml"
IMPORT_BUDGET_S = 0.3
READ_BUDGET_MS = 3.0


def load_corpus(path: Path = CORPUS) -> dict[str, Any]:
    """The corpus, each sentence and date phrase with its `today` filled in."""
    corpus = tomllib.loads(path.read_text(encoding="utf-8"))
    for entry in corpus["sentence"] + corpus["date_phrase"]:
        entry.setdefault("today", corpus["today"])
        entry.setdefault("ignore", [])
    return corpus


def import_seconds(repeat: int = 5) -> float:
    """Median cumulative import time of tools.parsers (its own modules and what they import at once), fresh
    interpreters; the rest of `tools/__init__` (the lead's, the workflow toolset) is not counted, whether it
    imports tools.parsers itself or not."""
    times = []
    for _ in range(repeat):
        run = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", "import tools; import tools.parsers"],
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).resolve().parents[2],
        )
        # Nested under `tools` where tools/__init__ imports it first: the line is indented then.
        line = next(ln for ln in run.stderr.splitlines() if ln.split("|")[-1].strip() == "tools.parsers")
        times.append(int(line.split("|")[1]) / 1e6)
    return statistics.median(times)


def read_text_timing(sentences: list[dict[str, Any]], rounds: int = 30) -> dict[str, float]:
    """read_text's first call (it loads pycnnum, text2num, dateutil, chinese_calendar), then the median per
    message over `rounds` passes of the corpus, the caches of numeral values and working days warm."""
    from tools.parsers import read_text

    started = time.perf_counter()
    read_text("下周三到周五请两天半假，报销五千二百元 next Friday", today=date(2026, 12, 1))
    first_ms = (time.perf_counter() - started) * 1000
    # Typical chat messages of 20 to 80 characters: each corpus message with the next one after it.
    messages = [
        {"text": f"{a['text']}。{b['text']}", "today": a["today"], "ignore": a["ignore"] + b["ignore"]}
        for a, b in zip(sentences, sentences[1:] + sentences[:1], strict=True)
    ]
    messages = [m for m in messages if 20 <= len(m["text"]) <= 80]
    per_call: list[float] = []
    for _ in range(rounds):
        for entry in messages:
            started = time.perf_counter()
            read_text(entry["text"], today=entry["today"], ignore=entry["ignore"])
            per_call.append((time.perf_counter() - started) * 1000)
    return {
        "first_call_ms": first_ms,
        "median_ms": statistics.median(per_call),
        "p95_ms": statistics.quantiles(per_call, n=20)[-1],
        "max_ms": max(per_call),
        "messages": len(messages),
        "median_chars": statistics.median(len(e["text"]) for e in messages),
    }


def print_report(timing: dict[str, float], import_s: float, jobs: dict[str, list[Score]] | None, misses: bool) -> None:
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")
    print(f"import tools.parsers: {import_s * 1000:.0f} ms (budget {IMPORT_BUDGET_S * 1000:.0f} ms)")
    print(
        f"read_text: first call {timing['first_call_ms']:.0f} ms; then median {timing['median_ms']:.3f} ms, "
        f"p95 {timing['p95_ms']:.3f} ms, max {timing['max_ms']:.2f} ms per message "
        f"({timing['messages']} messages, median {timing['median_chars']:.0f} characters; budget {READ_BUDGET_MS} ms median)"
    )
    for job, scores in (jobs or {}).items():
        print(f"\n## {job}")
        for result in scores:
            if result.error:
                print(f"  {result.candidate:<62} {result.error}")
                continue
            print(f"  {result.candidate:<62} {result.accuracy:>14}  {result.median_ms:8.3f} ms/call median")
            if misses:
                for miss in result.misses:
                    print(f"      miss {miss}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--compare", action="store_true", help="score every job for every importable candidate")
    parser.add_argument("--site", action="append", default=[], help="a site-packages directory to append to sys.path")
    parser.add_argument("--misses", action="store_true", help="list each candidate's misses")
    parser.add_argument("--json", type=Path, help="also write the numbers to this file")
    args = parser.parse_args(argv)
    sys.path.extend(args.site)
    corpus = load_corpus()
    import_s = import_seconds()
    timing = read_text_timing(corpus["sentence"])
    jobs = compare(corpus) if args.compare else None
    print_report(timing, import_s, jobs, args.misses)
    if args.json:
        data = {
            "import_s": import_s,
            "read_text": timing,
            "jobs": {
                job: [{"candidate": s.candidate, "right": s.right, "total": s.total, "median_ms": s.median_ms, "error": s.error}
                      for s in scores]
                for job, scores in (jobs or {}).items()
            },
        }
        args.json.write_text(json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8")
    within = import_s <= IMPORT_BUDGET_S and timing["median_ms"] <= READ_BUDGET_MS
    return 0 if within else 1


if __name__ == "__main__":
    raise SystemExit(main())
