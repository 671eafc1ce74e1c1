"""The runs' defaults follow the configured model everywhere: the chat and the LangGraph server alike."""

from __future__ import annotations

import pytest

from evals.doubles.scripted import ScriptedChatModel
from flowagent.models.endpoint import ModelConfigError, run_defaults, settings_from_env
from graph import build_graph
from state.context import Context


@pytest.fixture
def offline_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in ("OPENAI_BASE_URL", "OPENAI_API_KEY", "FLOWAGENT_PROTOCOL", "FLOWAGENT_MODEL"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_the_offline_model_runs_react_with_fixed_answers(offline_env):
    assert run_defaults(settings_from_env()) == {"protocol": "react", "fixed_answers": True}


def test_an_endpoint_runs_native_and_writes_its_own_answers(offline_env):
    offline_env.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    assert run_defaults(settings_from_env()) == {"protocol": "native", "fixed_answers": False}


def test_flowagent_protocol_is_honoured_and_an_argument_wins_over_it(offline_env):
    offline_env.setenv("FLOWAGENT_PROTOCOL", "json")
    assert run_defaults(settings_from_env())["protocol"] == "json"
    assert run_defaults(settings_from_env(), "native")["protocol"] == "native"


def test_an_unknown_protocol_is_a_configuration_error_that_says_what_to_set(offline_env):
    offline_env.setenv("FLOWAGENT_PROTOCOL", "xml")
    with pytest.raises(ModelConfigError, match="native, react or json.*FLOWAGENT_PROTOCOL"):
        run_defaults(settings_from_env())


def test_the_server_graph_shows_and_applies_the_models_defaults(offline_env, store):
    schema = Context.with_defaults(**run_defaults(settings_from_env()))
    graph = build_graph(model=ScriptedChatModel(replies=[]), store=store, context_schema=schema)
    properties = graph.get_context_jsonschema()["properties"]
    assert properties["protocol"]["default"] == "react"
    assert properties["fixed_answers"]["default"] is True
    assert schema().protocol == "react" and schema(protocol="native").protocol == "native"
    assert Context().protocol == "native"  # the in-process contract keeps its own defaults


def test_an_unknown_context_field_is_refused():
    with pytest.raises(ValueError, match="no field colour"):
        Context.with_defaults(colour="red")
