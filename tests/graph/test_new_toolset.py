"""A new domain is one package: the meeting-rooms toolset of `tests/support/rooms` runs through the real graph with its
own actor look-up, no SQL store, a write that needs approval with its card, and a value only the person gives.
Nothing outside that package (the engine, the nodes, the runtime) knows it."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage, ToolMessage
from langgraph.types import Command

from evals.doubles.scripted import ScriptedChatModel, tool_call
from graph import build_graph
from graph.checkpoint import open_sqlite_checkpointer
from state import Context
from tests.support.clock import ManualClock
from tests.support.rooms import ROOMS

TOMORROW = "2027-01-16"  # the ManualClock's today is 2027-01-15 (Asia/Shanghai)


class Rooms:
    """One conversation with the rooms toolset on its own backend (`ROOMS.backend()`: no SQL store)."""

    def __init__(self, tmp_path: Any, *replies: Any, user_id: str = "ana") -> None:
        self.model = ScriptedChatModel(replies=list(replies))
        self.saver = open_sqlite_checkpointer(tmp_path / "rooms.db")
        self.backend = ROOMS.backend()
        self.graph = build_graph(
            model=self.model, toolset=ROOMS, store=self.backend, checkpointer=self.saver, clock=ManualClock()
        )
        self.config = {"configurable": {"thread_id": "rooms"}}
        self.context = Context(user_id=user_id, protocol="native")

    def say(self, text: str) -> dict[str, Any]:
        return self.graph.invoke({"messages": [("human", text)]}, self.config, context=self.context)

    def approve(self) -> dict[str, Any]:
        return self.graph.invoke(Command(resume={"decisions": [{"type": "approve"}]}), self.config, context=self.context)

    def interrupts(self) -> list[Any]:
        return list(self.graph.get_state(self.config).interrupts)


@pytest.fixture
def rooms(tmp_path):
    made: list[Rooms] = []

    def _make(*replies: Any, **kwargs: Any) -> Rooms:
        made.append(Rooms(tmp_path, *replies, **kwargs))
        return made[-1]

    yield _make
    for r in made:
        r.saver.conn.close()


def test_a_booking_stops_at_its_card_from_the_toolsets_backend_and_runs_once_approved(rooms):
    agent = rooms(tool_call("book_room", {"room": "Big room", "date": TOMORROW}), "订好了。")
    agent.say("明天帮我订一下大会议室")
    [interrupt] = agent.interrupts()
    [action] = interrupt.value["action_requests"]
    assert action["card"]["summary"] == f"预订大会议室（{TOMORROW}）"  # the card read from the backend, in Chinese
    assert action["card"]["seats"] == 12 and action["card"]["policy_notes"] == ["12 seats"]
    # The description is the card in the person's words: its summary and labelled fields, not the checks' notes.
    assert action["description"] == f"预订大会议室（{TOMORROW}）\n座位: 12\n日期: {TOMORROW}"
    assert agent.backend.bookings == []  # nothing before the person decides
    result = agent.approve()
    assert agent.backend.bookings == [{"room": "大会议室", "date": TOMORROW, "by": "ana"}]
    assert result["messages"][-1].content == "订好了。"


def test_a_day_the_person_did_not_give_is_asked_in_their_language_and_filled_from_their_answer(rooms):
    agent = rooms(tool_call("book_room", {"room": "Small room", "date": TOMORROW}))
    result = agent.say("Please book the small room for me")
    assert result["messages"][-1].content == "Which day should I book it for?"  # the toolset's own question
    assert agent.interrupts() == []
    agent.say("the day after tomorrow")
    [interrupt] = agent.interrupts()
    assert interrupt.value["action_requests"][0]["args"] == {"room": "小会议室", "date": "2027-01-17"}


def test_its_own_actor_look_up_refuses_someone_not_on_the_staff(rooms):
    agent = rooms(tool_call("list_rooms", {}), "…", user_id="mallory")
    result = agent.say("有哪些会议室？")
    [observation] = [m for m in result["messages"] if isinstance(m, ToolMessage)]
    assert observation.status == "error" and "[unknown_actor]" in str(observation.content)


def test_what_can_you_do_comes_from_the_toolset(rooms):
    agent = rooms()
    assert agent.say("what can you do?")["messages"][-1].content == "I can list and book meeting rooms."
    assert isinstance(agent.say("你能做什么？")["messages"][-1], AIMessage)
