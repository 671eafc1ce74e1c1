"""The values an answer states as fact, and whether the conversation showed them (`tools.claims`): compared by value
in any numeral system or date format; the answer's own numbering, "one" as an article and questions state none."""

from __future__ import annotations

from datetime import date
from zoneinfo import ZoneInfo

import pytest

from tools.claims import Known, claims_in, known_in_rules, known_in_text, known_in_value, known_of_run, unsupported

TODAY = date(2026, 12, 3)  # a Thursday
SHANGHAI = ZoneInfo("Asia/Shanghai")
PEOPLE = [
    {"id": "user_1", "name": "张三", "alias": "Zhang San", "email": "zhangsan@example.com"},
    {"id": "user_2", "name": "李四", "alias": "Li Si", "email": "lisi@example.com"},
    {"id": "user_3", "name": "王五", "alias": "Wang Wu", "email": "wangwu@example.com"},
    {"id": "user_4", "name": "赵六", "alias": "Zhao Liu", "email": "zhaoliu@example.com"},
    {"id": "user_admin", "name": "管理员", "alias": "Administrator", "email": "admin@example.com"},
]
NAMES = [name for person in PEOPLE for name in (person["name"], person["alias"])]
IDS = r"\b(?:user|task|req)_[0-9a-z]+\b"


def invented(answer: str, *said: str, results: tuple[object, ...] = ()) -> list[str]:
    """What `answer` states that the person's messages `said` and the tools' `results` never showed."""
    known = known_of_run(today=TODAY, actor=PEOPLE[0])
    for text in said:
        known = known | known_in_text(text, today=TODAY, names=NAMES, zone=SHANGHAI)
    for result in results:
        known = known | known_in_value(result, today=TODAY, names=NAMES, zone=SHANGHAI)
    claims = claims_in(answer, today=TODAY, people=PEOPLE, record_ids=IDS)
    return [c.text for c in unsupported(claims, known, PEOPLE)]


def test_a_balance_nobody_gave_is_invented_in_digits_and_in_chinese_numerals():
    assert invented("你还有10天年假。", "我还有几天年假？") == ["10天"]
    assert invented("你还有十天年假。", "我还有几天年假？") == ["十天"]
    assert invented("You have 10 days of annual leave left.", "How much annual leave do I have?") == ["10 days"]


@pytest.mark.parametrize(
    ("said", "answer"),
    [
        ("请十天假", "已为你提交 10 天的请假。"),
        ("请10天假", "已为你提交十天的请假。"),
        ("报销6,800元", "报销金额 6800 元。"),
        ("报销六千八百元", "报销金额 6,800.00 元。"),
        ("报销 1.2万", "报销 12000 元。"),
        ("I need ten days off", "Filed: 10 days."),
        ("take two and a half days", "Filed 2.5 days."),
        ("下周一到周三请假", "已提交 3 天的请假。"),  # the range's working days
        # a half day with no other figure in the message (the fifty-fifth round's writer; none of its words): it was
        # read as no value at all, and the answer's "half-day" as one nobody gave
        ("My half day off is still pending, could you poke Li Si?", "Reminded Li Si about your half-day leave."),
        ("我的半天假还没批下来，帮我催催", "已催办你的半天假。"),
    ],
)
def test_a_figure_the_person_gave_is_known_in_any_numeral_system(said, answer):
    assert invented(answer, said) == []


def test_a_figure_stated_as_a_bound_is_still_stated():
    assert invented("你可以改成 3 天后重新提交。", results=({"comment": "5天太长，最多3天"},)) == []
    assert invented("你的年假不到10天了。", "还能请几天？") == ["10"]
    assert invented("It's over 500 yuan.") == ["500"]


def test_numbers_counts_and_times_a_tool_returned_are_known():
    result = {
        "tasks": [
            {"id": "task_1", "days": 2, "createdAt": "2026-12-03T02:22:45+00:00"},
            {"id": "task_2", "days": 3, "amount": 6800},
        ]
    }
    assert invented("你有两个待办：task_1（2 天）和 task_2（报销 6,800 元），task_1 是 10:22 提交的。", results=(result,)) == []
    assert invented("你有九个待办。", results=(result,)) == ["九"]
    assert invented("两个待办一共 5 天。", results=(result,)) == []  # the total of a field over a list
    assert invented("task_3 还没处理。", results=(result,)) == ["task_3"]
    assert invented("它是 11:05 提交的。", results=(result,)) == ["11:05"]


def test_dates_are_compared_as_dates_however_they_are_written():
    said = "12月8日到10日请假"
    assert invented("从 2026-12-09 开始。", said) == []  # a day of the person's range
    assert invented("December 8 to 10.", said) == []
    assert invented("12月11日回来上班。", said) == ["12月11日"]
    assert invented("今天是12月3日，周四。") == []  # who and when the run is
    assert invented("明天就批了。") == ["明天"]


def test_a_date_written_without_its_year_is_compared_by_month_and_day():
    # 12月1日 said on 3 December reads as next year's; a result's date of this year is the same month and day
    assert invented("你的申请是 12月1日 提交的。", results=({"createdAt": "2026-12-01T09:30:00+08:00"},)) == []


