"""`flowagent chat` driven as a person would, in a pseudo-terminal, against a scripted OpenAI-compatible server."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest

from evals.doubles.openai_server import ScriptedOpenAIServer
from tests.support.chat import DECISION, FLOWAGENT, PROMPT, TIMEOUT_S, chat_env, spawn_chat
from tools import WorkflowStore

START_LEAVE = {
    "content": "张三要请假，李四审批。",
    "tool_calls": [
        {
            "name": "runWorkFlow",
            "arguments": {
                "processKey": "process_qingjia",
                "userId": "user_1",
                "reason": "肚子疼",
                "days": 2,
                "nextUserId": "user_2",
            },
        }
    ],
}
REMIND = {
    "content": "发邮件提醒李四。",
    "tool_calls": [{"name": "sendEmail", "arguments": {"taskId": "task_1", "emailContent": "李四你好，请审批我的两天病假。"}}],
}
MY_REQUESTS = {"content": "查张三的申请。", "tool_calls": [{"name": "queryMyRequests", "arguments": {}}]}
WITHDRAW = {"content": "撤回张三的请假。", "tool_calls": [{"name": "withdrawRequest", "arguments": {"requestId": "req_1"}}]}
LEAVE_AND_REMINDER = "肚子疼，请2天假，李四审批，然后发邮件提醒他：李四你好，请审批我的两天病假。"


def approve_the_start_card(child: pexpect.spawn) -> None:
    """A request is filed only once its requester confirms its start card."""
    child.expect("需要你确认: 发起申请")
    child.expect(DECISION)
    child.sendline("a")


def reach_the_reminder_card(child: pexpect.spawn) -> None:
    """At the prompt, 张三 asks for two days off approved by 李四 and a reminder to him, and confirms the start card:
    the chat stops at the reminder's card, asking for a decision."""
    child.expect(PROMPT)
    child.sendline(LEAVE_AND_REMINDER)
    approve_the_start_card(child)
    child.expect("需要你确认: 发送邮件")
    child.expect(DECISION)


def approve_the_kept_reminder(tmp_path: Path, env: dict[str, str], thread: str) -> None:
    """The chat started again on `thread` shows the reminder's card it kept, with its recipient; the person approves
    it, the chat says the reminder went out, and the person leaves."""
    child = spawn_chat(tmp_path, env, "--thread", thread)
    child.expect("上次还有一个待你确认的操作")
    child.expect("需要你确认: 发送邮件")
    child.expect("lisi@example.com")
    child.expect(DECISION)
    child.sendline("a")
    child.expect("已提醒李四")
    child.expect(PROMPT)
    child.sendline("exit")
    child.expect(pexpect.EOF)


def thread_of(child: pexpect.spawn) -> str:
    child.expect(r"--thread (t[0-9]{8}-[0-9]{6}-[0-9a-f]{4})")
    return str(child.match.group(1))


@pytest.fixture()
def server() -> Iterator[ScriptedOpenAIServer]:
    with ScriptedOpenAIServer([]) as srv:
        yield srv


