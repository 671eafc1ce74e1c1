"""flowagent's web page and its JSON routes, mounted by LangGraph's server beside its API (`langgraph.json` `http.app`).

- `GET  /flowagent/`                  the page (the Vite build in `flowagent/server/static/`)
- `GET  /flowagent/words`             the fixed words the page shows that the server owns: each action's title, why
                                      an action was not done, the "what actually happened" line (by language)
- `GET  /flowagent/auth/dev-users`    the store's users, for the development sign-in picker
- `POST /flowagent/auth/dev-token`    `{"user_id"}` → `{"token", "user": {"id", "name"}}`
- `GET  /flowagent/api/me`            the signed-in user
- `GET  /flowagent/api/tasks`         their to-do tasks and their own requests
- `GET  /flowagent/api/outbox`        the e-mails they sent or received

Served by langgraph-runtime-pg (`./run serve`), the app's one middleware (`LifespanToTheRouter`) lets the server's
start-up run: see there.

The `/api/` routes read the workflow store (the one the graph uses) for the bearer token's user only, and
answer 401 without a valid token. LangGraph's own auth is not applied to these routes
(`enable_custom_route_auth` is off): the page and the sign-in must load without a token, so each API route
verifies the token itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from flowagent.server.tokens import TokenError, issue_dev_token, production_mode, served_backend, served_toolset, verify_token
from graph.history import refusal_words
from graph.prompts import CARD_WORDS, OUTCOME_LABELS, UNNAMED_ACTION
from tools.errors import DomainError

log = logging.getLogger(__name__)

PREFIX = "/flowagent"
STATIC_DIR = Path(__file__).with_name("static")
NOT_BUILT = "flowagent's web page is not built: run `./run test` or `cd web && npm ci && npm run build`.\n"
UNAUTHORIZED = {"error": "unauthorized", "message": "Sign in: send Authorization: Bearer <token>."}


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


# ------------------------------------------------------------------------------------------------------
# Reads through the served toolset, for one user
# ------------------------------------------------------------------------------------------------------


def list_users() -> list[dict[str, str]]:
    """The people of the served toolset, for the development sign-in picker."""
    toolset = served_toolset()
    with served_backend().read() as handle:
        return [{"id": str(p["id"]), "name": str(p.get("name") or p["id"])} for p in toolset.directory(handle)]


def find_user(user_id: str) -> dict[str, Any] | None:
    """The signed-in user as the served toolset knows them, or None."""
    try:
        with served_backend().read() as handle:
            actor = served_toolset().actor(handle, user_id)
    except DomainError:
        return None
    return {"id": actor["id"], "name": actor.get("name", actor["id"]), "email": actor.get("email", "")}


def panel(name: str, user_id: str) -> Any:
    with served_backend().read() as handle:
        return served_toolset().surfaces.panels[name](handle, user_id)


# ------------------------------------------------------------------------------------------------------
# Routes
# ------------------------------------------------------------------------------------------------------

Handler = Callable[[Request, str], Awaitable[Response]]


async def _read(query: Callable[..., Any], *args: Any) -> Any:
    """Run a read off the event loop (opening the store the first time touches the disk, too)."""
    return await run_in_threadpool(lambda: query(*args))


def signed_in(handler: Handler) -> Callable[[Request], Awaitable[Response]]:
    """Call `handler(request, user_id)` for a valid bearer token; 401 otherwise."""

    async def endpoint(request: Request) -> Response:
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            return JSONResponse(UNAUTHORIZED, status_code=401)
        try:
            # Verifying may read the store (is the token's user known?): off the event loop.
            identity = await run_in_threadpool(verify_token, token.strip())
        except TokenError as exc:
            return JSONResponse({"error": exc.code, "message": exc.message}, status_code=401)
        return await handler(request, str(identity.user_id))

    return endpoint


DEV_SIGN_IN_OFF = "the development sign-in is off while FLOWAGENT_JWKS_URL is set: sign in with your identity provider"


async def dev_users(request: Request) -> Response:
    if production_mode():
        return _error(404, "production_mode", DEV_SIGN_IN_OFF)
    return JSONResponse({"users": await _read(list_users)})


async def dev_token(request: Request) -> Response:
    if production_mode():  # before any look-up: the users are not listed, not even one by one
        return _error(404, "production_mode", DEV_SIGN_IN_OFF)
    try:
        body = await request.json()
    except ValueError:
        return _error(400, "bad_request", 'Send JSON: {"user_id": "user_1"}.')
    user_id = body.get("user_id") if isinstance(body, dict) else None
    if not isinstance(user_id, str) or not user_id:
        return _error(400, "bad_request", 'Send JSON: {"user_id": "user_1"}.')
    user = await _read(find_user, user_id)
    if user is None:
        return _error(404, "unknown_user", f"No user {user_id!r}; GET {PREFIX}/auth/dev-users lists them.")
    try:
        token = await run_in_threadpool(issue_dev_token, user_id)
    except TokenError as exc:  # e.g. no dev secret set, or production sign-in only: say why, never a 500
        log.warning("no dev token for %s: %s", user_id, exc)
        return _error(403, exc.code, exc.message)
    return JSONResponse({"token": token, "user": {"id": user["id"], "name": user["name"]}})


async def me(request: Request, user_id: str) -> Response:
    user = await _read(find_user, user_id)
    if user is None:
        return _error(401, "unknown_user", f"The token's user {user_id!r} is not in the store.")
    return JSONResponse(user)


def panel_route(name: str) -> Route:
    """`GET /flowagent/api/<name>`: one of the served toolset's panels, for the signed-in user."""

    async def read(request: Request, user_id: str) -> Response:
        return JSONResponse(await _read(panel, name, user_id))

    return Route(f"{PREFIX}/api/{name}", signed_in(read), methods=["GET"])


