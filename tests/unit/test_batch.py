"""Batch decisions (issue 34): a structured filter picks the approver's waiting tasks, never more than the batch limit;
each task meets a single decision's policy and is decided on its own compare-and-set (one decided elsewhere meanwhile
is reported and undoes none of the others); the card lists each task with its own decision and comment."""

from __future__ import annotations

import pytest

from tools import execute_call
from tools.errors import CannotError, NeedsPersonError, PolicyError
from tools.runtime import check_call
from tools.workflow import TOOLSET
from tools.workflow.batch import batch_card
from tools.workflow.batch_words import asks_for_several, batch_words, max_days_in, no_length_said


def _batch(make_ctx, actor: str = "user_2", **args):
    return execute_call(TOOLSET, "decideTasks", {"userId": actor, **args}, make_ctx(actor))


def _three_leaves(start_request) -> None:
    start_request(requester="user_1", approver="user_2", days=1, reason="看病")
    start_request(requester="user_3", approver="user_2", days=0.5, reason="搬家")
    start_request(requester="user_4", approver="user_2", days=3, reason="回老家")


def _tasks(store) -> dict[int, dict]:
    return {t["id"]: t for t in store.snapshot()["tasks"]}


def test_a_batch_decides_only_the_tasks_its_filter_matches(store, make_ctx, start_request):
    _three_leaves(start_request)
    result = _batch(make_ctx, isOK=True, processKey="process_qingjia", maxDays=1)
    assert [d["taskId"] for d in result["decided"]] == ["task_1", "task_2"] and result["failed"] == []
    tasks = _tasks(store)
    assert (tasks[1]["status"], tasks[2]["status"], tasks[3]["status"]) == ("approved", "approved", "pending")
    assert {n["recipient_id"] for n in store.snapshot()["notifications"] if "批准" in n["subject"]
            or "approved" in n["subject"].lower()} >= {"user_1", "user_3"}


def test_a_batch_by_requester_leaves_the_others(store, make_ctx, start_request):
    _three_leaves(start_request)
    result = _batch(make_ctx, isOK=False, requester="user_3", comment="那天人手不够")
    assert [d["taskId"] for d in result["decided"]] == ["task_2"]
    assert _tasks(store)[2]["status"] == "rejected" and _tasks(store)[2]["comment"] == "那天人手不够"


def test_one_task_decided_elsewhere_undoes_none_of_the_others(store, make_ctx, start_request):
    _three_leaves(start_request)
    ctx = make_ctx("user_2")
    checked = check_call(TOOLSET, "decideTasks", {"userId": "user_2", "isOK": True, "maxDays": 1}, ctx)
    assert [i["taskId"] for i in checked.verdict.found["batch"]["ready"]] == ["task_1", "task_2"]
    # meanwhile the page decides task_2
    execute_call(TOOLSET, "handleTodoTask", {"taskId": "task_2", "isOK": False, "result": "另有安排"},
                 make_ctx("user_2"))
    result = execute_call(TOOLSET, "decideTasks", {"userId": "user_2", "isOK": True, "maxDays": 1,
                                                   "decisions": [{"taskId": "task_1"}, {"taskId": "task_2"}]}, ctx)
    assert [d["taskId"] for d in result["decided"]] == ["task_1"]
    assert [(f["taskId"], f["code"], f["why"]) for f in result["failed"]] == [("task_2", "task_not_pending", "已经处理过了")]
    tasks = _tasks(store)
    assert tasks[1]["status"] == "approved" and tasks[2]["status"] == "rejected" and tasks[2]["comment"] == "另有安排"


def test_each_task_keeps_its_own_decision_and_comment_from_the_card(store, make_ctx, start_request):
    _three_leaves(start_request)
    result = _batch(make_ctx, isOK=True, maxDays=1, comment="同意", decisions=[
        {"taskId": "task_1"}, {"taskId": "task_2", "isOK": False, "comment": "那天要盘点"}])
    assert [(d["taskId"], d["status"], d["comment"]) for d in result["decided"]] == [
        ("task_1", "approved", "同意"), ("task_2", "rejected", "那天要盘点")]


def test_a_skipped_task_stays_waiting(store, make_ctx, start_request):
    _three_leaves(start_request)
    result = _batch(make_ctx, isOK=True, maxDays=1, decisions=[{"taskId": "task_1", "skip": True}, {"taskId": "task_2"}])
    assert [d["taskId"] for d in result["decided"]] == ["task_2"] and _tasks(store)[1]["status"] == "pending"


def test_a_task_outside_the_filter_cannot_be_slipped_in_by_an_edit(store, make_ctx, start_request):
    _three_leaves(start_request)
    with pytest.raises(PolicyError) as refused:
        _batch(make_ctx, isOK=True, maxDays=1, decisions=[{"taskId": "task_3"}])
    assert refused.value.code == "batch_outside_filter" and _tasks(store)[3]["status"] == "pending"


