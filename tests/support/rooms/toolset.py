"""The rooms toolset: two tools, the hooks of its domain, its language (its questions); no surfaces."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from tests.support.rooms.backend import ROOMS_LIST, STAFF, RoomsBackend
from tools.errors import NotFoundError, PolicyError
from tools.language import Language
from tools.spec import CallContext, Effect, Found, PersonValue, Reference, Sources, ToolRegistry, ToolSpec, Verdict
from tools.toolset import Toolset


class NoArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")


class BookArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")
    room: str = Field(description="The room: 大会议室 or 小会议室.")
    date: str = Field(description="The day, as an ISO date (2027-01-16).")


def staff_member(rooms: RoomsBackend, actor_id: str) -> dict[str, Any]:
    """The actor look-up: only the staff may book."""
    for person in STAFF:
        if person["id"] == actor_id:
            return dict(person)
    raise PolicyError("unknown_actor", f"{actor_id!r} is not on the staff; sign in as one of them")


def staff(rooms: RoomsBackend) -> list[dict[str, Any]]:
    """The people a person may name: the staff."""
    return STAFF


def resolve_room(
    rooms: RoomsBackend, value: Any, ctx: CallContext, ref: Reference, *, asking: bool
) -> tuple[dict[str, Any], str]:
    for name, room in ROOMS_LIST.items():
        if str(value).strip().lower() in (name, room["name_en"].lower()):
            return {"name": name, **room}, name
    raise NotFoundError("unknown_room", f"{ref.param} {str(value)[:40]} is no room; call list_rooms")


def list_rooms(rooms: RoomsBackend, ctx: CallContext, args: NoArgs, verdict: Verdict) -> dict[str, Any]:
    return {"rooms": [{"room": name, "seats": room["seats"]} for name, room in ROOMS_LIST.items()]}


def check_booking(rooms: RoomsBackend, ctx: CallContext, args: BookArgs, found: Found) -> Verdict:
    if any(b["room"] == args.room and b["date"] == args.date for b in rooms.bookings):
        raise PolicyError("room_taken", f"{args.room} is already booked on {args.date}; choose another room or day")
    return Verdict(notes=[f"{found['room']['seats']} seats"])


def book(rooms: RoomsBackend, ctx: CallContext, args: BookArgs, verdict: Verdict) -> dict[str, Any]:
    rooms.bookings.append({"room": args.room, "date": args.date, "by": ctx.actor_id})
    return {"room": args.room, "date": args.date, "by": ctx.actor_id}


CARD_LABELS = {"zh": {"seats": "座位", "date": "日期", "already_booked": "当天已订"},
               "en": {"seats": "seats", "date": "day", "already_booked": "booked that day"}}


def booking_card(rooms: RoomsBackend, args: dict[str, Any], lang: str, sources: Sources) -> dict[str, Any]:
    """What the person confirms, read from the backend: the room, its seats, the day, what is booked that day; the
    labels name the fields a person reads, in their language."""
    room = ROOMS_LIST[args["room"]]
    taken = [b["room"] for b in rooms.bookings if b["date"] == args["date"]]
    name = room["name_en"] if lang == "en" else args["room"]
    summary = f"Book {name} on {args['date']}" if lang == "en" else f"预订{name}（{args['date']}）"
    card = {"summary": summary, "seats": room["seats"], "date": args["date"], "already_booked": taken}
    return card | {"labels": CARD_LABELS["en" if lang == "en" else "zh"]}


REGISTRY = ToolRegistry([
    ToolSpec(name="list_rooms", description="List the meeting rooms and their seats.", args_model=NoArgs,
             effect=Effect.READ, handler=list_rooms),
    ToolSpec(
        name="book_room", description="Book a meeting room for a day.", args_model=BookArgs, effect=Effect.WRITE,
        handler=book, requires_approval=True, references=(Reference("room", "room"),),
        person_values=(PersonValue("date", "date", "date", label={"zh": "日期", "en": "the day"}),),
        check=check_booking, card=booking_card,
    ),
])

ROOMS = Toolset(
    name="rooms",
    registry=REGISTRY,
    prompt="You book meeting rooms for the signed-in member of staff. Use only values they gave.",
    language=Language(
        title="Meeting rooms",
        intro={"zh": "我可以帮你查看和预订会议室。", "en": "I can list and book meeting rooms."},
        questions={"zh": {"date": "请问订哪一天？"}, "en": {"date": "Which day should I book it for?"}},
    ),
    backend=RoomsBackend,
    actor=staff_member,
    people=staff,
    resolvers={"room": resolve_room},
)
"""Meeting rooms: the toolset of this package."""
