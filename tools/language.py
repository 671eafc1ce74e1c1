"""A toolset's language: the words the engine asks of a domain, in the person's language ("zh", "en").

The graph words its own questions and answers (`graph/prompts.py`); what only the domain can word comes from here:
what the domain is called, what the assistant can do, the questions for the values only the person gives, and why
its tools refused an action.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from tools.patterns import compiled


@dataclass(frozen=True)
class Unknown:
    """What no tool of the domain knows, asked about: the words of such a question (`asked`, regular expressions,
    searched case-insensitively in the person's latest message) and what the person is told, by language."""

    asked: Sequence[str]
    say: Mapping[str, str]


@dataclass(frozen=True)
class Language:
    """What a domain says to a person: its name, what it can do, its questions, its refusals; each by language ("zh",
    "en")."""

    title: str = ""
    """One line naming the domain in English: the fallback where a language has no `titles` or `intro` entry."""
    titles: Mapping[str, str] = field(default_factory=dict)
    """The same line by language: the chat's banner."""
    intro: Mapping[str, str] = field(default_factory=dict)
    """What the assistant can do, by language: the answer to "what can you do?", given without a model call (none:
    the question goes to the model)."""
    questions: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    """The questions the graph asks in code, by language and ask key (`PersonValue.ask`); templates may use {choices},
    {name}, {count} and {label}. A key the domain does not word is asked by the value's label (`GENERAL_QUESTIONS`)."""
    refusals: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    """Why an action was not done, by language and the refusal codes of the domain's tools (`DomainError.code`: the
    workflow's "self_approval" → "不能审批自己的申请"), as the chat and the page tell the person; the graph words its
    own codes (`graph.prompts.REFUSALS`), and a code no one words reads as "it did not pass the checks"."""
    unknowns: Sequence[Unknown] = ()
    """What no tool knows (payments, salaries): a question of it is told so, before whatever the look-ups found."""

    def unknown(self, text: str, lang: str) -> str | None:
        """What the person is told of each thing no tool knows that the text asks about (试用期 and 工资: both), or
        None."""
        said = [unknown.say.get(lang) or unknown.say.get("en") or "" for unknown in self.unknowns
                if any(compiled(p, re.IGNORECASE).search(text) for p in unknown.asked)]
        return ("" if lang == "zh" else " ").join(said) or None
