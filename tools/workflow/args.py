"""The workflow tools' argument models: strict (no extra fields), each parameter saying where it comes from."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from tools.workflow.policy import MAX_REASON_CHARS, check_email_content, check_reason, parse_days


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NoArgs(_Args):
    """No parameters."""


class RunWorkFlowArgs(_Args):
    processKey: str = Field(description="The process: process_qingjia (请假, leave).")
    userId: str = Field(description="The requester: always the signed-in user (filled in by the system).")
    reason: str = Field(description="Why, in the user's own words.")
    days: float = Field(description="Days of leave as the user said them, e.g. 0.5, 1, 3.")
    nextUserId: str = Field(description="The approver the user named: a name (李四) or a userId.")

    @field_validator("days", mode="before")
    @classmethod
    def _days(cls, value: Any) -> float:
        return parse_days(value)

    @field_validator("reason")
    @classmethod
    def _reason(cls, value: str) -> str:
        return check_reason(value)


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
