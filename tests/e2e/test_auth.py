"""Sign-in through LangGraph's auth hooks, driven with the real SDK against a real `langgraph dev`.

Two servers from the project's `langgraph.json`: one in dev mode (HS256 dev tokens signed with the tests' secret),
one in production mode (RS256 tokens checked against a JWKS served over HTTP by this test). The graph's model is
the scripted OpenAI-compatible server of this process.
"""

from __future__ import annotations

import base64
import json
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from evals.doubles.openai_server import ScriptedOpenAIServer
from flowagent.server.tokens import DEV_AUDIENCE, DEV_ISSUER
from tests.support.langgraph_server import TEST_AUTH_SECRET, LangGraphDevServer, model_env, stream_updates
from tests.support.net import LOOPBACK
from tests.support.review import approval, approving_reply, proposed_call, start_leave_request
from tools import WorkflowStore

GRAPH_ID = "flowagent"
FLOWAGENT = [sys.executable, "-m", "flowagent.cli"]
"""`flowagent` (the entry point calls `flowagent.cli:main`), run from this checkout."""
REPO_ROOT = Path(__file__).resolve().parents[2]
IDP_ISSUER = "https://id.flowagent.test/"
IDP_AUDIENCE = "flowagent-api"


# ---------------------------------------------------------------- servers and clients


def status_of(call: Callable[[], Any]) -> int:
    """The HTTP status an SDK call fails with (the test fails if it succeeds)."""
    with pytest.raises(httpx.HTTPStatusError) as caught:
        call()
    return caught.value.response.status_code


def hidden_state(call: Callable[[], Any]) -> bool:
    """Another's thread state is not shown: 404 (langgraph dev), or an empty state with no checkpoint
    (langgraph-runtime-pg answers every thread it does not find with an empty state)."""
    try:
        state = call()
    except httpx.HTTPStatusError as exc:
        return exc.response.status_code == 404
    return state["values"] == {} and state["checkpoint"] is None and state["interrupts"] == []


def raw(server: LangGraphDevServer, method: str, path: str, headers: dict[str, str], body: Any = None) -> httpx.Response:
    return httpx.request(method, f"{server.url}{path}", headers=headers, json=body, timeout=30)


def dev_claims(**overrides: Any) -> dict[str, Any]:
    now = int(time.time())
    claims = {"sub": "user_1", "iat": now, "exp": now + 600, "iss": DEV_ISSUER, "aud": DEV_AUDIENCE, **overrides}
    return claims


def b64(data: Any) -> str:
    raw_bytes = data if isinstance(data, bytes) else json.dumps(data).encode()
    return base64.urlsafe_b64encode(raw_bytes).rstrip(b"=").decode()


def ask(text: str) -> dict[str, Any]:
    return {"messages": [{"role": "user", "content": text}]}


def task_row(store: WorkflowStore, task: str) -> dict[str, Any]:
    [row] = [t for t in store.snapshot()["tasks"] if f"task_{t['id']}" == task]
    return row


def thread_events(store: WorkflowStore, thread_id: str) -> list[tuple[str, str]]:
    return [(a["event"], a["actor_id"]) for a in store.snapshot()["audit_log"] if a["thread_id"] == thread_id]


# ---------------------------------------------------------------- who may sign in


def test_a_request_without_a_token_is_refused_with_401(server):
    response = raw(server, "POST", "/threads/search", {}, {})
    assert response.status_code == 401
    assert response.json()["detail"].startswith("[missing_token]")
    assert status_of(lambda: server.client().assistants.search(graph_id=GRAPH_ID)) == 401


def test_studios_unchecked_sign_in_is_not_accepted(server):
    # `langgraph dev` would sign in anyone sending this header as a Studio user: disable_studio_auth turns it off.
    response = raw(server, "POST", "/threads", {"x-auth-scheme": "langsmith"}, {})
    assert response.status_code == 401


def test_a_browser_such_as_studio_may_send_the_authorization_header_cross_origin(server):
    preflight = {"Origin": "https://smith.langchain.com", "Access-Control-Request-Method": "POST",
                 "Access-Control-Request-Headers": "authorization,content-type"}
    response = raw(server, "OPTIONS", "/threads/search", preflight)
    assert response.status_code == 200
    assert "authorization" in response.headers["access-control-allow-headers"].lower()


