"""A toolset's surfaces: what it shows besides the conversation, taken only by the apps (`flowagent/`).

The terminal chat's `/help` tables and slash commands, the page's JSON panels, `flowagent`'s subcommands and the
background services a server runs. The graph
and the runtime never read them (`tests/unit/test_layout.py`): a domain runs the same with none.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tools.backend import Backend
from tools.request import Lang


@dataclass(frozen=True)
class HelpSection:
    """One table of `/help` (the chat) or of the introduction: a title and rows of cells."""

    title: str
    columns: tuple[str, ...]
    rows: list[tuple[str, ...]]


@dataclass(frozen=True)
class ChatCommand:
    """A slash command of the toolset's own in the terminal chat (the workflow's `/outbox`)."""

    description: Mapping[str, str]
    """What it shows, by language."""
    run: Callable[[Backend, str, str, str], list[HelpSection] | str]
    """(backend, actor id, the command's argument, language) → tables to show, or a line to say."""


@dataclass(frozen=True)
class CliCommand:
    """A subcommand of `flowagent` a toolset brings (the workflow's `flowagent processes deploy FILE.bpmn`)."""

    help: str
    """One line for `flowagent --help`."""
    arguments: Callable[[Any], None]
    """Adds the command's arguments to its `argparse` parser."""
    run: Callable[[Any], list[HelpSection] | str]
    """(the parsed arguments) → tables to show, or a line to say; refusals raise `DomainError` or `ValueError`."""


@dataclass(frozen=True)
class Surfaces:
    """What the apps show of a domain besides the conversation: `/help`, slash commands, the page's panels, subcommands."""

    help: Callable[[Any, str, Lang], list[HelpSection]] | None = None
    """The tables `/help` shows besides the commands, read through a backend handle for the actor, in a language."""
    commands: Mapping[str, ChatCommand] = field(default_factory=dict)
    """The chat's slash commands of this domain, by name without the slash (the workflow: complete, process, outbox)."""
    panels: Mapping[str, Callable[[Any, str], Any]] = field(default_factory=dict)
    """The page's JSON panels by name (`GET /flowagent/api/<name>`): each reads through a backend handle for the
    signed-in user."""
    cli: Mapping[str, CliCommand] = field(default_factory=dict)
    """Subcommands of `flowagent` by name (the workflow: `processes`)."""
    services: tuple[Callable[[Any], Callable[[], None]], ...] = ()
    """Background work each server process runs while it serves (the workflow's timer service): each is started with the
    served backend and returns what stops it."""