def test_chat_starts_leave_approves_reminder_and_resumes_after_restart(tmp_path: Path, server) -> None:
    server.reset([START_LEAVE, REMIND, "已为你提交两天病假，并已提醒李四审批。",
                  MY_REQUESTS, "你之前提交了两天病假，李四尚未审批。",  # where it is: looked up
                  WITHDRAW, "已撤回你的请假申请，李四已收到通知。"])
    env = chat_env(tmp_path, server.base_url)

    child = spawn_chat(tmp_path, env)
    thread = thread_of(child)
    child.expect(PROMPT)
    child.sendline("我肚子疼，想请2天假，李四审批，然后发邮件提醒他：李四你好，请审批我的两天病假。")
    child.expect("动作: runWorkFlow")
    child.expect("需要你确认: 发起申请")
    child.expect("请假类型：病假")  # the type the person named (两天病假), and what it means for the leave
    child.expect("病假：带薪，不占额度")
    child.expect(DECISION)
    child.sendline("a")
    child.expect("观察: 已发起请假申请 req_1")
    child.expect("需要你确认: 发送邮件")
    child.expect("lisi@example.com")
    child.expect(DECISION)
    child.sendline("a")
    child.expect("已为你提交两天病假")
    child.expect(PROMPT)
    child.sendline("exit")
    child.expect(f"--thread {thread}")
    child.expect(pexpect.EOF)

    snapshot = WorkflowStore(f"sqlite:///{tmp_path / 'workflow.db'}").snapshot()
    assert [(r["requester_id"], r["days"], r["reason"], r["status"]) for r in snapshot["requests"]] == [
        ("user_1", 2.0, "肚子疼", "pending")
    ]
    assert [(m["recipient_id"], m["body"]) for m in snapshot["emails"]] == [("user_2", "李四你好，请审批我的两天病假。")]

    child = spawn_chat(tmp_path, env, "--thread", thread)
    child.expect(f"thread {thread}")
    child.expect("已恢复对话")
    child.expect(PROMPT)
    child.sendline("/history")
    child.expect("我肚子疼，想请2天假")
    child.expect("动作: sendEmail")
    child.expect("已为你提交两天病假")
    child.expect(PROMPT)
    child.sendline("/outbox")
    child.expect("待发送")  # the delivery state in the person's words
    child.expect(PROMPT)
    child.sendline("我的请假怎么样了？")
    child.expect("李四尚未审批")
    child.expect(PROMPT)
    child.sendline("/requests")  # my requests: where each stands, who holds it, what happened
    child.expect("req_1 请假流程")
    child.expect("处理人：李四")
    child.expect("张三 发起申请")
    child.expect(PROMPT)
    child.sendline("我的请假不请了，帮我撤回。")
    child.expect("需要你确认: 撤回申请")
    child.expect("李四的待办随之取消")
    child.expect(DECISION)
    child.sendline("a")
    child.expect("观察: 已撤回你的请假申请 req_1")
    child.expect("李四已收到通知")
    child.expect(PROMPT)
    child.sendline("/requests")
    child.expect("状态：已撤回")
    child.expect(PROMPT)
    child.sendline("exit")
    child.expect(pexpect.EOF)
    after = WorkflowStore(f"sqlite:///{tmp_path / 'workflow.db'}").snapshot()
    assert [r["status"] for r in after["requests"]] == ["withdrawn"] and [t["status"] for t in after["tasks"]] == [
        "cancelled"]

    # The model saw the whole earlier conversation after the restart.
    last_prompt = server.requests[-1]["messages"]
    assert any("我肚子疼，想请2天假" in str(m.get("content")) for m in last_prompt)
    assert after["emails"] == snapshot["emails"]
    assert "Traceback" not in (tmp_path / "terminal.log").read_text(encoding="utf-8")


def test_chat_restart_in_the_middle_of_an_approval(tmp_path: Path, server) -> None:
    server.reset([START_LEAVE, REMIND, "已提醒李四。"])
    env = chat_env(tmp_path, server.base_url)

    child = spawn_chat(tmp_path, env)
    thread = thread_of(child)
    reach_the_reminder_card(child)
    time.sleep(0.5)  # let the prompt take the terminal before the key arrives
    child.sendcontrol("c")  # the person walks away from the card
    child.expect("先放着")
    child.expect(PROMPT)
    child.sendline("exit")
    child.expect(pexpect.EOF)
    assert WorkflowStore(f"sqlite:///{tmp_path / 'workflow.db'}").snapshot()["emails"] == []

    approve_the_kept_reminder(tmp_path, env, thread)
    outbox = WorkflowStore(f"sqlite:///{tmp_path / 'workflow.db'}").snapshot()["emails"]
    assert len(outbox) == 1 and outbox[0]["recipient_id"] == "user_2"


@pytest.mark.parametrize("leave", ["exit", "ctrl-d"])
def test_quitting_at_an_approval_card_keeps_it_for_the_same_thread(tmp_path: Path, server, leave: str) -> None:
    server.reset([START_LEAVE, REMIND, "已提醒李四。"])
    env = chat_env(tmp_path, server.base_url)
    store = WorkflowStore(f"sqlite:///{tmp_path / 'workflow.db'}")

    child = spawn_chat(tmp_path, env)
    thread = thread_of(child)
    reach_the_reminder_card(child)
    time.sleep(0.5)  # let the prompt take the terminal before the keys arrive
    if leave == "exit":
        child.sendline("exit")
    else:
        child.sendcontrol("d")
    child.expect("这个待确认的操作会保留")
    child.expect(f"--thread {thread}")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert store.snapshot()["emails"] == []
    assert len(store.snapshot()["requests"]) == 1
    assert len(server.requests) == 2

    approve_the_kept_reminder(tmp_path, env, thread)

    snapshot = store.snapshot()
    assert [(m["recipient_id"], m["body"]) for m in snapshot["emails"]] == [("user_2", "李四你好，请审批我的两天病假。")]
    assert len(snapshot["requests"]) == 1  # the leave request started before the card was not started again
    assert len(server.requests) == 3  # the card came back from the checkpoint, not from a new model call
    assert "Traceback" not in (tmp_path / "terminal.log").read_text(encoding="utf-8")


