"""Sign-in for LangGraph's server (`langgraph.json` `auth`): bearer JWTs, and who may touch which resource.

- `authenticate`: every request carries `Authorization: Bearer <jwt>`, checked by `tokens.verify_token`; no token,
  a bad, expired or forged one, or one for a user the store does not know → 401.
- Threads belong to the user who created them (`owner` metadata, stamped by the server, never taken from the
  client): a user reads, searches, updates, deletes, runs and resumes only their own; another's looks absent (404).
- The actor of every run is the signed-in user: a `user_id` the client puts in the run's context (or config) is
  overwritten with the identity, so Studio's context form, which always sends a user_id, keeps working. The
  served graph checks it again (`flowagent.server.actor`).
- A run's `command` may only `resume` a waiting card: `update` (writing state the graph owns) and `goto` (jumping to
  a node, such as the executor) are refused with 403. A resume sent to a thread where nothing waits for a decision
  is refused with 409 before a run is made (LangGraph would fail inside the run and answer 200). A run's
  `approval_tools` are the tools' specs': a client's value is dropped. State writes: `flowagent.server.actor`.
- Assistants are the deployment's graphs: every signed-in user reads and searches them; nobody creates, changes
  or deletes them through the API. The store is scoped to the user's own namespace. Anything else (crons) → 403.
- Studio's unchecked "langsmith" sign-in of `langgraph dev` is off (`disable_studio_auth` in `langgraph.json`);
  a Studio user that still arrives is refused, so Studio signs in with a bearer token like any client.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from langgraph_sdk import Auth

from flowagent.server.tokens import AuthConfigError, Settings, TokenError, dev_secret, verify_token

logger = logging.getLogger(__name__)

OWNER_KEY = "owner"
AUTH_USER_KEY = "langgraph_auth_user"
BEARER = "bearer"

NOT_BEARER = "the Authorization header must be 'Bearer <token>'"
STUDIO_REFUSED = (
    "Studio's built-in sign-in is not accepted here: connect Studio with the header "
    "'Authorization: Bearer <token>' (get a dev token with `flowagent token USER`)"
)
ASSISTANTS_READ_ONLY = "assistants are the deployment's graphs: they can be read, not created, changed or deleted"
NOT_ALLOWED = "signed-in users may not {action} {resource}"
COMMAND_REFUSED = (
    "a run's command may only resume a waiting card ({{'resume': {{'decisions': [...]}}}}); {parts} would change "
    "state the graph owns or skip its nodes"
)
NOTHING_WAITS = "nothing is waiting for a decision on thread {thread_id}: send a message instead of a resume"

auth = Auth()


def warn_if_sign_in_is_not_configured() -> None:
    """Say at start-up, not only in every 401, that no token can be accepted until the settings are fixed."""
    try:
        settings = Settings.from_env()
        if not settings.production:
            dev_secret()
    except AuthConfigError as exc:
        logger.warning("every request will be refused with 401 until this is fixed: %s", exc)


warn_if_sign_in_is_not_configured()


def bearer_token(authorization: str | None) -> str:
    """The token of an `Authorization: Bearer <token>` header (scheme in any case); raises TokenError otherwise."""
    scheme, _, token = (authorization or "").strip().partition(" ")
    if not scheme:
        raise TokenError("missing_token", "no token: send the header 'Authorization: Bearer <token>'")
    if scheme.lower() != BEARER or not token.strip():
        raise TokenError("malformed_header", NOT_BEARER)
    return token.strip()


@auth.authenticate
async def authenticate(authorization: str | None) -> Auth.types.MinimalUserDict:
    """The signed-in user of a request: identity = the workflow store's user id, with name and permissions."""
    try:
        identity = await asyncio.to_thread(verify_token, bearer_token(authorization))
    except AuthConfigError as exc:
        logger.error("sign-in refused because the server is not configured: %s", exc)
        raise Auth.exceptions.HTTPException(status_code=401, detail=str(exc)) from None
    except TokenError as exc:
        raise Auth.exceptions.HTTPException(status_code=401, detail=str(exc)) from None
    return {
        "identity": identity.user_id,
        "display_name": identity.display_name,
        "permissions": list(identity.permissions),
        "is_authenticated": True,
    }


