"""A request is filed only for the person signed in (tools/workflow/for_another.py). Written after the thirty-ninth
round's writer reported a teammate's leave filed in the person's own name; none of these is its phrasing."""

import pytest

from tools.errors import CannotError
from tools.runtime import check_call
from tools.workflow import TOOLSET

LEAVE = {"processKey": "process_qingjia", "userId": "user_2", "reason": "家里有事", "days": 2, "nextUserId": "user_3"}


@pytest.mark.parametrize(("said", "named"), [
    ("赵六发烧在家起不来，你替她请两天病假吧，王五审批", "赵六"),
    ("Zhao Liu's flight got cancelled, could you book two days of leave for her? Wang Wu approves", "Zhao Liu"),
    ("Please raise a leave request on Zhao Liu's behalf, two days, Wang Wu approves", "Zhao Liu"),
    # the forty-eighth round's run (its phrasing: 李四让我帮他把上周招待客户的餐费报一下); none of these is it
    ("我是赵六的助理，赵六让我替她把这周的两天假提交一下，王五审批", "赵六"),
    ("赵六出差回不来，你帮赵六把周五的病假申请一下，王五批", "赵六"),
])
def test_a_start_for_someone_else_is_refused_naming_them(store, make_ctx, person_request, said, named):
    with pytest.raises(CannotError) as refused:
        check_call(TOOLSET, "runWorkFlow", LEAVE, make_ctx("user_2"), request=person_request(said, actor="user_2"))
    assert refused.value.code == "for_another" and named in refused.value.say["zh" if named == "赵六" else "en"]


@pytest.mark.parametrize("said", [
    "请两天事假去参加赵六的婚礼，王五审批",
    "Two days off for Zhao Liu's wedding please, Wang Wu approves",
    "帮我请两天假，家里有事，王五审批",
    "Claim the 60 yuan taxi I took for Zhao Liu's client visit, Wang Wu approves",
    "Please claim the lunch I paid for him, 80 yuan, Wang Wu approves",
])
def test_a_start_for_oneself_that_names_someone_is_filed(store, make_ctx, person_request, said):
    check_call(TOOLSET, "runWorkFlow", LEAVE, make_ctx("user_2"), request=person_request(said, actor="user_2"))
