"""How the chat talks to the local server: its ChatOpenAI settings (the ``react`` text protocol, a stop before
``Observation:``), and the warm-up request that has the server read the fixed prompt before anyone asks.

llama-cpp-python's ``chatml-function-calling`` format is broken for multi-turn agents, so it is never used.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from flowagent.models.local.errors import Progress, stderr_progress
from flowagent.models.local.server import LocalServer
from flowagent.models.local.timings import RequestTimings

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class LocalModelSettings:
    """How the chat talks to the local model."""

    protocol: Literal["native", "react", "json"] = "react"
    """The local model's tool calls are reliable only with the ``react`` text protocol; the offline model's runs use
    it unless ``$FLOWAGENT_PROTOCOL`` says otherwise (`flowagent.models.endpoint.local_protocol`)."""
    temperature: float = 0.3
    stop: tuple[str, ...] = ("Observation:",)
    """Stop generating before the model invents an observation; pass as ``ChatOpenAI(stop=...)``."""
    timeout: float = 300.0
    """Seconds per request: a long ReAct prompt on a busy two-core machine can take over a minute."""
    max_retries: int = 1
    max_tokens: int | None = 512
    """A cap per reply, sent as ``extra_body={"max_tokens": ...}``: ChatOpenAI's own ``max_tokens`` goes out
    as ``max_completion_tokens``, which llama-cpp-python's server ignores."""
    extra: dict[str, Any] = field(default_factory=dict)

    def chat_openai_kwargs(self, server: LocalServer) -> dict[str, Any]:
        """Keyword arguments for ``langchain_openai.ChatOpenAI`` against ``server``."""
        extra_body = {"max_tokens": self.max_tokens} if self.max_tokens else None
        return {
            "base_url": server.base_url,
            "api_key": server.api_key,
            "model": server.model,
            "temperature": self.temperature,
            "stop": list(self.stop),
            "timeout": self.timeout,
            "max_retries": self.max_retries,
            "extra_body": extra_body,
            **self.extra,
        }


def default_local_model_settings() -> LocalModelSettings:
    """The chat's settings for the offline model: react protocol, temperature 0.3, stop at Observation."""
    return LocalModelSettings()


def warm_up(
    server_or_model: LocalServer | Any,
    messages: Sequence[Any],
    *,
    server: LocalServer | None = None,
    progress: Progress | None = None,
) -> RequestTimings | None:
    """Send ``messages`` once with a 1-token reply, so that llama.cpp has read them before anyone asks.

    llama.cpp keeps the tokens of the last request and reads again only what comes after the prefix a new
    request shares with it.  Warming up with the fixed start of every system prompt (see
    ``graph.nodes.reasoner.warmup_prompt``) means a person's first question reads only what follows that start.
    ``server_or_model`` is the :class:`LocalServer` (the request then goes through ``ChatOpenAI`` with the
    chat's own settings, so its tokens are the ones the chat's requests start with) or the chat model itself.
    Returns the server's timings of the warm-up request when the server is known (``server`` or the first
    argument), else None.
    """
    from langchain_openai import ChatOpenAI

    report = progress or stderr_progress
    if isinstance(server_or_model, LocalServer):
        server = server_or_model
        model: Any = ChatOpenAI(**default_local_model_settings().chat_openai_kwargs(server))
    else:
        model = server_or_model
    offset = server.log_offset() if server is not None else 0
    report("reading the fixed prompt…")
    started = time.monotonic()
    # ChatOpenAI's own max_tokens goes out as max_completion_tokens, which llama-cpp-python ignores.
    model.invoke(list(messages), extra_body={"max_tokens": 1})
    elapsed = time.monotonic() - started
    timings = server.timings_since(offset) if server is not None else []
    read = f" ({timings[-1].prompt_tokens_read} tokens)" if timings else ""
    report(f"read the fixed prompt{read} in {elapsed:.1f} s")
    if server is not None and timings:
        server.warm_up = timings[-1]
    return timings[-1] if timings else None


class PreReader:
    """Has the local server read, in the background, the prompt a conversation's next question starts with.

    llama.cpp keeps the last request's tokens, so a request whose prompt starts with them reads only what
    follows. After an answer, the next question's prompt is the conversation so far plus the question: sent
    ahead with a 1-token reply while the person types (`warm_up`), the conversation is read then, and the
    question reads only its own tokens. One request at a time; a prompt already read is not sent again. A person
    who sends before it is done waits at most for the rest of that reading, which the question needed anyway.
    """

    def __init__(self, model: Any) -> None:
        self._model = model
        self._thread: threading.Thread | None = None
        self._last: str | None = None
        self.done: list[float] = []
        """Seconds each finished pre-read took (for the bench and the log)."""

    def pre_read(self, messages: Sequence[Any]) -> threading.Thread | None:
        """Start reading ``messages`` in the background; None when that prompt was read last or one is running."""
        key = repr([(type(m).__name__, m.content) for m in messages])
        if key == self._last or (self._thread is not None and self._thread.is_alive()):
            return None
        self._last = key
        self._thread = threading.Thread(target=self._read, args=(list(messages),), name="flowagent-pre-read", daemon=True)
        self._thread.start()
        return self._thread

    def wait(self, timeout: float | None = None) -> None:
        """Until the running pre-read is done (the bench's stand-in for a person typing)."""
        if self._thread is not None:
            self._thread.join(timeout)

    def _read(self, messages: list[Any]) -> None:
        started = time.monotonic()
        try:
            self._model.invoke(messages, extra_body={"max_tokens": 1})
        except Exception as exc:  # noqa: BLE001 - a failed pre-read only costs the next question its speed
            logger.info("the pre-read failed (%s: %s); the next question reads its whole prompt", type(exc).__name__, exc)
            self._last = None
            return
        self.done.append(time.monotonic() - started)
