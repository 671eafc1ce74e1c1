"""What a person reads of a run, in the chat and in the fixed answers: actions by their titles, never a tool's name; the
approval card's labelled fields and notes only; refusals and their own rejections worded for them, never the text
written for the model; in Chinese and in English."""

from __future__ import annotations

import inspect
import json
import re
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from rich.console import Console

from evals.doubles.scripted import tool_call
from flowagent.chat import render
from graph import prompts
from graph.answers import fixed_answer, thought
from graph.budget import wrap_up
from graph.history import note, outcome_text, refusal_key, refusal_text, reviewer_message
from graph.nodes.human_review import DEFAULT_REJECT_MESSAGE, REJECTED_TEMPLATE
from graph.nodes.tool_validator import (
    INVALID_JSON_TEMPLATE,
    MISSING_PARAMS_TEMPLATE,
    NOT_RUN_FOR_QUESTION,
    QUESTION_ONLY_TEMPLATE,
    REFUSAL_TEMPLATE,
    REPEATED_CALL_TEMPLATE,
    SECOND_WRITE_TEMPLATE,
)
from state.records import OutcomeLine
from tools.toolsets import get_toolset
from tools.toy import calculator
from tools.toy.prompts import CALCULATOR_CODES
from tools.workflow import TOOLSET

REGISTRY = TOOLSET.registry
TOOL_NAMES = tuple(REGISTRY.names)
MACHINE_WORDS = ("pending", "approve", "True", "process_qingjia", "on_approve", "task_status", "[person_stated]",
                 "policy", "Rejected by the reviewer", "Do not retry", "Error [")
"""Raw values, field keys and model notes a person must never read."""


def printed(show: Any, *args: Any, **kwargs: Any) -> str:
    console = Console(record=True, width=140, color_system=None)
    show(console, *args, **kwargs)
    return console.export_text()


def leaks(text: str, lang: str = "zh") -> list[str]:
    """The tool names, raw values and model notes in `text` (in English, "approve" is a word of the language too)."""
    words = [w for w in (*TOOL_NAMES, *MACHINE_WORDS) if not (lang == "en" and w == "approve")]
    return [w for w in words if re.search(rf"(?<![A-Za-z]){re.escape(w)}(?![A-Za-z])", text)]


def decision_card(lang: str) -> dict[str, Any]:
    """A decision's card as tools/workflow/cards.py builds it: labelled fields for the person, the rest for machines."""
    zh = lang == "zh"
    return {
        "action": "handleTodoTask", "title": "审批" if zh else "decide a task",
        "summary": "批准张三的 2 天申请 req_1" if zh else "Approve Zhang San's 2-day request req_1",
        "task": "task_1", "task_status": "pending", "request": "req_1", "process": "请假流程" if zh else "Leave request",
        "process_key": "process_qingjia", "process_version": 1, "step": "审批人审批" if zh else "Approver's decision",
        "requester": "张三 (user_1)" if zh else "Zhang San (user_1)", "days": 2, "reason": "家里有事",
        "form": "请假天数：2；请假原因：家里有事" if zh else "Days: 2; Reason: 家里有事",
        "on_approve": "批准后申请结束（已批准）" if zh else "approving ends the request (approved)",
        "decision": "approve", "verdict": "批准" if zh else "approve it", "comment": "同意", "flagged": True,
        "notes": ["这是超过一天的申请，审批需要填写意见。" if zh else "This request is over one day: it needs a comment."],
        "policy_notes": ["[person_stated] result: the user's own words '同意' replaced 'I will take care of it soon'"],
        "labels": {"process": "流程", "requester": "申请人", "step": "当前步骤", "form": "申请内容", "on_approve": "批准后",
                   "verdict": "你的决定", "comment": "审批意见"} if zh else
                  {"process": "process", "requester": "requester", "step": "step", "form": "request",
                   "on_approve": "if approved", "verdict": "your decision", "comment": "comment"},
    }


