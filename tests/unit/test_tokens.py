"""Sign-in tokens without a server: dev tokens issued and checked, every kind of bad token refused with its own
code, production mode against a JWKS (served from memory), and the `python -m flowagent.server.tokens` CLI."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from typing import Any

import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import ec, rsa

from flowagent.server import tokens
from flowagent.server.auth import bearer_token
from flowagent.server.tokens import AuthConfigError, Identity, TokenError, issue_dev_token, verify_token

SECRET = "s" * 32
OTHER_SECRET = "o" * 48
ISSUER = "https://id.example.test/"
AUDIENCE = "flowagent-api"


@pytest.fixture(autouse=True)
def dev_mode(monkeypatch: pytest.MonkeyPatch, store: Any) -> None:
    """Dev mode with a 32-byte secret, and the test's store as the default one (the CLI opens it by FLOWAGENT_DB)."""
    for name in (tokens.ENV_JWKS_URL, tokens.ENV_ISSUER, tokens.ENV_AUDIENCE, tokens.ENV_USER_CLAIM):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv(tokens.ENV_SECRET, SECRET)
    monkeypatch.setenv("FLOWAGENT_DB", store.url)


def dev_claims(**overrides: Any) -> dict[str, Any]:
    now = int(time.time())
    claims = {"sub": "user_1", "iat": now, "exp": now + 600, "iss": tokens.DEV_ISSUER, "aud": tokens.DEV_AUDIENCE}
    claims.update(overrides)
    return {k: v for k, v in claims.items() if v is not None}


def refused(token: str, store: Any) -> TokenError:
    with pytest.raises(TokenError) as caught:
        verify_token(token, backend=store)
    return caught.value


def b64(data: dict[str, Any]) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()


# ---------------------------------------------------------------- dev tokens


def test_a_dev_token_signs_in_the_user_it_was_issued_for(store):
    token = issue_dev_token("user_2", backend=store)
    identity = verify_token(token, backend=store)
    assert identity == Identity(
        user_id="user_2", display_name="李四", email="lisi@example.com", permissions=tokens.PERMISSIONS,
        issuer="flowagent-dev", expires_at=identity.expires_at,
    )
    claims = jwt.decode(token, SECRET, algorithms=["HS256"], audience="flowagent")
    assert jwt.get_unverified_header(token)["alg"] == "HS256"
    assert (claims["sub"], claims["iss"], claims["aud"]) == ("user_2", "flowagent-dev", "flowagent")
    assert claims["exp"] - claims["iat"] == 8 * 3600 and abs(claims["iat"] - time.time()) < 5


def test_a_dev_token_lasts_the_ttl_it_was_given(store):
    token = issue_dev_token("user_1", ttl_s=90, backend=store)
    claims = jwt.decode(token, SECRET, algorithms=["HS256"], audience="flowagent")
    assert claims["exp"] - claims["iat"] == 90


def test_issuing_a_dev_token_with_an_explicit_secret_ignores_the_environment(store):
    token = issue_dev_token("user_1", secret=OTHER_SECRET, backend=store)
    assert jwt.decode(token, OTHER_SECRET, algorithms=["HS256"], audience="flowagent")["sub"] == "user_1"
    assert refused(token, store).code == "bad_signature"


def test_no_dev_token_without_a_secret(store, monkeypatch):
    monkeypatch.delenv(tokens.ENV_SECRET)
    with pytest.raises(AuthConfigError) as caught:
        issue_dev_token("user_1", backend=store)
    assert caught.value.code == "auth_not_configured" and tokens.ENV_SECRET in caught.value.message


@pytest.mark.parametrize("secret", ["s" * 31, "密" * 10])  # 31 and 30 bytes
def test_no_dev_token_with_a_secret_shorter_than_32_bytes(store, secret):
    with pytest.raises(AuthConfigError) as caught:
        issue_dev_token("user_1", secret=secret, backend=store)
    assert caught.value.code == "weak_secret" and "at least 32" in caught.value.message


def test_a_secret_of_32_bytes_in_multibyte_characters_is_enough(store):
    secret = "密" * 11  # 33 bytes, 11 characters
    token = issue_dev_token("user_1", secret=secret, backend=store)
    assert jwt.decode(token, secret, algorithms=["HS256"], audience="flowagent")["sub"] == "user_1"


def test_no_dev_token_for_a_user_the_store_does_not_know(store):
    with pytest.raises(TokenError) as caught:
        issue_dev_token("user_9", backend=store)
    assert caught.value.code == "unknown_user" and "user_9" in caught.value.message


