"""What the thirty-fifth and thirty-sixth rounds' writers found, each as the rule a person would state, tested on
phrasings written for these tests: a to-do the approver keeps to look at themselves is left out of a batch and out of
its comment; a follow-up that names nothing asks about what the message before it spoke of; "…and need a day of sick
leave" asks for something; "能的话" tells no why; probation and pay are each said to be unknown."""

from __future__ import annotations

from datetime import date

import pytest

from tools import PolicyError, check_call
from tools.errors import NeedsPersonError
from tools.message_kind import kind_of
from tools.readers import read_account
from tools.request import read_request
from tools.workflow import TOOLSET
from tools.workflow.batch_words import batch_words
from tools.workflow.comment_words import stated_comment


@pytest.mark.parametrize("said", ["报销的都通过吧，王五那笔金额大的我自己再看看",
                                  "Approve all the leave requests; Wang Wu's I'll check myself"])
def test_a_to_do_kept_to_look_at_later_is_left_out_of_the_batch(said):
    assert "王五" not in batch_words(said) and "Wang Wu" not in batch_words(said)


def test_what_the_approver_keeps_for_themselves_is_no_part_of_the_comment(person_request):
    request = person_request("一天的假都批了，意见：注意安全。王五那个两天的我明天再看", actor="user_3")
    assert stated_comment(request) == "注意安全"


@pytest.mark.parametrize(("said", "comment"), [  # the forty-third round's writer's report; none of these is from it
    ("reject both claims, comment: over the monthly limit. Don't touch the trip.", "over the monthly limit"),
    ("approve the one-day leaves, comment: have a good rest. Leave Zhao Liu's alone for now.", "have a good rest"),
    ("出差的都驳回，意见：客户那边取消了。请假那个先别动", "客户那边取消了"),
    ("reject it, comment: receipts missing. Please resubmit with them.", "receipts missing. Please resubmit with them"),
    # the fifty-second round's writer's report, a clause after a comma too; none of these is from it
    ("一天的假都通过，意见写：材料齐全，其余的我明天再看", "材料齐全"),
    ("approve the leave ones, comment: fine. The travel one can wait.", "fine"),
    ("approve both, comment: enjoy the offsite, the claim can wait till Monday", "enjoy the offsite"),
    ("都批了，意见写：同意，注意身体", "同意，注意身体"),
])
def test_a_sentence_that_keeps_something_out_of_the_decision_is_no_part_of_the_comment(person_request, said, comment):
    assert stated_comment(person_request(said, actor="user_3")) == comment


@pytest.mark.parametrize(("said", "comment"), [  # the forty-sixth round's run; none of these is from it
    ("Approve Li Si's 3,200 claim, the invoices match. Hold off on the trip.", "the invoices match"),
    ("Reject Wang Wu's 12,450 claim, no itemised bill. Leave the leave requests for now.", "no itemised bill"),
    ("通过李四那笔2,480的报销，发票都对得上。王五的先放着", "发票都对得上"),
])
def test_a_figure_with_a_thousands_comma_does_not_end_the_clause_that_decides(person_request, said, comment):
    assert stated_comment(person_request(said, actor="user_4")) == comment


def test_a_follow_up_that_names_nothing_asks_about_the_leave_just_spoken_of(store, make_ctx):
    with store.read() as conn:
        people = TOOLSET.directory(conn)

    def asked(latest: str, earlier: str) -> None:
        request = read_request([latest], earlier=[earlier], index=1, today=date(2026, 12, 1), people=people,
                               actor_id="user_3")
        check_call(TOOLSET, "getLeaveBalance", {}, make_ctx("user_3"), request=request)

    asked("那我自己还有几天？", "赵六今年年假还剩几天？")  # of the leave just spoken of: looked up
    with pytest.raises(PolicyError):
        asked("那我们组的还剩多少钱？", "团建经费花了多少？")  # money, not leave: refused


@pytest.mark.parametrize(("said", "kind"), [
    ("Caught a cold and need tomorrow off as sick leave. Who signs these, my manager?", "action"),
    ("The client moved the meeting, so I need to go to Chengdu on Thursday instead. Wang Wu approves, right?",
     "action"),
    ("I filed my trip on Monday. Has Wang Wu seen it?", "information"),
])
def test_a_want_said_after_and_or_so_is_asked_for(said, kind):
    assert kind_of(said) == kind


def test_if_possible_tells_no_why():
    account = read_account(["周末加班打车回家花了45，这种能报吗？可以的话帮我提一下"], names=[], form_words=["报销"],
                           choice_words=[], today=date(2026, 12, 1))
    assert account is not None and "可以的话" not in account and account == "加班打车回家"


def test_probation_and_pay_asked_together_are_each_said_unknown():
    told = TOOLSET.language.unknown("我试用期还剩多久？工资每个月几号发？", "zh")
    assert told is not None and "试用期" in told and "工资" in told
    assert TOOLSET.language.unknown("Can I raise a claim for the contract signing trip?", "en") is None


