"""`flowagent chat` as a person's terminal runs it: the chat's environment against a scripted model server, and the
chat spawned in a pseudo-terminal (pexpect) that writes what it shows to `terminal.log`."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pexpect

FLOWAGENT = str(Path(sys.executable).with_name("flowagent"))
"""The `flowagent` command of this virtual environment."""
PROMPT = "张三> "
"""The chat's prompt for user_1."""
DECISION = r"批准 / 修改 / 拒绝 \[a/e/r\]："
"""The decision prompt, in the person's language (these conversations are in Chinese)."""
TIMEOUT_S = 60


def chat_env(tmp_path: Path, base_url: str, **extra: str) -> dict[str, str]:
    """This process's environment without model, store or tracing settings; the chat's model at `base_url`, its store
    and checkpoints under `tmp_path`, a dumb 160-column terminal; plus `extra`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "FLOWAGENT_", "LANGSMITH_", "LANGCHAIN_"))}
    env.update(
        OPENAI_BASE_URL=base_url,
        OPENAI_API_KEY="sk-test",
        FLOWAGENT_MODEL="scripted",
        FLOWAGENT_MAX_RETRIES="0",
        FLOWAGENT_DB=str(tmp_path / "workflow.db"),
        FLOWAGENT_CHECKPOINT_URL=str(tmp_path / "checkpoints.db"),
        PROMPT_TOOLKIT_NO_CPR="1",
        COLUMNS="160",
        LINES="50",
        TERM="dumb",
    )
    env.update(extra)
    return env


def as_in_a_terminal() -> None:
    """Start the chat with Ctrl-C's default action, as a terminal's shell does. A test run started as a
    background job (`cmd &` in a script) ignores SIGINT, every child inherits that, and Python then keeps
    ignoring it: Ctrl-C would reach nothing."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def spawn_chat(tmp_path: Path, env: dict[str, str], *args: str) -> pexpect.spawn:
    """`flowagent chat --user user_1 ARGS` in a pseudo-terminal as wide as `env`'s COLUMNS, in `tmp_path`; what it
    shows is appended to `tmp_path/terminal.log`."""
    child = pexpect.spawn(
        FLOWAGENT, ["chat", "--user", "user_1", *args], env=env, cwd=str(tmp_path), encoding="utf-8",
        timeout=TIMEOUT_S, dimensions=(int(env["LINES"]), int(env["COLUMNS"])), preexec_fn=as_in_a_terminal,
    )
    child.logfile_read = open(tmp_path / "terminal.log", "a", encoding="utf-8")  # noqa: SIM115 - closed by pexpect
    return child
