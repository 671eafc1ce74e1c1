"""Sign-in tokens: HS256 dev tokens signed with FLOWAGENT_AUTH_SECRET, or an identity provider's JWTs checked
against its JWKS (production mode, when FLOWAGENT_JWKS_URL is set).

Every token names a user of the workflow store; a valid signature for anyone else is still refused. A token on the
store's deny list (`flowagent.server.revocations`) is refused before it expires.
`python -m flowagent.server.tokens USER_ID_OR_NAME` prints a dev token; `--revoke TOKEN` revokes one.
"""

from __future__ import annotations

import functools
import os
import secrets
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jwt

from flowagent.server import revocations
from tools.backend import Backend
from tools.errors import DomainError
from tools.toolset import Toolset
from tools.toolsets import get_toolset

ENV_SECRET = "FLOWAGENT_AUTH_SECRET"
ENV_JWKS_URL = "FLOWAGENT_JWKS_URL"
ENV_ISSUER = "FLOWAGENT_JWT_ISSUER"
ENV_AUDIENCE = "FLOWAGENT_JWT_AUDIENCE"
ENV_USER_CLAIM = "FLOWAGENT_JWT_USER_CLAIM"

DEV_ISSUER = "flowagent-dev"
DEV_AUDIENCE = "flowagent"
DEV_ALGORITHMS = ("HS256",)
PRODUCTION_ALGORITHMS = ("RS256", "ES256")
MIN_SECRET_BYTES = 32
DEFAULT_TTL_S = 8 * 3600
LEEWAY_S = 30
"""Clock skew allowed between the token's issuer and this server, in seconds."""
JWKS_CACHE_S = 300
JWKS_TIMEOUT_S = 5

PERMISSIONS = ("assistants:read", "threads:own", "store:own")
"""What every signed-in user may do (the auth hooks grant exactly this): read the assistants, and create, read,
run and resume their own threads and their own store namespace."""

NOT_CONFIGURED = (
    f"sign-in is not configured: set {ENV_SECRET} to a random string of at least {MIN_SECRET_BYTES} bytes for dev "
    f"tokens (python -c 'import secrets; print(secrets.token_urlsafe(48))'), or {ENV_JWKS_URL} for an identity provider"
)
WEAK_SECRET = f"{ENV_SECRET} is {{length}} bytes long; use at least {MIN_SECRET_BYTES} random bytes"
PRODUCTION_SETTING_MISSING = (
    f"{ENV_JWKS_URL} is set, so {{name}} must be set too (the value your identity provider puts in the token)"
)
NO_DEV_TOKENS = f"dev tokens are not accepted while {ENV_JWKS_URL} is set: sign in with your identity provider"
BAD_TTL = "ttl_s must be a positive number of seconds, got {ttl_s!r}"
MISSING_TOKEN = "no token: send the header 'Authorization: Bearer <token>' (get a dev token with `flowagent token USER`)"
MALFORMED_TOKEN = "the token is not a well-formed JWT"
ALGORITHM_REFUSED = "tokens signed with {alg!r} are not accepted here; this server accepts {accepted}"
BAD_SIGNATURE = "the token's signature does not verify: it was not issued by this server's key, or was changed"
EXPIRED = "the token has expired: sign in again"
NOT_YET_VALID = "the token is not valid yet (its iat or nbf lies in the future)"
WRONG_ISSUER = "the token was issued by someone else (iss must be {issuer!r})"
WRONG_AUDIENCE = "the token is meant for another service (aud must be {audience!r})"
MISSING_CLAIM = "the token has no {claim!r} claim"
UNKNOWN_KEY = "the token is signed with a key the identity provider does not publish at {url} ({detail})"
JWKS_UNAVAILABLE = "the identity provider's keys could not be fetched from {url} ({detail})"
NO_SUCH_USER = "{reference!r} is not exactly one user: name one of {known}"
UNKNOWN_USER = "the token names {user_id!r}, who is not a user of the workflow store"
INVALID_TOKEN = "the token is not valid ({detail})"
REVOKED = "the token was revoked: sign in again for a new one"


class TokenError(Exception):
    """A token that cannot be issued or is not accepted; `code` is stable, `message` says what to do."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return f"[{self.code}] {self.message}"


class AuthConfigError(TokenError):
    """The server's sign-in settings are missing or unsafe: no token can be checked until they are fixed."""