def review(card: dict[str, Any]) -> dict[str, Any]:
    return {"name": card["action"], "args": {"taskId": "task_1", "isOK": True, "result": "同意"}, "card": card}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_chat_card_shows_its_title_labelled_fields_and_notes_only(lang):
    text = printed(render.card, review(decision_card(lang)), lang=lang)
    if lang == "zh":
        assert "需要你确认: 审批" in text and "批准张三的 2 天申请 req_1" in text
        assert "当前步骤  审批人审批" in text and "批准后    批准后申请结束（已批准）" in text and "你的决定  批准" in text
        assert "这是超过一天的申请，审批需要填写意见。" in text
    else:
        assert "Approval needed: decide a task" in text and "Approve Zhang San's 2-day request req_1" in text
        assert "step           Approver's decision" in text and "if approved    approving ends the request" in text
        assert "This request is over one day: it needs a comment." in text
    assert leaks(text, lang) == []
    assert "I will take care of it soon" not in text and "task_1" not in text


def test_an_older_card_without_labels_shows_its_summary_only():
    old = {"action": "sendEmail", "summary": "发邮件给 李四 <lisi@example.com>", "task_status": "pending",
           "policy_notes": ["[person_stated] emailContent"], "recipient": "李四 (user_2)"}
    text = printed(render.card, {"name": "sendEmail", "args": {"userId": "user_2"}, "card": old}, lang="zh")
    assert "需要你确认" in text and "发邮件给 李四 <lisi@example.com>" in text
    assert leaks(text) == [] and "user_2" not in text


@pytest.mark.parametrize(("lang", "said"), [("zh", "上一次的回答没能用上"), ("en", "Your last answer could not be used")])
def test_a_card_shown_again_says_so_in_the_persons_words(lang, said):
    error = "args_hash does not match the card shown; decide on the current card."
    text = printed(render.card, review(decision_card(lang)), error, lang=lang)
    assert said in text and "args_hash" not in text


def observation(content: str, name: str, **fields: Any) -> ToolMessage:
    return ToolMessage(content=content, tool_call_id="c1", name=name, status="error", response_metadata=note(**fields))


@pytest.mark.parametrize(
    ("lang", "expected"),
    [("zh", "观察: 你在确认时拒绝了：发送邮件（你说：先别发）"),
     ("en", "Observation: You declined: send an e-mail (you said: 先别发)")],
)
def test_a_rejected_email_reads_as_the_persons_own_decision(lang, expected):
    rejected = observation(REJECTED_TEMPLATE.format(reviewer="user_1", message="先别发"), "sendEmail", rejected=True)
    text = printed(render.step, rejected, lambda: lang, TOOLSET)
    assert text.strip() == expected


@pytest.mark.parametrize(
    ("lang", "expected"),
    [("zh", "你在确认时拒绝了：发送邮件"), ("en", "You declined: send an e-mail")],
)
def test_a_rejection_without_a_message_says_nothing_the_person_did_not_say(lang, expected):
    rejected = observation(REJECTED_TEMPLATE.format(reviewer="user_1", message=DEFAULT_REJECT_MESSAGE), "sendEmail",
                           rejected=True)
    assert render.observation_text(rejected, lang, TOOLSET) == expected


@pytest.mark.parametrize(
    ("content", "zh", "en"),
    [
        (REFUSAL_TEMPLATE.format(code="not_actor", message="userId must be the session user user_1, not user_2; you "
                                 "act only for the signed-in user, whatever the conversation claims"),
         "发起申请：未执行（只能以你本人的身份操作）",
         "Start a request: not done (I can act only for you, the signed-in person)"),
        (REFUSAL_TEMPLATE.format(code="approver_not_named", message="nextUserId user_4 (赵六) was not named by the user"),
         "发起申请：未执行（需要先问你）", "Start a request: not done (I need to ask you first)"),
        (REFUSAL_TEMPLATE.format(code="some_new_code", message="a refusal no one has worded yet"),
         "发起申请：未执行（没有通过检查）", "Start a request: not done (it did not pass the checks)"),
    ],
)
def test_a_refusal_reads_as_what_it_means_for_the_person(content, zh, en):
    refused = observation(content, "runWorkFlow")
    assert render.observation_text(refused, "zh", TOOLSET) == zh
    assert render.observation_text(refused, "en", TOOLSET) == en


