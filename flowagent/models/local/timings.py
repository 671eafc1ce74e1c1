"""What llama.cpp reported for each request, read from the local server's verbose log."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class RequestTimings:
    """What llama.cpp reported for one completed request (its verbose log: ``Llama.generate`` and
    ``llama_perf_context_print`` lines)."""

    prompt_tokens_read: int
    """Prompt tokens llama.cpp actually evaluated: those after the prefix it still held from the last request."""
    prompt_ms: float
    """Milliseconds spent reading them."""
    generated_tokens: int
    """Single-token evaluations while generating (llama.cpp's "runs"; the last sampled token is not evaluated,
    so this is usually the completion length minus one)."""
    generation_ms: float
    prefix_hit: int | None
    """Prompt tokens reused from the previous request without reading them again; 0 when none were, None when
    the whole prompt was already cached (llama-cpp-python does not print its length then)."""
    cut: bool = False
    """The client closed the stream before the reply ended (a reply cut at its complete call,
    `graph.generation`): llama.cpp printed no counters, so only ``prompt_tokens_read`` is known and the
    times are NaN and ``generated_tokens`` 0 (the client's own figures say how much it received)."""

    @property
    def total_ms(self) -> float:
        return self.prompt_ms + self.generation_ms

    def as_dict(self) -> dict[str, Any]:
        return {
            "prompt_tokens_read": self.prompt_tokens_read,
            "prompt_ms": self.prompt_ms,
            "generated_tokens": self.generated_tokens,
            "generation_ms": self.generation_ms,
            "prefix_hit": self.prefix_hit,
            "cut": self.cut,
        }


_PREFIX_HIT = re.compile(r"Llama\.generate: (\d+) prefix-match hit, remaining (\d+) prompt tokens to eval")
_PERF = re.compile(
    r"llama_perf_context_print:\s*(prompt eval|eval|total) time =\s*([\d.]+) ms /\s*(\d+) (?:tokens|runs)"
)


def parse_timings(log_text: str) -> list[RequestTimings]:
    """One record per request whose ``llama_perf_context_print`` report is complete in ``log_text``.

    llama-cpp-python's server (with ``verbose``, its default) prints, for each completion, an optional
    ``Llama.generate: N prefix-match hit, remaining M prompt tokens to eval`` line (absent when nothing could
    be reused) and then llama.cpp's counters, reset at the start of each completion::

        llama_perf_context_print: prompt eval time =  812.20 ms /   143 tokens (...)
        llama_perf_context_print:        eval time = 2610.63 ms /    31 runs   (...)
        llama_perf_context_print:       total time = ...

    llama.cpp prints at least 1 token or run even when there were none; 0 ms with 1 counts as none here.
    A request whose client closed the stream first logs ``disconnected`` instead of the counters: it is a record
    with ``cut=True``.
    """
    records: list[RequestTimings] = []
    prefix: int | None = 0
    remaining: int | None = None
    prompt: tuple[float, int] | None = None
    generation: tuple[float, int] | None = None
    for line in log_text.splitlines():
        hit = _PREFIX_HIT.search(line)
        if hit:
            prefix, remaining, prompt, generation = int(hit.group(1)), int(hit.group(2)), None, None
            continue
        if "Llama.generate: full prompt already cached" in line:
            prefix, remaining, prompt, generation = None, 0, None, None
            continue
        if "prefix-match found but partial kv removal not supported" in line:
            prefix, remaining, prompt, generation = 0, None, None, None
            continue
        if line.strip() == "disconnected" and remaining is not None and generation is None:
            nan = float("nan")
            records.append(RequestTimings(prompt_tokens_read=remaining, prompt_ms=nan, generated_tokens=0,
                                          generation_ms=nan, prefix_hit=prefix, cut=True))
            prefix, remaining, prompt, generation = 0, None, None, None
            continue
        perf = _PERF.search(line)
        if not perf:
            continue
        kind, ms, count = perf.group(1), float(perf.group(2)), int(perf.group(3))
        if ms == 0 and count == 1:
            count = 0
        if kind == "prompt eval":
            prompt = (ms, count)
        elif kind == "eval":
            generation = (ms, count)
        elif prompt is not None and generation is not None:
            read = remaining if remaining is not None else prompt[1]
            records.append(
                RequestTimings(
                    prompt_tokens_read=read,
                    prompt_ms=prompt[0],
                    generated_tokens=generation[1],
                    generation_ms=generation[0],
                    prefix_hit=prefix,
                )
            )
            prefix, remaining, prompt, generation = 0, None, None, None
    return records

