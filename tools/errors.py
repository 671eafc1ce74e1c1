"""Domain errors: every refusal has a stable code and a message that says what to do next."""

from __future__ import annotations

from typing import Any


class DomainError(Exception):
    """A refusal by the workflow domain (bad arguments, policy, missing record).

    Errors of this kind are caused by the caller (the model or the person), so they are turned into
    observations the caller can act on; bugs in our own code are never wrapped in this class.
    """

    def __init__(self, code: str, message: str, *, instead: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.instead = instead
        """The one call the person's words ask for in its place, when the rule knows it (see `PolicyError`)."""

    def to_dict(self) -> dict[str, str]:
        return {"error": self.code, "message": self.message}

    def __str__(self) -> str:
        return f"[{self.code}] {self.message}"


class PolicyError(DomainError):
    """A rule of the workflow policy refused the action.

    `instead` is the one call the person's words ask for in its place, when the rule knows it whole (the decision they
    stated on the one to-do they named): `{"name": tool, "args": {...}}`. A model that answers after the refusal
    without making it has it proposed for them, through the same checks and card (`graph.answers.instead_call`). Any
    refusal may carry one (`DomainError.instead`): a resend of nothing sent back carries the start.
    """


class NotFoundError(DomainError):
    """A referenced user, task, request or process does not exist."""


class InvalidArgumentsError(DomainError):
    """The arguments do not match the tool's schema."""


class NeedsPersonError(PolicyError):
    """A value only the person can give is missing, unclear or was not given by them.

    The graph does not hand this back to the model: it ends the turn by asking the person (`ask` names the
    question, `choices` the options to offer, `name` the word that was not understood).
    """

    def __init__(
        self, code: str, message: str, *, ask: str, param: str = "", choices: tuple[str, ...] = (), name: str = "",
        value: Any = None,
    ) -> None:
        super().__init__(code, message)
        self.ask = ask
        self.param = param
        """The argument the question is about (the graph fills it in from the person's answer); a dotted path for a
        value inside an argument (`fields.amount`)."""
        self.choices = choices
        self.name = name
        self.value = value
        """The `tools.spec.PersonValue` asked about, when the check knows it (a form's field is declared per call, so
        the graph cannot look it up in the tool's spec): its label, kind and unit word the question and read the
        answer."""
        self.also: tuple[tuple[Any, tuple[str, ...]], ...] = ()
        """The call's other values only the person can give that are missing or not theirs either, each with the
        choices to offer: asked in the same question, so "I want to take leave" is asked for everything at once."""


class CannotError(PolicyError):
    """An action the system cannot do at all ("expense claims cannot be started here").

    Said to the person in their language (`say`, by language) before any missing value is asked for; the graph ends
    the turn with it instead of handing the refusal to the model to repeat.
    """

    def __init__(self, code: str, message: str, *, say: dict[str, str]) -> None:
        super().__init__(code, message)
        self.say = say
