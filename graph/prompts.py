"""Prompt texts of the reasoner: role, rules, protocol formats, wrap-up and error templates."""

# The system prompt is ordered so that everything the same for every user, day and turn comes first (role,
# rules, tools, format) and the per-session lines come last: a local model's prompt cache then keeps the long
# fixed part across users and conversations, and each call reads only what is new. The role and rules come
# from the graph's toolset (`tools.toolset.Toolset.prompt`); the texts here are the same for every toolset.

SESSION_SECTION = "\n\nSigned-in user: {user_name} (userId {user_id}). Today is {today} ({timezone})."

SUMMARY_SECTION = "\n\nSummary of earlier conversation (older turns, folded):\n{summary}"

TOOLS_SECTION_TEXT = "\n\nTools:\n{tools}"

REACT_FORMAT = """

Reply in exactly this format. To use a tool:
Thought: one short sentence
Action: one of [{tool_names}]
Action Input: the arguments as one JSON object
Observation: (written by the system, never by you)

When you can answer:
Thought: one short sentence
Final Answer: the answer to the user, from the observations

Example exchanges follow; then the real conversation starts."""

SESSION_PROMPT = (
    "The real conversation starts here.\nSigned-in user: {user_name} (userId {user_id}). Today is {today} ({timezone})."
)
"""The per-session lines of a text protocol's prompt: after the fixed part and the example, as their own message."""

JSON_FORMAT = """

Reply with one JSON object and nothing else. To use a tool:
{{"thought": "what you think and why", "action": "one of [{tool_names}]", "action_input": {{...arguments...}}}}
When you can answer without a tool:
{{"thought": "what you think", "final": "your answer to the user"}}
The system replies with "Observation: ..." after each action.

Example exchanges follow; then the real conversation starts."""

OBSERVATION_PREFIX = "Observation: "

OPEN_LOOKUPS_REMINDER = {
    "zh": "（用户还要你查：{tools}。先调用它，再回答。）",
    "en": "(The user also asked for: {tools}. Call it before you answer.)",
}
"""Said once when a model answers before looking up everything the request asks for."""

NEXT_STEP_NUDGE = {
    "react": {
        "zh": "（用户问的是：{question}\n如果上面的结果已经能回答，现在就写 Thought 和 Final Answer，用中文回答。"
        "否则写下一步的 Thought、Action 和 Action Input。）",
        "en": "(The user asked: {question}\nIf this answers it, reply with Thought and Final Answer now, in English. "
        "Otherwise give the next Thought, Action and Action Input.)",
    },
    "json": {
        "zh": "（用户问的是：{question}\n如果上面的结果已经能回答，现在就回复 {{\"thought\": ..., \"final\": ...}}，"
        "用中文回答。否则回复下一个动作。）",
        "en": "(The user asked: {question}\nIf this answers it, reply with "
        '{{"thought": ..., "final": ...}} now, in English. Otherwise reply with the next action.)',
    },
    "native": {"zh": "", "en": ""},
}
"""Said after every group of observations of a text protocol (small models otherwise keep calling tools). It
stays in place in later prompts, so a local model's prompt cache never has to re-read what follows it."""

FORMAT_CORRECTION = (
    "Your last reply could not be parsed ({problem}). Reply again in the required format: {expected}. "
    "Do not write an Observation yourself."
)

WRAP_UP_INSTRUCTION = """The run must stop now: {reason}. Do not call any tool. Give the user the best answer \
from what is known: say what was done, what is still missing, and what the user can do next.{ask}"""

WRAP_UP_ASK_FOR_HELP = " Several steps failed in a row: ask the user for the information or help you need."

WRAP_UP_REASONS = {
    "en": {
        "model_calls": "the model-call budget of this run ({limit}) is used up",
        "tokens": "the token budget of this run ({limit}) is used up",
        "seconds": "the time budget of this run ({limit:g} s) is used up",
        "tool_calls": "the tool {tool} was called {limit} times in this run",
        "repeated_action": "the same action ({tool}) was proposed again and again",
        "consecutive_failures": "{limit} steps in a row failed",
        "done": "a write was executed; the answer says what it did",
        "declined": "the person declined {tool} at its confirmation; it was not done",
        "answered": "the look-up answers a question that asks for no change; the answer is what it found",
        "finished": "the {steps} step(s) of the fixed sequence have run; the answer says what they did",
        "off_plan": "a step of the fixed sequence {chain} did not go as declared, and a chain does not adapt",
    },
    "zh": {
        "model_calls": "本次的模型调用次数（{limit}）已用完",
        "tokens": "本次的 token 预算（{limit}）已用完",
        "seconds": "本次的时间预算（{limit:g} 秒）已用完",
        "tool_calls": "工具 {tool} 本次已调用 {limit} 次",
        "repeated_action": "同一个操作（{tool}）被反复提出",
        "consecutive_failures": "连续 {limit} 步失败",
        "done": "写操作已执行，回答说明做了什么",
        "declined": "你在确认时拒绝了 {tool}，它没有执行",
        "answered": "查询已经回答了这个不要求修改的问题",
        "finished": "固定流程的 {steps} 步已执行完",
        "off_plan": "固定流程 {chain} 的一步没有按预期进行，固定流程不会调整",
    },
}
"""Why a run wraps up: in English for the model's wrap-up prompt, in the person's language when they are told."""

