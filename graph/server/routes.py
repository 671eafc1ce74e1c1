"""flowagent's web page and its JSON routes, mounted by LangGraph's server beside its API (`langgraph.json` `http.app`).

- `GET  /flowagent/`                  the page (the Vite build in `graph/server/static/`)
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
import logging
import os
from collections.abc import Awaitable, Callable
from functools import cache
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, or_, select
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from graph.server.tokens import TokenError, issue_dev_token, production_mode, verify_token
from tools import WorkflowStore, lookup
from tools.store import outbox, processes, requests, tasks, users

log = logging.getLogger(__name__)

PREFIX = "/flowagent"
STATIC_DIR = Path(__file__).with_name("static")
NOT_BUILT = "flowagent's web page is not built: run `./run test` or `cd web && npm ci && npm run build`.\n"
UNAUTHORIZED = {"error": "unauthorized", "message": "Sign in: send Authorization: Bearer <token>."}


@cache
def workflow_store() -> WorkflowStore:
    """The graph's store (`FLOWAGENT_DB`), opened on the first request."""
    return WorkflowStore()


def _user(row: Any) -> dict[str, str]:
    return {"id": row["id"], "name": row["name"]}


def _names(conn: Connection) -> dict[str, dict[str, str]]:
    return {row["id"]: _user(row) for row in conn.execute(select(users)).mappings()}


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


# ------------------------------------------------------------------------------------------------------
# Store reads, for one user
# ------------------------------------------------------------------------------------------------------


def list_users(store: WorkflowStore) -> list[dict[str, str]]:
    with store.read() as conn:
        return [_user(row) for row in conn.execute(select(users).order_by(users.c.id)).mappings()]


def find_user(store: WorkflowStore, user_id: str) -> dict[str, Any] | None:
    with store.read() as conn:
        row = conn.execute(select(users).where(users.c.id == user_id)).mappings().first()
    return None if row is None else {"id": row["id"], "name": row["name"], "email": row["email"]}


def tasks_of(store: WorkflowStore, user_id: str) -> dict[str, list[dict[str, Any]]]:
    """The tasks assigned to the user (newest first) and the requests they started, with their approver's task."""
    with store.read() as conn:
        people = _names(conn)
        process_names = {row["key"]: row["name"] for row in conn.execute(select(processes)).mappings()}
        assigned = conn.execute(
            select(tasks, requests.c.requester_id, requests.c.reason, requests.c.days, requests.c.process_key,
                   requests.c.flagged)
            .join(requests, requests.c.id == tasks.c.request_id)
            .where(tasks.c.assignee_id == user_id)
            .order_by(tasks.c.id.desc())
        ).mappings().all()
        mine = conn.execute(
            select(requests, tasks.c.id.label("task_id"), tasks.c.assignee_id, tasks.c.comment)
            .outerjoin(tasks, tasks.c.request_id == requests.c.id)
            .where(requests.c.requester_id == user_id)
            .order_by(requests.c.id.desc())
        ).mappings().all()
    todo = [
        {
            "id": lookup.format_task_id(row["id"]),
            "request": lookup.format_request_id(row["request_id"]),
            "process": process_names.get(row["process_key"], row["process_key"]),
            "requester": people[row["requester_id"]],
            "days": row["days"],
            "reason": row["reason"],
            "flagged": bool(row["flagged"]),
            "status": row["status"],
            "comment": row["comment"],
            "created_at": row["created_at"],
            "decided_at": row["decided_at"],
        }
        for row in assigned
    ]
    requested = [
        {
            "id": lookup.format_request_id(row["id"]),
            "process": process_names.get(row["process_key"], row["process_key"]),
            "days": row["days"],
            "reason": row["reason"],
            "status": row["status"],
            "task": lookup.format_task_id(row["task_id"]) if row["task_id"] is not None else None,
            "approver": people.get(row["assignee_id"]) if row["assignee_id"] else None,
            "comment": row["comment"],
            "created_at": row["created_at"],
            "decided_at": row["decided_at"],
        }
        for row in mine
    ]
    return {"todo": todo, "requests": requested}


def outbox_of(store: WorkflowStore, user_id: str) -> list[dict[str, Any]]:
    """The e-mails the user sent or was sent, newest first."""
    with store.read() as conn:
        people = _names(conn)
        rows = conn.execute(
            select(outbox).where(or_(outbox.c.sender_id == user_id, outbox.c.recipient_id == user_id))
            .order_by(outbox.c.id.desc())
        ).mappings().all()
    return [
        {
            "id": row["id"],
            "from": people.get(row["sender_id"], {"id": row["sender_id"], "name": row["sender_id"]}),
            "to": {**people[row["recipient_id"]], "email": row["recipient_email"]},
            "subject": row["subject"],
            "body": row["body"],
            "task": lookup.format_task_id(row["task_id"]) if row["task_id"] is not None else None,
            "status": row["status"],
            "created_at": row["created_at"],
            "sent_at": row["sent_at"],
        }
        for row in rows
    ]


# ------------------------------------------------------------------------------------------------------
# Routes
# ------------------------------------------------------------------------------------------------------

Handler = Callable[[Request, str], Awaitable[Response]]


async def _read(query: Callable[..., Any], *args: Any) -> Any:
    """Run a store read off the event loop (opening the store the first time touches the disk, too)."""
    return await run_in_threadpool(lambda: query(workflow_store(), *args))


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


async def my_tasks(request: Request, user_id: str) -> Response:
    return JSONResponse(await _read(tasks_of, user_id))


async def my_outbox(request: Request, user_id: str) -> Response:
    return JSONResponse({"emails": await _read(outbox_of, user_id)})


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


app = Starlette(
    middleware=[Middleware(LifespanToTheRouter)],
    routes=[
        Route(f"{PREFIX}/auth/dev-users", dev_users, methods=["GET"]),
        Route(f"{PREFIX}/auth/dev-token", dev_token, methods=["POST"]),
        Route(f"{PREFIX}/api/me", signed_in(me), methods=["GET"]),
        Route(f"{PREFIX}/api/tasks", signed_in(my_tasks), methods=["GET"]),
        Route(f"{PREFIX}/api/outbox", signed_in(my_outbox), methods=["GET"]),
        Route(PREFIX, to_page),
        page(),
    ]
)
