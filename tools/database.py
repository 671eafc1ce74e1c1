"""Where the project's database is: `FLOWAGENT_DB`, a SQLAlchemy URL or a file path, else `.flowagent/workflow.db`.

The workflow's store keeps its tables there; the server's sign-in keeps its deny list of revoked tokens beside them.
"""

from __future__ import annotations

import os
from pathlib import Path

DEFAULT_DB_PATH = Path(".flowagent") / "workflow.db"


def default_url() -> str:
    """The database URL from `FLOWAGENT_DB` (a URL or a file path), else `.flowagent/workflow.db`."""
    configured = os.environ.get("FLOWAGENT_DB", "").strip()
    if configured and "://" in configured:
        return configured
    path = Path(configured) if configured else DEFAULT_DB_PATH
    return f"sqlite:///{path}"


def normalize_url(url: str) -> str:
    """`postgresql://…` and `postgres://…` use the psycopg 3 driver (SQLAlchemy's default would be psycopg2)."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url
