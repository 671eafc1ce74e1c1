"""The workflow tools' argument models: strict (no extra fields), each parameter saying where it comes from."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from tools.workflow.policy import MAX_REASON_CHARS, check_email_content, check_reason, parse_days

MAX_FORM_FIELDS = 30


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NoArgs(_Args):
    """No parameters."""


FormValue = str | int | float | bool


def is_zero(value: Any) -> bool:
    """0, "0" or blank: no count (a true/false value or a list is no number and is refused as such)."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return False
    try:
        return float(str(value).strip() or "0") == 0
    except ValueError:
        return False


class FormArgs(_Args):
    """A request's form as the model gives it: a `reason` and the other `fields`, checked alike wherever a form is
    given (a start, a resend). Each subclass declares the two with its own descriptions."""

    @field_validator("reason", check_fields=False)
    @classmethod
    def _reason(cls, value: str | None) -> str | None:
        return None if value is None else check_reason(value)

    @field_validator("fields", mode="before", check_fields=False)
    @classmethod
    def _fields(cls, value: Any) -> Any:
        if isinstance(value, dict) and len(value) > MAX_FORM_FIELDS:
            raise ValueError(f"fields may hold at most {MAX_FORM_FIELDS} form fields")
        return value


class RunWorkFlowArgs(FormArgs):
    processKey: str = Field(description="The process, from getAllWorkFlow: process_qingjia (请假, leave), process_baoxiao "
                            "(报销, expense claim), process_chuchai (出差, business trip), or another deployed one.")
    userId: str = Field(description="The requester: always the signed-in user (filled in by the system).")
    reason: str | None = Field(default=None, description="Why, in the user's own words (the form's reason).")
    days: float | None = Field(default=None, description="Days of leave as the user said them, e.g. 0.5, 1, 3.")
    nextUserId: str = Field(description="The approver the user named: a name (李四) or a userId.")
    fields: dict[str, FormValue | None] | None = Field(
        default=None, description='The process\'s other form fields by id, as the user gave them, e.g. '
        '{"amount": 6000, "category": "差旅"} or {"destination": "上海", "startDate": "2026-12-07", "endDate": "2026-12-09"}.',
    )
    cc: list[str] | None = Field(default=None, max_length=10, description="People the user asked to copy (抄送, cc): "
                                 "names (王五) or userIds.")

    @field_validator("days", mode="before")
    @classmethod
    def _days(cls, value: Any) -> float | None:
        if value is None or is_zero(value):
            return None  # "days": 0 is no count (a model fills it in for an expense claim, whose form has none)
        return parse_days(value, bounded=False)  # the process's form bounds it: a claim's form takes no days at all

    @model_validator(mode="after")
    def _seed_params(self) -> RunWorkFlowArgs:
        """`days` and `reason` are parameters of their own: given inside `fields` too, they move out."""
        if self.fields:
            inner = dict(self.fields)
            for key in ("days", "reason"):
                if key in inner:
                    value = inner.pop(key)
                    if getattr(self, key) is None and value is not None:
                        setattr(self, key, parse_days(value) if key == "days" else check_reason(str(value)))
            self.fields = inner or None
        return self


class QueryTodoTaskArgs(_Args):
    userId: str = Field(description="Whose tasks: a name or userId (default: the signed-in user).")


class HandleTodoTaskArgs(_Args):
    taskId: str = Field(description="The task: its requester's name (张三), or a taskId from queryTodoTask (task_1).")
    result: str = Field(default="", description="The user's comment, in their words.")
    isOK: bool = Field(description="true to approve, false to reject.")

    @field_validator("result")
    @classmethod
    def _result(cls, value: str) -> str:
        if len(value) > MAX_REASON_CHARS:
            raise ValueError(f"result must be at most {MAX_REASON_CHARS} characters")
        return value.strip()


class SendEmailArgs(_Args):
    userId: str | None = Field(default=None, description="The recipient: a name (李四) or a userId.")
    taskId: str | None = Field(default=None, description="A task to remind its assignee about (e.g. task_1).")
    emailContent: str = Field(description="The e-mail's text, as the user gave it.")

    @field_validator("emailContent")
    @classmethod
    def _content(cls, value: str) -> str:
        return check_email_content(value)


COMMENT_NAMES = ("comment", "note", "remark", "remarks", "message", "result", "reason")
"""What a model calls a to-do's comment in its own words ("note": "your account, please decide")."""
DESCRIBING = ("requester", "requesterName", "requesterId", "process", "processKey", "processName", "step", "stepName")
"""Keys a model adds to a call on a to-do that only say again which it is ("requester": "Zhang San"): its taskId says."""


def comment_arranged(param: str) -> Any:
    """The `arrange` of a call on a to-do whose comment is `param`: keys that only describe the to-do (`DESCRIBING`)
    left out, and the one value the model named otherwise (`COMMENT_NAMES`) as its comment. "note" beside a transfer
    and "requester" beside a decision had been refused as no parameter, and the person's words lost with them."""

    def arrange(values: dict[str, Any]) -> dict[str, Any]:
        values = {k: v for k, v in values.items() if k not in DESCRIBING or k == param}
        others = [k for k in COMMENT_NAMES if k != param]
        blank = [k for k in others if k in values and not str(values[k] or "").strip()]
        values = {k: v for k, v in values.items() if k not in blank}  # "note": "" beside it says nothing
        if values.get(param) not in (None, ""):
            return values
        named = [k for k in others if isinstance(values.get(k), str)]
        if len(named) != 1:
            return values
        return {**{k: v for k, v in values.items() if k not in (*others, param)}, param: values[named[0]]}

    return arrange


def arrange_start(values: dict[str, Any]) -> dict[str, Any]:
    """runWorkFlow's arguments with every key that is no parameter of its own moved into `fields` ("amount": 6800 at
    the top becomes fields.amount): the form's check then takes it, or refuses it naming the form's fields. A value
    already in `fields` stays."""
    own = set(RunWorkFlowArgs.model_fields)
    extra = {k: v for k, v in values.items() if k not in own and (v is None or isinstance(v, str | int | float | bool))}
    if not extra:
        return values
    inner = values.get("fields")
    fields = dict(inner) if isinstance(inner, dict) else {}
    for key, value in extra.items():
        fields.setdefault(key, value)
    return {**{k: v for k, v in values.items() if k not in extra}, "fields": fields}