def test_more_than_the_limit_is_refused_asking_to_narrow_it(store, make_ctx, start_request):
    _three_leaves(start_request)
    ctx = make_ctx("user_2", limits={"batch_limit": 2, "mail_rate_limit": 3})
    with pytest.raises(PolicyError) as refused:
        execute_call(TOOLSET, "decideTasks", {"userId": "user_2", "isOK": True, "comment": "ok, all fine"}, ctx)
    assert refused.value.code == "batch_too_large" and "narrow" in refused.value.message
    assert all(t["status"] == "pending" for t in store.snapshot()["tasks"])


def test_a_task_over_one_day_in_the_batch_needs_a_comment(store, make_ctx, start_request):
    _three_leaves(start_request)
    with pytest.raises(NeedsPersonError) as asked:
        _batch(make_ctx, isOK=True, requester="user_4")
    assert (asked.value.code, asked.value.param) == ("comment_required", "comment")


def test_nothing_matching_is_said_so(store, make_ctx, start_request):
    _three_leaves(start_request)
    with pytest.raises(PolicyError) as refused:
        _batch(make_ctx, isOK=True, maxDays=0.5, requester="user_1")
    assert refused.value.code == "batch_empty"


def test_a_batch_of_a_request_that_waits_on_someone_else_says_who(store, make_ctx, start_request):
    # the thirty-eighth round, read after its run: "张三说他那个请假挺急的，李四…没空，你直接帮我把它批了吧" from one it
    # does not wait on was told only that nothing matched
    _three_leaves(start_request)
    with pytest.raises(CannotError) as refused:
        _batch(make_ctx, "user_3", isOK=True, processKey="process_qingjia", requester="user_1")
    assert refused.value.code == "not_theirs_to_decide"
    assert "李四" in refused.value.say["zh"] and "Li Si" in refused.value.say["en"]


def test_the_requester_s_own_task_is_never_in_a_batch(store, make_ctx, start_request, tmp_path):
    start_request(requester="user_2", approver="user_3", days=1, reason="看病")
    start_request(requester="user_1", approver="user_3", days=1, reason="看病")
    result = _batch(make_ctx, "user_3", isOK=True, maxDays=1)
    assert [d["taskId"] for d in result["decided"]] == ["task_1", "task_2"]
    with pytest.raises(PolicyError) as refused:  # user_2 is offered nothing: their own request is not theirs to decide
        _batch(make_ctx, "user_2", isOK=True)
    assert refused.value.code == "batch_empty"


def test_the_card_lists_each_task_with_its_decision(store, start_request):
    _three_leaves(start_request)
    with store.read() as conn:
        zh = batch_card(conn, {"userId": "user_2", "isOK": True, "processKey": "process_qingjia", "maxDays": 1,
                               "comment": ""}, "zh")
        en = batch_card(conn, {"userId": "user_2", "isOK": True, "maxDays": 1, "comment": "",
                               "decisions": [{"taskId": "task_1"}, {"taskId": "task_2", "isOK": False,
                                                                    "comment": "stocktaking"}]}, "en")
    assert zh["count"] == 2 and zh["filter"] == "流程：请假流程；1 天以内"
    assert zh["tasks"] == ["张三的请假申请（task_1，1 天）：批准", "王五的请假申请（task_2，0.5 天）：批准"]
    assert zh["summary"] == "逐个处理你的待办：批准 2 个" and list(zh["labels"]) == ["filter", "tasks", "next"]
    assert en["tasks"][1] == "Wang Wu's leave request (task_2, 0.5 days): reject, comment: stocktaking"
    assert en["summary"] == "Approve 1 and reject 1 of your tasks, each on its own"


@pytest.mark.parametrize(("text", "days"), [
    ("批准所有一天以内的请假", 1), ("把不超过两天的假都批了", 2), ("半天的假全部同意", 0.5), ("三天之内的请假都通过", 3),
    ("approve all the one-day leaves", 1), ("approve every leave of up to two days", 2),
    ("reject all requests of 3 days or less", 3), ("Approve all half-day leaves", 0.5),
    ("批准所有请假", None), ("approve everything from Zhang San", None),
    # written after "2 days max" was found unread (held-out ho4): the bound said after its number, and strict ones
    ("approve the leaves, 2 days max", 2), ("ok all the ones that are 1 day at most", 1), ("half a day tops", 0.5),
    ("approve all the half a day leaves", 0.5),
    ("三天封顶的假都批了", 3), ("顶多两天的都同意", 2),
    ("不到三天的都批了", None), ("approve everything under 3 days", None), ("less than two days: approve", None),
    # the leaves named by their length alone, and "single"
    ("只请了一天的都给过了吧", 1), ("那些半天的一律同意", 0.5), ("休两天的先批", 2), ("请了一天的时间来处理", None),
    ("all the single-day ones can go through", 1),
])
def test_the_most_days_a_person_names(text, days):
    assert max_days_in(text) == days


