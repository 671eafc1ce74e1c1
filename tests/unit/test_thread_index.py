"""A value folded over a thread's messages is kept up to date by folding in only what was appended."""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, ToolMessage

from graph.calls import estimate_tokens, tokens_of_chars
from graph.history import ThreadIndex, call_id_index, char_index


def _history(n: int, prefix: str = "m") -> list[AnyMessage]:
    return [HumanMessage(content=f"{prefix}{i}", id=f"{prefix}{i}") for i in range(n)]


class Counting:
    """A fold that records how many messages each call was given."""

    def __init__(self) -> None:
        self.given: list[int] = []

    def __call__(self, total: int, messages: Sequence[AnyMessage]) -> int:
        self.given.append(len(messages))
        return total + len(messages)


def test_each_call_folds_only_the_messages_appended_since_the_last():
    fold = Counting()
    index = ThreadIndex(fold, 0)
    history = _history(3)
    assert index.get("t1", history) == 3
    history += _history(2, "n")
    assert index.get("t1", history) == 5
    assert index.get("t1", history) == 5
    assert fold.given == [3, 2]  # nothing appended since: nothing folded


def test_a_different_history_under_the_same_key_is_folded_again_from_the_start():
    fold = Counting()
    index = ThreadIndex(fold, 0)
    index.get("t1", _history(4))
    other = _history(5, "x")  # another process wrote this thread: its fourth message is not the one seen
    assert index.get("t1", other) == 5
    shorter = _history(2, "x")
    assert index.get("t1", shorter) == 2
    assert fold.given == [4, 5, 2]


def test_keys_and_starts_are_kept_apart_and_no_key_folds_the_whole_history():
    fold = Counting()
    index = ThreadIndex(fold, 0)
    history = _history(6)
    assert index.get("t1", history, start=4) == 2
    assert index.get("t2", history) == 6
    assert index.get(None, history) == 6
    assert index.get(None, history) == 6
    assert fold.given == [2, 6, 6, 6]


def test_the_oldest_key_is_dropped_when_the_index_is_full(monkeypatch):
    monkeypatch.setattr(ThreadIndex, "MAX_KEYS", 2)
    fold = Counting()
    index = ThreadIndex(fold, 0)
    history = _history(3)
    for key in ("a", "b", "c"):
        index.get(key, history)
    index.get("c", history)  # kept: nothing new to fold
    index.get("a", history)  # dropped: folded again
    assert fold.given == [3, 3, 3, 3]


def test_call_ids_know_which_calls_still_lack_their_result():
    index = call_id_index()
    history: list[AnyMessage] = [
        HumanMessage(content="q", id="h"),
        AIMessage(content="", id="a1", tool_calls=[{"name": "t", "args": {}, "id": "c1"}]),
    ]
    ids = index.get("t", history)
    assert ids.asked == {"c1"} and not ids.all_answered
    history.append(ToolMessage(content="ok", tool_call_id="c1", id="o1"))
    assert index.get("t", history).all_answered


def test_the_character_count_gives_the_same_estimate_as_counting_again():
    index = char_index()
    history = _history(7)
    assert tokens_of_chars(index.get("t", history, start=2)) == estimate_tokens(history[2:])
    history += [AIMessage(content="一段更长的回答" * 9, id="long")]
    assert tokens_of_chars(index.get("t", history, start=2)) == estimate_tokens(history[2:])


def test_records_known_together_are_found_by_id_until_they_are_too_old(monkeypatch):
    from tools.kept import KnownRecords

    now = [100.0]
    monkeypatch.setattr("tools.kept.time.monotonic", lambda: now[0])
    known = KnownRecords(ttl_s=60)
    known.put_all("user", [{"id": "user_1", "name": "张三"}, {"id": "user_2", "name": "李四"}])
    known.put("user", "user_3", {"id": "user_3", "name": "王五"})
    assert known.get("user", "user_2") == {"id": "user_2", "name": "李四"}
    assert known.get("user", "user_3")["name"] == "王五"
    assert known.get("task", "user_2") is None and known.get("user", "user_9") is None
    known.get("user", "user_1")["name"] = "changed"  # a copy: the kept record is not changed
    assert known.get("user", "user_1")["name"] == "张三"
    now[0] += 61
    assert known.get("user", "user_2") is None and known.get("user", "user_3") is None