@dataclass(frozen=True)
class Identity:
    """The signed-in user a verified token names."""

    user_id: str
    """The user's id in the workflow store: the actor of every run this user starts."""
    display_name: str
    """The user's name from the store (张三), not from the token."""
    email: str
    """The user's e-mail from the store."""
    permissions: tuple[str, ...]
    """What the auth hooks grant this user (`PERMISSIONS`)."""
    issuer: str
    """Who issued the token: `flowagent-dev` or the identity provider."""
    expires_at: int
    """When the token expires, in seconds since the epoch."""


@dataclass(frozen=True)
class Settings:
    """How tokens are checked, read from the environment on every call (so a test can change it)."""

    jwks_url: str
    """The identity provider's JWKS URL; set, it puts the server in production mode."""
    issuer: str
    audience: str
    user_claim: str
    """The claim that holds the flowagent user id."""
    secret: str
    """FLOWAGENT_AUTH_SECRET, for dev tokens."""

    @property
    def production(self) -> bool:
        return bool(self.jwks_url)

    @property
    def algorithms(self) -> Sequence[str]:
        return PRODUCTION_ALGORITHMS if self.production else DEV_ALGORITHMS

    @classmethod
    def from_env(cls) -> Settings:
        jwks_url = os.environ.get(ENV_JWKS_URL, "").strip()
        if not jwks_url:
            return cls(jwks_url="", issuer=DEV_ISSUER, audience=DEV_AUDIENCE, user_claim="sub",
                       secret=os.environ.get(ENV_SECRET, ""))
        issuer = os.environ.get(ENV_ISSUER, "").strip()
        audience = os.environ.get(ENV_AUDIENCE, "").strip()
        for name, value in ((ENV_ISSUER, issuer), (ENV_AUDIENCE, audience)):
            if not value:
                raise AuthConfigError("auth_not_configured", PRODUCTION_SETTING_MISSING.format(name=name))
        user_claim = os.environ.get(ENV_USER_CLAIM, "").strip() or "sub"
        return cls(jwks_url=jwks_url, issuer=issuer, audience=audience, user_claim=user_claim, secret="")


def dev_secret(secret: str | None = None) -> str:
    """The dev signing secret (`secret`, else FLOWAGENT_AUTH_SECRET); refused when unset or shorter than 32 bytes."""
    value = os.environ.get(ENV_SECRET, "") if secret is None else secret
    if not value:
        raise AuthConfigError("auth_not_configured", NOT_CONFIGURED)
    length = len(value.encode("utf-8"))
    if length < MIN_SECRET_BYTES:
        raise AuthConfigError("weak_secret", WEAK_SECRET.format(length=length))
    return value


ENV_TOOLSET = "FLOWAGENT_TOOLSET"
"""The toolset whose people sign in and whose panels the page shows (default: the workflow)."""


def served_toolset() -> Toolset:
    """The toolset that knows who may sign in (its `actor` and `people` hooks) and what the page's panels are."""
    return get_toolset(os.environ.get(ENV_TOOLSET, "").strip() or "workflow")


@functools.lru_cache(maxsize=4)
def _backend_of(toolset: str, configured: str) -> Backend:
    return get_toolset(toolset).backend()


def served_backend() -> Backend:
    """The served toolset's backend (for the workflow: its store at FLOWAGENT_DB), opened once per configuration."""
    return _backend_of(served_toolset().name, os.environ.get("FLOWAGENT_DB", ""))


def _describe(person: dict[str, Any]) -> str:
    return f"{person.get('name') or person['id']}（{person['id']}）"


def find_user(reference: str, *, backend: Backend | None = None) -> dict[str, Any]:
    """The user a person means: an id, or a name, alias or e-mail that fits exactly one user (for the CLI)."""
    toolset, backend = served_toolset(), backend or served_backend()
    with backend.read() as handle:
        people = toolset.directory(handle)
        wanted = reference.strip().casefold()
        matches = [p for p in people if wanted in {str(p.get(k) or "").casefold() for k in ("id", "name", "alias", "email")}]
        if len(matches) == 1:
            return matches[0]
        known = ", ".join(_describe(p) for p in people)
        code = "ambiguous_user" if matches else "unknown_user"
        raise TokenError(code, NO_SUCH_USER.format(reference=reference[:64], known=known))


def _user(user_id: str, backend: Backend | None) -> dict[str, Any]:
    with (backend or served_backend()).read() as handle:
        try:
            return served_toolset().actor(handle, user_id)
        except DomainError:
            raise TokenError("unknown_user", UNKNOWN_USER.format(user_id=user_id[:64])) from None


