"""The toy weather tool's real source: Open-Meteo's forecast API, here a local HTTP server serving recorded answers.

The recorded answer (tests/e2e/recorded/open_meteo_beijing.json) is written in Open-Meteo's documented response
shape (`current.temperature_2m`, `current.weather_code`); the server checks the query the tool sends.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest

from tools import DomainError, execute_call
from tools.toy import TOOLSET
from tools.toy.weather import WEATHER_URL_ENV, weather

RECORDED = Path(__file__).parent / "recorded" / "open_meteo_beijing.json"


class FakeOpenMeteo(ThreadingHTTPServer):
    """Answers GET /v1/forecast with `body` (or `status`, or after `delay` s), keeping every query it got."""

    body: bytes = RECORDED.read_bytes()
    status = 200
    delay = 0.0
    queries: list[dict[str, list[str]]]


class Handler(BaseHTTPRequestHandler):
    server: FakeOpenMeteo

    def do_GET(self) -> None:  # noqa: N802 - the http.server API
        url = urlparse(self.path)
        self.server.queries.append(parse_qs(url.query))
        time.sleep(self.server.delay)
        if url.path != "/v1/forecast":
            self.send_error(404)
            return
        self.send_response(self.server.status)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(self.server.body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def open_meteo() -> Iterator[FakeOpenMeteo]:
    server = FakeOpenMeteo(("127.0.0.1", 0), Handler)
    server.queries = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def url_of(server: FakeOpenMeteo) -> str:
    return f"http://127.0.0.1:{server.server_address[1]}/v1/forecast"


def test_get_weather_reads_open_meteo_when_a_url_is_configured(open_meteo, monkeypatch, make_ctx):
    monkeypatch.setenv(WEATHER_URL_ENV, url_of(open_meteo))
    found = execute_call(TOOLSET, "get_weather", {"city": "北京"}, make_ctx())
    assert found == {"city": "北京", "condition": "多云", "temperature_c": 31.4, "source": "open-meteo"}
    [query] = open_meteo.queries
    assert query["latitude"] == ["39.9042"] and query["longitude"] == ["116.4074"]
    assert query["current"] == ["temperature_2m,weather_code"]


def test_an_unknown_city_is_refused_before_any_request(open_meteo):
    with pytest.raises(DomainError) as refused:
        weather("火星", url=url_of(open_meteo))
    assert refused.value.code == "city_not_listed"
    assert open_meteo.queries == []


def test_a_slow_service_is_a_readable_timeout(open_meteo):
    open_meteo.delay = 1.0
    with pytest.raises(DomainError) as refused:
        weather("北京", url=url_of(open_meteo), timeout_s=0.2)
    assert refused.value.code == "weather_unavailable"
    assert "did not answer within 0.2 s" in refused.value.message


def test_a_failing_service_is_a_readable_error(open_meteo):
    open_meteo.status = 503
    with pytest.raises(DomainError) as refused:
        weather("北京", url=url_of(open_meteo))
    assert refused.value.message == "The weather service answered HTTP 503; try again later."


def test_an_answer_in_another_shape_is_a_readable_error(open_meteo):
    open_meteo.body = json.dumps({"error": True, "reason": "Parameter 'current' is invalid"}).encode()
    with pytest.raises(DomainError) as refused:
        weather("北京", url=url_of(open_meteo))
    assert refused.value.code == "weather_unavailable"
    assert "cannot be read" in refused.value.message
