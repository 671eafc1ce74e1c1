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

REDIRECT_NOTE = {
    "zh": "（上一个调用被拒绝了，拒绝说明里写了该用什么：{tools}。如果用户要办的事还没办，现在就调用它；否则再回答。）",
    "en": "(The last call was refused, and the refusal says what to use instead: {tools}. If what the user asked for "
          "is not done yet, call it now; otherwise answer.)",
}
"""Said once when a model answers right after a refusal that names the tool to call instead, with nothing run since."""

TOOL_NAMES_NOTE = {
    "zh": "（用户看不到工具名，比如 {tools}。如果用户要办的事还没办，现在就调用工具；否则用平常话回答，不提工具名或错误代码。）",
    "en": "(The user never sees tool names such as {tools}. If what they asked for is not done yet, call the tool now; "
          "otherwise answer in plain words, naming no tool or error code.)",
}
"""Said once when a model's answer names a tool: the person reads titles ("审批待办"), never names ("handleTodoTask")."""

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

STOP_REASONS = {
    "zh": {
        "model_calls": "本次的模型调用次数（{limit}）已用完",
        "tokens": "本次的 token 预算（{limit}）已用完",
        "seconds": "本次的时间预算（{limit:g} 秒）已用完",
        "tool_calls": "「{tool}」本次已做了 {limit} 次",
        "repeated_action": "同一个操作（{tool}）被反复提出",
        "consecutive_failures": "连续 {limit} 步失败",
        "done": "已经执行，回答说明做了什么",
        "declined": "你在确认时拒绝了：{tool}",
        "answered": "查询已经回答了这个不要求修改的问题",
        "finished": "固定流程的 {steps} 步已执行完",
        "off_plan": "固定流程的一步没有按预期进行，固定流程不会调整",
        "general": "这次提前停止了",
    },
    "en": {
        "model_calls": "this request used up its {limit} model calls",
        "tokens": "this request used up its budget of {limit} tokens",
        "seconds": "this request used up its {limit:g} seconds",
        "tool_calls": "\"{tool}\" was done {limit} times in this request",
        "repeated_action": "the same action ({tool}) was proposed again and again",
        "consecutive_failures": "{limit} steps in a row failed",
        "done": "it was done; the answer says what it did",
        "declined": "you declined: {tool}",
        "answered": "the look-up answers a question that asks for no change",
        "finished": "the {steps} steps of the fixed sequence have run",
        "off_plan": "a step of the fixed sequence did not go as planned, and a fixed sequence does not adapt",
        "general": "this request stopped early",
    },
}
"""Why a run stopped, as the person is told (the chat's "stopped" line, a fixed answer): `{tool}` is the action's
title in their language (`ToolSpec.title_in`), never the tool's name."""
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
    "zh": STOP_REASONS["zh"],  # what `graph.budget.describe` says in Chinese
}
"""Why a run wraps up, in English for the model's wrap-up prompt (the person is told `STOP_REASONS`)."""


THOUGHTS = {
    "zh": {
        "asked": "这一步需要只有你才能提供的信息，我来问你。",
        "cannot": "这个操作在这里做不了，我直接告诉你。",
        "intro": "你问我能做什么，这有确定的答案。",
        "filled": "你回答了我的问题，我用你的回答重新提交。",
        "act": "我用工具来做。",
        "answered": "结果已经回答了问题。",
        "not_known": "回答里有对话中没有出现过的值，我改为说明不知道。",
        "not_done": "回答说事情办好了，但这次什么也没有办成；我改为照实说明。",
        "instead": "你的话说的就是这件事，我按你说的提出来，先请你确认。",
        "instead_read": "你问的是这件事，我先查一下。",
        "next": "你这句话里还有一件没办，我按你说的提出来，先请你确认。",
        "next_read": "你这句话里还问了一件事，我查一下。",
    },
    "en": {
        "asked": "This step needs something only you can tell me; I ask you.",
        "cannot": "This cannot be done here; I say so.",
        "intro": "You ask what I can do; that has one true answer.",
        "filled": "You answered my question; I propose it again with your answer.",
        "act": "I use a tool for this.",
        "answered": "The result answers the question.",
        "not_known": "The answer stated values nothing in this conversation showed; I say I do not know instead.",
        "not_done": "The answer said something was done, but nothing was done in this run; I say what happened instead.",
        "instead": "Your words ask for exactly this; I propose it as you said, for you to confirm first.",
        "instead_read": "You ask about this; I look it up first.",
        "next": "Your message asked for one more thing; I propose it as you said, for you to confirm first.",
        "next_read": "Your message also asked something; I look it up.",
    },
}
"""The Thought lines the code itself writes (no model wrote them), in the person's language: they name no tool,
argument or raw value (a person reads them)."""

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
           "declined": "好的，你在确认时拒绝了：{tool}，所以没有执行。如果要换个做法，请告诉我。"},
    "en": {"found": "Here is what I found:", "nothing": "I found nothing and changed nothing this time.",
           "stopped": "(Stopped: {reason})", "help": "Several steps in a row failed. Could you give the missing "
           "details, or say it another way?",
           "declined": "OK, you declined “{tool}”, so it was not carried out. Tell me what to change, or what to do "
                       "instead."},
}
"""A fixed answer built from the run's real results, for a model that cannot be trusted to write one (`{tool}`: the
action's title in the person's language)."""

