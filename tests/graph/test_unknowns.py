"""What no tool knows, asked about, is said to be unknown before what the look-ups found: payments, salaries and
bonuses (the workflow ends at a decision). Phrasings written for these tests after the rule (the sixteenth round's
"when will the money land in my bank account?", read); none from a scenario."""

from __future__ import annotations

import pytest

from evals.doubles.scripted import tool_call
from tools.workflow import TOOLSET


@pytest.mark.parametrize(("text", "unknown"), [
    ("我的打车报销批了，钱啥时候到账？", True),
    ("年终奖什么时候发？", True),
    ("When do I get reimbursed for the hotel?", True),
    ("how soon does the refund show up in my account?", True),
    ("what's Li Si's salary?", True),
    ("我的报销到哪一步了", False),
    ("When does finance see a claim?", False),
    ("how much annual leave do I have left?", False),
    ("When was my claim approved?", False),
    ("报销多少钱以上要财务审批？", False),
    ("出差去上海一天餐补是多少？", True),
    ("What's the per diem for a trip to Shenzhen?", True),
    ("how much can I spend a night on a hotel?", True),
    ("How much annual leave can I take per year?", False),
    # when or where a company event is (the seventy-ninth round's writer; written after the rule, none of its words)
    ("年会定在哪天啊？", True), ("下周团建在哪里搞？", True), ("When is the team offsite this year?", True),
    ("团建聚餐的钱能报吗？", False), ("Can I claim the team dinner from the party?", False),
    # budgets (the nineteenth round, read; written after the rule)
    ("市场部这个季度的预算还有多少？", True), ("is there any budget left for the offsite?", True),
    ("团建经费够不够？", True),
    # when an approver will decide, and money "reaching" an account (the thirtieth round, read after its run)
    ("李四大概什么时候能审批完？", True), ("这单多久才能批？", True), ("我的请假是什么时候批的？", False),
    ("any idea when Wang Wu will sign off on it?", True), ("how long does it usually take to get approved?", True),
    ("When did Li Si approve my leave?", False), ("钱什么时候能转到我银行卡上", True),
    ("when will the refund reach my account?", True),
    # how long until money is paid back (the sixty-seventh round, read after its run; written after the rule)
    ("after Li Si signs off, how long before finance pays me back?", True),
    ("how many days does it take them to pay it out once it's approved?", True),
    # money paid into one's account (the sixty-ninth round's run; written after the rule, none of its words)
    ("roughly when does the payment go into my bank account after sign-off?", True),
    ("how soon will they transfer the cash to my card?", True), ("Add Wang Wu to my account's approvers", False),
    # what becomes of unused leave (the thirty-eighth round, read after its run; written after the rule)
    ("Do leftover vacation days carry over to next year?", True), ("调休没用完会清零吗？", True),
    ("will they pay out the days I don't take?", True), ("How many days of annual leave have I got left?", False),
    # a flight's or train's status (the fortieth round, read after its run; written after the rule)
    ("我那趟高铁今天晚点了吗？", True), ("any news on whether the 7am Shanghai flight got cancelled?", True),
    # a cap per night or day (the forty-sixth round's run, read after it; written after the rule)
    ("is there a max per night for rooms in Beijing?", True), ("what's the meal limit on a trip", True),
    ("Can I cap my leave at 3 days per request?", False),
    ("I'm taking the train to Suzhou next Monday, please file the trip", False),
    # what a trip will cost, and documents handed to an approver (the sixtieth round's run, read after it; written
    # after the rule, none of its words)
    ("王五去成都那趟，往返机票大概多少钱？", True), ("what would the flights for Zhao Liu's Chengdu trip cost us?", True),
    ("How much is Zhang San's travel claim?", False), ("张三的差旅报销一共多少钱？", False),
    ("How much did the hotel on Zhang San's expense claim cost?", False),
    ("张三的结婚证交上来了没有？", True), ("did she ever send in the sick note?", True),
    ("what did the doctor's note say about his back?", True), ("Zhao Liu handed in his receipts, approve it", True),
    # the hour of a decision, and an allowance asked beside a trip (the sixty-second and sixty-first rounds' runs, read
    # after them; written after the rule, none of their words)
    ("王五下午几点能把我的请假批了？", True), ("what time will Zhao Liu get to my leave request?", True),
    ("When will I get to Shanghai if I take the 8am train?", False), ("what time did he approve it?", False),
    # what the person paid is spent, not money coming (the last session's note; written after the rule, from no round)
    ("When I was at the party I paid 300 for drinks, can I claim it?", False),
    ("Can I claim the money we paid for the client's lunch?", False),
    ("when she'd already paid for the room they moved the meeting, claim 640 for her", False),
    ("I paid 300 for the hotel; when will that be paid back to me?", True),
    ("has the money for my taxi claim been paid yet?", True),
    # pay day (the eighty-sixth round's writer; written after the rule, none of its words)
    ("which day of the month is pay day?", True), ("do paychecks go out before the holiday?", True),
])

def test_questions_of_payments_and_pay_are_of_what_no_tool_knows(text, unknown):
    assert (TOOLSET.language.unknown(text, "en") is not None) is unknown