def test_the_health_check_needs_no_token(server):
    assert raw(server, "GET", "/ok", {}).status_code == 200


def test_an_expired_token_is_refused_with_401(server):
    expired = jwt.encode(dev_claims(iat=int(time.time()) - 7200, exp=int(time.time()) - 3600), TEST_AUTH_SECRET)
    response = raw(server, "POST", "/threads/search", {"Authorization": f"Bearer {expired}"}, {})
    assert (response.status_code, response.json()["detail"]) == (401, "[expired] the token has expired: sign in again")


def forged_tokens(server: LangGraphDevServer) -> dict[str, str]:
    genuine = server.token("user_1")
    header, _, signature = genuine.split(".")
    return {
        "another secret": jwt.encode(dev_claims(), "not-the-servers-secret-but-long-enough-anyway"),
        "alg none": f"{b64({'alg': 'none', 'typ': 'JWT'})}.{b64(dev_claims(sub='user_2'))}.",
        "payload changed": f"{header}.{b64(dev_claims(sub='user_2'))}.{signature}",
        "unknown user": jwt.encode(dev_claims(sub="user_9"), TEST_AUTH_SECRET),
        "another issuer": jwt.encode(dev_claims(iss="somebody-else"), TEST_AUTH_SECRET),
        "not a jwt": "hello",
    }


@pytest.mark.parametrize(
    ("forgery", "code"),
    [("another secret", "bad_signature"), ("alg none", "unsupported_algorithm"), ("payload changed", "bad_signature"),
     ("unknown user", "unknown_user"), ("another issuer", "wrong_issuer"), ("not a jwt", "malformed_token")],
)
def test_a_forged_token_is_refused_with_401(server, forgery, code):
    token = forged_tokens(server)[forgery]
    response = raw(server, "POST", "/threads/search", {"Authorization": f"Bearer {token}"}, {})
    assert response.status_code == 401 and response.json()["detail"].startswith(f"[{code}]")
    assert status_of(lambda: server.client(token=token).threads.create()) == 401


def test_a_signed_in_user_reads_the_graph_but_cannot_change_the_assistants(signed_in):
    client = signed_in("user_3")
    [assistant] = client.assistants.search(graph_id=GRAPH_ID)
    assert client.assistants.get_schemas(assistant["assistant_id"])["context_schema"]["properties"]["user_id"]
    assert status_of(lambda: client.assistants.create(GRAPH_ID, context={"user_id": "user_2"})) == 403
    assert status_of(lambda: client.assistants.update(assistant["assistant_id"], metadata={"owner": "user_3"})) == 403
    assert status_of(lambda: client.assistants.delete(assistant["assistant_id"])) == 403


# ---------------------------------------------------------------- threads belong to who created them


def test_a_user_cannot_read_run_resume_update_or_find_anothers_thread(signed_in, model):
    zhangsan, lisi = signed_in("user_1"), signed_in("user_2")
    model.reset(["你好，李四。"])
    thread_id = lisi.threads.create()["thread_id"]
    lisi.runs.wait(thread_id, GRAPH_ID, input=ask("你好"))
    assert lisi.threads.get(thread_id)["metadata"]["owner"] == "user_2"

    assert status_of(lambda: zhangsan.threads.get(thread_id)) == 404
    assert hidden_state(lambda: zhangsan.threads.get_state(thread_id))
    assert status_of(lambda: zhangsan.threads.get_history(thread_id)) == 404
    assert status_of(lambda: zhangsan.runs.list(thread_id)) == 404
    assert status_of(lambda: zhangsan.runs.wait(thread_id, GRAPH_ID, input=ask("你好"))) == 404
    assert status_of(lambda: stream_updates(zhangsan, thread_id, command={"resume": {"decisions": [{"type": "approve"}]}})) == 404
    assert status_of(lambda: zhangsan.threads.update(thread_id, metadata={"owner": "user_1"})) == 404
    assert status_of(lambda: zhangsan.threads.update_state(thread_id, {"messages": []})) in (403, 404)
    assert status_of(lambda: zhangsan.threads.delete(thread_id)) == 404
    assert thread_id not in {t["thread_id"] for t in zhangsan.threads.search(limit=1000)}
    assert thread_id not in {t["thread_id"] for t in zhangsan.threads.search(metadata={"owner": "user_2"}, limit=1000)}

    # Nothing of the above changed 李四's thread.
    assert thread_id in {t["thread_id"] for t in lisi.threads.search(limit=1000)}
    assert lisi.threads.get(thread_id)["metadata"]["owner"] == "user_2"
    assert lisi.threads.get_state(thread_id)["values"]["messages"][-1]["content"] == "你好，李四。"
    assert len(model.requests) == 1


