"""The person's language everywhere they look in the terminal: a Chinese conversation shows no English sentence from
the code, an English one no Chinese but what the person wrote (and the names they wrote that way); and outside the
ReAct trace's Action lines, no tool's name, raw value or refusal code.

The real `flowagent chat` in a pseudo-terminal, against the scripted OpenAI-compatible server: the graph asks who
approves, fills in the answer, runs the write, refuses a write the person did not ask for, and shows a review card.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest

from evals.doubles.openai_server import ScriptedOpenAIServer
from tests.support.chat import chat_env
from tests.support.chat import spawn_chat as spawn
from tools.workflow import TOOLSET

ENGLISH_SENTENCE = re.compile(r"[A-Za-z]{2,}(?:[ ,'’-]+[A-Za-z]{2,}){3,}")
"""Four English words in a row: a sentence or a phrase of one (tool names, ids and JSON keys are single words)."""
HAN = re.compile(r"[\u3400-\u9fff]")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r")


def call(name: str, arguments: dict, content: str = "") -> dict:
    return {"content": content, "tool_calls": [{"name": name, "arguments": arguments}]}


@pytest.fixture()
def server() -> Iterator[ScriptedOpenAIServer]:
    with ScriptedOpenAIServer([]) as srv:
        yield srv


MACHINE_WORDS = re.compile(
    r"(?<![A-Za-z])(?:" + "|".join([*TOOLSET.registry.names, "pending", "True", "policy_notes", "on_approve"])
    + r")(?![A-Za-z])|\[[a-z_]+\]|Rejected by the reviewer"
)
"""What a person never reads: a tool's name, a raw status, a field's key, a refusal's code, a note for the model."""
TRACE = re.compile(r"^(?:动作|动作输入|Action|Action Input): ", re.MULTILINE)


def for_the_person(text: str) -> str:
    """The terminal without the ReAct trace's Action and Action Input lines (they show the call as the model made it)."""
    return "\n".join(line for line in text.splitlines() if not TRACE.match(line))


COMMAND = re.compile(r"flowagent chat( --[a-z]+ \S+)*")
"""A command line the person may type (how to resume), which is code, not a sentence."""


def shown(tmp_path: Path) -> str:
    """What the terminal showed, without colour codes and command lines."""
    return COMMAND.sub("", ANSI.sub("", (tmp_path / "terminal.log").read_text(encoding="utf-8")))


def converse(child: pexpect.spawn, prompt: str, lines: list[str], decision: str) -> None:
    child.expect(prompt)
    for line in lines:
        child.sendline(line)
        index = child.expect([prompt, decision])
        while index == 1:  # a review card: approve it
            child.sendline("a")
            index = child.expect([prompt, decision])
    child.sendline("exit")
    child.expect(pexpect.EOF)


def test_a_chinese_conversation_shows_no_english_sentence_from_the_code(tmp_path: Path, server) -> None:
    leave = {"processKey": "process_qingjia", "reason": "肚子疼", "days": 2, "nextUserId": "user_4"}
    server.reset([
        call("runWorkFlow", leave, "张三要请两天假。"),  # the model picks an approver nobody named: the graph asks
        "已为你提交两天病假，等待李四审批。",
        call("handleTodoTask", {"taskId": "task_1", "isOK": True}, "我来批准。"),  # a requester never decides: the
        # code says so, with who the request waits on (no model call after it)
        call("sendEmail", {"taskId": "task_1", "emailContent": "请尽快审批我的病假，谢谢"}, "发提醒。"),
        "已提醒李四。",
    ])
    child = spawn(tmp_path, chat_env(tmp_path, server.base_url))
    said = ["明天肚子疼，想请2天假", "李四吧", "帮我把这个申请批了", "提醒李四审批，内容：请尽快审批我的病假，谢谢"]
    converse(child, "张三> ", said, r"\[a/e/r\]")
    text = shown(tmp_path)
    assert "请问谁来审批？" in text and "已发起请假申请" in text and "审批：未执行（不能审批自己的申请）" in text
    assert "需要你确认: 发起申请" in text and "需要你确认: 发送邮件" in text and "收件人" in text
    assert ENGLISH_SENTENCE.findall(text) == []
    assert MACHINE_WORDS.findall(for_the_person(text)) == []


def test_an_english_conversation_shows_no_chinese_but_the_persons_own_words(tmp_path: Path, server) -> None:
    leave = {"processKey": "process_qingjia", "reason": "a stomach ache", "days": 2, "nextUserId": "user_4"}
    server.reset([
        call("runWorkFlow", leave, "Zhang San wants two days off."),
        "Filed; Li Si approves it.",
        call("handleTodoTask", {"taskId": "task_1", "isOK": True}, "Approving it."),  # refused and said by the code
        call("sendEmail", {"taskId": "task_1", "emailContent": "please review my sick leave today"}, "Reminding."),
        "Li Si has been reminded.",
    ])
    child = spawn(tmp_path, chat_env(tmp_path, server.base_url), "--locale", "en")
    converse(child, "Zhang San> ", ["I have a stomach ache and need 2 days off tomorrow", "Li Si", "approve this request for me",
                                    "Remind Li Si, the text is: please review my sick leave today"], r"\[a/e/r\]")
    text = shown(tmp_path)
    assert "Who should approve it?" in text and "Started leave request" in text
    assert "Decide a task: not done (you cannot decide your own request)" in text
    assert "Approval needed: start a request" in text and "Approval needed: send an e-mail" in text
    assert "lisi@example.com" in text
    assert HAN.findall(text) == []
    assert MACHINE_WORDS.findall(for_the_person(text)) == []
