"""Sign-in for LangGraph's server (`langgraph.json` `auth`): bearer JWTs, and who may touch which resource.

- `authenticate`: every request carries `Authorization: Bearer <jwt>`, checked by `tokens.verify_token`; no token,
  a bad, expired or forged one, or one for a user the store does not know → 401.
- Threads belong to the user who created them (`owner` metadata, stamped by the server, never taken from the
  client): a user reads, searches, updates, deletes, runs and resumes only their own; another's looks absent (404).
- The actor of every run is the signed-in user: a `user_id` the client puts in the run's context (or config) is
  overwritten with the identity, so Studio's context form, which always sends a user_id, keeps working. The
  served graph checks it again (`graph.server.actor`).
- Assistants are the deployment's graphs: every signed-in user reads and searches them; nobody creates, changes
  or deletes them through the API. The store is scoped to the user's own namespace. Anything else (crons) → 403.
- Studio's unchecked "langsmith" sign-in of `langgraph dev` is off (`disable_studio_auth` in `langgraph.json`);
  a Studio user that still arrives is refused, so Studio signs in with a bearer token like any client.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from langgraph_sdk import Auth

from graph.server.tokens import AuthConfigError, Settings, TokenError, dev_secret, verify_token

logger = logging.getLogger(__name__)

OWNER_KEY = "owner"
BEARER = "bearer"

NOT_BEARER = "the Authorization header must be 'Bearer <token>'"
STUDIO_REFUSED = (
    "Studio's built-in sign-in is not accepted here: connect Studio with the header "
    "'Authorization: Bearer <token>' (get a dev token with `flowagent token USER`)"
)
ASSISTANTS_READ_ONLY = "assistants are the deployment's graphs: they can be read, not created, changed or deleted"
NOT_ALLOWED = "signed-in users may not {action} {resource}"

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
    context = kwargs.get("context")
    if not isinstance(context, dict):
        context = kwargs["context"] = {}
    sent = context.get("user_id")
    if sent is not None and sent != user_id:
        logger.info("run context user_id %r replaced by the signed-in user %r", str(sent)[:64], user_id)
    context["user_id"] = user_id
    configurable = (kwargs.get("config") or {}).get("configurable")
    if isinstance(configurable, dict):
        configurable["user_id"] = user_id
    return {OWNER_KEY: user_id}


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