def test_the_owner_is_the_signed_in_user_whatever_metadata_the_client_sends(signed_in):
    zhangsan, lisi = signed_in("user_1"), signed_in("user_2")
    thread_id = zhangsan.threads.create(metadata={"owner": "user_2", "topic": "leave"})["thread_id"]
    assert zhangsan.threads.get(thread_id)["metadata"] == {"owner": "user_1", "topic": "leave"}
    zhangsan.threads.update(thread_id, metadata={"owner": "user_2"})
    assert zhangsan.threads.get(thread_id)["metadata"]["owner"] == "user_1"
    assert status_of(lambda: lisi.threads.get(thread_id)) == 404


# ---------------------------------------------------------------- the actor of a run is the signed-in user


LEAVE_CALL = {
    "content": "提交请假申请。",
    "tool_calls": [{"name": "runWorkFlow",
                    "arguments": {"processKey": "process_qingjia", "reason": "家里有事", "days": 1, "nextUserId": "王五"}}],
}


@pytest.mark.parametrize("claim", [{"context": {"user_id": "user_2"}}, {"config": {"configurable": {"user_id": "user_2"}}}])
def test_a_user_id_sent_by_the_client_does_not_change_the_actor(signed_in, model, server_store, claim):
    zhangsan = signed_in("user_1")
    model.reset([LEAVE_CALL, "已提交。"])
    thread_id = zhangsan.threads.create()["thread_id"]
    before = {r["id"] for r in server_store.snapshot()["requests"]}

    nodes, [waiting] = stream_updates(zhangsan, thread_id, input=ask("我想请1天假，家里有事，王五审批"), **claim)

    # The start card is 张三's, the signed-in user's, whatever user id the client sent; nothing is filed yet.
    tool, args, card = proposed_call(waiting["value"])
    assert (tool, args["userId"], card["requester"], card["approver"]) == ("runWorkFlow", "user_1", "张三 (user_1)",
                                                                           "王五 (user_3)")
    assert "executor" not in nodes and [r for r in server_store.snapshot()["requests"] if r["id"] not in before] == []

    # 张三 approves it, the client sending the other user id again with the answer.
    nodes, interrupts = stream_updates(zhangsan, thread_id, command={"resume": approval(waiting["value"])}, **claim)
    assert interrupts == [] and "executor" in nodes
    # The auth hook rewrote both runs before they were stored (the graph's own guard would catch it too).
    runs = zhangsan.runs.list(thread_id)
    assert len(runs) == 2
    assert [run["kwargs"]["context"]["user_id"] for run in runs] == ["user_1", "user_1"]
    assert [run["kwargs"]["config"]["configurable"]["user_id"] for run in runs] == ["user_1", "user_1"]
    [request] = [r for r in server_store.snapshot()["requests"] if r["id"] not in before]
    assert (request["requester_id"], request["reason"]) == ("user_1", "家里有事")
    assert [t["assignee_id"] for t in server_store.snapshot()["tasks"] if t["request_id"] == request["id"]] == ["user_3"]
    assert thread_events(server_store, thread_id) == [("review_approve", "user_1"), ("tool_executed", "user_1")]
    system_prompt = model.requests[0]["messages"][0]["content"]
    assert "Signed-in user: 张三 (userId user_1)" in system_prompt and "userId user_2" not in system_prompt


# ---------------------------------------------------------------- approvers answer only their own cards


