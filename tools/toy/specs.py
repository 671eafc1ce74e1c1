"""The toy toolset's two tools (the seed's ToyAgent): get_weather(city) and calculator(expression)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Connection

from tools.language import Language
from tools.spec import CallContext, Effect, ToolExample, ToolRegistry, ToolSpec, Verdict
from tools.toolset import Toolset
from tools.toy import calculator, weather
from tools.toy.chains import CHAINS
from tools.toy.prompts import REFUSALS, TOY_PROMPT


class WeatherArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")
    city: str = Field(max_length=40, description="The city, in Chinese or English: 北京, Shanghai.")


class CalculatorArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")
    expression: str = Field(description="An arithmetic expression: numbers, + - * / // % ** and parentheses.")


def get_weather(conn: Connection, ctx: CallContext, args: WeatherArgs, verdict: Verdict) -> dict[str, Any]:
    return weather.weather(args.city)


def calculate(conn: Connection, ctx: CallContext, args: CalculatorArgs, verdict: Verdict) -> dict[str, Any]:
    return {"expression": calculator.normalise(args.expression), "result": calculator.calculate(args.expression)}


def describe_weather(result: dict[str, Any], lang: str) -> str:
    temperature = f"{result['temperature_c']:g}°C"
    if lang == "zh":
        return f"{result['city']}：{result['condition']}，气温 {temperature}"
    return f"{result['city']}: {result['condition']}, {temperature}"


def describe_calculation(result: dict[str, Any], lang: str) -> str:
    return f"{result['expression']} = {result['result']}"


SPECS: tuple[ToolSpec, ...] = (
    ToolSpec(
        name="get_weather",
        title={"zh": "查天气", "en": "look up the weather"},
        description="Today's weather in a city: sky and temperature in °C. Unknown cities are refused with the list "
        "of known ones.",
        args_model=WeatherArgs,
        effect=Effect.READ,
        handler=get_weather,
        answers=(r"天气|气温|冷|热|短袖|穿什么|weather",),
        describe=describe_weather,
        model_description="Today's weather in a city (sky, temperature in °C). city: 北京, 上海, Shanghai …",
        examples=(ToolExample(
            question="上海今天冷吗？",
            args={"city": "上海"},
            observation='{"city":"上海","condition":"多云","temperature_c":25,"source":"table"}',
            answer="上海今天多云，气温 25°C，不冷。",
        ), ToolExample(
            question="Is it cold in Shanghai today?",
            args={"city": "Shanghai"},
            observation='{"city":"上海","condition":"多云","temperature_c":25,"source":"table"}',
            answer="Shanghai is cloudy today at 25°C: not cold.",
            lang="en",
        )),
    ),
    ToolSpec(
        name="calculator",
        title={"zh": "计算", "en": "calculate"},
        description="Compute an arithmetic expression: numbers, + - * / // % ** and parentheses (no names, no code).",
        args_model=CalculatorArgs,
        effect=Effect.READ,
        handler=calculate,
        describe=describe_calculation,
        model_description="Compute arithmetic. expression: numbers with + - * / // % ** and parentheses, e.g. (29-26)*2.",
        examples=(ToolExample(
            question="12 乘以 7 再减 5 是多少？",
            args={"expression": "12*7-5"},
            observation='{"expression":"12*7-5","result":79}',
            answer="12 × 7 − 5 = 79。",
        ), ToolExample(
            question="What is 12 times 7 minus 5?",
            args={"expression": "12*7-5"},
            observation='{"expression":"12*7-5","result":79}',
            answer="12 × 7 − 5 = 79.",
            lang="en",
        )),
    ),
)

REGISTRY = ToolRegistry(SPECS, chains=CHAINS)

TOOLSET = Toolset(
    name="toy",
    registry=REGISTRY,
    prompt=TOY_PROMPT,
    language=Language(
        title="ToyAgent: weather and arithmetic",
        intro={
            "zh": "我可以查询城市今天的天气，也可以做四则运算。",
            "en": "I can look up today's weather in a city and do arithmetic.",
        },
        refusals=REFUSALS,
    ),
    protocol="json",
)
"""The seed's ToyAgent on the graph: its JSON protocol is the default."""