@pytest.mark.parametrize("ttl_s", [0, -60, True, "3600"])
def test_no_dev_token_with_a_ttl_that_is_not_a_positive_number(store, ttl_s):
    with pytest.raises(TokenError) as caught:
        issue_dev_token("user_1", ttl_s=ttl_s, backend=store)
    assert caught.value.code == "bad_ttl"


def test_no_dev_token_in_production_mode(store, monkeypatch):
    monkeypatch.setenv(tokens.ENV_JWKS_URL, "https://id.example.test/jwks.json")
    with pytest.raises(TokenError) as caught:
        issue_dev_token("user_1", backend=store)
    assert caught.value.code == "production_mode"


# ---------------------------------------------------------------- refused dev tokens


def test_an_expired_token_is_refused(store):
    token = jwt.encode(dev_claims(iat=int(time.time()) - 7200, exp=int(time.time()) - 3600), SECRET, algorithm="HS256")
    error = refused(token, store)
    assert (error.code, error.message) == ("expired", tokens.EXPIRED)


def test_a_token_signed_with_another_secret_is_refused(store):
    assert refused(jwt.encode(dev_claims(), OTHER_SECRET, algorithm="HS256"), store).code == "bad_signature"


def test_a_token_whose_payload_was_changed_is_refused(store):
    header, _, signature = issue_dev_token("user_1", backend=store).split(".")
    forged = ".".join([header, b64(dev_claims(sub="user_2")), signature])
    assert refused(forged, store).code == "bad_signature"


def test_an_unsigned_alg_none_token_is_refused(store):
    unsigned = ".".join([b64({"alg": "none", "typ": "JWT"}), b64(dev_claims(sub="user_2")), ""])
    error = refused(unsigned, store)
    assert error.code == "unsupported_algorithm" and "'none'" in error.message


def test_a_token_with_another_hmac_algorithm_is_refused(store):
    token = jwt.encode(dev_claims(), SECRET + SECRET, algorithm="HS512")
    assert refused(token, store).code == "unsupported_algorithm"


def test_a_token_from_another_issuer_is_refused(store):
    assert refused(jwt.encode(dev_claims(iss="someone-else"), SECRET, algorithm="HS256"), store).code == "wrong_issuer"


def test_a_token_for_another_audience_is_refused(store):
    token = jwt.encode(dev_claims(aud="another-service"), SECRET, algorithm="HS256")
    assert refused(token, store).code == "wrong_audience"


@pytest.mark.parametrize("claim", ["exp", "sub", "iat", "iss", "aud"])
def test_a_token_without_a_required_claim_is_refused(store, claim):
    error = refused(jwt.encode(dev_claims(**{claim: None}), SECRET, algorithm="HS256"), store)
    assert error.code == "missing_claim" and repr(claim) in error.message


def test_a_valid_token_for_a_user_the_store_does_not_know_is_refused(store):
    error = refused(jwt.encode(dev_claims(sub="user_9"), SECRET, algorithm="HS256"), store)
    assert error.code == "unknown_user" and "user_9" in error.message


def test_a_token_issued_in_the_future_is_refused(store):
    later = int(time.time()) + 3600
    assert refused(jwt.encode(dev_claims(iat=later, exp=later + 600), SECRET, algorithm="HS256"), store).code == (
        "not_yet_valid"
    )


@pytest.mark.parametrize("token", ["not-a-jwt", "a.b.c", "...."])
def test_a_token_that_is_not_a_jwt_is_refused(store, token):
    assert refused(token, store).code == "malformed_token"


@pytest.mark.parametrize("token", ["", "   "])
def test_an_empty_token_is_refused(store, token):
    assert refused(token, store).code == "missing_token"


def test_dev_tokens_cannot_be_checked_without_a_secret(store, monkeypatch):
    token = issue_dev_token("user_1", backend=store)
    monkeypatch.delenv(tokens.ENV_SECRET)
    error = refused(token, store)
    assert isinstance(error, AuthConfigError) and error.code == "auth_not_configured"


# ---------------------------------------------------------------- production mode: RS256 / ES256 against a JWKS


class MemoryJWKS(jwt.PyJWKClient):
    """A PyJWKClient whose key set comes from memory instead of the network (the e2e test serves it over HTTP)."""

    def __init__(self, keys: list[dict[str, Any]]) -> None:
        super().__init__("https://id.example.test/jwks.json")
        self.keys = keys
        self.fetches = 0

    def fetch_data(self) -> Any:
        self.fetches += 1
        return {"keys": self.keys}


