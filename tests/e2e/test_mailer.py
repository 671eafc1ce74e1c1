"""The mailer against a real local SMTP server (aiosmtpd): delivery, failure kept for retry, no double send."""

from __future__ import annotations

import email
import email.policy
import socket
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import pytest
from aiosmtpd.controller import Controller

from tools import Mailer, execute_call
from tools.workflow import TOOLSET


@dataclass
class Received:
    """One message the local SMTP server accepted."""

    rcpt_tos: list[str]
    message: email.message.EmailMessage

    @property
    def body(self) -> str:
        return self.message.get_content().replace("\r\n", "\n").strip()


@dataclass
class CollectingHandler:
    """An aiosmtpd handler that keeps every accepted message, or refuses at RCPT or DATA."""

    refuse_rcpt: str | None = None
    refuse_data: str | None = None
    received: list[Received] = field(default_factory=list)

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):  # noqa: N802 (aiosmtpd API)
        if self.refuse_rcpt:
            return self.refuse_rcpt
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd API)
        if self.refuse_data:
            return self.refuse_data
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        self.received.append(Received(rcpt_tos=list(envelope.rcpt_tos), message=message))  # type: ignore[arg-type]
        return "250 Message accepted for delivery"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def smtp_server(handler: CollectingHandler, port: int) -> Iterator[CollectingHandler]:
    """A real SMTP server on 127.0.0.1:port for the duration of the block."""
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield handler
    finally:
        controller.stop()


@pytest.fixture
def port() -> int:
    return free_port()


@pytest.fixture
def mailer(port: int) -> Mailer:
    return Mailer(f"smtp://127.0.0.1:{port}?from=flowagent@example.com", timeout=5)


@pytest.fixture
def send_email(make_ctx) -> Callable[..., dict]:
    """Send an e-mail through the sendEmail tool as user_1 (same call_id → same idempotency key)."""

    def _send(text: str, *, mailer: Mailer | None, call_id: str | None = None, user_id: str = "user_2") -> dict:
        ctx = make_ctx("user_1", thread_id="t-mail", call_id=call_id, deps=mailer)
        return execute_call(TOOLSET, "sendEmail", {"userId": user_id, "emailContent": text}, ctx)

    return _send


def outbox_rows(store) -> list[dict]:
    return store.snapshot()["outbox"]


def test_mail_is_delivered_and_marked_sent(store, mailer, port, send_email):
    text = "李四你好：请审批我下周一的请假申请。谢谢！\nZhang San"
    with smtp_server(CollectingHandler(), port) as server:
        result = send_email(text, mailer=mailer)

    assert result["status"] == "sent"
    [row] = outbox_rows(store)
    assert (row["status"], row["attempts"], row["last_error"]) == ("sent", 1, None)
    assert row["sent_at"]
    [got] = server.received
    assert got.rcpt_tos == ["lisi@example.com"]
    assert got.message["To"] == "lisi@example.com"
    assert got.message["From"] == "flowagent@example.com"
    assert got.message["Subject"] == row["subject"]
    assert got.body == text


def test_failed_delivery_is_kept_and_retried(store, mailer, port, send_email):
    # Nothing listens on the port yet: delivery fails, the e-mail stays in the outbox.
    result = send_email("提醒：周五前提交报销单。", mailer=mailer)
    assert result["status"] == "failed"
    [row] = outbox_rows(store)
    assert row["status"] == "failed" and row["attempts"] == 1
    assert "Connection" in row["last_error"] or "Errno" in row["last_error"], row["last_error"]

    with smtp_server(CollectingHandler(), port) as server:
        assert mailer.retry_pending(store) == {row["id"]: "sent"}
        assert mailer.retry_pending(store) == {}  # nothing left to send

    [row] = outbox_rows(store)
    assert (row["status"], row["attempts"], row["last_error"]) == ("sent", 2, None)
    [got] = server.received
    assert got.rcpt_tos == ["lisi@example.com"] and got.body == "提醒：周五前提交报销单。"