def test_chat_reject_with_a_reason_becomes_the_observation(tmp_path: Path, server) -> None:
    server.reset([START_LEAVE, REMIND, "好的，不发邮件了。"])
    child = spawn_chat(tmp_path, chat_env(tmp_path, server.base_url))
    reach_the_reminder_card(child)
    child.sendline("r")
    child.expect("拒绝理由")
    child.sendline("先别打扰他")
    child.expect("观察: 你在确认时拒绝了：发送邮件（你说：先别打扰他）")
    child.expect("不发邮件了")
    child.expect(PROMPT)
    child.sendline("exit")
    child.expect(pexpect.EOF)
    assert WorkflowStore(f"sqlite:///{tmp_path / 'workflow.db'}").snapshot()["emails"] == []
    tool_results = [m for m in server.requests[-1]["messages"] if m["role"] == "tool"]
    assert "先别打扰他" in tool_results[-1]["content"]


def run_once(tmp_path: Path, env: dict[str, str], *args: str, say: str = "你好") -> str:
    child = spawn_chat(tmp_path, env, *args)
    index = child.expect([PROMPT, pexpect.EOF])
    if index == 0:
        child.sendline(say)
        child.expect(PROMPT)
        child.sendline("exit")
        child.expect(pexpect.EOF)
    return (tmp_path / "terminal.log").read_text(encoding="utf-8")


def test_unreachable_endpoint_is_one_sentence(tmp_path: Path) -> None:
    out = run_once(tmp_path, chat_env(tmp_path, "http://127.0.0.1:9/v1"))
    assert "Cannot reach the model endpoint http://127.0.0.1:9/v1" in out
    assert "Traceback" not in out


def test_wrong_api_key_is_one_sentence(tmp_path: Path) -> None:
    with ScriptedOpenAIServer(["never served"], api_key="sk-right") as srv:
        out = run_once(tmp_path, chat_env(tmp_path, srv.base_url, OPENAI_API_KEY="sk-wrong"))
    assert "refused the API key: check OPENAI_API_KEY" in out
    assert "Traceback" not in out


def test_missing_model_is_one_sentence(tmp_path: Path) -> None:
    missing = {
        "http_status": 404,
        "error": {"message": "The model `nope` does not exist", "type": "invalid_request_error", "code": "model_not_found"},
    }
    with ScriptedOpenAIServer([missing]) as srv:
        out = run_once(tmp_path, chat_env(tmp_path, srv.base_url, FLOWAGENT_MODEL="nope"))
    assert "Model 'nope' is not available" in out
    assert "Traceback" not in out


def test_unknown_user_is_one_sentence(tmp_path: Path, server) -> None:
    env = chat_env(tmp_path, server.base_url)
    child = pexpect.spawn(FLOWAGENT, ["chat", "--user", "user_9"], env=env, cwd=str(tmp_path), encoding="utf-8",
                          timeout=TIMEOUT_S)
    child.expect(pexpect.EOF)
    child.close()
    assert "Unknown user 'user_9': use --user with one of user_1 (张三)" in child.before
    assert "Traceback" not in child.before
    assert child.exitstatus == 2


