"""How the chat talks to the local model: the react text protocol, a stop before an invented observation."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from langchain_core.messages import AIMessage, HumanMessage, SystemMessage

from flowagent.models.local.chat import PreReader, default_local_model_settings


def test_the_local_model_talks_react_and_stops_before_an_observation() -> None:
    settings = default_local_model_settings()
    assert (settings.protocol, settings.stop) == ("react", ("Observation:",))


def test_the_reply_cap_goes_in_the_request_body_where_llama_cpp_python_reads_it() -> None:
    server = SimpleNamespace(base_url="http://127.0.0.1:8123/v1", api_key="sk-local", model="qwen2.5-coder-1.5b-instruct")
    kwargs = default_local_model_settings().chat_openai_kwargs(server)  # type: ignore[arg-type]
    assert kwargs == {
        "base_url": "http://127.0.0.1:8123/v1",
        "api_key": "sk-local",
        "model": "qwen2.5-coder-1.5b-instruct",
        "temperature": 0.3,
        "stop": ["Observation:"],
        "timeout": 300.0,
        "max_retries": 1,
        "extra_body": {"max_tokens": 512},
    }


class _Recording:
    """A chat model stand-in that records what it was asked to read."""

    def __init__(self, fail: bool = False) -> None:
        self.calls: list[tuple[list[Any], dict[str, Any]]] = []
        self.fail = fail

    def invoke(self, messages: list[Any], **kwargs: Any) -> None:
        self.calls.append((messages, kwargs))
        if self.fail:
            raise ConnectionError("server gone")


def test_the_pre_reader_reads_a_conversation_once_with_a_one_token_reply() -> None:
    model = _Recording()
    reader = PreReader(model)
    prompt = [SystemMessage(content="fixed"), HumanMessage(content="有哪些流程？"), AIMessage(content="三个。")]
    assert reader.pre_read(prompt) is not None
    reader.wait()
    assert reader.pre_read(list(prompt)) is None  # the server holds it already
    assert model.calls == [(prompt, {"extra_body": {"max_tokens": 1}})]
    assert len(reader.done) == 1
    reader.pre_read([*prompt, HumanMessage(content="有哪些用户？"), AIMessage(content="五位。")])
    reader.wait()
    assert len(model.calls) == 2


def test_a_failed_pre_read_is_tried_again_and_never_raises() -> None:
    model = _Recording(fail=True)
    reader = PreReader(model)
    prompt = [HumanMessage(content="q")]
    reader.pre_read(prompt)
    reader.wait()
    reader.pre_read(prompt)
    reader.wait()
    assert len(model.calls) == 2 and reader.done == []
