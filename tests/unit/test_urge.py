"""Urging (催办): only the requester, only a request waiting for an approver, once a task and company day (a second
urge the same day is refused, saying the next is possible tomorrow; the next day it goes through); the text is the
system's, naming the requester, the request and how long it waited; the approver is told in the same transaction."""

from __future__ import annotations

import pytest

from tools import execute_call
from tools.errors import PolicyError
from tools.runtime import check_call
from tools.workflow import TOOLSET
from tools.workflow.urge import urge_card, waited_words


def _urge(make_ctx, actor: str, request: str, **kwargs):
    return execute_call(TOOLSET, "urgeTask", {"requestId": request}, make_ctx(actor, **kwargs))


def _urge_mails(store) -> list[dict]:
    return [n for n in store.snapshot()["notifications"] if "催办" in n["subject"]]


def test_an_urge_names_the_requester_the_request_and_the_wait(store, make_ctx, start_request, trial_clock):
    start_request(requester="user_1", approver="user_2", days=2, reason="看病")
    trial_clock.advance("PT5H", working_time=False)
    result = _urge(make_ctx, "user_1", "请假")
    assert (result["requestId"], result["tasks"], result["told"]) == ("req_1", ["task_1"], ["李四"])
    [mail] = _urge_mails(store)
    assert mail["recipient_id"] == "user_2" and mail["task_id"] == 1 and mail["sender_id"] == "flowagent"
    zh, en = mail["body"].splitlines()
    assert zh == "张三催办：张三提交的请假申请 req_1（2 天）在「审批人审批」这一步等待您处理，已等待5 小时（待办 task_1）。"
    assert en.startswith("Zhang San asks you to look at the leave request req_1 they filed (2 days): it has waited 5 hours")
    assert "您的请假" not in mail["body"]  # never reads as the approver's own request
    [urged] = store.snapshot()["urges"]
    assert (urged["task_id"], urged["instance_id"], urged["requester_id"]) == (1, "req_1", "user_1")
    [mine] = execute_call(TOOLSET, "queryMyRequests", {}, make_ctx("user_1"))["requests"]
    assert mine["timeline"][-1].endswith("审批人审批：张三 催办")  # the request's timeline says so, after its start
    [english] = execute_call(TOOLSET, "queryMyRequests", {}, make_ctx("user_1", lang="en"))["requests"]
    assert english["timeline"][-1].endswith("Approver's decision: Zhang San sent a reminder")


def test_a_second_urge_the_same_day_is_refused_and_the_next_day_it_goes(store, make_ctx, start_request, trial_clock):
    start_request(requester="user_1", approver="user_2", days=1, reason="看病")
    _urge(make_ctx, "user_1", "req_1")
    with pytest.raises(PolicyError) as again:
        _urge(make_ctx, "user_1", "task_1")  # by its task too
    assert again.value.code == "urge_too_soon" and "next is possible on" in again.value.message
    assert len(_urge_mails(store)) == 1
    trial_clock.advance("P1D", working_time=False)
    _urge(make_ctx, "user_1", "req_1")
    assert len(_urge_mails(store)) == 2 and len(store.snapshot()["urges"]) == 2


def test_only_the_requester_urges_a_request_waiting_for_someone(store, make_ctx, start_request, trial_clock):
    start_request(requester="user_3", approver="user_2", days=1, reason="看病")
    with pytest.raises(PolicyError) as other:
        _urge(make_ctx, "user_1", "req_1")
    assert other.value.code == "urge_not_requester"
    execute_call(TOOLSET, "handleTodoTask", {"taskId": "task_1", "isOK": True, "result": "好"}, make_ctx("user_2"))
    with pytest.raises(PolicyError) as ended:
        _urge(make_ctx, "user_3", "req_1")
    assert ended.value.code == "urge_not_waiting"
    assert _urge_mails(store) == []


def test_the_card_shows_who_is_reminded_and_the_full_text(store, make_ctx, start_request, trial_clock):
    start_request(requester="user_1", approver="user_2", days=1, reason="看病")
    checked = check_call(TOOLSET, "urgeTask", {"requestId": "我的请假"}, make_ctx("user_1"))
    assert checked.args.requestId == "req_1"  # type: ignore[attr-defined]
    with store.read() as conn:
        zh = urge_card(conn, {"requestId": "req_1"}, "zh")
        en = urge_card(conn, {"requestId": "req_1"}, "en")
    assert zh["summary"] == "催办你的请假申请 req_1（1 天）" and zh["recipient"] == "李四"
    assert zh["text"].startswith("张三催办：") and "每天只能催办一次" in zh["next"]
    assert en["summary"] == "Send a reminder about your leave request req_1 (1 day)" and en["recipient"] == "Li Si"
    assert list(zh["labels"]) == ["request", "process", "form", "step", "waited", "recipient", "text", "next"]


def test_two_urges_racing_the_same_day_send_one(store, make_ctx, start_request, trial_clock):
    """Both checked before either committed: the second's insert meets the first's row and is refused, nothing sent."""
    from tools.workflow.urge import urge_task

    start_request(requester="user_1", approver="user_2", days=1, reason="看病")
    checked = check_call(TOOLSET, "urgeTask", {"requestId": "req_1"}, make_ctx("user_1"))
    _urge(make_ctx, "user_1", "req_1")  # the other one commits first
    with pytest.raises(PolicyError) as second, store.transaction() as conn:
        urge_task(conn, make_ctx("user_1"), checked.args, checked.verdict)
    assert second.value.code == "urge_too_soon"
    assert len(_urge_mails(store)) == 1 and len(store.snapshot()["urges"]) == 1


def test_an_urge_is_replayed_not_sent_twice(store, make_ctx, start_request, trial_clock):
    start_request(requester="user_1", approver="user_2", days=1, reason="看病")
    first = _urge(make_ctx, "user_1", "req_1", call_id="urge-1")
    again = _urge(make_ctx, "user_1", "req_1", call_id="urge-1")
    assert again.pop("replayed") is True and first == again and len(_urge_mails(store)) == 1


@pytest.mark.parametrize(("hours", "zh", "en"), [
    (0.5, "不到 1 小时", "less than an hour"), (1, "1 小时", "1 hour"), (26, "1 天 2 小时", "1 day 2 hours"),
    (48, "2 天", "2 days"),
])
def test_how_long_a_step_waited_in_words(hours, zh, en):
    from datetime import UTC, datetime, timedelta

    since = datetime(2026, 12, 1, 9, tzinfo=UTC)
    now = since + timedelta(hours=hours)
    assert (waited_words(since.isoformat(), now, "zh"), waited_words(since.isoformat(), now, "en")) == (zh, en)


def test_the_line_of_an_urge_names_the_process_as_it_reads_inside_a_sentence():
    from tools.workflow.urge import urged_line

    line = urged_line({"told": ["Li Si"], "process": "Leave request", "requestId": "req_1", "waited": "2 days"}, "en")
    assert line.startswith("Sent Li Si a reminder about your leave request req_1 (waiting 2 days)")
