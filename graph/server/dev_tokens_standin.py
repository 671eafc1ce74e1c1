"""A stand-in for `graph.server.tokens` until the auth branch lands (issue 13): delete it at integration.

Same interface: `issue_dev_token(user_id) -> str` and `verify_token(token) -> identity with .user_id`.
Tokens are `user_id.signature`, HMAC-SHA256 over the user id with `FLOWAGENT_AUTH_SECRET` (a random key
per process when unset). Development only: they never expire.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from dataclasses import dataclass

_PROCESS_SECRET = secrets.token_hex(32)


@dataclass(frozen=True)
class Identity:
    """Who a verified token belongs to."""

    user_id: str


def _signature(user_id: str) -> str:
    key = (os.environ.get("FLOWAGENT_AUTH_SECRET") or _PROCESS_SECRET).encode()
    return hmac.new(key, user_id.encode(), hashlib.sha256).hexdigest()


def issue_dev_token(user_id: str) -> str:
    """A bearer token for `user_id`."""
    return f"{user_id}.{_signature(user_id)}"


def verify_token(token: str) -> Identity:
    """The identity a token was issued for; ValueError when it was not issued here."""
    user_id, _, signature = token.rpartition(".")
    if not user_id or not hmac.compare_digest(signature, _signature(user_id)):
        raise ValueError("invalid token")
    return Identity(user_id=user_id)
