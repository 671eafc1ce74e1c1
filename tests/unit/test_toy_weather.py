"""The toy weather tool's offline table (the default with no FLOWAGENT_WEATHER_URL) and its refusals."""

from __future__ import annotations

import pytest

from tools import DomainError, execute_call
from tools.toy import TOOLSET
from tools.toy.weather import WEATHER_URL_ENV


@pytest.fixture(autouse=True)
def _offline(monkeypatch):
    monkeypatch.delenv(WEATHER_URL_ENV, raising=False)


def test_weather_table_says_beijing_is_sunny_and_29(make_ctx):
    found = execute_call(TOOLSET, "get_weather", {"city": "北京"}, make_ctx())
    assert found == {"city": "北京", "condition": "晴", "temperature_c": 29, "source": "table"}


@pytest.mark.parametrize("city", ["北京市", "Beijing", " beijing "])
def test_weather_knows_a_city_by_its_other_names(make_ctx, city):
    assert execute_call(TOOLSET, "get_weather", {"city": city}, make_ctx())["city"] == "北京"


def test_unknown_city_is_refused_with_the_known_cities(make_ctx):
    with pytest.raises(DomainError) as refused:
        execute_call(TOOLSET, "get_weather", {"city": "火星"}, make_ctx())
    assert refused.value.code == "city_not_listed"
    assert refused.value.message.startswith("城市未收录 / city not listed: 火星. Known cities: 北京、上海、广州")


def test_calculator_tool_returns_the_expression_and_its_value(make_ctx):
    found = execute_call(TOOLSET, "calculator", {"expression": "(29 - 26) × 2"}, make_ctx())
    assert found == {"expression": "(29 - 26) * 2", "result": 6}