def test_only_the_assignee_gets_and_answers_the_approval_card(signed_in, model, server_store):
    task = start_leave_request(server_store, requester="user_1", approver="user_2")
    decide = approving_reply(task)
    lisi, zhangsan, wangwu = signed_in("user_2"), signed_in("user_1"), signed_in("user_3")

    # 李四's card waits in 李四's thread.
    model.reset([decide])
    thread_id = lisi.threads.create()["thread_id"]
    _, [waiting] = stream_updates(lisi, thread_id, input=ask(f"批准我的待办 {task}"))
    tool, args, card = proposed_call(waiting["value"])
    assert (tool, args["taskId"], card["assignee"], card["task_status"]) == ("handleTodoTask", task, "李四 (user_2)", "pending")

    # Nobody else can see or answer it: the thread is not theirs.
    for other in (zhangsan, wangwu):
        resume = {"resume": approval(waiting["value"])}
        assert status_of(lambda other=other, resume=resume: stream_updates(other, thread_id, command=resume)) == 404
        assert hidden_state(lambda other=other: other.threads.get_state(thread_id))
    assert task_row(server_store, task)["status"] == "pending"

    # 王五, in a thread of his own, asks to decide it: the policy refuses before any card is shown.
    model.reset([decide, "这不是你的待办。"])
    own = wangwu.threads.create()["thread_id"]
    nodes, interrupts = stream_updates(wangwu, own, input=ask(f"批准待办 {task}"))
    assert interrupts == [] and "human_review" not in nodes and "executor" not in nodes
    messages = wangwu.threads.get_state(own)["values"]["messages"]
    [refusal] = [m for m in messages if m["type"] == "tool"]
    assert refusal["status"] == "error" and "not_assignee" in refusal["content"]
    assert task_row(server_store, task)["status"] == "pending" and thread_events(server_store, own) == []

    # 李四 approves the card he was shown.
    model.reset(["已批准。"])
    nodes, interrupts = stream_updates(lisi, thread_id, command={"resume": approval(waiting["value"])})
    assert interrupts == [] and "executor" in nodes
    row = task_row(server_store, task)
    assert (row["status"], row["decided_by"]) == ("approved", "user_2")
    assert thread_events(server_store, thread_id) == [("review_approve", "user_2"), ("tool_executed", "user_2")]


# ---------------------------------------------------------------- revoking a dev token


def test_a_revoked_dev_token_is_refused_before_it_expires(server):
    token = server.token("user_1")
    assert raw(server, "POST", "/threads/search", {"Authorization": f"Bearer {token}"}, {}).status_code == 200
    other = server.token("user_1")

    env = {**server.env, "FLOWAGENT_DB": server.db_url}
    revoked = subprocess.run([*FLOWAGENT, "token", "--revoke", token], env=env, cwd=REPO_ROOT, capture_output=True, text=True,
                             timeout=60)
    assert revoked.returncode == 0, revoked.stderr
    assert revoked.stdout.startswith("the token of user_1 is revoked")

    response = raw(server, "POST", "/threads/search", {"Authorization": f"Bearer {token}"}, {})
    assert response.status_code == 401
    assert response.json()["detail"] == "[revoked] the token was revoked: sign in again for a new one"
    assert raw(server, "GET", "/flowagent/api/me", {"Authorization": f"Bearer {token}"}).status_code == 401
    # Only that token: another of the same user's still signs in.
    assert raw(server, "GET", "/flowagent/api/me", {"Authorization": f"Bearer {other}"}).json()["id"] == "user_1"
    again = subprocess.run([*FLOWAGENT, "token", "--revoke", token], env=env, cwd=REPO_ROOT, capture_output=True, text=True,
                             timeout=60)
    assert again.returncode == 0 and "was already revoked" in again.stdout
    forged = jwt.encode(dev_claims(jti="x"), "not-the-servers-secret-but-long-enough-anyway")
    refused = subprocess.run([*FLOWAGENT, "token", "--revoke", forged], env=env, cwd=REPO_ROOT, capture_output=True, text=True,
                             timeout=60)
    assert refused.returncode == 1 and "signature" in refused.stderr


# ---------------------------------------------------------------- the store


