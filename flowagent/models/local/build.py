"""llama-cpp-python with its server in this environment, built for this CPU: the check, the build and the install.

llama.cpp is built with the options of `cpu_build` (never AMX: native builds crash on AMX CPUs, llama.cpp issue
20824), once per CPU key into the wheel cache; the installed build is recorded in a marker beside the environment,
so a wheel built for another CPU is replaced.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import json
import logging
import os
import re
import shlex
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO

from flowagent.models.local.build_progress import BuildProgress, cpu_kind, load_record, save_record
from flowagent.models.local.cache import default_log_dir, default_wheel_dir, locked
from flowagent.models.local.cpu import LLAMA_CPP_PYTHON_VERSION, CpuBuild, cpu_build, usable_cpus
from flowagent.models.local.errors import LocalModelError, Progress, pip_error_line, stderr_progress

logger = logging.getLogger(__name__)

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

SERVER_ONLY_ARGS = (
    "-DLLAVA_BUILD=OFF",
    "-DLLAMA_BUILD_TESTS=OFF",
    "-DLLAMA_BUILD_EXAMPLES=OFF",
    "-DLLAMA_BUILD_TOOLS=OFF",
    "-DLLAMA_BUILD_SERVER=OFF",
    "-DLLAMA_BUILD_APP=OFF",
)
"""What llama-cpp-python's CMakeLists.txt lets a build leave out: the multimodal library (libmtmd, loaded only by
its llava chat handlers), and llama.cpp's tests, examples, tools, server and app (already off when llama.cpp is
built as a subproject; said explicitly). Not part of `CpuBuild.key`: a wheel with more in it serves as well."""

_NO_COMMON = """\
# flowagent: llama-cpp-python's CMakeLists.txt forces LLAMA_BUILD_COMMON ON, but neither its bindings nor its
# server load libllama-common (nor cpp-httplib, built only for it). Included after every project() call
# (CMAKE_PROJECT_INCLUDE), so after llama.cpp's own, where this switches it off again before llama.cpp reads it.
set(LLAMA_BUILD_COMMON OFF CACHE BOOL "llama.cpp common library (not used by llama-cpp-python)" FORCE)
"""


def build_args(build: CpuBuild, wheels: Path) -> str:
    """``CMAKE_ARGS`` of the build: the CPU's options (`CpuBuild.cmake_args`) and only what the server needs
    (`SERVER_ONLY_ARGS`, and llama.cpp's common library left out through a project include kept in ``wheels``)."""
    include = wheels / "flowagent-no-common.cmake"
    if not include.is_file() or include.read_text(encoding="utf-8") != _NO_COMMON:
        include.write_text(_NO_COMMON, encoding="utf-8")
    return " ".join([build.cmake_args, *SERVER_ONLY_ARGS, shlex.quote(f"-DCMAKE_PROJECT_INCLUDE={include}")])


def _installed_build_key(prefix: str) -> str | None:
    marker = Path(prefix) / BUILD_MARKER
    try:
        return str(json.loads(marker.read_text(encoding="utf-8"))["key"])
    except FileNotFoundError:  # not built here yet
        return None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        logger.warning("the build marker %s cannot be read (%s); llama-cpp-python will be installed again", marker, exc)
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
    except (OSError, subprocess.TimeoutExpired) as exc:
        logger.warning("could not check that %s imports llama_cpp.server (%s)", python, exc)
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
    one CPU to another.  Only what the server needs is built (`build_args`); a bar shows the build's progress and
    the time left, from the last build on this kind of CPU (`build_progress`, its record kept beside the wheels).
    A second environment on the same CPU installs the kept wheel in seconds.  The full pip log is kept in
    ``log_dir``.
    """
    report = progress or stderr_progress
    python = sys.executable
    build = cpu_build()
    if _llama_server_importable(python, build):
        return build
    logs = log_dir or default_log_dir()
    logs.mkdir(parents=True, exist_ok=True)
    wheels = (wheel_dir or default_wheel_dir()) / build.key
    wheels.mkdir(parents=True, exist_ok=True)
    # One build per CPU key at a time: a second flowagent (or test run) waits for the first one's build.
    with locked(wheels, "flowagent-llama-cpp-python-build"):
        if _llama_server_importable(python, build):
            return build
        _install_llama_server(python, build, wheels, logs, report, heartbeat, default_progress=progress is None)
    return build


def _kept_wheel(wheels: Path) -> Path | None:
    found = sorted(wheels.glob(f"llama_cpp_python-{LLAMA_CPP_PYTHON_VERSION}-*.whl"))
    return found[-1] if found else None


def _run_pip(
    cmd: list[str], env: dict[str, str], log: IO[str], report: Progress, heartbeat: float, what: str,
    bar: BuildProgress | None = None,
) -> int:
    """Run one pip command, its output to the log (and its main lines as progress, or the build's lines to
    ``bar``); returns the exit code."""
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
            if bar is not None:
                bar.feed(line)
                continue
            stripped = line.strip()
            if stripped.startswith(("Building wheel", "Successfully", "Processing ")):
                report(f"pip: {stripped}")

    reader = threading.Thread(target=pump, name="pip-llama-cpp-python", daemon=True)
    reader.start()
    while True:
        try:
            process.wait(timeout=1.0 if bar is not None else heartbeat)
            break
        except subprocess.TimeoutExpired:
            if bar is not None:
                bar.tick()
            else:
                report(f"still {what} ({time.monotonic() - started:.0f} s so far)")
    reader.join()
    if bar is not None:
        bar.done()
    return process.returncode


def _install_llama_server(
    python: str, build: CpuBuild, wheels: Path, logs: Path, report: Progress, heartbeat: float,
    *, default_progress: bool = False,
) -> None:
    log_path = logs / "llama-cpp-python-install.log"
    started = time.monotonic()
    pip = [python, "-m", "pip", "--disable-pip-version-check", "--no-input"]
    env = dict(os.environ, CMAKE_ARGS=build_args(build, wheels.parent), CMAKE_BUILD_PARALLEL_LEVEL=str(usable_cpus()))
    with log_path.open("w", encoding="utf-8", buffering=1) as log:
        if _kept_wheel(wheels) is None:
            features = ", ".join(build.features) or "no vector extensions"
            kind = cpu_kind(build.model, usable_cpus())
            record = load_record(wheels.parent, kind)
            took = (f"the last build on this kind of CPU took {record['seconds'] / 60:.1f} minutes"
                    if record else "several minutes the first time")
            report(f"building llama.cpp for this CPU ({build.model}: {features}; never AMX), only what the server "
                   f"needs - {took}; kept for later")
            bar = BuildProgress.for_this_terminal(kind=kind, record=record, report=report, default=default_progress,
                                                  every=heartbeat)
            code = _run_pip(
                [*pip, "wheel", "-v", "--no-deps", "--no-cache-dir", "--no-binary", "llama-cpp-python",
                 "--progress-bar=off", "-w", str(wheels), f"llama-cpp-python=={LLAMA_CPP_PYTHON_VERSION}"],
                env, log, report, heartbeat, "building llama.cpp", bar,
            )
            if code != 0 or _kept_wheel(wheels) is None:
                _raise_install_error(code, log_path)
            seconds = bar.elapsed()
            save_record(wheels.parent, kind, bar.as_record(seconds, load=os.getloadavg()))
            report(f"built llama.cpp in {seconds / 60:.1f} minutes ({bar.steps} compile steps)")
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
    except OSError as exc:
        logger.warning("could not read the install log %s (%s)", log_path, exc)
        tail = []
    reason = pip_error_line(tail)
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

