"""CC (抄送): the process's people (the trip's `hr`) and the requester's are kept per request, told at its start and at
its end in the transaction that caused it, may read it (the request, its timeline, on the page its diagram), and can
never decide it; the people copied are read from the person's words after a CC word, never guessed."""

from __future__ import annotations

import pytest

from tools import execute_call
from tools.errors import PolicyError
from tools.workflow import TOOLSET
from tools.workflow.cc import cc_spans, pick_person, stated_cc
from tools.workflow.panels import diagrams_of, tasks_of

PEOPLE = {"user_2": {"name": "李四", "alias": "Li Si"}, "user_3": {"name": "王五", "alias": "Wang Wu"},
          "user_4": {"name": "赵六", "alias": "Zhao Liu"}}


def _start(make_ctx, cc: list[str] | None = None, **fields):
    args = {"processKey": "process_qingjia", "userId": "user_1", "reason": "看病", "days": 1, "nextUserId": "user_2",
            **({"cc": cc} if cc is not None else {}), **fields}
    return execute_call(TOOLSET, "runWorkFlow", args, make_ctx("user_1"))


def _cc_mails(store, subject: str = "抄送") -> list[tuple[str, str]]:
    return [(n["recipient_id"], n["subject"]) for n in store.snapshot()["notifications"] if subject in n["subject"]]


def test_the_requesters_cc_is_kept_and_told_at_the_start_and_the_end(store, make_ctx):
    started = _start(make_ctx, cc=["user_3"])
    assert started["cc"] == ["user_3"]
    assert [(r["instance_id"], r["user_id"], r["source"]) for r in store.snapshot()["request_cc"]] == [
        ("req_1", "user_3", "requester")]
    [(to, subject)] = _cc_mails(store)
    assert to == "user_3" and subject == "[flowagent] 抄送 / Copied to you: req_1"
    execute_call(TOOLSET, "handleTodoTask", {"taskId": "task_1", "isOK": True, "result": "好"}, make_ctx("user_2"))
    ended = [n for n in store.snapshot()["notifications"] if n["subject"].startswith("[flowagent] 抄送：req_1 已批准")]
    assert [n["recipient_id"] for n in ended] == ["user_3"]
    assert ended[0]["body"].startswith("抄送给您的张三的请假申请（1 天，req_1）已批准。")


def test_a_withdrawal_is_an_end_the_copied_people_hear_of(store, make_ctx):
    _start(make_ctx, cc=["user_4"])
    execute_call(TOOLSET, "withdrawRequest", {"requestId": "req_1"}, make_ctx("user_1"))
    assert ("user_4", "[flowagent] 抄送：req_1 已被申请人撤回 / Copied to you: req_1 was withdrawn by its requester") in (
        _cc_mails(store))


def test_a_process_copies_its_group(store, make_ctx):
    trip = {"processKey": "process_chuchai", "userId": "user_1", "reason": "见客户", "nextUserId": "user_2",
            "fields": {"destination": "上海", "startDate": "2099-01-05", "endDate": "2099-01-06"}}
    started = execute_call(TOOLSET, "runWorkFlow", trip, make_ctx("user_1"))
    assert started["cc"] == ["user_admin"]  # the trip's BPMN copies hr, whose member is 管理员
    assert store.snapshot()["request_cc"][0]["source"] == "process"


def test_copied_people_read_the_request_and_never_decide_it(store, make_ctx):
    _start(make_ctx, cc=["user_3"])
    listed = execute_call(TOOLSET, "queryCcRequests", {}, make_ctx("user_3"))
    [item] = listed["requests"]
    assert (listed["total"], item["requestId"], item["requester"], item["heldBy"]) == (1, "req_1", "张三", "李四")
    assert item["timeline"][0].endswith("张三 发起申请")
    with pytest.raises(PolicyError) as refused:
        execute_call(TOOLSET, "handleTodoTask", {"taskId": "task_1", "isOK": True, "result": "好"}, make_ctx("user_3"))
    assert refused.value.code == "not_assignee"
    assert store.snapshot()["tasks"][0]["status"] == "pending"
    with store.read() as conn:
        panel = tasks_of(conn, "user_3")
        diagrams = diagrams_of(conn, "user_3")["diagrams"]
    assert [r["id"] for r in panel["copied"]] == ["req_1"] and panel["todo"] == []
    assert panel["copied"][0]["requester"]["name"] == "张三" and "process_qingjia@" in next(iter(diagrams))
    assert execute_call(TOOLSET, "queryCcRequests", {}, make_ctx("user_2"))["total"] == 0