@pytest.mark.parametrize("said", ["Has Wang Wu's team sent me anything today?", "张三是不是交给我什么单子了？"])
def test_what_someone_sent_the_person_is_their_to_dos(said, person_request, make_ctx):
    with pytest.raises(PolicyError) as refused:
        check_call(TOOLSET, "queryMyRequests", {}, make_ctx("user_3"), request=person_request(said, actor="user_3"))
    assert refused.value.code == "todos_not_copies" and "queryTodoTask" in str(refused.value)


def test_whether_anyone_looked_at_what_the_person_filed_asks_for_their_requests():
    import re

    from tools.workflow.request_specs import MY_REQUESTS
    said = "I filed a trip request on Monday. Did anyone approve it yet?"
    assert any(re.search(p, said, re.IGNORECASE) for p in MY_REQUESTS.answers)


@pytest.mark.parametrize("said", ["我自己提的那个出差申请呢，现在在谁手上？", "And my own taxi claim, who is sitting on it?"])
def test_a_question_of_the_persons_own_request_is_no_question_of_copies(said, person_request, make_ctx):
    # the thirty-sixth round, read after its run ("那我自己报的那笔高铁票呢" answered "nothing is copied to you")
    with pytest.raises(PolicyError) as refused:
        check_call(TOOLSET, "queryCcRequests", {}, make_ctx("user_3"), request=person_request(said, actor="user_3"))
    assert refused.value.code in ("own_not_copies", "own_request"), refused.value  # either guard: their own request
    assert refused.value.instead == {"name": "queryMyRequests", "args": {}}


@pytest.mark.parametrize(("said", "refused"), [
    ("Do my unused vacation days roll over, or are they paid out?", True),  # the thirty-eighth round, read after its run
    ("年假今年没休完的会不会清零？", True),
    ("use it or lose it, right? how many days of annual leave have I got left?", False),
])
def test_what_becomes_of_unused_leave_is_no_question_of_the_balance(said, refused, person_request, make_ctx):
    request = person_request(said, actor="user_3")
    if not refused:
        check_call(TOOLSET, "getLeaveBalance", {}, make_ctx("user_3"), request=request)
        return
    with pytest.raises(PolicyError) as info:
        check_call(TOOLSET, "getLeaveBalance", {}, make_ctx("user_3"), request=request)
    assert info.value.code == "balance_not_asked"


def test_a_leave_asked_with_its_approver_is_no_deputy(person_request, make_ctx):
    # the thirty-seventh round, read after its run: "…下周三先休一天年假，在家歇歇，让李四批一下" had a deputy proposed
    said = "那下周四请一天年假，回去看看爸妈，让王五批一下"
    with pytest.raises(PolicyError) as refused:
        check_call(TOOLSET, "setDeputy", {"deputyUserId": "王五", "startDate": "下周四", "endDate": "下周四"},
                   make_ctx("user_1"), request=person_request(said))
    assert refused.value.code == "start_not_deputy"
    assert refused.value.instead == {"name": "runWorkFlow", "args": {"processKey": "process_qingjia"}}
    check_call(TOOLSET, "setDeputy", {"deputyUserId": "王五", "startDate": "下周四", "endDate": "下周四"},
               make_ctx("user_1"), request=person_request("下周四我请年假，这天的审批让王五替我批"))


@pytest.mark.parametrize("said", ["没用完的调休能带到明年吗？", "这几天假要是今年休不掉，能往后顺延吗？",
                                  "Can I carry over unused days? How many at most?"])
def test_what_becomes_of_unused_leave_is_unknown(said):
    assert TOOLSET.language.unknown(said, "zh" if not said.isascii() else "en") is not None


@pytest.mark.parametrize("said", ["后天一早我要去外地，待办里的请假全部批了吧",
                                  "I fly out tomorrow, approve all the leave requests"])
def test_a_day_said_beside_a_batch_is_no_bound(said, person_request, make_ctx, start_request):
    # the thirty-eighth round, read after its run: the one day a date gives a leave became the batch's bound of one day
    start_request(requester="user_1", approver="user_2", days=1, reason="看病")
    start_request(requester="user_3", approver="user_2", days=2, reason="回老家")
    with pytest.raises(NeedsPersonError) as asked:  # the two-day leave is in the batch: its comment is asked for
        check_call(TOOLSET, "decideTasks", {"isOK": True, "processKey": "process_qingjia", "maxDays": 1},
                   make_ctx("user_2"), request=person_request(said, actor="user_2"))
    assert asked.value.param == "comment"


def test_half_of_a_team_is_no_half_day_bound(person_request, make_ctx, start_request):
    # the thirty-ninth round, read after its run: "half the team is sick…" bounded the batch to half-day leaves
    start_request(requester="user_1", approver="user_2", days=1, reason="看病")
    said = "Half the office is down with flu. Approve every leave request waiting on me, comment: feel better"
    checked = check_call(TOOLSET, "decideTasks", {"isOK": True, "processKey": "process_qingjia", "maxDays": 0.5,
                                                  "comment": "feel better"}, make_ctx("user_2"),
                         request=person_request(said, actor="user_2"))
    assert checked.args.model_dump().get("maxDays") is None


