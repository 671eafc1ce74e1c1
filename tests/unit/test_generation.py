"""Generate only what is used: a text-protocol reply ends at its complete call, and the cut never changes the call."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, HumanMessage

from evals.doubles.openai_server import ScriptedOpenAIServer
from evals.doubles.scripted import ScriptedChatModel
from flowagent.models.cut_openai import CallCutChatOpenAI
from graph.generation import CUT_FINISH_REASON, REACT_STOP, call_end, generate, generation_limits
from graph.plans import parse_args
from graph.protocols import parse_json_reply, parse_react

# What the offline Qwen wrote after a complete call (raw completions, 2026-12-01), and other continuations.
CONTINUATIONS = [
    "",
    '\nAction Output: {"users":[{"userId":"user_1","name":"张三"}]}\nFinal Answer: 我查到的结果：\n用户：张三（user_1）',
    "\nObservation: (invented)",
    "\n\nThought: 再查一次。\nAction: getAllUser\nAction Input: {}",
    "\nFinal Answer: done",
    " \n",
]


def _call_of(parsed: Any) -> tuple[Any, ...]:
    return (parsed.thought, parsed.final, [(c["name"], c["args"]) for c in parsed.calls], parsed.problem)


def _first_cut(text: str, kind: Any) -> str | None:
    """The text a stream closed at the first complete call would have, one character per chunk."""
    for end in range(1, len(text) + 1):
        if call_end(text[:end], kind) is not None:
            return text[:end]
    return None


@pytest.mark.parametrize("continuation", CONTINUATIONS)
@pytest.mark.parametrize(
    "call",
    [
        'Thought: 我用工具来做。\nAction: getAllUser\nAction Input: {}',
        'Thought: look it up\nAction: getUserTodoTaskList\nAction Input: {"userId": "user_2"}',
        'Thought: x\nAction: startLeave\nAction Input: {"reason": "家里有事 {急}", "days": 2, "note": "a \\" } b"}',
        'Thought: x\nAction: startLeave\nAction Input: ```json\n{"days": 2}',
        'Thought: x\nAction: getAllUser\nAction Input: none',
        'Thought: x\nAction: getAllUser\nAction Input:\n{\n  "a": {"b": 1},\n  "c": [1, {"d": 2}]\n}',
    ],
)
def test_a_react_call_is_cut_where_it_is_complete_and_parses_the_same(call: str, continuation: str) -> None:
    text = call + ("\n" if call.endswith("none") and not continuation.startswith("\n") else "") + continuation
    cut = _first_cut(text, "react")
    assert cut is not None
    assert len(cut) <= len(call) + 1
    assert _call_of(parse_react(cut))[2], cut  # a call, not a format problem
    if "none" not in call:  # "Action Input: none" followed by more text is a format problem when not cut
        assert _call_of(parse_react(cut)) == _call_of(parse_react(text))


@pytest.mark.parametrize(
    "text",
    [
        "Thought: 结果已经回答了问题。\nFinal Answer: 流程有三个 {报销}。\nAction: getAllUser\nAction Input: {}",
        "Final Answer: 好的",
        "Thought: x\nAction: getAllUser\n",
        "Thought: x\nAction: getAllUser\nAction Input: {\"a\": 1",
        "Thought: x\nAction: getAllUser\nAction Input: user_2\nmore",
        "Thought: x\nAction: getAllUser\nAction Input: ```js",
        "我不知道。",
    ],
)
def test_a_final_answer_or_an_unfinished_call_is_never_cut(text: str) -> None:
    assert call_end(text, "react") is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"thought": "t", "action": "a", "action_input": {"b": [1, "}"]}}\n{"thought": "again"}',
         '{"thought": "t", "action": "a", "action_input": {"b": [1, "}"]}}'),
        ('```json\n{"thought": "t", "final": "ok"}\n```\nmore', '```json\n{"thought": "t", "final": "ok"}'),
        ('Sure, here it is: {"userId": "user_2"} and then', 'Sure, here it is: {"userId": "user_2"}'),
        ('[{"tool": "getAllUser", "args": {}}] and some prose', '[{"tool": "getAllUser", "args": {}}]'),
    ],
)
def test_a_json_reply_is_cut_after_its_first_value(text: str, expected: str) -> None:
    assert _first_cut(text, "json") == expected
    assert _call_of(parse_json_reply(expected)) == _call_of(parse_json_reply(text))
    assert parse_args(expected)[0] == parse_args(text)[0]


def test_a_json_reply_without_a_value_is_never_cut() -> None:
    assert call_end("I can answer that without tools.", "json") is None
    assert call_end('{"thought": "still writing', "json") is None


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet=st.characters(codec="utf-8"), max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=150, deadline=None)
@given(
    thought=st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\n"), max_size=20),
    args=st.dictionaries(st.text(max_size=6), JSONISH, max_size=4),
    continuation=st.text(max_size=40).filter(lambda s: "```" not in s),
)
def test_any_complete_call_parses_the_same_when_cut(thought: str, args: dict[str, Any], continuation: str) -> None:
    call = f"Thought: {thought}\nAction: getAllUser\nAction Input: {json.dumps(args, ensure_ascii=False)}"
    text = call + "\n" + continuation
    whole = parse_react(text)
    if whole.final is not None or not whole.calls or "Observation" in thought or "Action" in thought:
        return  # a thought that itself reads as a label is another reply
    cut = _first_cut(text, "react")
    assert cut is not None and len(cut) <= len(call)
    assert _call_of(parse_react(cut)) == _call_of(whole)
    json_text = json.dumps({"thought": thought, "action": "getAllUser", "action_input": args}) + continuation
    assert _call_of(parse_json_reply(_first_cut(json_text, "json") or "")) == _call_of(parse_json_reply(json_text))


def test_generation_limits_stop_a_react_reply_before_an_invented_observation() -> None:
    assert generation_limits("react") == {"stop": REACT_STOP}
    assert generation_limits("json") == {}


def test_a_model_that_cannot_cut_is_invoked_as_before() -> None:
    model = ScriptedChatModel(replies=["Thought: x\nAction: getAllUser\nAction Input: {}\nAction Output: {}"])
    raw = generate(model, [HumanMessage(content="有哪些用户？")], "react")
    assert str(raw.content).endswith("Action Output: {}")


@pytest.fixture
def server() -> Any:
    with ScriptedOpenAIServer() as running:
        yield running


def _client(server: ScriptedOpenAIServer) -> CallCutChatOpenAI:
    return CallCutChatOpenAI(model="scripted", base_url=server.base_url, api_key="sk-test", max_retries=0)  # type: ignore[arg-type]


def test_the_stream_is_closed_at_the_complete_call(server: ScriptedOpenAIServer) -> None:
    call = "Thought: 我用工具来做。\nAction: getAllUser\nAction Input: {}"
    server.extend([call + CONTINUATIONS[1]])
    raw = generate(_client(server), [HumanMessage(content="有哪些用户？")], "react")
    assert isinstance(raw, AIMessage)
    assert str(raw.content).startswith(call) and "Final Answer" not in str(raw.content)
    assert raw.response_metadata["finish_reason"] == CUT_FINISH_REASON
    assert raw.response_metadata["streamed_chunks"] >= 1 and raw.response_metadata["first_chunk_s"] >= 0
    assert raw.usage_metadata is not None and raw.usage_metadata["output_tokens"] == raw.response_metadata["streamed_chunks"]
    assert raw.response_metadata["usage_estimated"]  # a closed stream reports no usage
    sent = server.requests[-1]
    assert sent["stream"] is True and "cut_at_call" not in sent
    assert "stop" not in sent  # applied by the client: a server would hold back "\n" and generate the rest
    assert _call_of(parse_react(str(raw.content))) == _call_of(parse_react(call + CONTINUATIONS[1]))


def test_a_final_answer_streams_to_its_end_and_keeps_its_usage(server: ScriptedOpenAIServer) -> None:
    answer = "Thought: 结果已经回答了问题。\nFinal Answer: 用户有张三、李四和王五，共三位。"
    server.extend([answer])
    raw = generate(_client(server).model_copy(update={"stream_usage": True}), [HumanMessage(content="有哪些用户？")], "react")
    assert raw.content == answer
    assert raw.response_metadata.get("finish_reason") == "stop"
    assert raw.usage_metadata is not None and raw.usage_metadata["total_tokens"] > 0
    assert "usage_estimated" not in raw.response_metadata  # the server's own usage


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Thought: x\nFinal Answer: 好的\nObservation: invented", "Thought: x\nFinal Answer: 好的"),
        ("Thought: x\nFinal Answer: the Observ-ation deck", "Thought: x\nFinal Answer: the Observ-ation deck"),
        ("Thought: x\nAction: getAllUser\nObservation: invented", "Thought: x\nAction: getAllUser"),
    ],
)
def test_the_stop_sequences_apply_as_a_server_applies_them(server: ScriptedOpenAIServer, reply: str, expected: str) -> None:
    server.extend([reply])
    raw = generate(_client(server), [HumanMessage(content="q")], "react")
    assert raw.content == expected
    assert raw.response_metadata["finish_reason"] == ("stop")


def test_without_the_cut_the_client_is_chatopenai(server: ScriptedOpenAIServer) -> None:
    server.extend(["plain"])
    raw = _client(server).invoke([HumanMessage(content="hi")])
    assert raw.content == "plain" and not server.requests[-1].get("stream")
