"""The travel toolset's tools (the seed's travel assistant): search_flights, search_hotels and get_weather."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Connection

from tools.errors import InvalidArgumentsError
from tools.language import Language
from tools.spec import CallContext, Effect, ToolExample, ToolRegistry, ToolSpec, Verdict
from tools.toolset import Toolset
from tools.travel import data
from tools.travel.chains import CHAINS
from tools.travel.dates import travel_date
from tools.travel.prompts import REFUSALS, TRAVEL_PROMPT

SHOWN = 5
"""Results a search returns (the first ones, cheapest first), with the total."""
MAX_NIGHTS = 30
FALLBACK_TIMEZONE = "Asia/Shanghai"


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid")


class FlightArgs(_Args):
    origin: str = Field(max_length=40, description="From: a city (北京, Shanghai) or an airport code (PEK).")
    destination: str = Field(max_length=40, description="To: a city or an airport code.")
    date: str = Field(max_length=40, description="As the user said it (下周五, 明天, next Friday) or an ISO date.")


class HotelArgs(_Args):
    city: str = Field(max_length=40, description="The city.")
    check_in: str = Field(max_length=40, description="As the user said it (下周五, 明天) or an ISO date.")
    check_out: str | None = Field(default=None, max_length=40, description="Default: the day after check_in.")


class WeatherArgs(_Args):
    city: str = Field(max_length=40, description="The city.")
    date: str | None = Field(default=None, max_length=40, description="Default: today.")


def today_of(ctx: CallContext) -> date:
    """The run's date (`ctx.today`, from the graph's clock and time zone); outside a run, today in China."""
    return ctx.today or datetime.now(ZoneInfo(FALLBACK_TIMEZONE)).date()


def search_flights(conn: Connection, ctx: CallContext, args: FlightArgs, verdict: Verdict) -> dict[str, Any]:
    day = travel_date(args.date, today_of(ctx))
    with data.connect() as db:
        origin = data.find_place(db, args.origin, param="origin")
        destination = data.find_place(db, args.destination, param="destination")
        if origin.city == destination.city:
            raise InvalidArgumentsError("same_city", f"origin and destination are both {origin.city}; name two cities.")
        marks = ",".join("?" * len(origin.airports)), ",".join("?" * len(destination.airports))
        found = data.rows(
            db,
            f"SELECT f.number, f.airline, a.name AS airline_name, f.origin, f.destination, f.departs, f.arrives, f.price "
            f"FROM flights f JOIN airlines a ON a.code = f.airline WHERE f.origin IN ({marks[0]}) "
            f"AND f.destination IN ({marks[1]}) ORDER BY f.price, f.departs, f.number",
            *origin.airports, *destination.airports,
        )
    flights = [
        {"flight": f["number"], "airline": f["airline_name"], "route": f"{f['origin']}→{f['destination']}",
         "departs": f["departs"], "arrives": f["arrives"], "price": f["price"]}
        for f in found[:SHOWN]
    ]
    return {"origin": origin.city, "destination": destination.city, "date": day.isoformat(), "flights": flights,
            "total": len(found)}


def search_hotels(conn: Connection, ctx: CallContext, args: HotelArgs, verdict: Verdict) -> dict[str, Any]:
    today = today_of(ctx)
    check_in = travel_date(args.check_in, today, param="check_in")
    check_out = travel_date(args.check_out, today, param="check_out") if args.check_out else check_in + timedelta(days=1)
    nights = (check_out - check_in).days
    if not 0 < nights <= MAX_NIGHTS:
        raise InvalidArgumentsError(
            "bad_stay",
            f"check_out {check_out.isoformat()} must be 1 to {MAX_NIGHTS} nights after check_in {check_in.isoformat()}.",
        )
    with data.connect() as db:
        city = data.find_place(db, args.city, param="city").city
        found = data.rows(db, "SELECT * FROM hotels WHERE city = ? ORDER BY price, rating DESC, id", city)
    hotels = [
        {"name": h["name"], "district": h["district"], "stars": h["stars"], "price_per_night": h["price"],
         "total_price": h["price"] * nights, "rating": h["rating"], "description": h["description"]}
        for h in found[:SHOWN]
    ]
    return {"city": city, "check_in": check_in.isoformat(), "check_out": check_out.isoformat(), "nights": nights,
            "hotels": hotels, "total": len(found)}


def get_weather(conn: Connection, ctx: CallContext, args: WeatherArgs, verdict: Verdict) -> dict[str, Any]:
    day = travel_date(args.date or "今天", today_of(ctx))
    with data.connect() as db:
        city = data.find_place(db, args.city, param="city").city
        normal = data.rows(db, "SELECT * FROM weather_normals WHERE city = ? AND month = ?", city, day.month)[0]
    return {"city": city, "date": day.isoformat(), "condition": normal["condition"], "low_c": normal["low_c"],
            "high_c": normal["high_c"], "basis": "the month's usual weather (climate normal)"}


def describe_flights(result: dict[str, Any], lang: str) -> str:
    shown = ("、" if lang == "zh" else ", ").join(
        f"{f['flight']} {f['departs']} {f['price']}{'元' if lang == 'zh' else ' CNY'}" for f in result["flights"]
    )
    if lang == "zh":
        return f"{result['date']} {result['origin']}→{result['destination']}：共 {result['total']} 个航班，最便宜的：{shown}"
    return f"{result['date']} {result['origin']}→{result['destination']}: {result['total']} flights; cheapest: {shown}"


def describe_hotels(result: dict[str, Any], lang: str) -> str:
    shown = ("、" if lang == "zh" else ", ").join(
        f"{h['name']} {h['price_per_night']}{'元/晚' if lang == 'zh' else ' CNY/night'}" for h in result["hotels"]
    )
    if lang == "zh":
        return f"{result['city']} {result['check_in']} 入住 {result['nights']} 晚：共 {result['total']} 家酒店，最便宜的：{shown}"
    return f"{result['city']}, {result['nights']} night(s) from {result['check_in']}: {result['total']} hotels; cheapest: {shown}"


def describe_weather(result: dict[str, Any], lang: str) -> str:
    if lang == "zh":
        return f"{result['city']} {result['date']}：通常{result['condition']}，{result['low_c']}～{result['high_c']}°C"
    return f"{result['city']} {result['date']}: usually {result['condition']}, {result['low_c']} to {result['high_c']}°C"


SPECS: tuple[ToolSpec, ...] = (
    ToolSpec(
        name="search_flights",
        title={"zh": "查航班", "en": "search flights"},
        description="Flights between two cities on a date, cheapest first: the first 5 and the total. The date may be "
        "the user's words (下周五, 明天, next Friday) or an ISO date; past dates are refused.",
        args_model=FlightArgs,
        effect=Effect.READ,
        handler=search_flights,
        answers=(r"机票|航班|飞机|flight",),
        describe=describe_flights,
        model_description="Flights, cheapest first. origin, destination: cities (北京, 上海). date: as the user said it "
        "(下周五, 明天, next Friday) or YYYY-MM-DD.",
        examples=(ToolExample(
            question="后天从广州飞成都有什么航班？",
            args={"origin": "广州", "destination": "成都", "date": "后天"},
            observation='{"origin":"广州","destination":"成都","date":"2025-06-13","flights":[{"flight":'
            '"3U1234","airline":"四川航空","route":"CAN→CTU","departs":"07:40","arrives":"10:05","price":760}],"total":1}',
            answer="后天广州飞成都有 1 个航班：3U1234，07:40 起飞，760元。",
        ),),
    ),
    ToolSpec(
        name="search_hotels",
        title={"zh": "查酒店", "en": "search hotels"},
        description="Hotels in a city for a stay, cheapest first: the first 5 and the total, with the price per night "
        "and for the stay. Dates as the user said them or ISO; check_out defaults to the next day.",
        args_model=HotelArgs,
        effect=Effect.READ,
        handler=search_hotels,
        answers=(r"酒店|宾馆|住宿|住哪|hotel",),
        describe=describe_hotels,
        model_description="Hotels, cheapest first. city. check_in: as the user said it (下周五, 明天) or YYYY-MM-DD. "
        "check_out: optional, default the next day.",
        examples=(ToolExample(
            question="明天在杭州住一晚，有便宜的酒店吗？",
            args={"city": "杭州", "check_in": "明天"},
            observation='{"city":"杭州","nights":1,"hotels":[{"name":"如家酒店（杭州西湖区店）","stars":2,'
            '"price_per_night":190,"total_price":190,"rating":4.5}],"total":1}',
            answer="明天杭州最便宜的是如家酒店（杭州西湖区店），190元一晚，评分4.5。",
        ),),
    ),
    ToolSpec(
        name="get_weather",
        title={"zh": "查天气", "en": "look up the weather"},
        description="The usual weather in a city on a date (the month's climate normal): sky, low and high °C.",
        args_model=WeatherArgs,
        effect=Effect.READ,
        handler=get_weather,
        answers=(r"天气|气温|下雨|weather",),
        describe=describe_weather,
        model_description="The usual weather in a city on a date. city. date: optional, as the user said it; default today.",
    ),
)

REGISTRY = ToolRegistry(SPECS, chains=CHAINS)

TOOLSET = Toolset(
    name="travel",
    registry=REGISTRY,
    prompt=TRAVEL_PROMPT,
    language=Language(
        title="Travel assistant: flights, hotels, weather",
        intro={
            "zh": "我可以查航班、查酒店和查目的地天气，不能代为预订。",
            "en": "I can search flights and hotels and look up the weather for a trip; I cannot book.",
        },
        refusals=REFUSALS,
    ),
    record_ids=r"(?<![A-Za-z0-9])(?:[A-Z]{2}|[A-Z][0-9]|[0-9][A-Z])[0-9]{3,4}(?![0-9])",
)
"""The seed's travel assistant on the graph."""
