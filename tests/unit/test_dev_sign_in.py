"""The page's development sign-in routes are off in production mode (an identity provider's JWKS configured):
they list no users and issue no token, not even for a user named one by one."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from flowagent.server import routes

SECRET = "a-development-secret-of-at-least-32-bytes"


@pytest.fixture
def client(monkeypatch: pytest.MonkeyPatch, tmp_path) -> TestClient:
    monkeypatch.setenv("FLOWAGENT_DB", str(tmp_path / "workflow.db"))
    monkeypatch.setenv("FLOWAGENT_AUTH_SECRET", SECRET)
    monkeypatch.delenv("FLOWAGENT_JWKS_URL", raising=False)
    yield TestClient(routes.app)


def test_in_development_the_picker_lists_users_and_a_token_is_issued(client):
    users = client.get("/flowagent/auth/dev-users").json()["users"]
    assert {"id": "user_2", "name": "李四"} in [{"id": u["id"], "name": u["name"]} for u in users]
    answer = client.post("/flowagent/auth/dev-token", json={"user_id": "user_2"})
    assert answer.status_code == 200 and answer.json()["user"] == {"id": "user_2", "name": "李四"}


def test_in_production_mode_the_dev_routes_answer_404_and_name_no_user(client, monkeypatch):
    monkeypatch.setenv("FLOWAGENT_JWKS_URL", "http://127.0.0.1:9/jwks.json")
    for answer in (client.get("/flowagent/auth/dev-users"),
                   client.post("/flowagent/auth/dev-token", json={"user_id": "user_2"}),
                   client.post("/flowagent/auth/dev-token", json={"user_id": "nobody"})):
        assert answer.status_code == 404
        assert answer.json()["error"] == "production_mode"
        assert "李四" not in answer.text and "nobody" not in answer.text
