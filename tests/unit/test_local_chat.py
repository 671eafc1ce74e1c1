"""How the chat talks to the local model: the react text protocol, a stop before an invented observation."""

from __future__ import annotations

from types import SimpleNamespace

from graph.models.local.chat import default_local_model_settings


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
