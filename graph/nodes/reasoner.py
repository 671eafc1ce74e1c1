"""The reasoner node (Thought → Action): builds the prompt, calls the model, proposes tool calls."""

from __future__ import annotations

from datetime import date
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, SystemMessage, ToolMessage
from langgraph.runtime import Runtime

from graph import known, prompts
from graph.answers import REFUSED_STEPS_BEFORE_INSTEAD, fixed_answer, follow_up_answer, instead_call, unechoed
from graph.asked import AskedNext
from graph.budget import PLANNED_ENDS, charge_model_call, describe, end_step, open_step, wrap_up
from graph.calls import ACTOR_TTL_S, ModelSource, model_of, new_call_id, proposed_calls, run_today, thread_id_of_run, tokens_used
from graph.deps import NodeDeps
from graph.generation import generate
from graph.history import CallIds, call_id_index, open_lookups, redirected_to, run_outcome, run_results, titled, tools_named
from graph.known import AnswerCheck, not_known_answer, redo_note, refused_for_a_reason, undone_answer, undone_claims, undone_note
from graph.protocols import NO_MODEL_CALL, parse_reply, render_for_text_protocol
from graph.run import lang_of
from state.agent import AgentState
from state.context import Context, Protocol
from state.records import Step, WrapUp
from tools.kept import KeptMap
from tools.parsers import Lang, language_of
from tools.spec import ToolRegistry
from tools.toolset import Toolset


def fixed_prompt(toolset: Toolset, protocol: Protocol) -> str:
    """The part of every system prompt that is the same for all users, days and turns (it comes first): the
    toolset's role and rules, and for text protocols its tools and the reply format."""
    text = toolset.prompt
    registry = toolset.registry
    if protocol != "native":
        text += prompts.TOOLS_SECTION_TEXT.format(tools=registry.text_list())
        fmt = prompts.REACT_FORMAT if protocol == "react" else prompts.JSON_FORMAT
        text += fmt.format(tool_names=", ".join(registry.names))
    return text


def example_exchange(registry: ToolRegistry, protocol: Protocol, lang: Lang = "zh") -> list[AnyMessage]:
    """The registry's worked examples in the person's language as real exchanges in the protocol's own format: question,
    action, observation (with the same nudge real observations get), final answer. Empty for native calling."""
    if protocol == "native":
        return []
    act, answered = prompts.THOUGHTS[lang]["act"], prompts.THOUGHTS[lang]["answered"]
    history: list[AnyMessage] = []
    for n, (spec, example) in enumerate(registry.examples(lang)):
        call_id = f"example_{n}"
        history += [
            HumanMessage(content=example.question),
            AIMessage(content=act, tool_calls=[{"type": "tool_call", "name": spec.name, "args": example.args, "id": call_id}]),
            ToolMessage(content=example.observation, tool_call_id=call_id, name=spec.name),
            AIMessage(content=example.answer, response_metadata={"thought": answered}),
        ]
    return render_for_text_protocol(history, protocol)


def fixed_messages(toolset: Toolset, protocol: Protocol, lang: Lang = "zh") -> list[AnyMessage]:
    """The start of every prompt, the same for every user, day and turn in a language: the fixed system prompt,
    and for text protocols the worked examples. A local model's prompt cache keeps it across conversations."""
    return [
        SystemMessage(content=fixed_prompt(toolset, protocol)), *example_exchange(toolset.registry, protocol, lang)
    ]


def warmup_prompt(toolset: Toolset, protocol: Protocol, lang: Lang = "zh") -> list[AnyMessage]:
    """A prompt that starts with the fixed start of every real prompt in a language: sent once, it fills a local
    model's prompt cache, so a person's first question reads only its own tokens."""
    return [*fixed_messages(toolset, protocol, lang), HumanMessage(content=WARMUP_GREETING[lang])]


WARMUP_GREETING: dict[Lang, str] = {"zh": "你好", "en": "Hello"}


NOT_RUN_OBSERVATION = (
    "Not run: the run stopped (cancelled, or a new message arrived) before this call was executed. "
    "Propose it again only if it is still wanted."
)


