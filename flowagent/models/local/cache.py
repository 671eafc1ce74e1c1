"""Where the offline model keeps its files: the model directory (server and build logs under it), the wheel cache,
and the lock that makes a second process wait while the first prepares the same file."""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path

MODEL_DIR_ENV = "FLOWAGENT_MODEL_DIR"
WHEEL_DIR_ENV = "FLOWAGENT_WHEEL_DIR"


def default_model_dir() -> Path:
    """``$FLOWAGENT_MODEL_DIR`` if set, else ``~/.cache/flowagent/models``."""
    configured = os.environ.get(MODEL_DIR_ENV, "").strip()
    if configured:
        return Path(configured).expanduser()
    return Path.home() / ".cache" / "flowagent" / "models"


def default_wheel_dir() -> Path:
    """Where built llama-cpp-python wheels are kept, one folder per `CpuBuild.key` (``$FLOWAGENT_WHEEL_DIR``)."""
    configured = os.environ.get(WHEEL_DIR_ENV, "").strip()
    if configured:
        return Path(configured).expanduser()
    return Path.home() / ".cache" / "flowagent" / "wheels"


def default_log_dir() -> Path:
    """Where the server and the llama-cpp-python build write their logs: ``logs`` in the model directory."""
    return default_model_dir() / "logs"


@contextlib.contextmanager
def locked(directory: Path, name: str) -> Iterator[None]:
    """Hold the lock ``directory/.name.lock``: a second process preparing the same thing (two terminals starting
    at once, or two test runs) waits until the first is done."""
    with (directory / f".{name}.lock").open("a") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)



def remove_quietly(path: Path) -> None:
    """Delete ``path`` if it is there."""
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
