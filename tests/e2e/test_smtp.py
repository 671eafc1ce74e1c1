"""Reminder e-mails of a full `flowagent chat` run, delivered to a real local SMTP server (aiosmtpd).

The real CLI runs in a pseudo-terminal (pexpect) against the scripted OpenAI-compatible server; the test
answers the approval card as a person would.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pexpect
import pytest

from evals.doubles.openai_server import ScriptedOpenAIServer
from tests.support.chat import DECISION, FLOWAGENT, PROMPT, TIMEOUT_S, chat_env, spawn_chat
from tests.support.smtp import REFUSE_RCPT, SmtpHandler, smtp_server
from tools import CallContext, WorkflowStore, execute_call
from tools.workflow import TOOLSET

SENDER = "flowagent@example.com"
REMINDER = "李四你好，请审批我的一天事假 task_1，谢谢！"
SCRIPT: list[Any] = [
    {"content": "先查李四的待办。", "tool_calls": [{"name": "queryTodoTask", "arguments": {"userId": "user_2"}}]},
    {
        "content": "给李四发提醒邮件。",
        "tool_calls": [{"name": "sendEmail", "arguments": {"taskId": "task_1", "emailContent": REMINDER}}],
    },
    "已发邮件提醒李四审批 task_1。",
]
DELIVERED = {"sent": "已发送", "failed": "发送失败，留在发件箱"}
"""How the chat's observation says the e-mail's delivery, by the outbox row's status."""


@pytest.fixture
def model() -> Iterator[ScriptedOpenAIServer]:
    with ScriptedOpenAIServer(SCRIPT, api_key="sk-test") as server:
        yield server


@pytest.fixture
def store(tmp_path: Path) -> Iterator[WorkflowStore]:
    """The chat's store, with 张三's one-day leave request waiting for 李四 (task_1)."""
    workflow_store = WorkflowStore(f"sqlite:///{tmp_path / 'workflow.db'}")
    args = {"processKey": "process_qingjia", "userId": "user_1", "reason": "家里有事", "days": 1, "nextUserId": "user_2"}
    execute_call(TOOLSET, "runWorkFlow", args, CallContext(backend=workflow_store, actor_id="user_1", call_id="setup"))
    yield workflow_store
    workflow_store.dispose()


def smtp_chat_env(tmp_path: Path, model_url: str, smtp_port: int) -> dict[str, str]:
    """The chat's environment, its e-mail sent through the SMTP server on `smtp_port`, in a 200-column terminal."""
    return chat_env(tmp_path, model_url, FLOWAGENT_SMTP_URL=f"smtp://127.0.0.1:{smtp_port}?from={SENDER}", COLUMNS="200")


def chat_reminder(tmp_path: Path, env: dict[str, str], *, delivery: str) -> None:
    """张三 asks for a reminder; the card shows the recipient and the text; the person approves with "a"."""
    child = spawn_chat(tmp_path, env)
    try:
        child.expect(PROMPT)
        child.sendline(f"发邮件提醒李四：{REMINDER}")
        child.expect("动作: queryTodoTask")
        child.expect("观察:")
        child.expect("动作: sendEmail")
        child.expect("需要你确认: 发送邮件")  # the card names the action by its title, not the tool
        child.expect("lisi@example.com")
        child.expect(REMINDER[:8])
        child.expect(DECISION)
        child.sendline("a")
        child.expect(f"观察: 给李四（lisi@example.com）的邮件{DELIVERED[delivery]}。")
        child.expect("已发邮件提醒李四审批 task_1")
        child.expect(PROMPT)
        child.sendline("exit")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
        child.logfile_read.close()


def flowagent(env: dict[str, str], *args: str) -> str:
    done = subprocess.run([FLOWAGENT, *args], env=env, capture_output=True, text=True, timeout=TIMEOUT_S, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_chat_reminder_is_delivered_by_smtp_after_approval(
    tmp_path: Path, model: ScriptedOpenAIServer, store: WorkflowStore
) -> None:
    handler = SmtpHandler()
    with smtp_server(handler) as port:
        chat_reminder(tmp_path, smtp_chat_env(tmp_path, model.base_url, port), delivery="sent")

    [mail] = handler.received
    assert (mail.mail_from, mail.rcpt_tos, mail.body) == (SENDER, ["lisi@example.com"], REMINDER)
    assert mail.message["To"] == "lisi@example.com" and "task_1" in mail.message["Subject"]
    [row] = store.snapshot()["emails"]
    assert (row["recipient_id"], row["status"], row["attempts"], row["last_error"]) == ("user_2", "sent", 1, None)
    # The notification the setup's request wrote (no mailer then) is still queued: the chat sent only the reminder.
    [notification] = store.snapshot()["notifications"]
    assert (notification["recipient_id"], notification["status"]) == ("user_2", "queued")
    assert model.remaining == 0


def test_refused_reminder_stays_in_the_outbox_and_is_delivered_by_retry(
    tmp_path: Path, model: ScriptedOpenAIServer, store: WorkflowStore
) -> None:
    refusing = SmtpHandler(refuse=True)
    with smtp_server(refusing) as port:
        env = smtp_chat_env(tmp_path, model.base_url, port)
        chat_reminder(tmp_path, env, delivery="failed")
    assert refusing.refused == ["lisi@example.com"] and refusing.received == []
    [row] = store.snapshot()["emails"]
    assert (row["status"], row["attempts"], row["body"]) == ("failed", 1, REMINDER)
    assert REFUSE_RCPT.split(" ", 1)[0] in row["last_error"]

    listing = flowagent(env, "outbox")
    assert "lisi@example.com" in listing and "not delivered" in listing  # the listing words the status `failed`

    handler = SmtpHandler()
    with smtp_server(handler) as good_port:
        retried = flowagent({**env, "FLOWAGENT_SMTP_URL": f"smtp://127.0.0.1:{good_port}?from={SENDER}"}, "outbox", "--retry")
    # The retry delivers what waits: the setup's notification (queued) and the refused reminder.
    assert "{1: 'sent', 2: 'sent'}" in retried
    notified, mail = handler.received
    assert (mail.rcpt_tos, mail.body) == (["lisi@example.com"], REMINDER)
    assert notified.rcpt_tos == ["lisi@example.com"] and "等待您审批（task_1）" in notified.body
    [row] = store.snapshot()["emails"]
    assert (row["status"], row["attempts"], row["last_error"]) == ("sent", 2, None)