def person_words() -> dict[str, Any]:
    """What the page words a run's records with, from the same place as the chat: each tool's title (`ToolSpec.title`,
    so no tool name reaches a person), why an action was not done (the graph's words and the toolset's for its codes,
    `graph.history.refusal_words`, picked by `graph.history.refusal_key`), the outcome line's words and the card's; by
    language."""
    toolset = served_toolset()
    titles = {spec.name: {lang: spec.title_in(lang) for lang in ("zh", "en")} for spec in toolset.registry}
    refusals = {lang: refusal_words(lang, toolset.language.refusals) for lang in ("zh", "en")}
    return {"titles": titles, "unnamed": UNNAMED_ACTION, "refusals": refusals, "outcome": OUTCOME_LABELS, "card": CARD_WORDS}


async def words(request: Request) -> Response:
    """`GET /flowagent/words`: no token needed (the page's words, no one's data)."""
    return JSONResponse(await _read(person_words))


async def to_page(request: Request) -> Response:
    return RedirectResponse(f"{PREFIX}/", status_code=307)


async def not_built(request: Request) -> Response:
    return PlainTextResponse(NOT_BUILT, status_code=503)


def page() -> Mount | Route:
    """The built page, or a route that says how to build it."""
    if (STATIC_DIR / "index.html").is_file():
        return Mount(PREFIX, app=StaticFiles(directory=STATIC_DIR, html=True), name="flowagent-page")
    return Route(f"{PREFIX}/{{path:path}}", not_built)


STARTUP_LOCK = 0x666C6F78
"""The PostgreSQL advisory lock that lets one server process of a deployment start at a time ("flox")."""


class LifespanToTheRouter:
    """Hands the server's start-up and shutdown (the ASGI lifespan) straight to the app's router, one process of a
    deployment at a time.

    - With a custom app (`http.app`), langgraph-api makes it the server and adds, innermost, a middleware that
      reads the LangGraph store on every ASGI call (`EnsureStoreAccessible`), the lifespan call included. In memory
      that works; langgraph-runtime-pg's store needs the database pool that only the lifespan opens, so the call
      failed, uvicorn took the lifespan as unsupported and the server never started ("Store requires
      setup_store()"). The router runs the lifespan langgraph-api combined (its runtime's, then this app's); HTTP
      calls go through every middleware as before, by then with the pool open.
    - On langgraph-runtime-pg, each process's start-up creates the runtime's tables and the checkpointer's. Two
      processes (`--workers 2`, or two instances) starting together on an empty database raced on CREATE TABLE
      (a unique violation in `pg_type`) and the server stopped. A PostgreSQL advisory lock on `DATABASE_URI`,
      held from the start-up's beginning to its end, lets them start one after the other.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "lifespan":
            await self.app(scope, receive, send)
            return
        database_uri = os.environ.get("DATABASE_URI", "")
        if os.environ.get("LANGGRAPH_RUNTIME_EDITION") != "pg" or not database_uri:
            await app.router(scope, receive, send)
            return
        import psycopg

        lock = await psycopg.AsyncConnection.connect(database_uri, autocommit=True)
        # Polled, not waited for: a session blocked in pg_advisory_lock is a running transaction, and the start-up
        # holding the lock runs CREATE INDEX CONCURRENTLY, which waits for every running transaction to end.
        while not (await (await lock.execute("SELECT pg_try_advisory_lock(%s)", (STARTUP_LOCK,))).fetchone() or [False])[0]:
            await asyncio.sleep(0.2)
        held = True

        async def release() -> None:
            nonlocal held
            if held:
                held = False
                await lock.execute("SELECT pg_advisory_unlock(%s)", (STARTUP_LOCK,))
                await lock.close()

        async def send_then_release(message: Message) -> None:
            if message["type"] in ("lifespan.startup.complete", "lifespan.startup.failed"):
                await release()
            await send(message)

        try:
            await app.router(scope, receive, send_then_release)
        finally:
            await release()


@contextlib.asynccontextmanager
async def background_services(app: Starlette) -> AsyncIterator[None]:
    """The served toolset's background work (the workflow's timer service) while this server process serves: in
    `flowagent serve`'s processes and in `./run web`'s `langgraph dev` alike."""
    starts = served_toolset().surfaces.services
    backend = served_backend() if starts else None
    stops = [start(backend) for start in starts]
    try:
        yield
    finally:
        for stop in stops:
            stop()


app = Starlette(
    lifespan=background_services,
    middleware=[Middleware(LifespanToTheRouter)],
    routes=[
        Route(f"{PREFIX}/words", words, methods=["GET"]),
        Route(f"{PREFIX}/auth/dev-users", dev_users, methods=["GET"]),
        Route(f"{PREFIX}/auth/dev-token", dev_token, methods=["POST"]),
        Route(f"{PREFIX}/api/me", signed_in(me), methods=["GET"]),
        *[panel_route(name) for name in served_toolset().surfaces.panels],
        Route(PREFIX, to_page),
        page(),
    ]
)