def production_mode() -> bool:
    """Whether sign-in goes through an identity provider (FLOWAGENT_JWKS_URL set): dev tokens are then off."""
    return bool(os.environ.get(ENV_JWKS_URL, "").strip())


def issue_dev_token(
    user_id: str, *, ttl_s: float = DEFAULT_TTL_S, secret: str | None = None, backend: Backend | None = None
) -> str:
    """A dev token for `user_id` (a user of the store): HS256, `iss=flowagent-dev`, `aud=flowagent`, valid `ttl_s`.

    Refused when the secret is unset or weak, when the user is unknown, and in production mode (the server
    would not accept it).
    """
    if production_mode():
        raise TokenError("production_mode", NO_DEV_TOKENS)
    key = dev_secret(secret)
    if isinstance(ttl_s, bool) or not isinstance(ttl_s, int | float) or not ttl_s > 0:
        raise TokenError("bad_ttl", BAD_TTL.format(ttl_s=ttl_s))
    user = _user(str(user_id), backend)
    now = int(time.time())
    claims = {"sub": user["id"], "iat": now, "exp": now + int(ttl_s), "iss": DEV_ISSUER, "aud": DEV_AUDIENCE,
              "jti": secrets.token_urlsafe(16)}
    return jwt.encode(claims, key, algorithm=DEV_ALGORITHMS[0])


@functools.lru_cache(maxsize=4)
def _jwks_client(url: str) -> jwt.PyJWKClient:
    """One client per JWKS URL: the key set is cached for JWKS_CACHE_S, each key by its `kid`."""
    return jwt.PyJWKClient(url, cache_keys=True, lifespan=JWKS_CACHE_S, timeout=JWKS_TIMEOUT_S)


def _signing_key(settings: Settings, token: str) -> Any:
    if not settings.production:
        return dev_secret()
    try:
        return _jwks_client(settings.jwks_url).get_signing_key_from_jwt(token)
    except jwt.PyJWKClientConnectionError as exc:
        raise TokenError("jwks_unavailable", JWKS_UNAVAILABLE.format(url=settings.jwks_url, detail=exc)) from None
    except jwt.PyJWKClientError as exc:
        raise TokenError("unknown_key", UNKNOWN_KEY.format(url=settings.jwks_url, detail=exc)) from None
    except jwt.PyJWTError as exc:
        raise TokenError("malformed_token", f"{MALFORMED_TOKEN} ({exc})") from None


def _claims(settings: Settings, token: str, *, verify_exp: bool = True) -> dict[str, Any]:
    try:
        header = jwt.get_unverified_header(token)
    except jwt.PyJWTError:
        raise TokenError("malformed_token", MALFORMED_TOKEN) from None
    alg = header.get("alg")
    if alg not in settings.algorithms:
        accepted = ", ".join(settings.algorithms)
        raise TokenError("unsupported_algorithm", ALGORITHM_REFUSED.format(alg=alg, accepted=accepted))
    key = _signing_key(settings, token)
    required = ["exp", "iss", "aud", settings.user_claim] + ([] if settings.production else ["iat"])
    try:
        return jwt.decode(
            token, key, algorithms=list(settings.algorithms), audience=settings.audience, issuer=settings.issuer,
            leeway=LEEWAY_S, options={"require": required, "verify_exp": verify_exp},
        )
    except jwt.ExpiredSignatureError:
        raise TokenError("expired", EXPIRED) from None
    except jwt.ImmatureSignatureError:
        raise TokenError("not_yet_valid", NOT_YET_VALID) from None
    except jwt.InvalidIssuerError:
        raise TokenError("wrong_issuer", WRONG_ISSUER.format(issuer=settings.issuer)) from None
    except jwt.InvalidAudienceError:
        raise TokenError("wrong_audience", WRONG_AUDIENCE.format(audience=settings.audience)) from None
    except jwt.MissingRequiredClaimError as exc:
        raise TokenError("missing_claim", MISSING_CLAIM.format(claim=exc.claim)) from None
    except jwt.InvalidSignatureError:
        raise TokenError("bad_signature", BAD_SIGNATURE) from None
    except jwt.InvalidAlgorithmError as exc:
        raise TokenError("unsupported_algorithm", str(exc)) from None
    except jwt.DecodeError:
        raise TokenError("malformed_token", MALFORMED_TOKEN) from None
    except jwt.PyJWTError as exc:
        raise TokenError("invalid_token", INVALID_TOKEN.format(detail=exc)) from None