def test_the_store_is_scoped_to_the_users_own_namespace(signed_in):
    zhangsan, lisi = signed_in("user_1"), signed_in("user_2")
    zhangsan.store.put_item(["notes"], "leave", {"text": "张三的备注"})
    assert zhangsan.store.get_item(["notes"], "leave")["value"] == {"text": "张三的备注"}
    assert zhangsan.store.get_item(["notes"], "leave")["namespace"] == ["user_1", "notes"]
    assert lisi.store.get_item(["notes"], "leave") is None
    assert lisi.store.get_item(["user_1", "notes"], "leave") is None
    assert lisi.store.search_items(["user_1"])["items"] == []
    lisi.store.delete_item(["user_1", "notes"], "leave")
    assert zhangsan.store.get_item(["notes"], "leave")["value"] == {"text": "张三的备注"}


# ---------------------------------------------------------------- production mode: RS256 checked against a JWKS


def rsa_jwk(key: rsa.RSAPrivateKey, kid: str) -> dict[str, str]:
    """The public half of `key` as a JWK, from cryptography's own numbers."""
    numbers = key.public_key().public_numbers()

    def b64_int(value: int) -> str:
        return b64(value.to_bytes((value.bit_length() + 7) // 8, "big"))

    return {"kty": "RSA", "kid": kid, "use": "sig", "alg": "RS256", "n": b64_int(numbers.n), "e": b64_int(numbers.e)}


IDP_KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)
STRANGER_KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)


@pytest.fixture(scope="module")
def jwks_url() -> Iterator[str]:
    """A JWKS endpoint on loopback publishing IDP_KEY's public key as kid "idp-1"."""
    body = json.dumps({"keys": [rsa_jwk(IDP_KEY, "idp-1")]}).encode()

    class JWKSHandler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - stdlib naming
            status, payload = (200, body) if self.path == "/.well-known/jwks.json" else (404, b"{}")
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
            pass

    httpd = ThreadingHTTPServer((LOOPBACK, 0), JWKSHandler)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://{LOOPBACK}:{httpd.server_address[1]}/.well-known/jwks.json"
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture(scope="module")
def production(
    model: ScriptedOpenAIServer, jwks_url: str, tmp_path_factory: pytest.TempPathFactory, start_server: Any
) -> Iterator[LangGraphDevServer]:
    env = model_env(
        model, tmp_path_factory.mktemp("production") / "workflow.db", FLOWAGENT_JWKS_URL=jwks_url,
        FLOWAGENT_JWT_ISSUER=IDP_ISSUER, FLOWAGENT_JWT_AUDIENCE=IDP_AUDIENCE,
    )
    with start_server(env) as dev:
        yield dev


def idp_token(key: rsa.RSAPrivateKey, *, sub: str = "user_3", kid: str = "idp-1") -> str:
    now = int(time.time())
    claims = {"sub": sub, "iat": now, "exp": now + 600, "iss": IDP_ISSUER, "aud": IDP_AUDIENCE}
    return jwt.encode(claims, key, algorithm="RS256", headers={"kid": kid})


def test_production_accepts_a_token_signed_by_the_identity_providers_key(production):
    client = production.client(token=idp_token(IDP_KEY))
    thread_id = client.threads.create(metadata={"owner": "user_1"})["thread_id"]
    assert client.threads.get(thread_id)["metadata"]["owner"] == "user_3"
    assert thread_id in {t["thread_id"] for t in client.threads.search()}


@pytest.mark.parametrize(
    ("token", "code"),
    [(lambda: idp_token(STRANGER_KEY), "bad_signature"), (lambda: idp_token(STRANGER_KEY, kid="stranger"), "unknown_key"),
     (lambda: idp_token(IDP_KEY, sub="user_9"), "unknown_user"),
     (lambda: jwt.encode(dev_claims(), TEST_AUTH_SECRET), "unsupported_algorithm")],
    ids=["another key, published kid", "another key, unknown kid", "unknown user", "a dev token"],
)
def test_production_refuses_tokens_its_identity_provider_did_not_sign_for_a_known_user(production, token, code):
    response = raw(production, "POST", "/threads/search", {"Authorization": f"Bearer {token()}"}, {})
    assert response.status_code == 401 and response.json()["detail"].startswith(f"[{code}]")
