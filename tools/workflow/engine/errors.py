"""The engine's refusals: a stable `code` and a `message` that says what to fix, like `tools.errors.DomainError`.

The engine does not import the tools' error classes (they are being moved); the caller maps these onto its own
(`EngineError.code` and `.message` keep their meaning), or catches `EngineError` as it is.
"""

from __future__ import annotations


class EngineError(Exception):
    """A refusal of the process engine: bad input, a missing record, or a task that is no longer pending.

    Codes: `unknown_process`, `unknown_instance`, `task_not_found`, `task_not_pending`, `task_not_offered`,
    `no_assignee`, `process_error`, and the form's and the deployment's codes below.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        """A stable, machine-readable reason (snake_case)."""
        self.message = message
        """What went wrong and what to do about it, for a person or a model."""

    def to_dict(self) -> dict[str, str]:
        return {"error": self.code, "message": self.message}

    def __str__(self) -> str:
        return f"[{self.code}] {self.message}"


class DeployError(EngineError):
    """A BPMN file refused at deploy time; nothing was stored.

    Codes: `not_xml`, `not_bpmn`, `no_process`, `several_processes`, `process_without_id`, `bad_process_id`,
    `not_executable`, `unsupported_element`, `element_without_id`, `duplicate_id`, `reserved_id`, `no_start_event`,
    `several_start_events`, `no_end_event`, `dangling_flow`, `no_outgoing_flow`, `no_incoming_flow`,
    `unreachable`, `no_assignee_rule`, `bad_assignee`, `unknown_field_type`, `bad_field_id`, `duplicate_field`,
    `reserved_field`, `enum_without_values`, `unknown_constraint`, `bad_constraint`, `bad_condition`,
    `unsafe_condition`, `unknown_name`, `missing_condition`, `bad_default_flow`, `condition_outside_gateway`,
    `schema_invalid`, `invalid_bpmn`, and `deploy_conflict` (the same key deployed concurrently).
    """

    def __init__(self, code: str, message: str, *, element_id: str = "") -> None:
        super().__init__(code, message)
        self.element_id = element_id
        """The id of the offending BPMN element ("" when the document as a whole is wrong)."""


class FormError(EngineError):
    """A start-form value refused: missing, of the wrong type, out of range, or not one of the choices.

    Codes: `missing_field`, `invalid_field`, `out_of_range`, `not_a_choice`, `unknown_field`. `field`, `label` and
    `label_en` name the field, so the caller can ask for it in the person's language ("请问报销金额是多少？").
    """

    def __init__(self, code: str, message: str, *, field: str, label: str = "", label_en: str = "") -> None:
        super().__init__(code, message)
        self.field = field
        """The form field's id (`days`, `amount`)."""
        self.label = label
        """The field's label as the BPMN gives it (Chinese in the seed processes)."""
        self.label_en = label_en
        """The field's English label (`label_en` property), or "" when the BPMN has none."""
