"""A real SMTP server on loopback (aiosmtpd) that keeps what it accepts, or refuses recipients with 550."""

from __future__ import annotations

import email
import email.message
import email.policy
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

from tests.support.net import LOOPBACK, free_port

REFUSE_RCPT = "550 5.1.1 mailbox unavailable"


@dataclass
class Received:
    """One message the server accepted."""

    mail_from: str
    rcpt_tos: list[str]
    message: email.message.EmailMessage

    @property
    def body(self) -> str:
        return str(self.message.get_content()).replace("\r\n", "\n").strip()


@dataclass
class SmtpHandler:
    """aiosmtpd handler: accepts and records every message, or refuses every recipient (`refuse=True`)."""

    refuse: bool = False
    received: list[Received] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    logins: list[str] = field(default_factory=list)

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, rcpt_options: Any) -> str:  # noqa: N802
        if self.refuse:
            self.refused.append(address)
            return REFUSE_RCPT
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        self.received.append(Received(envelope.mail_from, list(envelope.rcpt_tos), message))  # type: ignore[arg-type]
        return "250 Message accepted for delivery"


class PasswordAuthenticator:
    """Accepts exactly one user name and password (AUTH PLAIN / LOGIN)."""

    def __init__(self, handler: SmtpHandler, user: str, password: str) -> None:
        self.handler, self.user, self.password = handler, user, password

    def __call__(self, server: Any, session: Any, envelope: Any, mechanism: str, auth_data: Any) -> AuthResult:
        ok = (
            isinstance(auth_data, LoginPassword)
            and auth_data.login.decode() == self.user
            and auth_data.password.decode() == self.password
        )
        if ok:
            self.handler.logins.append(self.user)
        return AuthResult(success=ok, handled=False)


@contextmanager
def smtp_server(
    handler: SmtpHandler, *, port: int | None = None, user: str | None = None, password: str | None = None
) -> Iterator[int]:
    """Serve `handler` on 127.0.0.1 (a free port unless given); with `user`, AUTH is required. Yields the port."""
    port = port or free_port()
    kwargs: dict[str, Any] = {}
    if user is not None:
        kwargs.update(
            authenticator=PasswordAuthenticator(handler, user, password or ""), auth_required=True, auth_require_tls=False
        )
    controller = Controller(handler, hostname=LOOPBACK, port=port, ready_timeout=10, **kwargs)
    controller.start()
    try:
        yield port
    finally:
        controller.stop()
