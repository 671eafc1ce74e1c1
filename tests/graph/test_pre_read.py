"""The chat's pre-read (`ChatSession.pre_read`): what it sends is exactly how the next question's prompt starts,
so llama.cpp, having read it while the person typed, reads only the question."""

from __future__ import annotations

from typing import Any

from graph.deps import NodeDeps
from graph.nodes.reasoner import Reasoner
from tools.workflow import TOOLSET as WORKFLOW

CALL = "Thought: 我用工具来做。\nAction: {tool}\nAction Input: {{}}"


def pre_read_prompt(agent: Any, store: Any) -> list[Any]:
    """What the chat pre-reads: the reasoner's prompt for the conversation so far (as `ChatSession.pre_read`)."""
    reasoner = Reasoner(agent.model, NodeDeps(WORKFLOW, store, clock=agent.clock))
    return reasoner.prompt({"messages": [], **agent.values}, agent.context)


def test_the_pre_read_is_the_start_of_the_first_questions_prompt(graph_driver, store):
    agent = graph_driver(CALL.format(tool="getAllWorkFlow"), protocol="react", fixed_answers=True)
    pre = pre_read_prompt(agent, store)
    agent.say("有哪些流程？")
    asked = agent.model.prompts[0]
    assert asked[: len(pre)] == pre
    assert [m.content for m in asked[len(pre) :]] == ["有哪些流程？"]


def test_the_pre_read_after_an_answer_is_the_start_of_the_next_questions_prompt(graph_driver, store):
    agent = graph_driver(CALL.format(tool="getAllWorkFlow"), protocol="react", fixed_answers=True)
    agent.say("有哪些流程？")
    pre = pre_read_prompt(agent, store)
    assert "process_qingjia" in str(pre[-1].content) or any("process_qingjia" in str(m.content) for m in pre)
    agent.script(CALL.format(tool="getAllUser"))
    agent.say("有哪些用户？")
    asked = agent.model.prompts[1]
    assert asked[: len(pre)] == pre
    assert [m.content for m in asked[len(pre) :]] == ["有哪些用户？"]