def signed_in_user_id(ctx: Auth.types.AuthContext) -> str:
    """The identity of the request's user; a Studio user (Studio's unchecked sign-in) is refused with 403."""
    if isinstance(ctx.user, Auth.types.StudioUser):
        raise Auth.exceptions.HTTPException(status_code=403, detail=STUDIO_REFUSED)
    return str(ctx.user.identity)


def stamp_owner(value: Any, user_id: str) -> None:
    """Write the owner into the value's metadata, replacing whatever owner the client sent."""
    metadata = value.get("metadata")
    if metadata is None:
        metadata = value["metadata"] = {}
    metadata[OWNER_KEY] = user_id


@auth.on
async def deny_everything_else(ctx: Auth.types.AuthContext, value: Any) -> bool:
    """Default deny: a resource or action without its own handler below (crons) is refused."""
    raise Auth.exceptions.HTTPException(
        status_code=403, detail=NOT_ALLOWED.format(action=ctx.action, resource=ctx.resource)
    )


@auth.on.threads.create
async def create_own_thread(ctx: Auth.types.AuthContext, value: Auth.types.ThreadsCreate) -> dict[str, str]:
    user_id = signed_in_user_id(ctx)
    stamp_owner(value, user_id)
    return {OWNER_KEY: user_id}


@auth.on.threads.read
async def read_own_threads(ctx: Auth.types.AuthContext, value: Auth.types.ThreadsRead) -> dict[str, str]:
    """Threads, their state, history and runs: another's thread looks absent (404)."""
    return {OWNER_KEY: signed_in_user_id(ctx)}


@auth.on.threads.search
async def search_own_threads(ctx: Auth.types.AuthContext, value: Auth.types.ThreadsSearch) -> dict[str, str]:
    return {OWNER_KEY: signed_in_user_id(ctx)}


@auth.on.threads.delete
async def delete_own_threads(ctx: Auth.types.AuthContext, value: Auth.types.ThreadsDelete) -> dict[str, str]:
    return {OWNER_KEY: signed_in_user_id(ctx)}


@auth.on.threads.update
async def update_own_thread(ctx: Auth.types.AuthContext, value: Auth.types.ThreadsUpdate) -> dict[str, str]:
    """An update may not hand the thread to someone else: a new `owner` in the metadata is replaced."""
    user_id = signed_in_user_id(ctx)
    if value.get("metadata") is not None:
        stamp_owner(value, user_id)
    return {OWNER_KEY: user_id}


@auth.on.threads.create_run
async def run_as_the_signed_in_user(ctx: Auth.types.AuthContext, value: Auth.types.RunsCreate) -> dict[str, str]:
    """Runs (and resumes) only on the user's own threads, always with the user as the actor.

    A `user_id` sent in the run's context or config is overwritten with the identity (not refused), so a
    client that sends the context schema's defaults, as Studio's form does, still runs as the signed-in user.
    """
    user_id = signed_in_user_id(ctx)
    stamp_owner(value, user_id)
    kwargs = value["kwargs"]
    command = kwargs.get("command")
    if command:
        refuse_commands_that_write(command)
        if command.get("resume") is not None and value.get("thread_id") is not None:
            await refuse_a_stray_resume(value["thread_id"])
    context = kwargs.get("context")
    if not isinstance(context, dict):
        context = kwargs["context"] = {}
    sent = context.get("user_id")
    if sent is not None and sent != user_id:
        logger.info("run context user_id %r replaced by the signed-in user %r", str(sent)[:64], user_id)
    context["user_id"] = user_id
    if context.get("approval_tools") is not None:
        logger.info("run context approval_tools %r dropped: the tools' specs decide", context["approval_tools"])
        context["approval_tools"] = None
    configurable = (kwargs.get("config") or {}).get("configurable")
    if isinstance(configurable, dict):
        configurable["user_id"] = user_id
        configurable.pop("approval_tools", None)
        store_the_user_as_data(configurable)
    return {OWNER_KEY: user_id}