THOUGHTS = {
    "zh": {
        "asked": "{tool} 需要只有你才能提供的信息，我来问你。",
        "cannot": "这个操作在这里做不了，我直接告诉你。",
        "intro": "你问我能做什么，这有确定的答案。",
        "filled": "你回答了我的问题：{param} = {value}。我用它重新提交 {tool}。",
        "act": "我用工具来做。",
        "answered": "结果已经回答了问题。",
    },
    "en": {
        "asked": "{tool} needs a value only you can give; I ask you.",
        "cannot": "This cannot be done here; I say so.",
        "intro": "You ask what I can do; that has one true answer.",
        "filled": "You answered my question: {param} = {value}. I propose {tool} again with it.",
        "act": "I use a tool for this.",
        "answered": "The result answers the question.",
    },
}
"""The Thought lines the code itself writes (no model wrote them), in the person's language."""

# ---------------------------------------------------------------- questions the graph asks in code

GENERAL_QUESTIONS = {
    "zh": {
        "which_of": "你提到了 {choices}，请问是哪一位？",
        "which_user": "有 {count} 位叫「{name}」：{choices}。请问是哪一位？",
        "unknown": "没有找到「{name}」。",
        "value": "请问{label}是什么？",
        "value_choices": "请问{label}是什么？可选：{choices}。",
    },
    "en": {
        "which_of": "You named {choices}. Which one do you mean?",
        "which_user": "{count} are called \"{name}\": {choices}. Which one do you mean?",
        "unknown": "I could not find \"{name}\".",
        "value": "What is {label}?",
        "value_choices": "What is {label}? You can choose: {choices}.",
    },
}
"""The graph's questions when the toolset words none for the value: by the value's label."""

# ---------------------------------------------------------------- fixed answers and the run's outcome

FIXED_ANSWER = {
    "zh": {"found": "我查到的结果：", "nothing": "这次没有查到结果，也没有做任何修改。",
           "stopped": "（已停止：{reason}）", "help": "我连续几步都没能完成。请问能补充缺少的信息，或换个说法吗？",
           "declined": "好的，{tool} 没有执行：你在确认时拒绝了它。如果要换个做法，请告诉我。"},
    "en": {"found": "Here is what I found:", "nothing": "I found nothing and changed nothing this time.",
           "stopped": "(Stopped: {reason})", "help": "Several steps in a row failed. Could you give the missing "
           "details, or say it another way?",
           "declined": "OK, {tool} was not done: you declined it at the confirmation. Tell me if you want it done "
           "another way."},
}
"""A fixed answer built from the run's real results, for a model that cannot be trusted to write one."""

UNGROUNDED_ANSWER_NOTE = {
    "zh": "（模型的回答提到了本次对话中没有任何工具结果出现过的记录 {ids}，因此未显示。）",
    "en": "(The model's answer named records no tool result in this conversation showed ({ids}), so it is not shown.)",
}
"""Said when a model's answer is replaced: it names records the conversation never showed. It says only that; whether
the record exists is the store's to say."""

OUTCOME_LABELS = {
    "zh": {"executed": "已执行", "refused": "被拒绝", "rejected": "被审核人驳回", "failed": "执行失败",
           "waiting": "等待审核", "none": "这次没有任何修改。", "title": "实际发生："},
    "en": {"executed": "executed", "refused": "refused", "rejected": "rejected by the reviewer", "failed": "failed",
           "waiting": "waiting for review", "none": "Nothing was changed this time.", "title": "What actually happened:"},
}

# ---------------------------------------------------------------- plan and chain strategies

PLAN_SYSTEM_SECTION = "\n\nTools:\n{tools}"

PLAN_INSTRUCTION = """Plan the steps for the user's latest request. {taken}
Reply with one JSON object and nothing else, for example:
{{"thought": "one short sentence", "plan": [{{"tool": "{first_tool}", "intent": "what the step is for", \
"args": {{}}}}]}}
Each step's "tool" is one of [{tool_names}] and its "args" a JSON object of that tool's arguments.
At most {max_steps} steps, only the tools the request needs, one write per step, and only values the user gave \
(leave out what the user did not say: the system asks them). If no (further) tool is needed, reply with \
"plan": []."""
"""The planner's request. Its first words mark a planning call (the evals' scripted models recognise them)."""

STEPS_TAKEN = "Steps already taken for this request ({count}); do not repeat those that worked:\n{lines}"
NO_STEPS_TAKEN = "No step has been taken for it yet."

PLAN_FORMAT_CORRECTION = (
    'The plan could not be used ({problem}). Reply again with one JSON object {{"thought": ..., "plan": [...]}} '
    "whose steps name only these tools: {tool_names}."
)

FILL_INSTRUCTION = """Fill in the arguments of {tool} for step {number} of {count} of the task "{chain}".
{signature}
Reply with one JSON object holding only its arguments, e.g. {example}; leave out what the user did not say \
(the system asks them)."""
"""A chain step's request to the model. Its first words mark a filling call (the evals' scripted models
recognise them)."""

FILL_FORMAT_CORRECTION = "The arguments of {tool} could not be read ({problem}); the fixed sequence stops here."

NO_CHAIN_ANSWER = {
    "zh": "这个请求不在我按固定流程能处理的任务里，我不能直接处理。我能做的：{chains}。请换个说法，或者换用 react 策略。",
    "en": "This request is none of the tasks I run as fixed sequences, so I cannot handle it. I can: {chains}. "
    "Please rephrase it, or use the react strategy.",
}
"""The chain strategy's answer to a request that matches no chain: what it can do instead."""
