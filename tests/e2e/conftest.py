"""Fixtures of the end-to-end tests that talk to a real LangGraph server: one scripted OpenAI-compatible model
server and one workflow store file per test module, and `start_server`, which starts the module's server as each
of the kinds the suite runs against (`langgraph dev`, and the production server on PostgreSQL and Redis)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from evals.doubles.openai_server import ScriptedOpenAIServer
from tests.support.langgraph_server import LangGraphDevServer, ProductionServer
from tests.support.postgres import postgres_fixture  # noqa: F401 - the session fixture `postgres`
from tests.support.redis import redis_fixture  # noqa: F401 - the session fixture `redis`

SERVER_KINDS = ("dev", "production")
"""`dev`: `langgraph dev` (in memory); `production`: `flowagent serve` (langgraph-runtime-pg on PostgreSQL, Redis)."""
_REDIS_DBS = itertools.cycle(range(1, 16))


@pytest.fixture(scope="module", params=SERVER_KINDS)
def server_kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="module")
def start_server(server_kind: str, request: pytest.FixtureRequest) -> Callable[..., LangGraphDevServer]:
    """`with start_server(env, dotenv) as server:` the module's server, of this run's kind. For the production
    server, the runtime gets a new PostgreSQL database and Redis database, and the workflow store (`FLOWAGENT_DB`)
    a PostgreSQL database of its own, shared by every instance started on the same `shared` dict."""

    def start(env: dict[str, str], dotenv: dict[str, str] | None = None, *, workers: int = 1,
              shared: dict[str, Any] | None = None) -> LangGraphDevServer:
        if server_kind == "dev":
            return LangGraphDevServer(env, dotenv)
        postgres = request.getfixturevalue("postgres")
        redis = request.getfixturevalue("redis")
        deployment = shared if shared is not None else {}
        if not deployment:
            deployment["database_uri"] = postgres.url(postgres.create_database("lg"))
            deployment["redis_uri"] = f"{redis.url.rsplit('/', 1)[0]}/{next(_REDIS_DBS)}"
            deployment["store"] = postgres.url(postgres.create_database("store"))
        return ProductionServer(
            {**env, "FLOWAGENT_DB": deployment["store"]}, dotenv, database_uri=deployment["database_uri"],
            redis_uri=deployment["redis_uri"], workers=workers,
        )

    return start


@pytest.fixture(scope="module")
def model() -> Iterator[ScriptedOpenAIServer]:
    """The model the server calls: replies are scripted per test with `model.reset([...])`."""
    with ScriptedOpenAIServer(api_key="sk-test") as server:
        yield server


@pytest.fixture(scope="module")
def db_path(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The workflow store file the module's server and its tests share."""
    return tmp_path_factory.mktemp(request.module.__name__.rsplit(".", 1)[-1]) / "workflow.db"