def close_dangling_calls(messages: list[AnyMessage], ids: CallIds | None = None) -> list[AnyMessage]:
    """Give every proposed call an observation, so the prompt never holds a call without its result. A run cancelled
    with Ctrl-C, or left at an approval when the person wrote something else, leaves the model's proposal without a
    tool result; chat APIs refuse such a history. `ids` are the call ids of the whole thread, when known (a thread
    whose every call has its result has nothing to close in any part of it)."""
    if (ids if ids is not None else call_id_index().get(None, messages)).all_answered:
        return messages  # every call has its result: nothing to close (the usual case, without copying)
    out: list[AnyMessage] = []
    open_calls: list[tuple[str, str]] = []

    def close() -> None:
        for call_id, name in open_calls:
            out.append(ToolMessage(content=NOT_RUN_OBSERVATION, tool_call_id=call_id, name=name, status="error"))
        open_calls.clear()

    for msg in messages:
        if isinstance(msg, ToolMessage):
            open_calls[:] = [c for c in open_calls if c[0] != msg.tool_call_id]
        else:
            close()
        out.append(msg)
        if isinstance(msg, AIMessage):
            open_calls.extend((c["id"] or "", c["name"]) for c in msg.tool_calls)
            open_calls.extend((c.get("id") or "", c.get("name") or "") for c in msg.invalid_tool_calls)
    return out


