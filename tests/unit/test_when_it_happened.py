"""A half of the day that says when something happened is no half of the leave, and stays in its why; a number that
counts something else stays in the why as written. Written after the thirty-ninth round's writer reported "早上起来烧到
38度5…今天请一天病假" refused as half a day against one, its reason cut to "38度"; none of these is its phrasing."""

from datetime import date

import pytest

from tools.runtime import check_call
from tools.workflow import TOOLSET

TUESDAY = date(2026, 12, 8)
LEAVE = {"processKey": "process_qingjia", "userId": "user_1", "nextUserId": "user_2", "days": 1}


@pytest.mark.parametrize(("said", "half", "reason"), [
    ("昨晚吐了一夜，早上醒来还在发烧39度2，今天请一天病假，李四审批", "上午", "早上醒来还在发烧39度2"),
    ("Woke up this morning with a fever of 38.7, need today off sick, Li Si approves", "上午",
     "Woke up this morning with a fever"),
    ("请一天病假，今天，下午烧到38度8了，李四审批", "下午", "烧到38度8"),  # a whole day said: no half of it
])
def test_a_half_of_the_day_that_says_when_something_happened_is_no_half_of_the_leave(store, make_ctx, person_request,
                                                                                       said, half, reason):
    fields = {"leaveType": "病假", "startDate": "今天" if "今天" in said else "today",
              "startHalf": half, "endHalf": half}  # the model read the half into the form
    checked = check_call(TOOLSET, "runWorkFlow", {**LEAVE, "reason": "生病", "fields": fields},
                         make_ctx("user_1", today=TUESDAY), request=person_request(said, today=TUESDAY))
    args = checked.args.model_dump()
    assert args["days"] == 1 and not args["fields"].get("startHalf") and not args["fields"].get("endHalf")
    assert reason in args["reason"]


def test_a_half_said_with_its_day_is_the_leaves(store, make_ctx, person_request):
    said = "明天下午请半天事假，去办户口迁移，李四审批"
    checked = check_call(TOOLSET, "runWorkFlow", {**LEAVE, "days": 0.5, "reason": "办户口迁移",
                                                  "fields": {"leaveType": "事假", "startDate": "明天"}},
                         make_ctx("user_1", today=TUESDAY), request=person_request(said, today=TUESDAY))
    assert checked.args.model_dump()["fields"]["startHalf"] == "下午"
