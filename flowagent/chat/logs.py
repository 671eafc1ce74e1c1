"""Where the chat's log records go: a file beside the workflow store, never the conversation on the terminal."""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.engine import make_url

LEVEL_ENV = "FLOWAGENT_LOG_LEVEL"
DEFAULT_LEVEL = "WARNING"
LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
LOG_FILE_NAME = "flowagent.log"
DEFAULT_LOG_DIR = Path(".flowagent")
"""Used when the store is not a SQLite file (e.g. PostgreSQL): the directory the chat keeps its files in."""
LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s [pid %(process)d]: %(message)s"


@dataclass(frozen=True)
class LogSettings:
    """Where this process logs, as `/settings` shows it."""

    level: str
    """The root logger's level name, from FLOWAGENT_LOG_LEVEL."""
    path: Path | None
    """The log file; None when it could not be opened (records are then dropped, never printed)."""
    problem: str = ""
    """Why the file could not be opened."""

    def describe(self) -> str:
        if self.path is None:
            return f"not written ({self.problem}); level {self.level} ({LEVEL_ENV})"
        return f"{self.path} (level {self.level}, {LEVEL_ENV})"


def log_file_for(store_url: str) -> Path:
    """`flowagent.log` in the directory of the SQLite workflow store, else in `.flowagent/`."""
    url = make_url(store_url)
    if url.get_backend_name() == "sqlite" and url.database and url.database != ":memory:":
        return Path(url.database).parent / LOG_FILE_NAME
    return DEFAULT_LOG_DIR / LOG_FILE_NAME


def configure_logging(store_url: str) -> LogSettings:
    """Send every log record (and Python warnings) at FLOWAGENT_LOG_LEVEL or above to the log file.

    Replaces the root logger's handlers: without one, Python prints warnings and `logger.exception`
    tracebacks on stderr, in the middle of the conversation. Raises ValueError for an unknown level.
    """
    level = os.environ.get(LEVEL_ENV, "").strip().upper() or DEFAULT_LEVEL
    if level not in LEVELS:
        raise ValueError(f"{LEVEL_ENV} must be one of {', '.join(LEVELS)}, not {os.environ[LEVEL_ENV]!r}.")
    path = log_file_for(store_url).absolute()
    handler: logging.Handler
    problem = ""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handler = logging.FileHandler(path, encoding="utf-8")
        handler.setFormatter(logging.Formatter(LOG_FORMAT))
    except OSError as exc:
        handler, problem = logging.NullHandler(), f"cannot open {path}: {exc.strerror or exc}"
    root = logging.getLogger()
    for old in root.handlers[:]:
        root.removeHandler(old)
        old.close()
    root.addHandler(handler)
    root.setLevel(level)
    logging.captureWarnings(True)
    return LogSettings(level=level, path=None if problem else path, problem=problem)