def test_cc_takes_known_people_other_than_the_requester(store, make_ctx):
    with pytest.raises(PolicyError) as himself:
        _start(make_ctx, cc=["user_1"])
    assert himself.value.code == "cc_self"
    with pytest.raises(PolicyError) as unknown:
        _start(make_ctx, cc=["user_99"])
    assert unknown.value.code == "unknown_user"
    assert store.snapshot()["requests"] == []


@pytest.mark.parametrize(("text", "copied"), [
    ("请假一天，李四审批，抄送王五", ["user_3"]),
    ("明天请假，王五批，同时抄送给赵六和李四。", ["user_4", "user_2"]),
    ("请两天假，抄给赵六一份，审批人李四", ["user_4"]),
    ("Take Friday off, Li Si approves, cc Wang Wu", ["user_3"]),
    ("one day of leave for Zhao Liu to approve; copy in Wang Wu and Li Si please", ["user_3", "user_2"]),
    ("请假一天，李四审批", []),
    ("王五说抄作业不好，请假一天，李四审批", []),
    ("请假一天，李四审批，不用抄送王五", []),
    ("One day off, Li Si approves; don't cc Wang Wu", []),
    ("Expense claim of 300 yuan, I attach a copy of the receipt for Li Si to approve", []),
    # the name before a CC word that ends its clause, and idioms (written after the rule; none from a scenario)
    ("Half a day Friday, Li Si signs off, and Zhao Liu should be cc'd", ["user_4"]),
    ("Trip claim for Li Si to approve; make sure Wang Wu gets a copy too", ["user_3"]),
    ("Li Si approves it, keep Zhao Liu and Wang Wu in the loop", ["user_4", "user_3"]),
    ("send it to Li Si and loop Wang Wu in", ["user_3"]),
    ("请假半天，李四批，赵六那边也抄送一下", ["user_4"]),
    ("报销给李四审批，抄一份给王五", ["user_3"]),
    ("Li Si approves; no need for Wang Wu to get a copy", []),
    ("李四审批，别让王五抄送", []),
    # "copied" in the passive, and cc or copy written inside Chinese (the thirtieth round's writer's report)
    ("Li Si approves. Perhaps Zhao Liu might be copied on it as well?", ["user_4"]),
    ("If possible Wang Wu should also be copied in. Li Si approves", ["user_3"]),
    ("出差申请给李四审批，麻烦cc赵六", ["user_4"]),
    ("请一天假李四批，顺便copy一份给王五", ["user_3"]),
    ("I copied the receipt totals by hand; Li Si approves", []),
    # the one copied said by a pronoun is the one named before it in its sentence (the fortieth round's writer's
    # report; none of its words)
    ("下周去苏州参展，李四批。赵六也一起去，记得抄送她", ["user_4"]),
    ("Li Si signs off. Wang Wu is joining me on the trip, please cc him", ["user_3"]),
])
def test_the_people_copied_are_those_named_after_a_cc_word(text, copied):
    assert stated_cc([text], PEOPLE, "user_1") == copied


def test_a_person_named_to_copy_is_never_the_approver():
    named = [{"id": i, **p} for i, p in PEOPLE.items() if i in ("user_2", "user_3")]
    assert [p["id"] for p in pick_person("nextUserId", "请假一天，李四审批，抄送王五", named)] == ["user_2"]
    assert pick_person("nextUserId", "请假一天，抄送王五", named[1:]) == []
    assert cc_spans("抄送王五，李四审批") == [(2, 4)]
