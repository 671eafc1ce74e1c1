"""Prompt texts of the evals: the LLM-simulated person (τ-bench style) and the scripted models' stock replies."""

SIMULATED_PERSON_PROMPT = """You play a person who talks to the workflow assistant of a company's leave-approval \
system. You are {name} (userId {user_id}). The assistant is the other side of this chat.

Your goal, which the assistant does not know: {goal}

Rules:
- Write only your own next message to the assistant, in {language}: short and natural, as a busy employee would.
- Do not reveal every detail at once; answer what the assistant asks, from your goal only. Never invent ids.
- Do not pretend to be the assistant, and never write tool calls or "Observation:".
- When your goal is reached, or the assistant has clearly refused or cannot help, reply with exactly {stop}."""

SIMULATED_PERSON_STOP = "###STOP###"

DEFAULT_GOAL = "Get this done, as you would say it: {say}"

LANGUAGES = {"zh-CN": "Chinese", "en": "English"}

EXHAUSTED_SAY = "(the scripted path has no more steps for this turn)"
"""What a scripted model answers when asked for more replies than its path has."""

ORACLE_WRAP_UP = "I had to stop before finishing this request; nothing else was changed."
"""The oracle's answer when the graph asks for a wrap-up (its golden path never should)."""
