"""The system's e-mails are written in the language their recipient last wrote to the assistant in: an urge to an
approver who decides in English is English alone, one to an approver who never wrote is in both languages, and the
language follows the person when they change it. Kept with each write, in its transaction."""

from __future__ import annotations

import re

import pytest

from tools import execute_call
from tools.workflow import TOOLSET
from tools.workflow.languages import in_language, keep_language, languages_of

HAN = re.compile(r"[\u4e00-\u9fff]")


def _urges(store) -> list[dict]:
    return [n for n in store.snapshot()["notifications"] if n["recipient_id"] == "user_2"
            and ("催办" in n["subject"] or "Reminder" in n["subject"])]


def _writes_in(make_ctx, user: str, lang: str) -> None:
    """A write of the person's in a language: they name a deputy for a week next month."""
    execute_call(TOOLSET, "setDeputy", {"deputyUserId": "user_4", "startDate": "2027-01-11", "endDate": "2027-01-15"},
                 make_ctx(user, lang=lang))


def test_an_urge_reaches_an_approver_in_the_language_they_write_in(store, make_ctx, start_request, trial_clock):
    start_request(requester="user_1", approver="user_2", days=2, reason="看病")
    execute_call(TOOLSET, "urgeTask", {"requestId": "req_1"}, make_ctx("user_1"))
    [both] = _urges(store)
    assert HAN.search(both["body"]) and "asks you to look at" in both["body"]  # 李四 never wrote: both languages

    _writes_in(make_ctx, "user_2", "en")
    trial_clock.advance("P1D", working_time=False)
    execute_call(TOOLSET, "urgeTask", {"requestId": "req_1"}, make_ctx("user_1"))
    english = _urges(store)[-1]
    assert english["subject"] == "[flowagent] Reminder from Zhang San: task_1"
    assert english["body"].startswith("Zhang San asks you to look at the leave request req_1") and not HAN.search(
        english["body"])

    _writes_in(make_ctx, "user_2", "zh")
    trial_clock.advance("P1D", working_time=False)
    execute_call(TOOLSET, "urgeTask", {"requestId": "req_1"}, make_ctx("user_1"))
    chinese = _urges(store)[-1]
    assert chinese["subject"] == "[flowagent] 张三催办: task_1" and "asks you" not in chinese["body"]


def test_the_urge_card_shows_the_text_the_approver_will_read(store, make_ctx, start_request):
    start_request(requester="user_1", approver="user_2", days=1, reason="体检")
    _writes_in(make_ctx, "user_2", "en")
    card = TOOLSET.registry.get("urgeTask").card  # type: ignore[union-attr]
    with store.read() as conn:
        shown = card(conn, {"requestId": "req_1"}, "zh")
    assert shown["text"].startswith("Zhang San asks you to look at") and not HAN.search(shown["text"])


def test_a_persons_language_is_one_row_that_the_latest_write_sets(store):
    with store.transaction() as conn:
        keep_language(conn, "user_3", "en", "2026-12-03T10:00:00+00:00")
        keep_language(conn, "user_3", "zh", "2026-12-03T10:01:00+00:00")
        keep_language(conn, "user_4", "fr", "2026-12-03T10:02:00+00:00")  # not a language the assistant writes
    with store.read() as conn:
        assert languages_of(conn, ["user_3", "user_4", "user_9"]) == {"user_3": "zh"}
    assert [r["user_id"] for r in store.snapshot()["user_languages"]] == ["user_3"]


@pytest.mark.parametrize(("lang", "text"), [("zh", "中"), ("en", "en"), (None, "中\nen"), ("", "中\nen")])
def test_a_text_is_in_the_persons_language_or_both(lang, text):
    assert in_language(lang, "中", "en") == text


def test_a_requester_who_writes_english_hears_of_the_decision_in_english(store, make_ctx):
    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_qingjia", "userId": "user_1", "reason": "dentist",
                                          "days": 1, "nextUserId": "user_2"}, make_ctx("user_1", lang="en"))
    execute_call(TOOLSET, "handleTodoTask", {"taskId": "task_1", "isOK": True, "result": "好的"}, make_ctx("user_2"))
    [ended] = [n for n in store.snapshot()["notifications"] if n["recipient_id"] == "user_1"]
    assert ended["subject"] == "[flowagent] Your request approved: req_1"
    assert ended["body"] == "Your leave request (1 day) was approved (req_1)."
    [waiting] = [n for n in store.snapshot()["notifications"] if n["recipient_id"] == "user_2"]
    assert HAN.search(waiting["body"]) and "waiting for your decision" in waiting["body"]  # 李四 had not written yet
