"""Fixtures of the end-to-end tests that talk to a real `langgraph dev`: one scripted OpenAI-compatible model
server and one workflow store file per test module."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from evals.doubles.openai_server import ScriptedOpenAIServer


@pytest.fixture(scope="module")
def model() -> Iterator[ScriptedOpenAIServer]:
    """The model the server calls: replies are scripted per test with `model.reset([...])`."""
    with ScriptedOpenAIServer(api_key="sk-test") as server:
        yield server


@pytest.fixture(scope="module")
def db_path(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The workflow store file the module's server and its tests share."""
    return tmp_path_factory.mktemp(request.module.__name__.rsplit(".", 1)[-1]) / "workflow.db"