SENT = {"emailId": 2, "to": "user_2", "toName": "李四", "email": "lisi@example.com", "taskId": "task_1", "status": "queued"}


@pytest.mark.parametrize(
    ("lang", "expected"),
    [("zh", "给李四（lisi@example.com）的邮件在发件箱中。"), ("en", "E-mail to 李四 (lisi@example.com): in the outbox.")],
)
def test_a_result_reads_as_the_tools_own_line_not_the_json_the_model_read(lang, expected):
    result = ToolMessage(content=json.dumps(SENT), tool_call_id="c1", name="sendEmail", artifact=SENT)
    assert render.observation_text(result, lang, TOOLSET) == expected


def test_a_repeated_look_up_says_it_is_the_same_result():
    users = {"users": [{"userId": "user_2", "name": "李四"}]}
    repeated = ToolMessage(content=json.dumps(users) + "\n(Same result as before: getAllUser was already called.)",
                           tool_call_id="c2", name="getAllUser", artifact=users, response_metadata=note(repeated=True))
    assert render.observation_text(repeated, "zh", TOOLSET) == "用户：李四（user_2）（与之前的结果相同）"


OUTCOME = [
    OutcomeLine(tool="runWorkFlow", status="executed", detail="已发起请假申请 req_1（2 天），等待李四审批（task_1）。"),
    OutcomeLine(tool="sendEmail", status="rejected",
                detail=REJECTED_TEMPLATE.format(reviewer="user_1", message="先别发")),
    OutcomeLine(tool="handleTodoTask", status="refused", detail="[self_approval]"),
    OutcomeLine(tool="sendEmail", status="failed", detail="[tool_failed]"),
]


def test_the_outcome_line_names_each_action_by_its_title_in_chinese():
    assert outcome_text(OUTCOME, "zh", REGISTRY, TOOLSET.language.refusals) == (
        "实际发生：发起申请：已执行。已发起请假申请 req_1（2 天），等待李四审批（task_1）；"
        "你在确认时拒绝了：发送邮件（你说：先别发）；审批：未执行（不能审批自己的申请）；发送邮件：未执行（执行时出错了）"
    )


def test_the_outcome_line_names_each_action_by_its_title_in_english():
    assert outcome_text(OUTCOME, "en", REGISTRY, TOOLSET.language.refusals) == (
        "What actually happened: Start a request: done. 已发起请假申请 req_1（2 天），等待李四审批（task_1）; "
        "You declined: send an e-mail (you said: 先别发); Decide a task: not done (you cannot decide your own request); "
        "Send an e-mail: not done (it failed)"
    )


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_chats_answer_and_outcome_name_no_tool(lang):
    answer = AIMessage(content="好的。", response_metadata={"outcome": OUTCOME})
    text = printed(render.step, answer, lambda: lang, TOOLSET)
    assert ("实际发生：" if lang == "zh" else "What actually happened:") in text
    assert leaks(text, lang) == []


@pytest.mark.parametrize(
    ("lang", "expected"),
    [("zh", "已停止: 「查看流程」本次已做了 3 次"), ("en", 'stopped: "list the workflows" was done 3 times')],
)
def test_the_stopped_line_names_the_action_by_its_title(lang, expected):
    stopped = AIMessage(content="…", response_metadata={"wrap_up": wrap_up("tool_calls", tool="getAllWorkFlow", limit=3)})
    assert expected in printed(render.step, stopped, lambda: lang, TOOLSET)


@pytest.mark.parametrize(
    ("lang", "expected"),
    [("zh", "好的，你在确认时拒绝了：发送邮件，所以没有执行。如果要换个做法，请告诉我。"),
     ("en", "OK, you declined “send an e-mail”, so it was not carried out. Tell me what to change, or what to do "
            "instead.")],
)
def test_the_fixed_answer_to_a_declined_action_names_it_by_its_title(lang, expected):
    messages = [HumanMessage(content="提醒李四")]
    assert fixed_answer(messages, REGISTRY, lang, wrap_up("declined", tool="sendEmail")) == expected


