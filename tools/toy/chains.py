"""The ToyAgent's fixed sequences for the chain strategy, chosen by the request's words."""

from __future__ import annotations

from tools.spec import Chain

CHAINS: tuple[Chain, ...] = (
    Chain(name="weather", description="查今天的天气 (today's weather)", tools=("get_weather",),
          intent=(r"天气|气温|温度|温差|短袖|外套|weather|temperature|warm|cold",)),
    Chain(name="calculate", description="四则运算 (arithmetic)", tools=("calculator",),
          intent=(r"算|多少|等于|乘|除|加|减|次方|compute|calculat|divided|times|plus|minus|what is \d|\d\s*[-+*/]",)),
)
"""Declared once, used as is: a request the patterns misread runs the wrong chain (the chain strategy's risk)."""
