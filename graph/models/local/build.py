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
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO

from graph.models.local.cache import default_log_dir, default_wheel_dir, locked
from graph.models.local.cpu import LLAMA_CPP_PYTHON_VERSION, CpuBuild, cpu_build, usable_cpus
from graph.models.local.errors import LocalModelError, Progress, pip_error_line, stderr_progress

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
    one CPU to another.  Building takes about five minutes on two cores; a second environment on the same
    CPU installs the kept wheel in seconds.  The full pip log is kept in ``log_dir``.
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

