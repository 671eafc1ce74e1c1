"""Revoked sign-in tokens: a deny list in the workflow store, read on every sign-in.

A dev token is valid for hours; revoking one (`flowagent token --revoke TOKEN`) ends it at once on every server
instance that shares the store. A token is named by its `jti` claim (every dev token has one), or by the SHA-256
of the token itself for a token without one. Rows are kept until the token would have expired anyway, then
dropped on the next revocation.

The table is flowagent's sign-in's own, beside the workflow tables on the same database (SQLite file or PostgreSQL);
it is created on first use, under the store's set-up lock on PostgreSQL so instances starting together do not race.
"""

from __future__ import annotations

import functools
import hashlib
import threading
import time
import weakref
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import BigInteger, Column, Engine, MetaData, String, Table, create_engine, delete, insert, select, text
from sqlalchemy.exc import IntegrityError

from tools.database import READ_ONLY_OPTION, default_url, normalize_url, sqlite_engine

SETUP_LOCK = 0x7265766F  # "revo": the advisory lock that serialises the table's creation on PostgreSQL

metadata = MetaData()

revoked_tokens = Table(
    "revoked_tokens",
    metadata,
    Column("token_id", String(128), primary_key=True),
    Column("user_id", String(64), nullable=False),
    Column("expires_at", BigInteger, nullable=False),
    Column("revoked_at", String(40), nullable=False),
)

_READY: weakref.WeakSet[Engine] = weakref.WeakSet()
"""Engines whose table is made; weak, so an engine's id reused by a new one (another database) never counts as made."""
_READY_LOCK = threading.Lock()


@functools.lru_cache(maxsize=4)
def engine_at(url: str) -> Engine:
    """An engine on the database at `url` (the project's database: `FLOWAGENT_DB`)."""
    normalized = normalize_url(url)
    if normalized.startswith("sqlite"):
        return sqlite_engine(normalized)
    return create_engine(normalized, pool_pre_ping=True, pool_size=2, max_overflow=4)


def deny_list(backend: Any = None) -> Engine:
    """The engine of the deny list: the served toolset's database when its backend is one (a SQLAlchemy `engine`,
    as the workflow's store has), else the project's database (`FLOWAGENT_DB`); every instance sharing it sees it."""
    engine = getattr(backend, "engine", None)
    return engine if isinstance(engine, Engine) else engine_at(default_url())


def token_id(claims: dict[str, Any], token: str) -> str:
    """The name a token has on the deny list: its `jti`, else the SHA-256 of the token."""
    jti = claims.get("jti")
    if isinstance(jti, str) and jti:
        return f"jti:{jti[:120]}"
    return "sha256:" + hashlib.sha256(token.encode()).hexdigest()


def _ensure_table(engine: Engine) -> None:
    if engine in _READY:
        return
    with _READY_LOCK:
        if engine in _READY:
            return
        with engine.begin() as conn:
            if engine.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SETUP_LOCK})
            metadata.create_all(conn, checkfirst=True)
        _READY.add(engine)


def revoke(engine: Engine, tid: str, *, user_id: str, expires_at: int) -> bool:
    """Put a token on the deny list; False when it was already there. Expired entries are dropped."""
    _ensure_table(engine)
    with engine.begin() as conn:
        conn.execute(delete(revoked_tokens).where(revoked_tokens.c.expires_at < int(time.time()) - 3600))
        try:
            with conn.begin_nested():
                conn.execute(insert(revoked_tokens).values(
                    token_id=tid, user_id=user_id, expires_at=int(expires_at),
                    revoked_at=datetime.now(UTC).isoformat(timespec="microseconds"),
                ))
        except IntegrityError:
            return False
    return True


def is_revoked(engine: Engine, tid: str) -> bool:
    """Whether the token is on the deny list."""
    _ensure_table(engine)
    with engine.connect().execution_options(**{READ_ONLY_OPTION: True}) as conn:  # a read: no write lock on SQLite
        return conn.execute(select(revoked_tokens.c.token_id).where(revoked_tokens.c.token_id == tid)).first() is not None
