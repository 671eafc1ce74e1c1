"""Which llama.cpp build suits this CPU: its instruction-set features, the CMake options they give, the build's key,
and how many CPUs this process may use."""

from __future__ import annotations

import hashlib
import logging
import os
from dataclasses import dataclass
from pathlib import Path

logger = logging.getLogger(__name__)

LLAMA_CPP_PYTHON_VERSION = "0.3.36"
"""The pinned llama-cpp-python: the CMake options below are its llama.cpp's, and every build key includes it."""

# llama.cpp is built for the CPU it runs on (see `cpu_build`): AVX2, AVX-512 and VNNI where the CPU has them,
# AMX never, because native builds with AMX crash (upstream llama.cpp issue 20824).
_CPU_FEATURE_OPTIONS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("avx",), "GGML_AVX"),
    (("avx2",), "GGML_AVX2"),
    (("fma",), "GGML_FMA"),
    (("f16c",), "GGML_F16C"),
    (("bmi2",), "GGML_BMI2"),
    (("avx_vnni",), "GGML_AVX_VNNI"),
    (("avx512f", "avx512cd", "avx512vl", "avx512dq", "avx512bw"), "GGML_AVX512"),
    (("avx512vbmi",), "GGML_AVX512_VBMI"),  # Linux spells this one without an underscore
    (("avx512_vnni",), "GGML_AVX512_VNNI"),
    (("avx512_bf16",), "GGML_AVX512_BF16"),
)
_NEVER = ("GGML_AMX_TILE", "GGML_AMX_INT8", "GGML_AMX_BF16")


@dataclass(frozen=True)
class CpuBuild:
    """How llama.cpp is built for one CPU: its instruction-set features and the CMake options they give."""

    model: str
    features: tuple[str, ...]
    cmake_args: str

    @property
    def key(self) -> str:
        """Names the build: the same key means the same wheel, so a wheel never reaches a CPU it was not built for."""
        digest = hashlib.sha256(f"{LLAMA_CPP_PYTHON_VERSION} {self.cmake_args}".encode()).hexdigest()[:12]
        return f"{LLAMA_CPP_PYTHON_VERSION}-{digest}"


def cpu_flags(cpuinfo: str | None = None) -> tuple[str, set[str]]:
    """The CPU's model name and feature flags, from /proc/cpuinfo (empty on other systems)."""
    if cpuinfo is None:
        try:
            cpuinfo = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
        except FileNotFoundError:  # not Linux
            cpuinfo = ""
        except OSError as exc:
            logger.warning("could not read /proc/cpuinfo (%s): llama.cpp is built without vector extensions", exc)
            cpuinfo = ""
    model, flags = "unknown CPU", set[str]()
    for line in cpuinfo.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "model name" and model == "unknown CPU":
            model = value.strip()
        elif key.strip() == "flags" and not flags:
            flags = set(value.split())
    return model, flags


def cpu_build(cpuinfo: str | None = None) -> CpuBuild:
    """The llama.cpp build options for this CPU (or for the given /proc/cpuinfo text)."""
    model, flags = cpu_flags(cpuinfo)
    options = ["-DGGML_NATIVE=OFF"]
    features: list[str] = []
    for needed, option in _CPU_FEATURE_OPTIONS:
        on = all(f in flags for f in needed)
        options.append(f"-D{option}={'ON' if on else 'OFF'}")
        if on:
            features.append(option.removeprefix("GGML_").lower())
    options.extend(f"-D{option}=OFF" for option in _NEVER)
    return CpuBuild(model=model, features=tuple(features), cmake_args=" ".join(options))


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity mask on Linux): the server's threads and the build's jobs."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)