def test_ctrl_c_during_a_model_call_cancels_the_call_not_the_program(tmp_path: Path, server) -> None:
    slow = {"content": "慢慢想……", "delay_s": 8}
    server.reset([slow, "流程有请假、报销和出差。"])
    child = spawn_chat(tmp_path, chat_env(tmp_path, server.base_url))
    child.expect(PROMPT)
    child.sendline("有哪些流程？")
    deadline = time.monotonic() + TIMEOUT_S
    while not server.requests:  # wait until the model call is in flight (a loaded machine starts slowly)
        assert time.monotonic() < deadline, "the chat never called the model"
        time.sleep(0.05)
    time.sleep(0.5)  # the scripted model takes 8 s to answer: interrupt it in the middle
    child.sendintr()
    child.expect("已取消。对话保留着")
    child.expect(PROMPT)
    child.sendline("有哪些流程？")
    child.expect("流程有请假、报销和出差")
    child.expect(PROMPT)
    child.sendline("exit")
    child.expect(pexpect.EOF)
    assert "Traceback" not in (tmp_path / "terminal.log").read_text(encoding="utf-8")


def test_log_records_go_to_a_file_beside_the_store_and_settings_name_it(tmp_path: Path, server) -> None:
    server.reset(["流程有请假、报销和出差。"])
    child = spawn_chat(tmp_path, chat_env(tmp_path, server.base_url, FLOWAGENT_LOG_LEVEL="info"))
    child.expect(PROMPT)
    child.sendline("/settings")
    child.expect_exact("flowagent.log (level INFO, FLOWAGENT_LOG_LEVEL)")
    child.expect(PROMPT)
    child.sendline("有哪些流程？")
    child.expect("流程有请假、报销和出差")
    child.expect(PROMPT)
    child.sendline("exit")
    child.expect(pexpect.EOF)
    log = (tmp_path / "flowagent.log").read_text(encoding="utf-8")
    assert " INFO " in log and "HTTP Request: POST" in log  # the model call, logged by its HTTP client
    assert "HTTP Request" not in (tmp_path / "terminal.log").read_text(encoding="utf-8")


def test_a_logged_crash_goes_to_the_log_file_never_to_the_terminal(tmp_path: Path) -> None:
    script = (
        "import logging, sys, warnings\n"
        "from flowagent.chat.logs import configure_logging\n"
        "configure_logging(sys.argv[1])\n"
        "try:\n"
        "    raise RuntimeError('the handler broke')\n"
        "except RuntimeError:\n"
        "    logging.getLogger('graph.nodes.executor').exception('tool handler crashed')\n"
        "logging.getLogger('graph').info('below the default level')\n"
        "warnings.warn('a library grumbles')\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("FLOWAGENT_")}
    done = subprocess.run(
        [sys.executable, "-c", script, f"sqlite:///{tmp_path / 'data' / 'workflow.db'}"],
        env=env, cwd=tmp_path, capture_output=True, text=True, timeout=TIMEOUT_S, check=False,
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    log = (tmp_path / "data" / "flowagent.log").read_text(encoding="utf-8")
    assert "ERROR graph.nodes.executor" in log and "Traceback" in log and "RuntimeError: the handler broke" in log
    assert "a library grumbles" in log
    assert "below the default level" not in log


def test_unknown_log_level_is_one_sentence(tmp_path: Path, server) -> None:
    env = chat_env(tmp_path, server.base_url, FLOWAGENT_LOG_LEVEL="LOUD")
    child = pexpect.spawn(FLOWAGENT, ["chat"], env=env, cwd=str(tmp_path), encoding="utf-8", timeout=TIMEOUT_S)
    child.expect(pexpect.EOF)
    child.close()
    assert "FLOWAGENT_LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL, not 'LOUD'." in child.before
    assert "Traceback" not in child.before
    assert child.exitstatus == 2


@pytest.mark.parametrize(("command", "instead"), [("eval", "flowagent-eval"), ("bench", "flowagent-bench")])
def test_flowagent_eval_and_bench_name_the_command_to_use(command: str, instead: str) -> None:
    done = subprocess.run([FLOWAGENT, command, "--quick"], capture_output=True, text=True, timeout=TIMEOUT_S, check=False)
    assert done.returncode == 2
    assert done.stderr.startswith(f"flowagent: `flowagent {command}` is now its own command: run `{instead}`")
    assert done.stderr.count("\n") == 1 and done.stdout == ""


def test_the_flowagent_command_never_imports_evals() -> None:
    script = (
        "import sys\n"
        "from flowagent.cli import main\n"
        "code = main(['eval', '--oracle'])\n"
        "print(code, sorted(m for m in sys.modules if m == 'evals' or m.startswith('evals.')))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=TIMEOUT_S, check=False)
    assert done.stdout == "2 []\n", done.stderr
