"""Fixtures of the end-to-end tests that talk to a real LangGraph server: one scripted OpenAI-compatible model
server and one workflow store file per test module, and `start_server`, which starts the module's server as each
of the kinds the suite runs against (`langgraph dev`, and the production server on PostgreSQL and Redis).

`server` is that server with its graph calling the scripted `model` (a module whose server needs more, such as a
`.env`, defines its own `server`; the page's modules take `page_server`, with the built page and a sign-in secret,
and `browser`, Debian's Chromium); `signed_in` gives SDK clients of it signed in as a user, and `server_store` opens
the workflow store it uses. (That fixture is not named `store`: the e2e tests without a server use the root
conftest's `store`, a store of the test's own.)"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from evals.doubles.openai_server import ScriptedOpenAIServer
from flowagent.server.routes import STATIC_DIR
from tests.support.browser import JOURNAL, Browser, chromium
from tests.support.langgraph_server import LangGraphDevServer, ProductionServer, model_env, model_settings, store_env
from tests.support.postgres import postgres_fixture  # noqa: F401 - the session fixture `postgres`
from tests.support.redis import redis_fixture  # noqa: F401 - the session fixture `redis`
from tools import WorkflowStore

LOG_TAIL_CHARS = 12_000


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """A failed test's report carries the tail of each server log it used and what its pages' consoles printed:
    CI keeps only the report, and a page that stopped mid-answer says why only there."""
    if call.when == "setup":
        JOURNAL.clear()
    outcome = yield
    report = outcome.get_result()
    if not report.failed:
        return
    servers = {id(v): (name, v) for name, v in getattr(item, "funcargs", {}).items() if isinstance(v, LangGraphDevServer)}
    for name, server in servers.values():
        report.sections.append((f"log of `{name}` (tail)", server.log_tail(LOG_TAIL_CHARS)))
    if JOURNAL:
        report.sections.append(("the pages' consoles and failed requests", "\n".join(JOURNAL)))


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


@pytest.fixture(scope="module")
def server(model: ScriptedOpenAIServer, db_path: Path, start_server: Any) -> Iterator[LangGraphDevServer]:
    """The module's server: its graph calls the scripted `model`, its workflow store is at `db_path`."""
    with start_server(model_env(model, db_path)) as started:
        yield started


PAGE_SECRET = "page-test-secret-of-at-least-32-bytes-0123456789"
"""The secret the page's servers sign their dev tokens with."""
NOT_BUILT = "the page is not built: run ./run test (its setup_web step) or `cd web && npm ci && npm run build`"


@pytest.fixture(scope="module")
def page_server(model: ScriptedOpenAIServer, db_path: Path, start_server: Any) -> Iterator[LangGraphDevServer]:
    """The module's server with the built page (`flowagent/server/static/`), signing in with `PAGE_SECRET`."""
    if not (STATIC_DIR / "index.html").is_file():
        pytest.fail(NOT_BUILT, pytrace=False)
    with start_server(store_env(db_path, FLOWAGENT_AUTH_SECRET=PAGE_SECRET), model_settings(model)) as dev:
        yield dev


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, headless, for the module's pages."""
    with chromium() as launched:
        yield launched


@pytest.fixture(scope="module")
def signed_in(server: LangGraphDevServer) -> Callable[[str], Any]:
    """`signed_in("user_1")`: an SDK client of the module's server with a dev token for that user (one per user)."""
    clients: dict[str, Any] = {}

    def client(user_id: str) -> Any:
        if user_id not in clients:
            clients[user_id] = server.client(user_id)
        return clients[user_id]

    return client


@pytest.fixture
def server_store(server: LangGraphDevServer) -> Iterator[WorkflowStore]:
    """The workflow store the module's server uses, opened for the test and disposed after it."""
    workflow_store = WorkflowStore(server.db_url)
    yield workflow_store
    workflow_store.dispose()