def public_jwk(private_key: Any, kid: str, alg: str) -> dict[str, Any]:
    algorithm = jwt.get_algorithm_by_name(alg)
    return {**json.loads(algorithm.to_jwk(private_key.public_key())), "kid": kid, "use": "sig", "alg": alg}


RSA_KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)
EC_KEY = ec.generate_private_key(ec.SECP256R1())
STRANGER_KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)


@pytest.fixture
def jwks(monkeypatch: pytest.MonkeyPatch) -> MemoryJWKS:
    client = MemoryJWKS([public_jwk(RSA_KEY, "rsa-1", "RS256"), public_jwk(EC_KEY, "ec-1", "ES256")])
    monkeypatch.setenv(tokens.ENV_JWKS_URL, client.uri)
    monkeypatch.setenv(tokens.ENV_ISSUER, ISSUER)
    monkeypatch.setenv(tokens.ENV_AUDIENCE, AUDIENCE)
    monkeypatch.setattr(tokens, "_jwks_client", lambda url: client)
    return client


def idp_token(key: Any = RSA_KEY, *, kid: str = "rsa-1", alg: str = "RS256", **overrides: Any) -> str:
    now = int(time.time())
    claims = {"sub": "user_2", "iat": now, "exp": now + 600, "iss": ISSUER, "aud": AUDIENCE, **overrides}
    return jwt.encode({k: v for k, v in claims.items() if v is not None}, key, algorithm=alg, headers={"kid": kid})


@pytest.mark.parametrize(("key", "kid", "alg"), [(RSA_KEY, "rsa-1", "RS256"), (EC_KEY, "ec-1", "ES256")])
def test_production_accepts_a_token_signed_by_a_key_of_the_jwks(store, jwks, key, kid, alg):
    identity = verify_token(idp_token(key, kid=kid, alg=alg), backend=store)
    assert (identity.user_id, identity.display_name, identity.issuer) == ("user_2", "李四", ISSUER)


def test_production_refuses_a_token_signed_by_another_key_under_a_published_kid(store, jwks):
    assert refused(idp_token(STRANGER_KEY), store).code == "bad_signature"


def test_production_refuses_a_token_whose_kid_the_jwks_does_not_publish(store, jwks):
    error = refused(idp_token(STRANGER_KEY, kid="stranger"), store)
    assert error.code == "unknown_key" and "stranger" in error.message


def test_production_refuses_dev_tokens(store, monkeypatch, jwks):
    dev = jwt.encode(dev_claims(), SECRET, algorithm="HS256")
    error = refused(dev, store)
    assert error.code == "unsupported_algorithm" and "RS256, ES256" in error.message
    assert jwks.fetches == 0  # refused before any key is fetched


def test_production_refuses_an_hmac_token_keyed_with_the_public_key(store, jwks):
    from cryptography.hazmat.primitives import serialization

    pem = RSA_KEY.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    signing_input = f"{b64({'alg': 'HS256', 'typ': 'JWT', 'kid': 'rsa-1'})}.{b64(dev_claims(iss=ISSUER, aud=AUDIENCE))}"
    mac = hmac.new(pem, signing_input.encode(), hashlib.sha256).digest()  # PyJWT itself refuses to sign this
    forged = f"{signing_input}.{base64.urlsafe_b64encode(mac).rstrip(b'=').decode()}"
    assert refused(forged, store).code == "unsupported_algorithm"


def test_production_refuses_a_token_whose_header_names_another_algorithm_than_its_key(store, jwks):
    assert refused(idp_token(RSA_KEY, kid="ec-1", alg="RS256"), store).code == "unsupported_algorithm"


@pytest.mark.parametrize(("claims", "code"), [
    ({"iss": "https://other.example.test/"}, "wrong_issuer"),
    ({"aud": "flowagent"}, "wrong_audience"),
    ({"exp": int(time.time()) - 3600}, "expired"),
    ({"exp": None}, "missing_claim"),
    ({"sub": "user_9"}, "unknown_user"),
])
def test_production_refuses_bad_claims(store, jwks, claims, code):
    assert refused(idp_token(**claims), store).code == code


def test_production_reads_the_user_from_the_configured_claim(store, jwks, monkeypatch):
    monkeypatch.setenv(tokens.ENV_USER_CLAIM, "flowagent_user")
    token = idp_token(sub="idp-subject-123", flowagent_user="user_3")
    assert verify_token(token, backend=store).user_id == "user_3"
    assert refused(idp_token(sub="user_3"), store).code == "missing_claim"


