"""The llama.cpp build's bar: steps from ninja's lines, the time left from the last build on this kind of CPU."""

from __future__ import annotations

import io
import json
from pathlib import Path

from flowagent.models.local.build import SERVER_ONLY_ARGS, build_args
from flowagent.models.local.build_progress import BuildProgress, cpu_kind, load_record, save_record
from flowagent.models.local.cpu import cpu_build


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _progress(record: dict | None, clock: Clock, lines: list[str], stream: io.StringIO | None = None) -> BuildProgress:
    return BuildProgress(kind="cpu / 2 CPUs", record=record, report=lines.append, stream=stream, every=30, clock=clock)


def _step(progress: BuildProgress, clock: Clock, at: float, step: int, steps: int = 74) -> None:
    clock.now = 1000.0 + at
    progress.feed(f"[{step}/{steps}] Building CXX object vendor/llama.cpp/src/CMakeFiles/llama.dir/x.cpp.o")


def test_without_a_record_the_time_left_is_the_pace_so_far_once_a_tenth_is_done() -> None:
    clock, lines = Clock(), []
    progress = _progress(None, clock, lines)
    assert progress.left() is None and "preparing" in progress.text()
    _step(progress, clock, 20, 1)
    _step(progress, clock, 30, 5)
    assert progress.left() is None  # too early to tell
    _step(progress, clock, 60, 9)
    assert progress.left() == (60 - 20) / 8 * (74 - 9)
    assert "9/74" in progress.text() and "1:00 so far" in progress.text()


def test_with_a_record_the_time_left_follows_the_last_builds_clock_at_this_builds_pace() -> None:
    record = {"seconds": 300.0, "steps": 74, "curve": [[1, 20.0], [37, 100.0], [74, 290.0]]}
    clock, lines = Clock(), []
    progress = _progress(record, clock, lines)
    clock.now += 10
    assert progress.left() == 290.0  # before the first step: the record's total less the time so far
    _step(progress, clock, 200, 37)  # twice as slow as last time
    assert progress.left() == (300 - 100) * 2
    assert "about 6:40 left" in progress.text()


def test_a_record_of_another_shape_is_not_used_for_the_steps() -> None:
    record = {"seconds": 600.0, "steps": 178, "curve": [[1, 20.0], [178, 590.0]]}  # a build of everything
    clock, lines = Clock(), []
    progress = _progress(record, clock, lines)
    _step(progress, clock, 20, 1)
    _step(progress, clock, 100, 37)
    assert progress.left() == (100 - 20) / 36 * (74 - 37)


def test_without_a_terminal_the_bar_is_a_line_now_and_then_and_on_one_it_is_redrawn_in_place() -> None:
    clock, lines = Clock(), []
    progress = _progress(None, clock, lines)
    for at, step in ((5, 1), (10, 2), (40, 3)):
        _step(progress, clock, at, step)
        progress.tick()
    assert len(lines) == 1 and lines[0].startswith("building llama.cpp [")
    stream = io.StringIO()
    drawn = _progress(None, Clock(), [], stream)
    drawn.feed("[1/74] Building C object a.o")
    drawn.feed("[2/74] Building C object b.o")
    drawn.done()
    assert stream.getvalue().count("\r\x1b[2K") == 2 and stream.getvalue().endswith("\n")


def test_the_record_is_kept_per_kind_of_cpu(tmp_path: Path) -> None:
    clock, lines = Clock(), []
    progress = _progress(None, clock, lines)
    _step(progress, clock, 12.34, 1)
    save_record(tmp_path, cpu_kind("Xeon", 2), progress.as_record(250.04, load=(1.5, 1.0, 0.5)))
    save_record(tmp_path, cpu_kind("EPYC", 2), {"seconds": 400.0, "steps": 74, "curve": []})
    record = load_record(tmp_path, "Xeon / 2 CPUs")
    assert record is not None and record["seconds"] == 250.0 and record["curve"] == [[1, 12.3]]
    assert record["load"] == [1.5, 1.0, 0.5]
    assert load_record(tmp_path, "Xeon / 4 CPUs") is None
    (tmp_path / "build-times.json").write_text("{not json")
    assert load_record(tmp_path, "Xeon / 2 CPUs") is None
    assert json.loads(json.dumps(progress.as_record(1.0)))["steps"] == 74


def test_the_build_leaves_out_what_the_server_never_loads(tmp_path: Path) -> None:
    build = cpu_build("")
    args = build_args(build, tmp_path)
    assert args.startswith(build.cmake_args + " ")  # the CPU's options first: they make the key
    assert "-DLLAVA_BUILD=OFF" in SERVER_ONLY_ARGS
    include = tmp_path / "flowagent-no-common.cmake"
    assert args.endswith(f"-DCMAKE_PROJECT_INCLUDE={include}")
    assert 'set(LLAMA_BUILD_COMMON OFF CACHE BOOL' in include.read_text()
    assert build_args(build, tmp_path) == args