@pytest.mark.parametrize(
    ("lang", "expected"),
    [("zh", "（已停止：「查看流程」本次已做了 3 次）"),
     ("en", '(Stopped: "list the workflows" was done 3 times in this request)')],
)
def test_the_fixed_answer_of_a_stopped_run_names_the_action_by_its_title(lang, expected):
    found = {"workflows": [{"name": "请假流程", "processKey": "process_qingjia", "fields": []}]}
    messages = [HumanMessage(content="有哪些流程"),
                ToolMessage(content="…", tool_call_id="c1", name="getAllWorkFlow", artifact=found)]
    text = fixed_answer(messages, REGISTRY, lang, wrap_up("tool_calls", tool="getAllWorkFlow", limit=3))
    assert text.endswith(expected) and "getAllWorkFlow" not in text


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_codes_own_thoughts_name_no_tool_argument_or_value(lang):
    for key in prompts.THOUGHTS[lang]:
        said = thought(key, lang, tool="runWorkFlow", param="nextUserId", value="user_2")
        assert not {"runWorkFlow", "nextUserId", "user_2"} & set(said.replace("。", " ").replace(".", " ").split())
        assert "runWorkFlow" not in said and "nextUserId" not in said


def test_every_observation_the_graph_writes_for_the_model_has_words_for_the_person():
    written = {
        REFUSAL_TEMPLATE.format(code="missing_amount", message="fields.amount is missing"): "asks",
        REFUSAL_TEMPLATE.format(code="date_not_given", message="startDate was not said"): "asks",
        INVALID_JSON_TEMPLATE.format(name="sendEmail", error="Expecting value"): "invalid_json",
        MISSING_PARAMS_TEMPLATE.format(name="sendEmail", params="userId"): "asks",
        REPEATED_CALL_TEMPLATE.format(name="getAllUser", result="{}"): "repeated",
        SECOND_WRITE_TEMPLATE.format(first="runWorkFlow", name="sendEmail"): "second_write",
        QUESTION_ONLY_TEMPLATE.format(name="runWorkFlow"): "question_only",
        NOT_RUN_FOR_QUESTION.format(code="approver_not_named"): "not_run",
        prompts.FORMAT_CORRECTION.format(problem="no JSON", expected="Thought / Action"): "format_error",
        "[tool_failed]": "tool_failed",
        "[timeout]": "timeout",
    }
    assert {text: refusal_key(text) for text in written} == written
    for lang in ("zh", "en"):
        assert set(prompts.REFUSALS[lang]) == set(prompts.REFUSALS["zh"])


@pytest.mark.parametrize(("name", "code"), [("workflow", "task_not_pending"), ("toy", "calc_syntax"),
                                            ("toy", "city_not_listed"), ("travel", "same_city")])
def test_a_toolsets_own_refusal_is_worded_in_its_language_not_the_graphs(name, code):
    own = get_toolset(name).language.refusals
    text = REFUSAL_TEMPLATE.format(code=code, message="written for the model")
    assert refusal_key(text, own) == code
    assert refusal_text(text, "zh", own) == own["zh"][code] and refusal_text(text, "en", own) == own["en"][code]
    assert refusal_key(text) == "other"  # the graph words no domain's codes
    assert set(own["zh"]) == set(own["en"])


def test_every_code_the_calculator_refuses_with_is_worded():
    raised = set(re.findall(r"CalculatorError\(\s*\"(calc_\w+)\"", inspect.getsource(calculator)))
    assert raised and raised == set(CALCULATOR_CODES)


def test_the_persons_message_is_read_back_from_a_rejection():
    assert reviewer_message(REJECTED_TEMPLATE.format(reviewer="user_2", message="先别发，明天再说")) == "先别发，明天再说"
    assert reviewer_message(REJECTED_TEMPLATE.format(reviewer="user_2", message=DEFAULT_REJECT_MESSAGE)) == ""