@pytest.mark.parametrize(("text", "told"), [
    ("出差去成都一天补助多少钱？", "补贴"), ("去深圳出差，一晚上住宿标准多少？", "补贴"),
    ("What's the daily allowance when I travel for work, and how much can the hotel cost?", "allowances"),
])
def test_an_allowance_asked_of_a_trip_is_told_as_the_expense_policy_alone(text, told):
    said = TOOLSET.language.unknown(text, "zh" if text[0] > "~" else "en")
    assert said is not None and told in said and "trip request holds no costs" not in said and "出差申请里不记费用" not in said


@pytest.mark.parametrize(("said", "told"), [
    ("My hotel claim got approved, so when does the money hit my account?", "I don't know when money is paid out"),
    ("报销批下来了，钱大概几号到账？", "不知道"),
])
def test_a_question_of_a_payment_is_told_it_is_unknown_then_what_was_found(graph_driver, make_ctx, said, told):
    from tools import execute_call

    execute_call(TOOLSET, "runWorkFlow", {"processKey": "process_baoxiao", "userId": "user_1", "reason": "hotel",
                                          "nextUserId": "user_2", "fields": {"amount": 600, "category": "差旅"}},
                 make_ctx("user_1"))
    agent = graph_driver(tool_call("queryMyRequests", {}), "never asked", fixed_answers=True)
    answer = str(agent.say(said)["messages"][-1].content)
    assert answer.startswith(told) or told in answer.split("\n")[0]
    assert "req_1" in answer  # what the look-up found follows


@pytest.mark.parametrize("said", [  # written after the rule (the nineteenth round, read); none from it
    "How much money is left for the offsite this year?", "我们组的团建钱还剩多少？",
])
def test_the_list_of_people_answers_no_question_that_speaks_of_no_one(graph_driver, said):
    agent = graph_driver(tool_call("getAllUser", {}), "I don't know.", fixed_answers=True)
    result = agent.say(said)
    refusals = [str(m.content) for m in result["messages"] if getattr(m, "status", "") == "error"]
    assert refusals and "[people_not_asked]" in refusals[0]
    assert "user_" not in str(result["messages"][-1].content)  # nobody listed


@pytest.mark.parametrize("said", ["who is in finance?", "李四的邮箱是多少？", "what's Zhao Liu's user id?"])
def test_the_list_of_people_answers_a_question_of_people(graph_driver, said):
    agent = graph_driver(tool_call("getAllUser", {}), "OK.", fixed_answers=True)
    result = agent.say(said)
    assert not [m for m in result["messages"] if getattr(m, "status", "") == "error"]


@pytest.mark.parametrize(("said", "model_says", "kept"), [  # written for the rule (the twenty-ninth round's writer)
    ("When is the year-end bonus paid out?", "I don't know when the year-end bonus is paid. Ask HR.", "Ask HR."),
    ("年终奖哪天发？", "抱歉，我无法得知年终奖的发放时间。有需要可以问人事。", "有需要可以问人事。"),
])
def test_what_no_tool_knows_is_told_once(graph_driver, said, model_says, kept):
    # a model that answers in its own words that it does not know: the fixed line stands for it, the rest follows
    agent = graph_driver(model_says)
    answer = str(agent.say(said)["messages"][-1].content)
    told = TOOLSET.language.unknown(said, "zh" if "年" in said else "en")
    assert answer == f"{told}\n{kept}"


def test_a_question_of_what_no_tool_knows_that_reads_like_a_request_is_told_too(graph_driver):
    # "能发几个月？" reads as asking for something done (能), and is a question all the same (the twenty-ninth round, read)
    agent = graph_driver("今年的年终奖能发几个月，我也不清楚。")
    answer = str(agent.say("年终奖大概啥时候能发下来？能发几个月？")["messages"][-1].content)
    assert answer.startswith(TOOLSET.language.unknown("年终奖", "zh") or "?")


@pytest.mark.parametrize(("text", "lang", "told", "not_told"), [  # the forty-eighth round's writer's report
    ("差旅报销批完了，钱一般几号打到卡上？", "zh", "报销款", "工资"),
    ("once my taxi claim clears, when will I get paid?", "en", "paid out", "salar"),
    ("年终奖一般几月份发？", "zh", "奖金", "报销款"),
    ("is the bonus paid with the December salary?", "en", "bonuses", "paid out"),
    ("报销的钱会打到工资卡里吗，大概几号？", "zh", "报销款", "工资和奖金"),  # 工资卡: a bank card (the 49th round's writer)
    ("what's the payday here, and is there a meal allowance?", "en", "salaries", "paid out"),  # the 86th's writer
])
def test_a_payout_and_pay_are_each_told_alone(text, lang, told, not_told):
    said = TOOLSET.language.unknown(text, lang)
    assert said is not None and told in said and not_told not in said, said


@pytest.mark.parametrize("said", [  # the forty-seventh round's run: a question mark before the message's end
    "what's the hotel cap per night in Shenzhen? want to book before Friday",
    "出差深圳每天餐补多少？我好提前订酒店",
])
def test_what_no_tool_knows_asked_before_the_message_ends_is_said(graph_driver, said):
    agent = graph_driver(tool_call("queryCcRequests", {}), "never asked", user_id="user_3", fixed_answers=True)
    answer = str(agent.say(said)["messages"][-1].content)
    assert answer.startswith(("I don't know the company's allowances", "公司的补贴")), answer
