"""The travel tools on the shipped data set: reproducible data, the seed's flights, cut lists, readable refusals."""

from __future__ import annotations

import importlib.util
from datetime import date
from pathlib import Path
from types import ModuleType

import pytest

from tools import DomainError, execute_call
from tools.travel import REGISTRY, TOOLSET
from tools.travel.data import DATA_FILE

ROOT = Path(__file__).resolve().parents[2]
WEDNESDAY = date(2025, 6, 11)


def generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_travel_data", ROOT / "scripts" / "make_travel_data.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_shipped_data_set_equals_a_fresh_generation(tmp_path):
    make = generator()
    fresh = tmp_path / "travel.db"
    make.build(fresh)
    shipped = ROOT / "tools" / "travel" / DATA_FILE
    assert make.dump(shipped) == make.dump(fresh), "run: python scripts/make_travel_data.py"


def call(make_ctx, name, args, today=WEDNESDAY):
    return execute_call(TOOLSET, name, args, make_ctx(today=today))


def test_search_flights_lists_the_seeds_flights_cheapest_first_cut_to_five_with_the_total(make_ctx):
    found = call(make_ctx, "search_flights", {"origin": "北京", "destination": "上海", "date": "下周五"})
    assert found["date"] == "2025-06-20"
    assert found["total"] == 50
    assert len(found["flights"]) == 5
    assert [(f["flight"], f["price"]) for f in found["flights"][:3]] == [("HO1252", 680), ("MU5108", 780), ("CA1501", 950)]
    prices = [f["price"] for f in found["flights"]]
    assert prices == sorted(prices)


def test_search_flights_takes_airport_codes_and_english_names(make_ctx):
    found = call(make_ctx, "search_flights", {"origin": "PEK", "destination": "Shanghai", "date": "2025-06-12"})
    assert found["origin"] == "北京" and all(f["route"].startswith("PEK→") for f in found["flights"])
    assert [f["flight"] for f in found["flights"][:2]] == ["MU5108", "CA1501"]  # HO1252 leaves from PKX


def test_search_hotels_prices_the_stay_and_defaults_to_one_night(make_ctx):
    one = call(make_ctx, "search_hotels", {"city": "上海", "check_in": "下周五"})
    assert (one["check_in"], one["check_out"], one["nights"]) == ("2025-06-20", "2025-06-21", 1)
    three = call(make_ctx, "search_hotels", {"city": "上海", "check_in": "下周五", "check_out": "2025-06-23"})
    assert three["nights"] == 3 and len(three["hotels"]) == 5 and three["total"] == 10
    assert all(h["total_price"] == 3 * h["price_per_night"] for h in three["hotels"])


def test_get_weather_gives_the_months_normal_for_the_trip_date(make_ctx):
    found = call(make_ctx, "get_weather", {"city": "哈尔滨", "date": "2026-01-05"})
    assert found["date"] == "2026-01-05" and found["high_c"] < 0 and "normal" in found["basis"]


@pytest.mark.parametrize(
    ("name", "args", "code", "words"),
    [
        ("search_flights", {"origin": "北京", "destination": "上海", "date": "2025-06-01"}, "past_date",
         "date 2025-06-01 is in the past (today is 2025-06-11)"),
        ("search_flights", {"origin": "火星", "destination": "上海", "date": "明天"}, "city_not_listed",
         "origin: 城市未收录 / city not listed: 火星. Listed cities: 北京、上海"),
        ("search_flights", {"origin": "PEK", "destination": "PKX", "date": "明天"}, "same_city", "both 北京"),
        ("search_hotels", {"city": "上海", "check_in": "明天", "check_out": "明天"}, "bad_stay", "1 to 30 nights"),
        ("search_hotels", {"city": "上海", "check_in": "昨天"}, "unreadable_date", "Cannot read the date '昨天'"),
    ],
)
def test_travel_tools_refuse_readably(make_ctx, name, args, code, words):
    with pytest.raises(DomainError) as refused:
        call(make_ctx, name, args)
    assert refused.value.code == code
    assert words in refused.value.message


def test_unknown_tool_names_the_available_ones():
    with pytest.raises(DomainError) as refused:
        REGISTRY.get("book_hotel")
    assert refused.value.code == "unknown_tool"
    assert refused.value.message == "book_hotel is not a valid tool; use one of: search_flights, search_hotels, get_weather."