@pytest.mark.parametrize("missing", [tokens.ENV_ISSUER, tokens.ENV_AUDIENCE])
def test_production_mode_needs_the_issuer_and_the_audience(store, jwks, monkeypatch, missing):
    monkeypatch.delenv(missing)
    error = refused(idp_token(), store)
    assert isinstance(error, AuthConfigError) and missing in error.message


def test_production_keys_are_fetched_once_and_cached(store, jwks):
    for _ in range(3):
        verify_token(idp_token(), backend=store)
    assert jwks.fetches == 1


def test_production_says_so_when_the_jwks_cannot_be_fetched(store, monkeypatch):
    monkeypatch.setenv(tokens.ENV_JWKS_URL, "http://127.0.0.1:9/jwks.json")  # discard port: nothing listens
    monkeypatch.setenv(tokens.ENV_ISSUER, ISSUER)
    monkeypatch.setenv(tokens.ENV_AUDIENCE, AUDIENCE)
    error = refused(idp_token(), store)
    assert error.code == "jwks_unavailable" and "127.0.0.1:9" in error.message


# ---------------------------------------------------------------- the Authorization header


@pytest.mark.parametrize("header", ["Bearer abc.def.ghi", "bearer abc.def.ghi", "  BEARER   abc.def.ghi "])
def test_the_bearer_token_is_read_from_the_authorization_header(header):
    assert bearer_token(header) == "abc.def.ghi"


@pytest.mark.parametrize(("header", "code"), [
    (None, "missing_token"), ("", "missing_token"), ("Basic dXNlcjpwYXNz", "malformed_header"),
    ("Bearer", "malformed_header"), ("abc.def.ghi", "malformed_header"),
])
def test_an_authorization_header_without_a_bearer_token_is_refused(header, code):
    with pytest.raises(TokenError) as caught:
        bearer_token(header)
    assert caught.value.code == code


# ---------------------------------------------------------------- python -m flowagent.server.tokens


def test_the_cli_prints_a_dev_token_for_a_user_named_by_name(store, capsys):
    assert tokens.main(["李四"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and verify_token(out.strip(), backend=store).user_id == "user_2"


def test_the_cli_prints_a_dev_token_for_a_user_named_by_id(store, capsys):
    assert tokens.main(["user_admin"]) == 0
    assert verify_token(capsys.readouterr().out.strip(), backend=store).user_id == "user_admin"


def test_the_cli_names_the_users_when_it_does_not_know_the_one_asked_for(capsys):
    assert tokens.main(["nobody"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("error: 'nobody' is not exactly one user") and "李四（user_2" in err
    assert "Traceback" not in err


def test_the_cli_without_a_secret_says_how_to_use_the_running_dev_servers(monkeypatch, capsys, tmp_path):
    monkeypatch.delenv(tokens.ENV_SECRET)
    monkeypatch.chdir(tmp_path)  # a folder where `./run web` never kept its secret
    assert tokens.main(["user_1"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err == f"error: {tokens.NO_SECRET_HERE}\n"
    assert "./run web" in err and ".flowagent/dev-auth-secret" in err and "Traceback" not in err


def test_the_cli_signs_with_the_secret_run_web_keeps(store, monkeypatch, capsys, tmp_path):
    secret = "k" * 48
    monkeypatch.delenv(tokens.ENV_SECRET)
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".flowagent").mkdir()
    (tmp_path / ".flowagent" / "dev-auth-secret").write_text(secret + "\n", encoding="utf-8")
    assert tokens.main(["李四"]) == 0
    out, err = capsys.readouterr()
    assert "development secret of `./run web`" in err
    monkeypatch.setenv(tokens.ENV_SECRET, secret)  # the server started by ./run web accepts it
    assert verify_token(out.strip(), backend=store).user_id == "user_2"


@pytest.mark.parametrize("argv", [[], ["user_1", "user_2"]])
def test_the_cli_shows_its_usage_for_wrong_arguments(capsys, argv):
    assert tokens.main(argv) == 1
    assert capsys.readouterr().err == tokens.USAGE + "\n"


def test_flowagent_token_is_the_same_command(store, capsys):
    from flowagent import cli

    assert cli.main(["token", "李四"]) == 0
    assert verify_token(capsys.readouterr().out.strip(), backend=store).user_id == "user_2"
    assert cli.main(["token"]) == 1
    assert capsys.readouterr().err.startswith("usage: flowagent token USER_ID_OR_NAME")