def test_repeated_idempotency_key_sends_once(store, mailer, port, send_email):
    with smtp_server(CollectingHandler(), port) as server:
        first = send_email("请确认明天的会议时间。", mailer=mailer, call_id="call-mail-1")
        second = send_email("请确认明天的会议时间。", mailer=mailer, call_id="call-mail-1")
        # Delivering or retrying a sent e-mail again does not send it again either.
        assert mailer.deliver(store, first["emailId"]) == "sent"
        assert mailer.retry_pending(store) == {}

    assert first["status"] == "sent" and "replayed" not in first
    assert second["replayed"] is True and second["emailId"] == first["emailId"]
    assert len(outbox_rows(store)) == 1
    assert len(store.snapshot()["tool_executions"]) == 1
    assert len(server.received) == 1


@pytest.mark.parametrize(
    "handler",
    [CollectingHandler(refuse_rcpt="550 5.1.1 No such mailbox"),
     CollectingHandler(refuse_data="554 5.7.1 Message rejected as spam")],
    ids=["refused_at_rcpt", "refused_at_data"],
)
def test_refusing_server_leaves_mail_failed_in_outbox(store, mailer, port, send_email, handler):
    with smtp_server(handler, port):
        result = send_email("李四你好，请审批。", mailer=mailer)
    assert result["status"] == "failed"
    [row] = outbox_rows(store)
    assert row["status"] == "failed" and row["attempts"] == 1
    assert ("550" in row["last_error"]) if handler.refuse_rcpt else ("554" in row["last_error"]), row["last_error"]
    assert handler.received == []


def test_without_mailer_mail_stays_queued(store, send_email):
    result = send_email("会议改到下午三点。", mailer=None)
    assert result["status"] == "queued"
    [row] = outbox_rows(store)
    assert (row["status"], row["attempts"]) == ("queued", 0)


def test_delivery_claimed_by_a_dead_sender_is_retried_once_stale(store, mailer, port, send_email):
    from sqlalchemy import update

    from tools.workflow.mailer import STALE_SENDING_S
    from tools.workflow.store import outbox

    send_email("提醒：请审批我的请假。", mailer=None)
    [row] = outbox_rows(store)
    # A sender claimed it a moment ago and is still working: nobody else may send it.
    with store.transaction() as conn:
        conn.execute(update(outbox).values(status="sending", attempts=1, claimed_at="9999-12-31T00:00:00+00:00"))
    with smtp_server(CollectingHandler(), port) as server:
        assert mailer.retry_pending(store) == {}
        assert server.received == []
    # Its process died long ago without an outcome: the claim is stale and the e-mail goes out once.
    with store.transaction() as conn:
        conn.execute(update(outbox).values(claimed_at="2000-01-01T00:00:00+00:00"))
    assert STALE_SENDING_S > 0
    with smtp_server(CollectingHandler(), port) as server:
        assert mailer.retry_pending(store) == {row["id"]: "sent"}
        assert mailer.retry_pending(store) == {}
    assert len(server.received) == 1
    assert outbox_rows(store)[0]["status"] == "sent"


def test_the_people_a_request_concerns_are_e_mailed_after_its_commits(store, mailer, port, make_ctx):
    """A step that becomes ready e-mails its decider, an ended request its requester: written in the write's
    transaction, delivered after it commits when SMTP is configured."""
    with smtp_server(CollectingHandler(), port) as server:
        started = execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_qingjia", "userId": "user_1", "days": 1,
                                                         "reason": "看牙医", "nextUserId": "user_2"},
                               make_ctx("user_1", deps=mailer))
        decided = execute_call(TOOLSET, "handleTodoTask", {"taskId": started["taskId"], "isOK": True, "result": "同意"},
                               make_ctx("user_2", deps=mailer))
    assert [(n["to"], n["kind"], n["status"]) for n in started["notified"]] == [("user_2", "task_ready", "sent")]
    assert [(n["to"], n["kind"], n["status"]) for n in decided["notified"]] == [("user_1", "instance_ended", "sent")]
    to_approver, to_requester = server.received
    assert to_approver.rcpt_tos == ["lisi@example.com"]
    assert to_approver.body.startswith("张三的请假申请（1 天）等待您审批（task_1）。")
    assert to_requester.rcpt_tos == ["zhangsan@example.com"]
    assert to_requester.body.startswith("您的请假申请（1 天）已批准（req_1）。")
    assert [(r["sender_id"], r["status"]) for r in outbox_rows(store)] == [("flowagent", "sent"), ("flowagent", "sent")]