REDO_UNKNOWN_NOTE = {
    "zh": "（你的回答把 {values} 当作事实说出，但用户没有说过，本次对话的工具结果里也没有。请重新回答：只说用户说过的和工具"
    "返回的内容；工具查不到的，就直接说你不知道，不要编造数字、日期或名字。不要调用工具。）",
    "en": "(Your answer states {values} as fact, but the user never said so and no tool result in this conversation "
    "shows it. Answer again with only what the user said and what the tools returned; where no tool can tell, say "
    "plainly that you do not know. Do not make up a figure, a date or a name. Do not call any tool.)",
}
"""Said to the model, once, when its final answer states values nothing in the conversation showed (`{values}`: those
values as it wrote them). The person never reads it."""

UNDONE_NOTE = {
    "zh": "（你的回答说 {claims}，但这次要办的事并没有办成。{outcome}请重新回答：照实告诉用户没有办成、原因是什么，"
    "或者问用户接下来要怎么办；不要说已经办好了。不要调用工具。）",
    "en": "(Your answer says {claims}, but what was asked was not done in this run. {outcome} Answer again: tell the user "
    "plainly that it was not done and why, or ask what they want to do next; do not say it was done. Do not call any "
    "tool.)",
}
"""Said to the model, once, when its final answer says something was done in a run whose every proposed write was not
(`{claims}`: its words; `{outcome}`: what happened to each write, as the person reads it). The person never reads it."""

UNDONE_ANSWER = {
    "zh": {"why": "这件事没有办成：{why}。", "alone": "这件事没有办成，实际情况见下面。",
           "nothing": "这件事没有办成：这次什么都没有改动。"},
    "en": {"why": "That was not done: {why}.", "alone": "That was not done; what actually happened is below.",
           "nothing": "That was not done: nothing was changed."},
}
"""The plain answer that replaces one saying something was done that was not (`graph.known.undone_answer`): why, in
the person's words, when a rule refused it or it failed (`{why}`); the surfaces show what happened to each proposed
write right after it."""

NOT_KNOWN = {
    "zh": {"alone": "这个我不知道：你说过的话和本次查到的结果里都没有这个信息，我不会编造数字、日期或名字。",
           "beyond": "除了上面查到的，其他的我不知道：你说过的话和查到的结果里都没有，我不会编造数字、日期或名字。"},
    "en": {"alone": "I don't know that: nothing you said and no result I looked up in this conversation gives it, "
           "and I won't make up a figure, a date or a name.",
           "beyond": "Beyond what I found above, I don't know: nothing you said and no result I looked up gives it, "
           "and I won't make up a figure, a date or a name."},
}
"""The plain answer that replaces one stating what nothing showed (`graph.known.not_known_answer`): alone, followed
by what the assistant can do; or after what the run's tools found. It names none of the values it replaces."""

OUTCOME_LABELS = {
    "zh": {"executed": "{title}：已执行。{detail}", "rejected": "你在确认时拒绝了：{title}",
           "said": "（你说：{message}）", "refused": "{title}：未执行（{reason}）", "failed": "{title}：未执行（{reason}）",
           "waiting": "{title}：等待你确认", "none": "这次没有任何修改。", "title": "实际发生：", "sep": "；"},
    "en": {"executed": "{title}: done. {detail}", "rejected": "You declined: {title}", "said": " (you said: {message})",
           "refused": "{title}: not done ({reason})", "failed": "{title}: not done ({reason})",
           "waiting": "{title}: waiting for your confirmation", "none": "Nothing was changed this time.",
           "title": "What actually happened: ", "sep": "; "},
}
"""The "what actually happened" line, one part per write of the run by its status (`state.records.OutcomeLine`):
`{title}` is the action's title, `{detail}` what it did, `{reason}` why it was not done (`REFUSALS`)."""

REFUSALS = {
    "zh": {
        "asks": "需要先问你", "not_run": "要先问你，问完再做", "other": "没有通过检查",
        "not_actor": "只能以你本人的身份操作", "unknown_actor": "不认识当前登录的用户",
        "invalid_arguments": "内容不完整或格式不对", "invalid_json": "助手的请求格式不对，它会重试",
        "unknown_tool": "助手想做一件这里做不了的事", "format_error": "助手的回复格式不对，它会重试",
        "question_only": "你只是在提问，所以没有做任何修改", "repeated": "同样的操作刚刚做过",
        "second_write": "一次只做一项修改，这项稍后再做", "tool_failed": "执行时出错了", "timeout": "执行超时了",
    },
    "en": {
        "asks": "I need to ask you first", "not_run": "I ask you first, then do it", "other": "it did not pass the checks",
        "not_actor": "I can act only for you, the signed-in person", "unknown_actor": "the signed-in user is not known",
        "invalid_arguments": "something is missing or not in the right form",
        "invalid_json": "the assistant's request was malformed; it tries again",
        "unknown_tool": "the assistant tried something that cannot be done here",
        "format_error": "the assistant's reply was malformed; it tries again",
        "question_only": "you only asked a question, so nothing was changed", "repeated": "the same was just done",
        "second_write": "one change at a time; this one comes later", "tool_failed": "it failed",
        "timeout": "it took too long",
    },
}
"""Why an action was not done, as the person reads it, by the refusal's code (`tools.errors.DomainError.code`; the
message beside the code is for the model): the graph's and the runtime's own codes. A domain words its own codes
(`tools.language.Language.refusals`), which `graph.history.refusal_words` adds to these. `graph.history.refusal_key`
picks the entry: the code's own, `asks` for a value only the person can give (the graph's question follows), else
`other`."""

UNNAMED_ACTION = {"zh": "这个操作", "en": "this action"}
"""An action whose tool the graph does not know (the model named none of its tools), as the person reads it."""

CARD_WORDS = {
    "zh": {"retry": "上一次的回答没能用上，请对这张卡片重新决定。"},
    "en": {"retry": "Your last answer could not be used; please decide on this card again."},
}
"""What the chat and the page say above a card shown again (the interrupt's `error` is written for a client)."""

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
