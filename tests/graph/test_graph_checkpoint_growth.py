"""Checkpoint storage grows linearly with turns: the history is stored as deltas, not re-stored each step.

A turn is one person's message → one tool call → a final answer, driven by a zero-latency scripted model
on a real SQLite checkpointer file.
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

from evals.doubles.scripted import tool_call

FEW, MANY = 4, 28
MAX_RATIO = 10  # 28 turns / 4 turns is 7 when growth is linear (49 if every step re-stored the history)


def stored_bytes(saver: Any, thread_id: str) -> int:
    """Bytes of every checkpoint and pending write of a thread, as stored in the SQLite file."""
    checkpoints = saver.conn.execute(
        "SELECT COALESCE(SUM(LENGTH(checkpoint) + LENGTH(metadata)), 0) FROM checkpoints WHERE thread_id = ?",
        (thread_id,),
    ).fetchone()[0]
    writes = saver.conn.execute(
        "SELECT COALESCE(SUM(LENGTH(value)), 0) FROM writes WHERE thread_id = ?", (thread_id,)
    ).fetchone()[0]
    return int(checkpoints) + int(writes)


def take_turns(agent: Any, first: int, last: int) -> None:
    for turn in range(first, last + 1):
        user = "user_2" if turn % 2 else "user_3"
        agent.script(
            tool_call("queryTodoTask", {"userId": user}, id=f"c{turn}"),
            f"第{turn}轮：{user} 目前没有待办。",
        )
        agent.say(f"第{turn}轮：{user} 有待办吗？")


def test_checkpoint_bytes_grow_linearly_with_turns(graph_driver, checkpointer):
    # Each run reads the thread's history back from its deltas, so the turns cost more as they go: 28 turns show
    # linear from quadratic growth as plainly as 100, in a quarter of the time.
    agent = graph_driver(thread_id="growth")
    take_turns(agent, 1, FEW)
    after_few = stored_bytes(checkpointer, "growth")
    take_turns(agent, FEW + 1, MANY)
    after_many = stored_bytes(checkpointer, "growth")

    assert len(agent.messages) == MANY * 4  # every turn is really in the thread
    assert agent.script_used_up
    assert after_many <= MAX_RATIO * after_few, f"{after_many} bytes after {MANY} turns vs {after_few} after {FEW}"


def test_history_read_back_from_deltas_is_the_same_every_time(graph_driver):
    agent = graph_driver("你好！", thread_id="ids")
    agent.say("在吗？")
    # Studio edits state with message-like values (here a tuple) that carry no id: replaying the stored
    # write must not draw a new random id on every read.
    agent.graph.update_state(agent.config, {"messages": [("ai", "补充：我是 flowagent。")]})
    first, second = agent.messages, agent.messages
    assert [m.id for m in first] == [m.id for m in second]
    assert [(type(m), m.content) for m in first] == [
        (HumanMessage, "在吗？"),
        (AIMessage, "你好！"),
        (AIMessage, "补充：我是 flowagent。"),
    ]


def test_long_history_folds_into_a_summary_without_splitting_calls_from_results(graph_driver):
    # a threshold every turn passes (a turn is about 100 tokens by the estimate): each turn folds the oldest away
    agent = graph_driver(thread_id="fold", summary_threshold_tokens=100, keep_recent_turns=2)
    take_turns(agent, 1, 12)
    prompt = agent.model.prompts[-1]
    system, *history = prompt
    assert isinstance(system, SystemMessage)
    assert "Summary of earlier conversation" in system.content
    assert "第1轮" not in str([m.content for m in history])  # folded out of the verbatim history
    assert isinstance(history[0], HumanMessage)  # the cut is at a person's message
    assert len([m for m in history if isinstance(m, HumanMessage)]) <= 3
    answered = {m.tool_call_id for m in history if isinstance(m, ToolMessage)}
    proposed = {c["id"] for m in history if isinstance(m, AIMessage) for c in m.tool_calls}
    assert proposed == answered
    assert len(agent.messages) == 12 * 4  # folding hides turns from the prompt; it deletes nothing
