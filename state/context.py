"""Per-run settings of the graph (its `context_schema`): set by the caller, never by the model."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, make_dataclass
from typing import Any, Literal

Protocol = Literal["native", "react", "json"]


@dataclass(kw_only=True)
class Context:
    """Who is acting, with which model and protocol, under which budgets."""

    user_id: str = field(
        default="user_1",
        metadata={"description": "The signed-in user (the actor). Every write acts for this user only."},
    )
    model: str = field(
        default="",
        metadata={"description": "Model name for the run; empty uses FLOWAGENT_MODEL or the offline default."},
    )
    protocol: Protocol = field(
        default="native",
        metadata={"description": "How the model proposes actions: native function calling, react text or json."},
    )
    max_model_calls: int = field(
        default=8, metadata={"description": "Model calls allowed per run before the agent wraps up."}
    )
    max_tool_calls_per_tool: int = field(
        default=6, metadata={"description": "Calls of any one tool allowed per run."}
    )
    max_tokens: int = field(
        default=60_000, metadata={"description": "Prompt plus completion tokens allowed per run."}
    )
    max_seconds: float = field(
        default=300.0, metadata={"description": "Wall-clock seconds allowed per run (approval waits excluded)."}
    )
    max_consecutive_failures: int = field(
        default=3,
        metadata={"description": "Failed steps in a row before the agent stops and asks the person for help."},
    )
    max_repeated_actions: int = field(
        default=1,
        metadata={"description": "Times the same action may be proposed in a run before wrap-up (its repeat is "
                  "answered from the earlier result, then the run wraps up)."},
    )
    approval_tools: tuple[str, ...] | None = field(
        default=None,
        metadata={"description": "Tools that need a person's confirmation before every call; unset: those whose "
                  "tool spec requires it (`ToolRegistry.approval_tools`)."},
    )
    tool_timeout_s: float = field(default=20.0, metadata={"description": "Timeout of one tool call, in seconds."})
    limits: dict[str, int] = field(
        default_factory=dict,
        metadata={"description": "The toolset's own limits for this run, by name (the workflow's mail_rate_limit: "
                  "e-mails one conversation thread may send per hour, 3 by default); unset ones keep their default."},
    )
    summary_threshold_tokens: int = field(
        default=3_000,
        metadata={"description": "History size (estimated tokens) above which older turns fold into the summary."},
    )
    keep_recent_turns: int = field(
        default=2, metadata={"description": "Person turns always kept verbatim in the prompt besides the current one."}
    )
    fixed_answers: bool = field(
        default=False,
        metadata={
            "description": "For a model too small to be trusted with summaries (the offline model): a run that "
            "must stop early, or whose last step executed a write, ends with the fixed answer built from the "
            "run's real results instead of a model-written one."
        },
    )
    locale: str = field(default="zh-CN", metadata={"description": "Language of answers: zh-CN or en."})
    timezone: str = field(default="Asia/Shanghai", metadata={"description": "Time zone for today's date."})

    @classmethod
    def with_defaults(cls, **defaults: Any) -> type[Context]:
        """This schema with other defaults for some fields (a server whose model is the offline one runs the
        `react` protocol with fixed answers unless a run says otherwise); Studio shows them as the defaults."""
        known = {f.name: f for f in fields(cls)}
        unknown = set(defaults) - set(known)
        if unknown:
            raise ValueError(f"Context has no field {', '.join(sorted(unknown))}")
        changed = [
            (name, known[name].type, field(default=value, metadata=known[name].metadata))
            for name, value in defaults.items()
        ]
        schema = make_dataclass(cls.__name__, changed, bases=(cls,), kw_only=True)
        schema.__doc__ = cls.__doc__
        schema.__module__ = cls.__module__
        return schema