def store_the_user_as_data(configurable: dict[str, Any]) -> None:
    """The signed-in user in the run's config as plain data, which every runtime can store.

    langgraph-api puts the user object itself there; the in-memory runtime keeps it as is, but langgraph-runtime-pg
    writes the run's config to a JSON column, and the object made every run creation fail ("Object of type
    ProxyUser is not JSON serializable"). The worker turns the data back into a user (langgraph-api's
    `normalize_user` accepts a dict with an `identity`), so the graph sees the same signed-in user either way.
    """
    user = configurable.get(AUTH_USER_KEY)
    if user is None or isinstance(user, dict):
        return
    configurable[AUTH_USER_KEY] = {
        "identity": str(user.identity),
        "display_name": str(getattr(user, "display_name", user.identity)),
        "is_authenticated": bool(getattr(user, "is_authenticated", True)),
        "permissions": list(getattr(user, "permissions", None) or []),
    }


def refuse_commands_that_write(command: Any) -> None:
    """403 for a run command that updates the state or goes to a node; only `resume` is a client's to send."""
    if not isinstance(command, dict):
        raise Auth.exceptions.HTTPException(status_code=403, detail=COMMAND_REFUSED.format(parts="this command"))
    parts = [f"'{key}'" for key in ("update", "goto") if command.get(key) not in (None, [], {})]
    if parts:
        raise Auth.exceptions.HTTPException(status_code=403, detail=COMMAND_REFUSED.format(parts=" and ".join(parts)))


async def refuse_a_stray_resume(thread_id: Any) -> None:
    """409 when the thread exists (and is the user's) but nothing in it waits for a decision.

    Reads the thread's record through the running server's own runtime (the same operations its API calls, in
    memory under `langgraph dev`, on PostgreSQL in production). A thread that is busy is let through (a queued
    resume may find the card its run raises); one that is not found is left to the server's 404.
    """
    thread = await server_thread(thread_id)
    if thread is None or thread.get("status") == "busy":
        return
    interrupts = thread.get("interrupts") or {}
    if isinstance(interrupts, str | bytes):
        interrupts = json.loads(interrupts)
    if not any(interrupts.values() if isinstance(interrupts, dict) else interrupts):
        raise Auth.exceptions.HTTPException(status_code=409, detail=NOTHING_WAITS.format(thread_id=thread_id))


async def server_thread(thread_id: Any) -> dict[str, Any] | None:
    """The thread's record in the server's runtime (read with the request's own sign-in), or None if not found."""
    from langgraph_runtime.database import connect
    from langgraph_runtime.ops import Threads
    from starlette.exceptions import HTTPException

    async with connect() as conn:
        try:
            found = await Threads.get(conn, thread_id)
            async for thread in found:
                return dict(thread)
        except HTTPException as exc:
            if exc.status_code == 404:
                return None
            raise
    return None


@auth.on.assistants.read
async def read_the_graphs(ctx: Auth.types.AuthContext, value: Auth.types.AssistantsRead) -> None:
    signed_in_user_id(ctx)
    return None


@auth.on.assistants.search
async def search_the_graphs(ctx: Auth.types.AuthContext, value: Auth.types.AssistantsSearch) -> None:
    signed_in_user_id(ctx)
    return None


@auth.on.assistants
async def assistants_are_read_only(ctx: Auth.types.AuthContext, value: Any) -> bool:
    signed_in_user_id(ctx)
    raise Auth.exceptions.HTTPException(status_code=403, detail=ASSISTANTS_READ_ONLY)


@auth.on.store
async def own_store_namespace(ctx: Auth.types.AuthContext, value: Any) -> None:
    """Every store operation happens under the user's namespace: `(user_id, *namespace)`."""
    user_id = signed_in_user_id(ctx)
    namespace = tuple(value.get("namespace") or ())
    if namespace[:1] != (user_id,):
        namespace = (user_id, *namespace)
    value["namespace"] = namespace
    return None