def test_people_are_known_when_the_person_or_a_result_named_them_in_any_of_their_names():
    assert invented("等待李四审批。", "审批人李四") == []
    assert invented("It waits for Li Si.", results=({"assignee": "user_2"},)) == []
    assert invented("王五的请假由管理员审批。", "王五的请假谁批？") == ["管理员"]
    assert invented("张三，你好。") == []  # the signed-in user
    assert invented("Ask an administrator about it.") == []  # a word, not the directory's "Administrator"


@pytest.mark.parametrize(
    "answer",
    [
        "可以这样做：\n1. 告诉我请几天；\n2. 说明原因。",
        "步骤：(1) 填表 (2) 提交",
        "第3步由审批人决定。",
        "The 2nd step is the approver's.",
        "我帮你发起一个申请。",
        "One of them is yours.",
        "是3天吗？",
        "Shall I file 4 days?",
        "孙七审批，周八抄送。",  # not the directory's people: 七 and 八 are parts of names
    ],
)
def test_numbering_articles_questions_and_names_state_no_figure(answer):
    assert invented(answer) == []


def test_a_question_clause_does_not_cover_a_statement_before_it():
    assert invented("你还有10天年假，要现在请吗？") == ["10天"]


def test_the_rules_figures_are_known_but_not_their_numbering():
    rules = known_in_rules("Rules:\n1. Above 26°C short sleeves are fine.\n2. Be brief.", today=TODAY)
    assert rules.numbers == frozenset({26.0})
    claims = claims_in("高于 26°C，可以穿短袖。", today=TODAY)
    assert unsupported(claims, rules) == []


def test_a_sign_is_no_part_of_the_figure_compared():
    assert invented("12 × 7 − 5 = 79。", "12 乘以 7 再减 5 等于多少？", results=({"result": 79},)) == []


def test_an_empty_conversation_knows_only_the_run():
    assert Known().numbers == frozenset()
    assert invented("一共 3 个。") == ["3"]


def test_a_toolset_without_record_ids_states_none():
    assert [c.kind for c in claims_in("user_2 and task_1, flight CA1501", today=TODAY)] == []


# ---------------------------------------------------------------- answers written for this test, not tuned on

MINE = {
    "total": 2,
    "requests": [
        {
            "id": "req_1",
            "process": "请假流程",
            "summary": "请假天数：3 天；请假原因：回老家",
            "status": "审批中",
            "step": "审批人审批",
            "heldBy": "李四",
            "since": "12月2日 14:05",
        },
        {"id": "req_2", "process": "报销流程", "summary": "报销金额：1,250 元；报销类别：交通", "status": "已批准"},
    ],
}
TASKS = {
    "total": 3,
    "tasks": [
        {
            "taskId": "task_4",
            "requester": "张三",
            "process": "请假流程",
            "summary": "请假天数：2 天；请假原因：感冒",
            "createdAt": "2026-12-02T01:15:00+00:00",
        },
        {
            "taskId": "task_5",
            "requester": "赵六",
            "process": "出差流程",
            "summary": "出差地点：广州；出发日期：2026-12-10；返回日期：2026-12-12",
        },
        {"taskId": "task_6", "requester": "赵六", "process": "报销流程", "summary": "报销金额：8,600 元"},
    ],
}
_TRUE_A = [
    ("你有两份申请：请假（3天，回老家）正在等李四审批，从12月2日下午2点05分开始；报销1250元已经批下来了。", (), (MINE,)),
    ("Your leave (3 days) has been with Li Si since 2:05 pm on 2 December; the 1,250-yuan claim is approved.", (), (MINE,)),
    ("请假三天的那份还在李四手里。", (), (MINE,)),
    ("两份申请里，一份已批准，一份审批中。", (), (MINE,)),
    ("好的，下周二、周三两天，我帮你发起请假，需要谁审批？", ("下周二周三请两天假",), ()),
    ("明早九点半前给你答复？不，我只能帮你提交。", ("明早九点半之前能批吗",), ()),
    ("已按你说的：出差上海，12月15日出发，17日回来，共3天。", ("下周二去上海出差到周四，12月15号走17号回",), ()),
    ("You asked for half a day on Friday afternoon; that's 0.5 days.", ("I need Friday afternoon off",), ()),
    ("首先，告诉我天数；其次，说明原因；最后选审批人。", (), ()),
    ("① 选流程 ② 填表 ③ 确认", (), ()),
    ("第一步查流程，第二步发起。", (), ()),
    ("报销金额：¥1,250.00", (), (MINE,)),
    ("一共2个申请。", (), (MINE,)),
    ("今天是2026年12月3日，星期四。", (), ()),
]

