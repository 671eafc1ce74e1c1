"""Scripted chat models: replay fixed replies (or compute them from the prompt) without any network."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import ConfigDict, Field

Reply = AIMessage | str | Callable[[list[BaseMessage]], "AIMessage | str"]

EXHAUSTED_REPLY = "(script exhausted)"


def tool_call(name: str, args: dict[str, Any] | None = None, *, id: str | None = None, thought: str = "") -> AIMessage:
    """An AIMessage proposing one tool call, as native function calling returns it."""
    return AIMessage(
        content=thought,
        tool_calls=[{"type": "tool_call", "name": name, "args": args or {}, "id": id or f"call_{name}"}],
    )


class ScriptedChatModel(BaseChatModel):
    """Replies in order from `replies`; `bind_tools` returns the model itself.

    A reply is an AIMessage, a string (assistant text), or a function of the prompt messages that
    returns either. Every prompt is recorded in `prompts` for assertions.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    replies: list[Any] = Field(default_factory=list)
    prompts: list[list[BaseMessage]] = Field(default_factory=list)
    position: int = 0
    exhausted_reply: str = EXHAUSTED_REPLY

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedChatModel:  # type: ignore[override]
        return self

    def _next(self, messages: list[BaseMessage]) -> AIMessage:
        if self.position >= len(self.replies):
            reply: Any = self.exhausted_reply
        else:
            reply = self.replies[self.position]
        self.position += 1
        if callable(reply) and not isinstance(reply, AIMessage):
            reply = reply(messages)
        if isinstance(reply, str):
            return AIMessage(content=reply)
        return reply.model_copy(deep=True)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.prompts.append(list(messages))
        message = self._next(list(messages))
        if message.usage_metadata is None:
            prompt_tokens = sum(len(str(m.content)) for m in messages) // 3 + 1
            completion = len(str(message.content)) // 3 + 1
            message.usage_metadata = {
                "input_tokens": prompt_tokens,
                "output_tokens": completion,
                "total_tokens": prompt_tokens + completion,
            }
        return ChatResult(generations=[ChatGeneration(message=message)])
