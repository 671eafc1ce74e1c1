"""The mailer: e-mails are written to the outbox first, then delivered by SMTP when one is configured."""

from __future__ import annotations

import logging
import os
import smtplib
import ssl
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from urllib.parse import parse_qs, unquote, urlsplit

from sqlalchemy import and_, or_, select, update

from tools.workflow.store import WorkflowStore, outbox, utcnow

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 5
STALE_SENDING_S = 600
"""A delivery claimed this long ago without an outcome (its process died) may be claimed again."""
SMTP_TIMEOUT_S = 15.0
DEFAULT_SENDER = "flowagent@localhost"


class SmtpConfigError(ValueError):
    """`FLOWAGENT_SMTP_URL` cannot be understood."""


class Mailer:
    """Delivers outbox e-mails over SMTP.

    URL forms: `smtp://host:25` (plain), `smtp://user:pass@host:587?starttls=1`, `smtps://user:pass@host:465`
    (implicit TLS), optionally `&from=sender@example.com`.
    """

    def __init__(self, url: str, *, timeout: float = SMTP_TIMEOUT_S) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise SmtpConfigError(
                f"FLOWAGENT_SMTP_URL must look like smtp://user:password@host:587?starttls=1, not {parts.scheme}://…"
            )
        query = parse_qs(parts.query)
        self.host = parts.hostname
        self.port = parts.port or (465 if parts.scheme == "smtps" else 25)
        self.implicit_tls = parts.scheme == "smtps"
        self.starttls = query.get("starttls", ["0"])[0].lower() in ("1", "true", "yes")
        self.username = unquote(parts.username) if parts.username else None
        self.password = unquote(parts.password) if parts.password else None
        self.sender = query.get("from", [DEFAULT_SENDER])[0]
        self.timeout = timeout

    def __repr__(self) -> str:  # never show the password
        return f"Mailer(host={self.host!r}, port={self.port}, tls={self.implicit_tls or self.starttls})"

    @classmethod
    def from_env(cls) -> Mailer | None:
        url = os.environ.get("FLOWAGENT_SMTP_URL", "").strip()
        return cls(url) if url else None

    def _send(self, to: str, subject: str, body: str) -> None:
        msg = EmailMessage()
        msg["From"] = self.sender
        msg["To"] = to
        msg["Subject"] = subject
        msg.set_content(body)
        smtp: smtplib.SMTP
        if self.implicit_tls:
            smtp = smtplib.SMTP_SSL(self.host, self.port, timeout=self.timeout, context=ssl.create_default_context())
        else:
            smtp = smtplib.SMTP(self.host, self.port, timeout=self.timeout)
        with smtp:
            if self.starttls:
                smtp.starttls(context=ssl.create_default_context())
            if self.username:
                smtp.login(self.username, self.password or "")
            smtp.send_message(msg)

    def deliver(self, store: WorkflowStore, email_id: int) -> str:
        """Try to deliver one e-mail; returns its status afterwards (sent, failed, or as it was)."""
        # Claim the row by compare-and-set so two workers never send the same e-mail.
        with store.transaction() as conn:
            claimed = conn.execute(
                update(outbox)
                .where(outbox.c.id == email_id, outbox.c.attempts < MAX_ATTEMPTS, _claimable())
                .values(status="sending", attempts=outbox.c.attempts + 1, claimed_at=utcnow())
            ).rowcount
            row = conn.execute(select(outbox).where(outbox.c.id == email_id)).mappings().one()
        if claimed != 1:
            return str(row["status"])
        try:
            self._send(row["recipient_email"], row["subject"], row["body"])
        except (OSError, smtplib.SMTPException) as exc:
            # Kept in the outbox for a retry; the operator sees why in the log.
            logger.warning("e-mail %s to %s not delivered: %s: %s", email_id, row["recipient_email"], type(exc).__name__, exc)
            with store.transaction() as conn:
                conn.execute(
                    update(outbox)
                    .where(outbox.c.id == email_id)
                    .values(status="failed", last_error=f"{type(exc).__name__}: {exc}"[:500])
                )
            return "failed"
        with store.transaction() as conn:
            conn.execute(update(outbox).where(outbox.c.id == email_id).values(status="sent", sent_at=utcnow(), last_error=None))
        return "sent"

    def retry_pending(self, store: WorkflowStore) -> dict[int, str]:
        """Deliver every queued, failed or stale e-mail that has attempts left; returns {email id: status}."""
        with store.read() as conn:
            ids = (
                conn.execute(
                    select(outbox.c.id).where(outbox.c.attempts < MAX_ATTEMPTS, _claimable()).order_by(outbox.c.id)
                )
                .scalars()
                .all()
            )
        return {email_id: self.deliver(store, email_id) for email_id in ids}


def _claimable():  # type: ignore[no-untyped-def]
    """Queued or failed e-mails, and deliveries whose claim went stale (the sender died mid-way)."""
    stale = (datetime.now(UTC) - timedelta(seconds=STALE_SENDING_S)).isoformat(timespec="microseconds")
    return or_(outbox.c.status.in_(("queued", "failed")), and_(outbox.c.status == "sending", outbox.c.claimed_at < stale))