class Reasoner:
    """Thought → Action: the model step. One model call per visit, in normal or wrap-up mode (where a model that
    cannot be trusted with summaries gets the fixed answer built from the run's results instead)."""

    def __init__(self, model: ModelSource, deps: NodeDeps, asked: AskedNext | None = None) -> None:
        toolset = deps.toolset
        self._actors = deps.actors
        self._model_source = model
        self._clock = deps.clock
        self._backend = deps.backend
        self._toolset = toolset
        self._registry = toolset.registry
        self._bound: dict[int, Any] = {}
        self._call_ids = call_id_index()
        self._check = AnswerCheck(toolset)
        self._asked = asked or AskedNext(toolset, deps.backend)  # the graph's, shared with budget_check
        self._from_store: KeptMap[str, Any] = KeptMap(2, ACTOR_TTL_S)  # the directory, the rules the store holds
        self._fixed: dict[tuple[str, Lang], list[AnyMessage]] = {}
        self._today: tuple[date | None, str] = (None, "")

    def _model(self, context: Context) -> BaseChatModel:
        return model_of(self._model_source, context)

    def _with_tools(self, model: BaseChatModel) -> Any:
        key = id(model)
        if key not in self._bound:
            self._bound[key] = model.bind_tools(self._registry.openai_schemas())
        return self._bound[key]

    def user_name(self, user_id: str) -> str:
        """The actor's display name (the graph keeps actors' records for a minute)."""
        actor = self._actors.get(user_id)
        return str(actor.get("name") or user_id) if actor is not None else "unknown user"

    def session_prompt(self, state: AgentState, context: Context) -> str:
        """Who the user is and today's date, then the folded summary: the part that differs per session."""
        day = run_today(self._clock, context.timezone)
        if self._today[0] != day:  # the date's text, made once a day
            self._today = (day, day.strftime("%Y-%m-%d %A"))
        today = self._today[1]
        template = prompts.SESSION_SECTION if context.protocol == "native" else prompts.SESSION_PROMPT
        text = template.format(
            user_name=self.user_name(context.user_id), user_id=context.user_id, today=today, timezone=context.timezone
        )
        summary = "\n".join(state.get("summary") or [])
        if summary:
            text += prompts.SUMMARY_SECTION.format(summary=summary)
        return text

    def prompt(self, state: AgentState, context: Context, extra: str | None = None) -> list[AnyMessage]:
        """Fixed start first (system prompt; for text protocols the worked example), then the session's own
        lines, then the recent turns: everything before the session lines stays in a prompt cache."""
        ids = self._call_ids.get(_thread_key(), state["messages"])
        recent = close_dangling_calls(list(state["messages"][state.get("summarized_upto", 0) :]), ids)
        session = self.session_prompt(state, context)
        if context.protocol == "native":
            fixed = fixed_prompt(self._toolset, context.protocol)
            messages: list[AnyMessage] = [SystemMessage(content=fixed + session), *recent]
        else:
            lang = lang_of(state, context)
            start = self._fixed.get((context.protocol, lang))
            if start is None:
                start = self._fixed[(context.protocol, lang)] = fixed_messages(self._toolset, context.protocol, lang)
            recent = render_for_text_protocol(recent, context.protocol)
            messages = [*start, SystemMessage(content=session), *recent]
        if extra:
            messages.append(HumanMessage(content=extra))
        return messages

    def __call__(self, state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
        context = runtime.context
        step = open_step(state.get("step"))
        reason = state.get("wrap_up")
        if reason:
            return self._wrap_up(state, context, step, reason)
        messages = list(state["messages"])
        followed = follow_up_answer(messages, self._registry, lang_of(state, context))
        if followed is not None:  # "然后呢" right after a write: what it did and what comes next, said again
            return {**self._final(state, context, followed), **end_step(state, step)}
        flailing = instead_call(messages, lang_of(state, context), after_refused_steps=REFUSED_STEPS_BEFORE_INSTEAD)
        if flailing is not None:  # refused step after step while a refusal named the call asked for: it is proposed
            return {"messages": [flailing], "step": open_step(step, proposed_calls(flailing))}
        asked = self._asked.proposal(state, context, lang_of(state, context))
        if asked is not None:  # one write made, the person's message asks for another: proposed as they said
            return {"messages": [asked], "step": open_step(step, proposed_calls(asked))}
        reply, step = self._step(state, context, step)
        request = state.get("request")
        still_open = [] if reply.tool_calls or reply.invalid_tool_calls or request is None else open_lookups(
            messages, self._registry, request
        )
        if still_open and state["budget"]["model_calls"] + step["model_calls"] < context.max_model_calls:
            reply, step = self._remind(state, context, step, still_open)
        looked = self._asked.unlooked(state, context, lang_of(state, context)) if still_open and not (
            reply.tool_calls or reply.invalid_tool_calls) else None
        if looked is not None:  # reminded, it answered again: the look-up the words ask for is made as they asked
            return {"messages": [looked], "step": open_step(step, proposed_calls(looked))}
        answered = not (reply.tool_calls or reply.invalid_tool_calls)
        instead = instead_call(messages, lang_of(state, context)) if answered else None
        instead = instead or (self._asked.unmade(state, context, lang_of(state, context)) if answered else None)
        if instead is not None:  # the refusal named the call the person's words ask for: proposed, to its card
            return {"messages": [instead], "step": open_step(step, proposed_calls(instead))}
        redirect = redirected_to(messages, self._registry) if answered else []
        named = tools_named(str(reply.content), self._registry) if answered else []
        if (redirect or named) and state["budget"]["model_calls"] + step["model_calls"] < context.max_model_calls:
            lang = lang_of(state, context)
            note = (prompts.REDIRECT_NOTE[lang].format(tools=", ".join(redirect)) if redirect
                    else prompts.TOOL_NAMES_NOTE[lang].format(tools=", ".join(named)))
            reply, step = self._step(state, context, step, note)  # it may call the tool it was told of, or only named
        if reply.tool_calls or reply.invalid_tool_calls:
            return {"messages": [reply], "step": open_step(step, proposed_calls(reply))}
        answer, step = self._checked(state, context, step, reply)
        answer = unechoed(answer, messages, self._registry, lang_of(state, context))  # no words meant for the model
        answer = titled(answer, self._registry, lang_of(state, context))
        if context.fixed_answers and "ungrounded" not in answer.response_metadata:
            answer = self._with_findings(state, context, answer)
        return {**self._final(state, context, answer), **end_step(state, step)}

    def _step(self, state: AgentState, context: Context, step: Step, extra: str = "") -> tuple[AIMessage, Step]:
        """One model call (Thought → Action or answer), charged to the step."""
        model, prompt = self._model(context), self.prompt(state, context, extra)
        if context.protocol == "native":
            raw = self._with_tools(model).invoke(prompt)
        else:
            raw = generate(model, prompt, context.protocol)
        reply = with_unique_call_ids(parse_reply(raw, context.protocol), self._call_ids.get(_thread_key(), state["messages"]))
        return reply, charge_model_call(step, tokens_used(raw, prompt))

    def _remind(self, state: AgentState, context: Context, step: Step, tools: list[str]) -> tuple[AIMessage, Step]:
        """Ask once more, naming the look-ups the request asks for that the run has not made."""
        lang = lang_of(state, context)
        return self._step(state, context, step, prompts.OPEN_LOOKUPS_REMINDER[lang].format(tools=", ".join(tools)))

    def _with_findings(self, state: AgentState, context: Context, answer: AIMessage) -> AIMessage:
        """A small model's answer, followed by what the run's look-ups actually found (it often leaves out
        the ids and the details a person needs)."""
        found = fixed_answer(list(state["messages"]), self._registry, lang_of(state, context), wrap_up("answered"))
        if not run_results(list(state["messages"])):
            return answer
        return answer.model_copy(update={"content": f"{answer.content}\n{found}"})

    def _final(self, state: AgentState, context: Context, answer: AIMessage) -> dict[str, Any]:
        """The run's last message, with what actually happened (from the run's observations) beside it."""
        lang = lang_of(state, context)
        outcome = run_outcome(list(state["messages"]), self._registry, lang)
        meta = {**answer.response_metadata, "outcome": outcome}
        update: dict[str, Any] = {"response_metadata": meta}
        request = state.get("request")
        told = self._toolset.language.unknown(request["texts"][-1], lang) if request and request["texts"] else None
        a_question = request is not None and (
            request["kind"] == "information" or any(mark in request["texts"][-1] for mark in "?？"))  # "…? need it b4"
        if a_question and not told and request:  # the look-ups chosen found nothing, and the words asked for none
            told = known.nothing_found(list(state["messages"]), self._registry, request["texts"][-1], lang)
        done = [line for line in outcome if "[question_only]" not in str(line.get("detail") or "")]  # asked nothing
        if told and a_question and not done and request and told not in str(answer.content):
            update["content"] = known.unknown_told(  # what no tool knows first, what was found after (if asked for)
                told, str(answer.content), list(state["messages"]), self._registry, request["texts"][-1],
                ungrounded="ungrounded" in meta)
        return {"messages": [answer.model_copy(update=update)], "outcome": outcome}

    def _invented(self, state: AgentState, context: Context, answer: AIMessage) -> list[str]:
        """The values a model's answer states that nothing in the conversation showed (`graph.known`), as written."""
        if answer.response_metadata.get(NO_MODEL_CALL):
            return []  # the code wrote it from the run's results
        people = self._stored("all", self._toolset.directory) if self._toolset.people is not None else []
        claims = self._check.invented(
            str(answer.content), list(state["messages"]), thread=_thread_key(), today=run_today(self._clock, context.timezone),
            timezone=context.timezone, actor=self._actors.get(context.user_id) or {"id": context.user_id}, people=people,
            rules=self._stored("rules", self._toolset.stored_rules) if self._toolset.stored_rules else "")
        return [c.text for c in claims]

    def _stored(self, key: str, read: Any) -> Any:
        """What `read` reads through the backend, at most once a minute: the people whose names an answer may state,
        the rules whose bounds it may."""
        kept = self._from_store.get(key)
        if kept is None:
            with self._backend.read() as handle:
                kept = read(handle)
            self._from_store.put(key, kept)
        return kept

    def _checked(
        self, state: AgentState, context: Context, step: Step, answer: AIMessage, *, may_redo: bool = True
    ) -> tuple[AIMessage, Step]:
        """The answer, if every value it states was shown and it says nothing was done that was not; else the model's
        answer once more, told which values nothing showed or what was not done (one model call, when the budget has
        one left); else a plain answer: what the run's tools found, and that it does not know the rest, or that the
        thing was not done. It names none of the values it replaces. A second answer in another language than the
        person's is no answer for them."""
        invented, undone = self._invented(state, context, answer), self._undone(state, context, answer)
        if not invented and not undone:
            return answer, step
        lang, messages = lang_of(state, context), list(state["messages"])
        calls_left = state["budget"]["model_calls"] + step["model_calls"] < context.max_model_calls
        if may_redo and calls_left:
            notes = [redo_note(invented, lang)] if invented else []
            notes += [undone_note(undone, messages, self._toolset, lang)] if undone else []
            redo, step = self._plain_reply(state, context, step, " ".join(notes), shown=answer)
            if (redo is not None and str(redo.content).strip() and language_of(str(redo.content), lang) == lang
                    and not self._invented(state, context, redo) and not self._undone(state, context, redo)):
                meta = {k: v for k, v in redo.response_metadata.items() if k != "raw"}  # later prompts: as an answer
                return redo.model_copy(update={"response_metadata": {**meta, "redone": invented + undone}}), step
        meta = {key: answer.response_metadata[key] for key in ("wrap_up",) if key in answer.response_metadata}
        text = undone_answer(messages, self._toolset, lang) if undone else not_known_answer(messages, self._toolset, lang)
        thought = prompts.THOUGHTS[lang]["not_done" if undone else "not_known"]
        return AIMessage(content=text, response_metadata={**meta, "thought": thought, "ungrounded": invented + undone}), step

    def _undone(self, state: AgentState, context: Context, answer: AIMessage) -> list[str]:
        """The words of a model's answer that say something was done when the run's writes were not (`graph.known`)."""
        if answer.response_metadata.get(NO_MODEL_CALL):
            return []
        return undone_claims(str(answer.content), list(state["messages"]), self._toolset, lang_of(state, context))

    def _plain_reply(
        self, state: AgentState, context: Context, step: Step, instruction: str, shown: AIMessage | None = None
    ) -> tuple[AIMessage | None, Step]:
        """One model call without tools (`instruction` last, after the answer `shown`, if any): its plain answer, or
        None when it gave none (it called a tool, or failed)."""
        try:
            model = self._model(context)
            prompt = self.prompt(state, context)
            if shown is not None:
                shown_as = [shown] if context.protocol == "native" else render_for_text_protocol([shown], context.protocol)
                prompt += shown_as
            if context.protocol != "native":
                instruction += " Reply with plain text only: no Action, no JSON."
            prompt.append(HumanMessage(content=instruction))
            raw = model.invoke(prompt)
            step = charge_model_call(step, tokens_used(raw, prompt))
            if getattr(raw, "tool_calls", None):
                return None, step
            parsed = parse_reply(raw, context.protocol) if context.protocol != "native" else raw
            if getattr(parsed, "tool_calls", None) or getattr(parsed, "invalid_tool_calls", None):
                return None, step
            return parsed.model_copy(update={"content": str(parsed.content).strip()}), step
        except Exception:  # noqa: BLE001 - a failing model must not prevent the written answer
            return None, step

    def _wrap_up(self, state: AgentState, context: Context, step: Step, reason: WrapUp) -> dict[str, Any]:
        """Out of budget: the model's best answer without tools, or (for a model that cannot be trusted to write one, or
        when it fails) the fixed answer built from the run's real results; after refused steps, why (`undone_answer`)."""
        text, messages, lang = "", list(state["messages"]), lang_of(state, context)
        if not context.fixed_answers:
            ask = prompts.WRAP_UP_ASK_FOR_HELP if reason["code"] == "consecutive_failures" else ""
            instruction = prompts.WRAP_UP_INSTRUCTION.format(reason=describe(reason), ask=ask)
            reply, step = self._plain_reply(state, context, step, instruction)
            text = str(reply.content) if reply is not None else ""
        meta: dict[str, Any] = {"wrap_up": reason}
        if not text:
            text = undone_answer(messages, self._toolset, lang) if reason["code"] == "consecutive_failures" and \
                refused_for_a_reason(messages, self._toolset, lang) else fixed_answer(messages, self._registry, lang, reason)
            meta[NO_MODEL_CALL] = True
        planned = reason["code"] in PLANNED_ENDS  # not out of budget: the model may answer once more
        answer, step = self._checked(state, context, step, AIMessage(content=text, response_metadata=meta), may_redo=planned)
        return {**self._final(state, context, answer), **end_step(state, step)}


def _thread_key() -> str | None:
    """The running graph's thread id, or None outside a run (a prompt built for a pre-read)."""
    try:
        return thread_id_of_run()
    except RuntimeError:
        return None


def with_unique_call_ids(reply: AIMessage, thread: CallIds) -> AIMessage:
    """The reply with every call id present and new to the thread (`thread`: the thread's call ids so far).

    A call id is half of a write's idempotency key, so a model (or server) that repeats ids such as
    `call_0`, or sends none, would otherwise have a later e-mail answered with an earlier one's result.
    """
    used = set(thread.asked)
    changed = False

    def fresh(call: Any) -> Any:
        nonlocal changed
        if call.get("id") and call["id"] not in used:
            used.add(call["id"])
            return call
        changed = True
        call = {**call, "id": new_call_id()}
        used.add(call["id"])
        return call

    tool_calls = [fresh(c) for c in reply.tool_calls]
    invalid = [fresh(c) for c in reply.invalid_tool_calls]
    if not changed:
        return reply
    return reply.model_copy(update={"tool_calls": tool_calls, "invalid_tool_calls": invalid})
