"""The travel assistant's fixed sequences for the chain strategy, chosen by the request's words."""

from __future__ import annotations

from tools.spec import Chain

FLIGHT = r"机票|航班|flights?|\bfly\b"

CHAINS: tuple[Chain, ...] = (
    Chain(name="flights_and_hotels", description="查航班再查酒店 (flights, then hotels)",
          tools=("search_flights", "search_hotels"), intent=(rf"({FLIGHT}).*(酒店|hotels?)",)),
    Chain(name="flights_and_weather", description="查航班再查天气 (flights, then the weather)",
          tools=("search_flights", "get_weather"), intent=(rf"({FLIGHT}).*(天气|weather)",)),
    Chain(name="flights", description="查航班 (flights)", tools=("search_flights",), intent=(FLIGHT,)),
    Chain(name="hotels", description="查酒店 (hotels)", tools=("search_hotels",), intent=(r"酒店|hotels?|住",)),
    Chain(name="weather", description="查天气 (the weather)", tools=("get_weather",),
          intent=(r"天气|气温|weather|temperature",)),
)
"""Declared once, used as is: a request the patterns misread runs the wrong chain (the chain strategy's risk)."""