@pytest.mark.parametrize("said", [  # the sixtieth round's run answered with the person's own message; none of its words
    "Zhao Liu is out until Monday, could you mark his leave as seen for me?",
    "赵六这周不在，你帮我把他那个假标记成已读吧",
])
def test_the_persons_own_message_said_back_is_no_answer(graph_driver, said):
    agent = graph_driver(tool_call("queryMyRequests", {"userId": "赵六"}), said, user_id="user_1")
    answer = str(agent.say(said)["messages"][-1].content)
    assert answer.strip() != said and answer


def test_the_answer_before_said_again_to_a_new_message_is_no_answer(graph_driver):
    first = "There is nothing of Zhao Liu's waiting on you right now."
    said = graph_driver(tool_call("queryTodoTask", {}), first, user_id="user_1").say("Anything of Zhao Liu's waiting on me?")
    assert said["messages"][-1].content == first
    agent = graph_driver(tool_call("queryMyRequests", {"userId": "赵六"}), first, first, first, user_id="user_1")
    answer = str(agent.say("OK, then mark his leave as seen for me")["messages"][-1].content)
    assert answer != first and answer


@pytest.mark.parametrize(("said", "call", "lang", "words", "not_words"), [  # the eighty-fifth round's writer
    ("下周三到周五去深圳出差见客户，李四审批", {"processKey": "process_chuchai", "reason": "见客户", "nextUserId": "李四",
     "fields": {"destination": "深圳", "startDate": "2027-01-20", "endDate": "2027-01-22"}}, "zh",
     ["出差", "出差事由"], ["请假"]),
    ("Trip to Shenzhen next Wednesday to Friday to see a client, Li Si approves",
     {"processKey": "process_chuchai", "reason": "see a client", "nextUserId": "Li Si",
      "fields": {"destination": "Shenzhen", "startDate": "2027-01-20", "endDate": "2027-01-22"}}, "en",
     ["Business trip"], ["leave", "Leave"]),
    ("请3天事假回老家，李四审批", {"processKey": "process_qingjia", "reason": "回老家", "days": 3, "nextUserId": "李四"}, "zh",
     ["请假", "请假原因"], ["出差"]),
])
def test_a_long_request_s_note_is_in_its_process_s_words(graph_driver, said, call, lang, words, not_words):
    agent = graph_driver(tool_call("runWorkFlow", call), "OK", fixed_answers=True, locale="en" if lang == "en" else "zh-CN")
    agent.say(said)
    [note] = agent.card["policy_notes"]
    assert all(w in note for w in words) and not any(w in note for w in not_words), note


@pytest.mark.parametrize(("lang", "group"), [("zh", "财务"), ("en", "Finance")])
def test_a_step_offered_to_a_group_names_the_group_in_the_persons_language(graph_driver, make_ctx, lang, group):
    # the eighty-seventh round's writer: "等待 finance（task_2）" and "这一步交给 finance" reached the person
    from tools import execute_call

    claim = {"processKey": "process_baoxiao", "userId": "user_1", "reason": "client dinner", "nextUserId": "user_2",
             "fields": {"amount": 6800, "category": "餐饮"}}
    execute_call(TOOLSET, "runWorkFlow", claim, make_ctx("user_1"))
    execute_call(TOOLSET, "handleTodoTask", {"taskId": "task_1", "isOK": True, "result": "ok"}, make_ctx("user_2"))
    locale = "en" if lang == "en" else "zh-CN"
    agent = graph_driver(tool_call("viewTask", {"taskId": "task_2"}), "OK", tool_call("handleTodoTask", {
        "taskId": "task_2", "isOK": True, "result": "ok"}), "OK", user_id="user_4", locale=locale)
    agent.say("show me task_2" if lang == "en" else "看看 task_2")
    steps = json.loads(str([m for m in agent.messages if isinstance(m, ToolMessage)][-1].content))["steps"]
    waiting = next(s for s in steps if s.startswith("▶"))
    assert group in waiting and "finance" not in waiting, waiting
    agent.say("approve task_2, comment: ok" if lang == "en" else "批准 task_2，意见：ok")
    [note] = [n for n in agent.card["policy_notes"] if not n.startswith("[")]
    assert group in note and "finance" not in note, note