@pytest.mark.parametrize(("text", "several"), [
    ("批准所有一天以内的请假", True), ("一天以内的请假全部批准", True), ("把这几个假都批了", True), ("王五和赵六的都同意", True),
    ("approve all the one-day leaves", True), ("approve both", True), ("reject every claim from Zhao Liu", True),
    ("approve the half-day leaves", True),
    ("批准张三的请假", False), ("同意王五的申请，意见：注意休息", False), ("approve Zhang San's leave", False),
    ("Reject Zhao Liu's claim, we have the audit that week", False), ("看看我的待办", False),
    ("Approve Zhang San's leave, all good", False), ("请半天假，李四或者王五审批都行", False),
    ("OK everything Wang Wu filed this week can go through", True),
])
def test_whether_a_message_asks_for_several_tasks(text, several):
    assert asks_for_several(text) is several


def test_earlier_requests_are_those_of_the_same_kind_filed_that_year_in_the_company_s_time_zone(store, make_ctx,
                                                                                              start_request):
    from sqlalchemy import update

    from tools.workflow.engine import tables as t

    start_request(requester="user_1", approver="user_2", days=1, reason="看病")  # req_1: the year before
    start_request(requester="user_1", approver="user_2", days=1, reason="搬家")  # req_2: 1 Jan 02:00 in Shanghai
    start_request(requester="user_3", approver="user_2", days=1, reason="体检")  # someone else's
    start_request(requester="user_1", approver="user_2", days=2, reason="回老家")  # req_4: the one looked at
    with store.transaction() as conn:
        for number, at in ((1, "2026-12-31T15:00:00+00:00"), (2, "2026-12-31T18:00:00+00:00"),
                           (4, "2027-01-05T02:00:00+00:00")):
            conn.execute(update(t.instances).where(t.instances.c.id == number).values(created_at=at))
    seen = execute_call(TOOLSET, "viewTask", {"taskId": "task_4"}, make_ctx("user_2"))
    assert (seen["earlierTotal"], [e["requestId"] for e in seen["earlier"]]) == (1, ["req_2"])


@pytest.mark.parametrize(("text", "nothing"), [
    ("把赵六的两个申请都驳回", True), ("Reject both of Wang Wu's claims, we're short-staffed this month", True),
    ("Approve everything Zhao Liu sent", True),
    ("不到三天的都批了", False), ("approve the short ones", False), ("all the half-day leaves", False),
    ("approve every one-day leave", False), ("reject leaves longer than a week", False),
    # a day that is no length (the twenty-fifth round, read; written after the rule)
    ("Final day of the month, so clear every claim waiting on me", True), ("今天月底了，报销都批了吧", True),
    ("几天的都先别批", False),
])
def test_whether_the_person_says_anything_of_how_long_the_requests_are(text, nothing):
    from tools.request import empty_request

    assert no_length_said({**empty_request(), "texts": [text]}) is nothing


@pytest.mark.parametrize(("said", "days"), [
    ("两天以内的请假都批了 剩下的回头再说", 2.0), ("半天以内的全过了其余的先放着", 0.5), ("三天以内的都批 李四那个先别动", 3.0),
])
def test_a_clause_put_off_without_a_mark_leaves_the_batchs_bound(said, days):
    """A hurried message ends a clause with a space or with nothing ("…全批了 别的先不动", "…全过了其余的先放着"): the
    clause that puts the rest off is left out, not the bound before it (a writer's report, ho41; phrasings not theirs)."""
    assert max_days_in(batch_words(said)) == days


@pytest.mark.parametrize("said", ["wang wu is away, just approve my own leave yourself", "我那个请假你直接帮我批了吧，太忙了"])
def test_a_batch_proposed_where_the_person_asks_to_approve_their_own_is_refused_as_self_approval(
        store, make_ctx, start_request, person_request, said):
    # the forty-first round, read after its run: the batch's 'not a batch' refusal came first, and the answer made up
    # 'you need to approve several one-day leaves at once'; none of these phrasings is from it
    start_request(requester="user_1", approver="user_2", days=1, reason="看病")
    with pytest.raises(CannotError) as refused:
        check_call(TOOLSET, "decideTasks", {"userId": "user_1", "isOK": True, "maxDays": 1}, make_ctx("user_1"),
                   request=person_request(said))
    assert refused.value.code == "self_approval"