_TRUE_B = [
    ("你有 3 个待办：张三请 2 天病假（感冒）、赵六 12月10日到12日去广州出差、赵六报销 8600 元。", (), (TASKS,)),
    (
        "Three tasks wait for you: Zhang San's 2-day leave, Zhao Liu's trip to Guangzhou on Dec 10–12, and his 8,600-yuan claim.",
        (),
        (TASKS,),
    ),
    ("赵六有两个待办在你这里。", (), (TASKS,)),
    ("张三的请假是昨天上午9点15分提交的。", (), (TASKS,)),
    ("赵六出差三天（10号到12号）。", (), (TASKS,)),
    ("task_4 是张三的，两天。", (), (TASKS,)),
    ("好的，我帮你把 task_5 批了？", (), (TASKS,)),
    ("明天（12月4日）请一天假，李四审批，对吗？", ("明天请一天假，李四批",), ()),
    ("I'll file 1.5 days from Monday morning, approved by Wang Wu.", ("a day and a half off from Monday, Wang Wu approves",), ()),
    ("报销两千三百元，类别交通。", ("报销2300块打车费",), ()),
]

_MADE_UP_A = [
    ("你今年还有5天年假。", ("我还有几天年假",), ()),
    ("李四下午三点会批完。", ("李四什么时候批",), ()),
    ("The claim will be paid on December 20.", ("when will my claim be paid?",), (MINE,)),
    ("王五已经审批过了。", ("我的请假谁批了",), (MINE,)),
    ("他的月薪大约八千块。", ("李四工资多少",), ()),
    ("req_3 已驳回。", ("我的申请呢",), (MINE,)),
    ("报销金额为 1,520 元。", (), (MINE,)),
    ("请假从12月9日开始。", ("我想请假",), ()),
    ("About 40% of requests are approved within a day.", ("how fast are approvals?",), ()),
]

_MADE_UP_B = [
    ("你有 4 个待办。", (), (TASKS,)),
    ("赵六的报销是 6,800 元。", (), (TASKS,)),
    ("张三的请假已经等了 5 天。", (), (TASKS,)),
    ("赵六 12月20日出发。", (), (TASKS,)),
    ("task_9 也在等你。", (), (TASKS,)),
    ("王五也提交了一个请假。", (), (TASKS,)),
    ("你的年假余额是十二天。", ("年假还剩多少",), ()),
    ("Your balance is 12 days.", ("How much leave is left?",), ()),
    ("审批一般需要两个工作日。", ("审批要多久",), ()),
    ("Expect an answer by 5 pm.", ("When will Li Si decide?",), ()),
]


@pytest.mark.parametrize(("answer", "said", "results"), _TRUE_A + _TRUE_B)
def test_true_answers_in_other_words_state_nothing_unknown(answer, said, results):
    assert invented(answer, *said, results=results) == []


@pytest.mark.parametrize(("answer", "said", "results"), _MADE_UP_A + _MADE_UP_B)
def test_made_up_values_in_other_words_are_found(answer, said, results):
    assert invented(answer, *said, results=results) != []


# Quotations: written for this test, after the rule (tools/quotes.py); none is taken from a scenario.
RETURNED = {"requests": [{"requestId": "req_1", "status": "已退回", "returnedBy": "管理员", "comment": "请半天就够了，一天太长"}]}
SENT_BACK = {"requests": [{"requestId": "req_1", "returnedBy": "Li Si", "comment": "Say what the family matter is, please"}]}


@pytest.mark.parametrize(("answer", "said", "results", "made_up"), [
    ("管理员说：你不能撤回自己的请假。", "我的请假怎么被退回了？管理员说啥了", (), ["你不能撤回自己的请假"]),
    ("管理员的意见是：请半天就够了，一天太长。", "我的请假怎么被退回了？", (RETURNED,), []),
    ("管理员说：一天太长，请半天就够了。", "退回的理由是什么", (RETURNED,), []),  # the comment, reordered
    ("Li Si said: say what the family matter is.", "Why was it sent back?", (SENT_BACK,), []),
    ("Li Si said that the dates clash with the audit.", "Why was it sent back?", (SENT_BACK,),
     ["the dates clash with the audit"]),
    ("You said: \"three days for the move\".", "three days for the move, Li Si approves", (), []),
    # a comment quoted up to a semicolon; what follows is the answer's own account (the sixty-seventh and sixty-eighth
    # rounds' writers: a correct answer was replaced where the quote was read to the end of the sentence)
    ("已同意王五的报销，意见：发票齐了；下一步是财务审批。", "王五的报销同意，意见：发票齐了", (), []),
    ("Approved; your comment was: see me first; it goes to HR next.", "approve it, comment: see me first", (), []),
    ("已驳回，管理员说：预算不够；请下月再提。", "为什么驳回", (RETURNED,), ["预算不够"]),
])
def test_what_someone_said_is_quoted_only_from_what_the_conversation_showed(answer, said, results, made_up):
    assert invented(answer, said, results=results) == made_up


@pytest.mark.parametrize("answer", ["我来说明一下：申请已提交。", "As I said before, it is waiting.", "李四说你的申请要改一下"])
def test_words_that_only_look_like_saying_quote_nothing(answer):
    assert not [c for c in claims_in(answer, today=TODAY, people=PEOPLE) if c.kind == "quote"]
