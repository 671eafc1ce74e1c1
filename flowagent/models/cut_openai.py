"""`ChatOpenAI` that stops a text-protocol reply at its complete call (`graph.generation.call_end`).

Kept apart from `graph.generation` so that importing the graph does not import the OpenAI client.
"""

from __future__ import annotations

import time
from collections.abc import Generator, Iterator
from typing import Any, ClassVar, cast

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.messages import AIMessage, AIMessageChunk, AnyMessage, BaseMessage
from langchain_core.messages.ai import UsageMetadata
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from langchain_openai import ChatOpenAI

from graph.calls import estimate_tokens
from graph.generation import CUT_AT_CALL, CUT_FINISH_REASON, ReplyKind, reply_end

_CLIENT_STOPS = "_flowagent_client_side_stops"


def _as_list(stop: Any) -> list[str]:
    if not stop:
        return []
    return [stop] if isinstance(stop, str) else list(stop)


def _pending_stop(text: str, stops: list[str]) -> int:
    """How many characters at the end of ``text`` could be the start of a stop sequence (held back)."""
    longest = 0
    for stop in stops:
        for n in range(min(len(stop) - 1, len(text)), longest, -1):
            if text.endswith(stop[:n]):
                longest = n
                break
    return longest


class CallCutChatOpenAI(ChatOpenAI):
    """`ChatOpenAI` that, when invoked with ``cut_at_call=<ReplyKind>``, streams the reply and closes the stream
    as soon as the call in it is complete (`call_end`). Without that keyword it is `ChatOpenAI`.

    The result is an ordinary `AIMessage` (callbacks and traces see a normal end). Its ``response_metadata``
    adds ``streamed_chunks`` (llama-cpp-python's server sends one chunk per generated token, a character split
    over several tokens excepted), ``first_chunk_s`` (time to the first chunk: reading the prompt and the first
    token) and ``seconds``; a cut reply has ``finish_reason="call_complete"``. A closed stream reports no usage,
    and llama-cpp-python's server sends none in a stream: ``usage_metadata`` then counts the streamed chunks as
    output tokens and estimates the prompt (`graph.calls.estimate_tokens`), and ``usage_estimated`` says so.
    """

    cuts_at_call: ClassVar[bool] = True
    """Tells `graph.generation.generate` that this model takes ``cut_at_call``."""

    def _get_request_payload(self, input_: Any, *, stop: list[str] | None = None, **kwargs: Any) -> dict[str, Any]:
        client_stops = kwargs.pop(_CLIENT_STOPS, False)
        payload: dict[str, Any] = super()._get_request_payload(input_, stop=stop, **kwargs)
        if client_stops:
            payload.pop("stop", None)  # applied here instead (see _stream)
        return payload

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        """With ``cut_at_call``: the reply up to its complete call or its first stop sequence, whichever comes
        first, and the stream closed there.

        The stop sequences are applied here, not sent: a server holds back the text that could begin one
        (``\nObservation:`` after a call), and llama-cpp-python's server notices a closed stream only when it
        next sends something, so it would generate the stop sequence's tokens before it stops. Text that could
        begin a stop sequence is held back here in the same way, and none of a stop sequence is returned.
        """
        kind: ReplyKind | None = kwargs.pop(CUT_AT_CALL, None)
        if kind is None:
            yield from super()._stream(messages, stop=stop, run_manager=run_manager, **kwargs)
            return
        stops = [s for s in (stop if stop is not None else _as_list(self.stop)) if s]
        stream = cast(
            Generator[ChatGenerationChunk, None, None],
            super()._stream(messages, stop=None, run_manager=None, **{**kwargs, _CLIENT_STOPS: True}),
        )
        text, sent, received = "", 0, 0
        finish: str | None = None

        def piece(upto: int, last: ChatGenerationChunk) -> ChatGenerationChunk | None:
            nonlocal sent
            if upto <= sent:
                return None
            out = ChatGenerationChunk(message=AIMessageChunk(content=text[sent:upto], id=last.message.id))
            sent = upto
            if run_manager:
                run_manager.on_llm_new_token(out.text, chunk=out)
            return out

        try:
            last: ChatGenerationChunk | None = None
            for chunk in stream:
                last = chunk
                if not chunk.text:
                    if chunk.generation_info or getattr(chunk.message, "usage_metadata", None):
                        yield ChatGenerationChunk(message=chunk.message.model_copy(update={"content": ""}),
                                                  generation_info=chunk.generation_info)
                    continue
                text += chunk.text
                received += 1
                end = reply_end(text, kind, stops)
                if end is not None:
                    finish = CUT_FINISH_REASON if end[1] else "stop"
                    out = piece(end[0], chunk)
                    if out is not None:
                        yield out
                    break
                out = piece(len(text) - _pending_stop(text, stops), chunk)
                if out is not None:
                    yield out
            else:
                if last is not None:
                    out = piece(len(text), last)  # the server ended: what was held back was no stop sequence
                    if out is not None:
                        yield out
        finally:
            stream.close()  # closes the HTTP response: the server stops generating
        info: dict[str, Any] = {"streamed_chunks": received}
        if finish is not None:
            info["finish_reason"] = finish
        yield ChatGenerationChunk(message=AIMessageChunk(content=""), generation_info=info)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        if kwargs.get(CUT_AT_CALL) is None:
            kwargs.pop(CUT_AT_CALL, None)
            return super()._generate(messages, stop=stop, run_manager=run_manager, **kwargs)
        started = time.perf_counter()
        first: float | None = None
        merged: ChatGenerationChunk | None = None
        for chunk in self._stream(messages, stop=stop, run_manager=run_manager, **kwargs):
            if chunk.text and first is None:
                first = time.perf_counter() - started
            merged = chunk if merged is None else merged + chunk
        message = cast(AIMessageChunk, merged.message) if merged is not None else AIMessageChunk(content="")
        meta = {**((merged.generation_info if merged is not None else None) or {}), **(message.response_metadata or {})}
        streamed = int(meta.get("streamed_chunks", 0))
        meta["seconds"] = time.perf_counter() - started
        if first is not None:
            meta["first_chunk_s"] = first
        usage = message.usage_metadata
        if usage is None:
            # A closed stream, or a server that sends no usage in a stream (llama-cpp-python): the chunks
            # counted, the prompt estimated as graph.calls does.
            read = estimate_tokens(cast(list[AnyMessage], messages))
            usage = UsageMetadata(input_tokens=read, output_tokens=streamed, total_tokens=read + streamed)
            meta["usage_estimated"] = "input_tokens estimated, output_tokens = streamed chunks"
        reply = AIMessage(content=message.content, id=message.id, response_metadata=meta, usage_metadata=usage)
        return ChatResult(generations=[ChatGeneration(message=reply)])
