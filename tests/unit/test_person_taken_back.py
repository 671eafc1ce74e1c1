"""A person named and taken back for another in the same breath is not the one meant: "Li Si, right? Actually make it
Zhao Liu instead" had been asked "You named Li Si, Zhao Liu. Which one do you mean?" (the forty-third round's writer's
report). None of these phrasings is from a scenario."""

from datetime import date

import pytest

from tools.runtime import check_call
from tools.workflow import TOOLSET

LEAVE = {"processKey": "process_qingjia", "userId": "user_1", "days": 2, "fields": {"leaveType": "年假"}}


@pytest.mark.parametrize(("said", "reason", "approver"), [
    ("2 days of annual leave for a family trip, Li Si approves, no wait, make it Wang Wu", "family trip", "user_3"),
    ("请两天年假，陪家人旅游，李四审批，不对，改成王五吧", "陪家人旅游", "user_3"),
    ("2 days of annual leave, moving house. Not Li Si, Zhao Liu signs it off", "moving house", "user_4"),
    ("2 days of annual leave, moving house, Li Si approves. Actually make it Zhao Liu, Li Si is away", "moving house",
     "user_4"),
    ("请两天年假，搬家，李四审批。算了换成赵六吧，李四那几天也不在", "搬家", "user_4"),
    # the one named again after the cue, said to be away (the forty-ninth round's writer; none of its words)
    ("2 days of annual leave, moving house. Li Si approves - no wait, Li Si is on holiday then, Zhao Liu it is",
     "moving house", "user_4"),
    ("请两天年假，搬家，李四审批，哦不，李四那周休假，找赵六吧", "搬家", "user_4"),
])
def test_the_person_named_last_in_place_of_another_is_the_one(store, make_ctx, person_request, said, reason, approver):
    checked = check_call(TOOLSET, "runWorkFlow", {**LEAVE, "reason": reason, "nextUserId": approver},
                         make_ctx("user_1", today=date(2026, 12, 1)), request=person_request(said))
    assert checked.args.model_dump()["nextUserId"] == approver