@pytest.mark.parametrize("said", [  # the forty-fourth round, read after its run; none of these is from it
    "请假批完以后，工资会不会扣？", "出差申请审批下来之后，酒店是自己订吗？", "我的报销什么时候能批下来？",
    "报销的钱几天能到账？",
    "once my trip is approved, who books the hotel?", "after my claim has been approved, how is it paid?",
])
def test_a_question_with_a_clause_of_when_something_is_done_asks_nothing_done(said):
    assert kind_of(said) == "information"


@pytest.mark.parametrize("said", [
    "什么时候能帮我把假批了？", "报销批完以后帮我发个邮件给李四", "When my leave is approved, please email Li Si",
])
def test_a_request_beside_a_clause_of_when_is_still_a_request(said):
    assert kind_of(said) == "action"


@pytest.mark.parametrize(("said", "why"), [  # the fifty-second round: "Ugh, …" was filed as part of the reason
    ("Argh, my flight home got cancelled and I have to rebook, need tomorrow off",
     "my flight home got cancelled and I have to rebook"),
    ("唉，家里水管又爆了，得请假等师傅上门", "家里水管又爆，得请假等师傅上门"),
])
def test_a_sigh_or_a_groan_tells_no_why(said, why):
    account = read_account([said], names=[], form_words=["请假"], choice_words=[], today=date(2026, 12, 1))
    assert account == why


@pytest.mark.parametrize(("said", "form", "why"), [  # words that take a value back tell no why (written for this test)
    ("下周请两天年假，不对，三天吧，陪爸妈去体检", "请假", "陪爸妈去体检"),
    ("报销餐费300，哦不对应该是360，请客户吃饭", "报销", "餐费，请客户吃饭"),
    ("2 days of leave, no wait, make it 3, my cousin's wedding out of town", "leave", "my cousin's wedding out of town"),
    ("claim 80 yuan, sorry no, 85, taxi to the airport for the client visit", "claim",
     "taxi to the airport for the client visit"),
])
def test_words_that_take_a_value_back_tell_no_why(said, form, why):
    assert read_account([said], names=[], form_words=[form], choice_words=[], today=date(2026, 12, 7)) == why


@pytest.mark.parametrize(("said", "why"), [  # written for this test: the asking frame 请 + length + type is no why
    ("下周一请两天年假陪孩子参加夏令营", "陪孩子参加夏令营"), ("周四请半天病假去拔牙", "去拔牙"),
    ("这周五请一天事假，请师傅上门修热水器", "请师傅上门修热水器"),
])
def test_a_leave_asked_for_with_its_length_and_type_tells_only_what_follows(said, why):
    assert read_account([said], names=[], form_words=["请假"], choice_words=["年假", "病假", "事假"],
                        today=date(2026, 12, 7)) == why


@pytest.mark.parametrize(("said", "kind"), [  # the sixty-first round's run, read after it; none of its words
    ("外婆走了，我想请两天丧假回去一趟，具体要怎么操作？", "action"),
    ("下周想报一下上个月的差旅费，这个怎么弄啊？", "action"),
    ("I bought a headset for the client calls with my own card. Can I get that back?", "action"),
    ("Is a taxi home after a late shift something I can claim?", "action"),
    ("请假流程是怎么走的？", "information"),
    ("How does the finance step work?", "information"),
])
def test_a_request_wanted_then_how_to_go_about_it_asks_for_it(said, kind):
    assert kind_of(said) == kind


@pytest.mark.parametrize(("said", "kind"), [  # the sixty-third round's writer; none of its words
    ("项目又拖了几天，王五那条待办你直接转给赵六吧", "action"),
    ("是王五吧？", "information"),
    ("还剩几天年假", "information"),
])
def test_a_few_days_said_beside_a_request_with_ba_asks_it_done(said, kind):
    assert kind_of(said) == kind


@pytest.mark.parametrize("said", [  # the eighty-eighth round's writer; written after the rule, none of its words
    "下周二到周四我休假，那几天让赵六帮我审一下", "下周我休假，不在的时候叫赵六帮我批",
])
def test_someone_approving_for_the_person_in_the_days_away_is_a_deputy(said, person_request, make_ctx):
    with pytest.raises(PolicyError) as refused:
        check_call(TOOLSET, "runWorkFlow", {"processKey": "process_qingjia", "reason": "休假", "days": 3,
                                            "nextUserId": "赵六"}, make_ctx("user_2"), request=person_request(said))
    assert refused.value.code == "deputy_not_started"
    check_call(TOOLSET, "setDeputy", {"deputyUserId": "赵六", "startDate": "下周二", "endDate": "下周四"},
               make_ctx("user_2"), request=person_request("下周二到周四我休假，那几天让赵六帮我审一下"))


def test_a_leave_whose_approver_is_asked_a_favour_is_still_the_leave(person_request, make_ctx):
    with pytest.raises(PolicyError) as refused:
        check_call(TOOLSET, "setDeputy", {"deputyUserId": "王五", "startDate": "下周四", "endDate": "下周四"},
                   make_ctx("user_1"), request=person_request("下周四请一天年假回家，让王五帮我批一下"))
    assert refused.value.code == "start_not_deputy"