def verify_token(token: str, *, backend: Backend | None = None) -> Identity:
    """The user a token signs in: its signature, expiry, issuer and audience checked, and its user in the store.

    Production mode (FLOWAGENT_JWKS_URL set): RS256/ES256 against the provider's JWKS, with FLOWAGENT_JWT_ISSUER
    and FLOWAGENT_JWT_AUDIENCE, the user id in FLOWAGENT_JWT_USER_CLAIM (default `sub`). Otherwise: HS256 dev
    tokens signed with FLOWAGENT_AUTH_SECRET. Raises `TokenError` (a specific `code`) for any other token.
    """
    settings = Settings.from_env()
    if not isinstance(token, str) or not token.strip():
        raise TokenError("missing_token", MISSING_TOKEN)
    claims = _claims(settings, token.strip())
    user_id = claims[settings.user_claim]
    if not isinstance(user_id, str) or not user_id:
        raise TokenError("missing_claim", MISSING_CLAIM.format(claim=settings.user_claim))
    if revocations.is_revoked(revocations.deny_list(backend or served_backend()), revocations.token_id(claims, token.strip())):
        raise TokenError("revoked", REVOKED)
    user = _user(user_id, backend)
    return Identity(
        user_id=str(user["id"]), display_name=str(user["name"]), email=str(user["email"]), permissions=PERMISSIONS,
        issuer=str(claims["iss"]), expires_at=int(claims["exp"]),
    )


def revoke_token(token: str, *, backend: Backend | None = None) -> dict[str, Any]:
    """Put a token this server would accept (its signature, issuer and audience checked; expiry not) on the deny
    list; returns `{"user_id", "expires_at", "already"}`. Every instance on the same store refuses it from then on."""
    settings = Settings.from_env()
    if not isinstance(token, str) or not token.strip():
        raise TokenError("missing_token", MISSING_TOKEN)
    claims = _claims(settings, token.strip(), verify_exp=False)
    user_id = str(claims.get(settings.user_claim) or "")
    added = revocations.revoke(
        revocations.deny_list(backend or served_backend()), revocations.token_id(claims, token.strip()), user_id=user_id,
        expires_at=int(claims["exp"])
    )
    return {"user_id": user_id, "expires_at": int(claims["exp"]), "already": not added}


USAGE = (
    "usage: flowagent token USER_ID_OR_NAME   (prints a dev token signed with FLOWAGENT_AUTH_SECRET)\n"
    "       flowagent token --revoke TOKEN    (refuses that token from now on, on every server sharing FLOWAGENT_DB)"
)


def main(argv: Sequence[str] | None = None) -> int:
    """Print a dev token for the user named by `argv[0]` (an id or a name); 0 on success, 1 with a message if not."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) == 2 and args[0] == "--revoke":
        try:
            revoked = revoke_token(args[1])
        except TokenError as exc:
            print(f"error: {exc.message}", file=sys.stderr)
            return 1
        state = "was already revoked" if revoked["already"] else "is revoked"
        print(f"the token of {revoked['user_id']} {state} (it would have expired at {revoked['expires_at']})")
        return 0
    if len(args) != 1 or args[0] in {"-h", "--help"} or args[0].startswith("--"):
        print(USAGE, file=sys.stderr)
        return 0 if args and args[0] in {"-h", "--help"} else 1
    secret = None
    if not os.environ.get(ENV_SECRET) and not os.environ.get(ENV_JWKS_URL):
        if not DEV_SECRET_FILE.is_file():
            print(f"error: {NO_SECRET_HERE}", file=sys.stderr)
            return 1
        secret = DEV_SECRET_FILE.read_text(encoding="utf-8").strip()
        print(f"(signed with the development secret of `./run web`, {DEV_SECRET_FILE})", file=sys.stderr)
    try:
        user = find_user(args[0])
        token = issue_dev_token(str(user["id"]), secret=secret)
    except TokenError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        return 1
    print(token)
    return 0


DEV_SECRET_FILE = Path(".flowagent/dev-auth-secret")
"""Where `./run web` keeps the development server's signing secret (made once, see `run`)."""
NO_SECRET_HERE = (
    f"no signing secret here. For the server `./run web` started, run this from the project's folder after it has "
    f"started once (it keeps its secret in {DEV_SECRET_FILE}); for another server, set {ENV_SECRET} to the secret "
    "that server was started with"
)


if __name__ == "__main__":
    raise SystemExit(main())
