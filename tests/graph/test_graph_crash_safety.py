"""Crash safety: a run killed after the person approved an e-mail, between the e-mail's commit and the
executor's checkpoint, then resumed, leaves exactly one e-mail in the outbox.

The crash is real: a child process drives the graph to the approval, approves, and dies with `os._exit`
at the first moment after the e-mail's transaction committed (the mailer's delivery, which runs before
the executor returns). The parent then resumes the same thread from the same SQLite files.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from langchain_core.messages import ToolMessage

from evals.doubles.scripted import ScriptedChatModel
from graph import build_graph
from graph.checkpoint import open_sqlite_checkpointer
from state import Context
from tools import WorkflowStore

ROOT = Path(__file__).resolve().parents[2]
KILLED = 9
MAIL = "李四你好，我的请假申请还在等你审批，麻烦尽快处理，谢谢！"

CHILD = textwrap.dedent(
    f"""
    import os, sys

    from langchain_core.messages import HumanMessage
    from langgraph.types import Command

    from evals.doubles.scripted import ScriptedChatModel, tool_call
    from graph import build_graph
    from graph.checkpoint import open_sqlite_checkpointer
    from state import Context
    from tools import Mailer, WorkflowStore


    class DieAfterCommit(Mailer):
        # execute_call hands the e-mail to the mailer right after its transaction committed.
        def __init__(self):
            pass

        def deliver(self, store, email_id):
            os._exit({KILLED})


    store_url, checkpoint_path = sys.argv[1:3]
    model = ScriptedChatModel(
        replies=[tool_call("sendEmail", {{"userId": "user_2", "emailContent": {MAIL!r}}}, id="c-mail"), "unused"]
    )
    graph = build_graph(
        model=model,
        store=WorkflowStore(store_url),
        checkpointer=open_sqlite_checkpointer(checkpoint_path),
        deps=DieAfterCommit(),
    )
    config = {{"configurable": {{"thread_id": "crash"}}}}
    context = Context(user_id="user_1")
    graph.invoke({{"messages": [HumanMessage("给李四发邮件：" + {MAIL!r})]}}, config, context=context)
    assert graph.get_state(config).interrupts, "no approval was asked"
    # As the chat does: each step's checkpoint is written before the next step starts. With LangGraph's
    # default "async" durability a kill can also lose or half-write the approval's checkpoint.
    graph.invoke(Command(resume={{"decisions": [{{"type": "approve"}}]}}), config, context=context, durability="sync")
    sys.exit("the run survived the e-mail: the kill point was never reached")
    """
)


def test_killed_after_approved_email_commits_then_resumed_sends_exactly_once(tmp_path):
    store_url = f"sqlite:///{tmp_path}/wf.db"
    checkpoint_path = tmp_path / "checkpoints.db"
    child = subprocess.run(
        [sys.executable, "-c", CHILD, store_url, str(checkpoint_path)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert child.returncode == KILLED, child.stderr

    store = WorkflowStore(store_url)
    saver = open_sqlite_checkpointer(checkpoint_path)
    try:
        assert len(store.snapshot()["outbox"]) == 1  # the effect committed before the kill
        graph = build_graph(model=ScriptedChatModel(replies=["提醒邮件已发给李四。"]), store=store, checkpointer=saver)
        config = {"configurable": {"thread_id": "crash"}}
        context = Context(user_id="user_1")
        before = graph.get_state(config)
        assert not [m for m in before.values["messages"] if isinstance(m, ToolMessage)]  # killed before the checkpoint
        assert before.next == ("executor",), before.next  # the approval's checkpoint was written
        graph.invoke(None, config, context=context)

        outbox = store.snapshot()["outbox"]
        assert [(r["recipient_id"], r["body"], r["idempotency_key"]) for r in outbox] == [("user_2", MAIL, "crash:c-mail")]
        messages = graph.get_state(config).values["messages"]
        [sent] = [m for m in messages if isinstance(m, ToolMessage)]
        assert (sent.name, sent.tool_call_id, sent.status) == ("sendEmail", "c-mail", "success")
        assert sent.artifact["replayed"] is True
        assert sent.artifact["emailId"] == outbox[0]["id"]
        assert messages[-1].content == "提醒邮件已发给李四。"
    finally:
        saver.conn.close()
        store.dispose()
