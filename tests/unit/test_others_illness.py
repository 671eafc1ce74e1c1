"""An illness of someone else implies no sick leave (tools/workflow/leave/others_illness.py). Written after the
thirty-ninth round's writer reported a child's fever filed as the parent's sick leave; none of these is its phrasing."""

from datetime import date

import pytest

from tools.runtime import check_call
from tools.workflow import TOOLSET

TUESDAY = date(2026, 12, 8)
LEAVE = {"processKey": "process_qingjia", "userId": "user_1", "nextUserId": "user_2", "days": 1}


@pytest.mark.parametrize(("said", "kind"), [
    ("女儿半夜发烧到39度，明天请一天假带她去儿童医院，李四审批", "事假"),
    ("My mum has the flu and I need to look after her tomorrow, one day off, Li Si approves", "事假"),
    ("明天请一天假，发烧了，浑身没劲，李四审批", "病假"),  # the person's own
    ("孩子发烧，我也被传染了，明天请一天病假，李四审批", "病假"),  # named: their choice
])
def test_an_illness_of_someone_else_implies_no_sick_leave(store, make_ctx, person_request, said, kind):
    checked = check_call(TOOLSET, "runWorkFlow", {**LEAVE, "reason": "x", "fields": {"startDate": "明天"}},
                         make_ctx("user_1", today=TUESDAY), request=person_request(said, today=TUESDAY))
    assert checked.args.model_dump()["fields"]["leaveType"] == kind


def test_an_illness_of_someone_else_said_before_the_answer_implies_no_sick_leave(store, make_ctx, person_request):
    request = person_request("儿子在学校发烧了，老师让去接，我下午请半天假", "李四审批吧", today=TUESDAY)
    checked = check_call(TOOLSET, "runWorkFlow", {**LEAVE, "days": 0.5, "reason": "x", "fields": {"startHalf": "下午"}},
                         make_ctx("user_1", today=TUESDAY), request=request)
    assert checked.args.model_dump()["fields"]["leaveType"] == "事假"

