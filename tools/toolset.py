"""A toolset: the tools of one domain and everything else the graph needs to know about that domain."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Literal

from tools.spec import ToolRegistry

DefaultProtocol = Literal["native", "react", "json"]


@dataclass(frozen=True)
class Toolset:
    """One domain the graph can run: its tools, the system prompt's role and rules, its defaults.

    The nodes know no domain: the reasoner reads `prompt` and the registry's examples and intro answer,
    budget_check reads `lookup_answers`, the model settings read `protocol`.
    """

    name: str
    registry: ToolRegistry
    prompt: str
    """The fixed start of the system prompt: who the assistant is, for whom it acts, and its rules (the tool
    list, the format and the worked examples follow, from the registry)."""
    title: str = ""
    """One line naming the domain (the chat's banner, the graph's description)."""
    protocol: DefaultProtocol | None = None
    """The protocol runs on this toolset use unless the run (or FLOWAGENT_PROTOCOL) says otherwise; None: the
    model's default (native for an endpoint, react for the offline model)."""
    lookup_answers: bool = False
    """Whether one successful look-up answers a question that asks for no write (the workflow's questions:
    "我有哪些待办？"). For a model whose answers are not trusted (`Context.fixed_answers`), the run then ends with
    what the look-up found. False where a question needs several look-ups (flights, then hotels) or an answer
    that reasons over the result ("29°C: short sleeves?")."""

    @property
    def graph_name(self) -> str:
        """The compiled graph's name: `flowagent` for the workflow, `flowagent_<name>` for the others."""
        return "flowagent" if self.name == "workflow" else f"flowagent_{self.name}"

    def with_registry(self, registry: ToolRegistry) -> Toolset:
        """This toolset's prompt and defaults with other tools (a test's extra tool)."""
        return dataclasses.replace(self, registry=registry)
