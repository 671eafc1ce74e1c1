"""Chat models from the environment: any OpenAI-compatible endpoint, or the offline local model."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from langchain_core.language_models import BaseChatModel
from langchain_core.rate_limiters import InMemoryRateLimiter

from flowagent.models.local import LOCAL_API_KEY
from state.context import Context, Protocol

if TYPE_CHECKING:
    from tools.parsers import Lang
    from tools.toolset import Toolset

DEFAULT_MODEL = "gpt-4o-mini"
DEFAULT_TEMPERATURE = 0.3
DEFAULT_TIMEOUT_S = 60.0
DEFAULT_MAX_RETRIES = 2
DEFAULT_REQUESTS_PER_SECOND = 2.0
OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1"


class ModelConfigError(ValueError):
    """The model settings cannot work; the message says what to change."""


@dataclass(frozen=True)
class ModelSettings:
    """Where and how to call the chat model."""

    model: str
    base_url: str | None
    api_key: str | None
    temperature: float = DEFAULT_TEMPERATURE
    timeout_s: float = DEFAULT_TIMEOUT_S
    max_retries: int = DEFAULT_MAX_RETRIES
    requests_per_second: float = DEFAULT_REQUESTS_PER_SECOND
    local: bool = False
    """True when no endpoint is configured: the offline model runs here through llama.cpp."""
    stop: tuple[str, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)
    """Further ChatOpenAI arguments (the local server takes its token cap in `extra_body`)."""

    @property
    def masked_key(self) -> str:
        key = self.api_key or ""
        if not key:
            return "(none)"
        return key[:3] + "…" + key[-4:] if len(key) > 10 else "****"

    @property
    def endpoint(self) -> str:
        if self.local:
            return self.base_url or "(offline local model, started on demand)"
        return self.base_url or f"{OPENAI_DEFAULT_BASE_URL} (OpenAI default)"


def _float_env(name: str, default: float) -> float:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        return float(raw)
    except ValueError:
        raise ModelConfigError(f"{name}={raw!r} is not a number; set it to a value like {default:g}.") from None


def settings_from_env(model: str | None = None) -> ModelSettings:
    """Read FLOWAGENT_MODEL, OPENAI_API_KEY, OPENAI_BASE_URL and the tuning variables."""
    base_url = os.environ.get("OPENAI_BASE_URL", "").strip() or None
    api_key = os.environ.get("OPENAI_API_KEY", "").strip() or None
    local = base_url is None and api_key is None
    name = (model or os.environ.get("FLOWAGENT_MODEL", "").strip() or ("local" if local else DEFAULT_MODEL))
    temperature = _float_env("FLOWAGENT_TEMPERATURE", DEFAULT_TEMPERATURE)
    if not 0 <= temperature <= 2:
        raise ModelConfigError(f"FLOWAGENT_TEMPERATURE must be between 0 and 2, not {temperature:g}.")
    retries = _float_env("FLOWAGENT_MAX_RETRIES", DEFAULT_MAX_RETRIES)
    return ModelSettings(
        model=name,
        base_url=base_url,
        api_key=api_key,
        temperature=temperature,
        timeout_s=_float_env("FLOWAGENT_TIMEOUT_S", DEFAULT_TIMEOUT_S),
        max_retries=int(retries),
        requests_per_second=_float_env("FLOWAGENT_RATE_LIMIT_RPS", DEFAULT_REQUESTS_PER_SECOND),
        local=local,
    )


def make_chat_model(settings: ModelSettings) -> BaseChatModel:
    """A langchain-openai client for the settings (timeouts, retries with backoff, a rate limiter); a text
    protocol's reply stops at its complete call (`flowagent.models.cut_openai.CallCutChatOpenAI`)."""
    from flowagent.models.cut_openai import CallCutChatOpenAI

    limiter = (
        InMemoryRateLimiter(requests_per_second=settings.requests_per_second, check_every_n_seconds=0.05)
        if settings.requests_per_second > 0
        else None
    )
    kwargs: dict[str, Any] = dict(settings.extra)
    if settings.stop:
        kwargs["stop"] = list(settings.stop)
    return CallCutChatOpenAI(
        model=settings.model,
        # Explicit, so an empty OPENAI_BASE_URL in the environment is never read by the SDK itself.
        base_url=settings.base_url or OPENAI_DEFAULT_BASE_URL,
        api_key=settings.api_key or LOCAL_API_KEY,  # type: ignore[arg-type]
        temperature=settings.temperature,
        timeout=settings.timeout_s,
        max_retries=settings.max_retries,
        rate_limiter=limiter,
        **kwargs,
    )


_local_lock = threading.Lock()
_local_server: Any = None


def start_local_model(
    *, protocol: Protocol | None = None, progress: Callable[[str], None] | None = None, toolset: Toolset | None = None,
    lang: Lang = "zh",
) -> ModelSettings:
    """Make sure the offline model's weights and llama.cpp server exist, start it, and return its settings.

    A server started here first reads the fixed start of the system prompt of `toolset` (default: the workflow)
    with its worked examples in `lang` (`warm_up_local_model`), so that a person's first question does not wait
    for it.
    """
    global _local_server
    from flowagent.models import local as local_model

    with _local_lock:
        if _local_server is None:
            path = local_model.ensure_model("qwen", progress=progress)
            local_model.ensure_llama_server(progress=progress)
            server = local_model.start_local_server(path, progress=progress)
            _local_server = server
            warm_up_local_model(server, protocol=protocol, progress=progress, toolset=toolset, lang=lang)
        return local_model_settings(_local_server)


def local_model_settings(server: Any) -> ModelSettings:
    """The chat's settings for a running local server (`flowagent.models.local.LocalServer`)."""
    from flowagent.models import local as local_model

    kwargs = local_model.default_local_model_settings().chat_openai_kwargs(server)
    return ModelSettings(
        model=kwargs.pop("model"),
        base_url=kwargs.pop("base_url"),
        api_key=kwargs.pop("api_key"),
        temperature=kwargs.pop("temperature"),
        timeout_s=kwargs.pop("timeout"),
        max_retries=kwargs.pop("max_retries"),
        requests_per_second=0,
        local=True,
        stop=tuple(kwargs.pop("stop")),
        extra={k: v for k, v in kwargs.items() if v is not None},
    )


def local_protocol() -> Protocol:
    """The protocol the offline model's runs use: $FLOWAGENT_PROTOCOL, else the local model's default (react)."""
    from flowagent.models import local as local_model

    configured = os.environ.get("FLOWAGENT_PROTOCOL", "").strip()
    if configured in ("native", "react", "json"):
        return configured  # type: ignore[return-value]
    return local_model.default_local_model_settings().protocol


def run_defaults(settings: ModelSettings, protocol: str | None = None, *, toolset: Toolset | None = None) -> dict[str, Any]:
    """The `Context` defaults the configured model needs, the same for the chat and the LangGraph server:
    its protocol (`protocol`, else $FLOWAGENT_PROTOCOL, else the toolset's own (`Toolset.protocol`: json for the
    toy), else `react` for the offline model and `native` for an endpoint) and, for the offline model, fixed
    answers (it is too small to be trusted with summaries)."""
    chosen = (protocol or "").strip() or os.environ.get("FLOWAGENT_PROTOCOL", "").strip()
    if not chosen and toolset is not None and toolset.protocol is not None:
        chosen = toolset.protocol
    if not chosen:
        chosen = local_protocol() if settings.local else "native"
    if chosen not in ("native", "react", "json"):
        raise ModelConfigError(f"The protocol must be native, react or json, not {chosen!r} (--protocol or FLOWAGENT_PROTOCOL).")
    return {"protocol": chosen, "fixed_answers": settings.local}


def warm_up_local_model(
    server: Any, *, protocol: Protocol | None = None, progress: Callable[[str], None] | None = None,
    toolset: Toolset | None = None, lang: Lang = "zh",
) -> Any:
    """Have the local server read the fixed start of every system prompt once (its worked examples in `lang`, the
    language the person is expected to write), through the chat's own client. What it reads is the graph's
    (`graph.nodes.reasoner.warmup_prompt`, the start its reasoner sends): provisioning imports it from the graph below,
    and the graph knows nothing of the local model.

    Returns the server's timings of that request (`flowagent.models.local.RequestTimings`), or None when it
    could not be done: a failed warm-up only costs the first question its speed, so it never stops the chat.
    """
    from flowagent.models import local as local_model

    report = progress or local_model.stderr_progress
    try:
        from graph.nodes.reasoner import warmup_prompt
        from tools.toolsets import get_toolset

        chosen = toolset or get_toolset("workflow")
        messages = warmup_prompt(chosen, protocol or chosen.protocol or local_protocol(), lang)
        model = make_chat_model(local_model_settings(server))
        return local_model.warm_up(model, messages, server=server, progress=report)
    except Exception as exc:  # noqa: BLE001 - see the docstring
        report(f"could not read the fixed prompt ahead ({type(exc).__name__}: {exc}); the first answer will be slower")
        return None


def running_local_server() -> Any:
    """The local server `start_local_model` started (a `flowagent.models.local.LocalServer`), or None."""
    return _local_server


def stop_local_model() -> None:
    global _local_server
    with _local_lock:
        if _local_server is not None:
            _local_server.stop()
            _local_server = None


def load_chat_model(name: str | None = None) -> tuple[BaseChatModel, ModelSettings]:
    """The configured model (starting the offline one when no endpoint is set) and its settings."""
    settings = settings_from_env(name)
    if settings.local:
        settings = start_local_model()
    return make_chat_model(settings), settings


class EnvModel:
    """A model source for `build_graph`: loads the model from the environment on first use.

    The run's `Context.model`, when set, picks another model name at the same endpoint.
    """

    def __init__(self, default: str | None = None) -> None:
        self._default = default
        self._models: dict[str, BaseChatModel] = {}
        self._lock = threading.Lock()

    def preload(self) -> threading.Thread | None:
        """When no endpoint is configured, start the offline model (and read its fixed prompt) in the
        background now, so the server's first question does not wait for it; None when there is nothing to do."""
        try:
            if not settings_from_env(self._default).local:
                return None
        except ModelConfigError:
            return None  # the first run reports the configuration error

        def load() -> None:
            try:
                self(Context())
            except Exception:  # noqa: BLE001 - the first run loads again and reports the error to its caller
                pass

        thread = threading.Thread(target=load, name="flowagent-preload-model", daemon=True)
        thread.start()
        return thread

    def __call__(self, context: Context) -> BaseChatModel:
        name = context.model or self._default or ""
        with self._lock:
            if name not in self._models:
                self._models[name] = load_chat_model(name or None)[0]
            return self._models[name]


def describe_model_error(exc: BaseException, settings: ModelSettings | None = None) -> str | None:
    """One sentence and what to do, for errors caused by the model configuration; None for others."""
    import openai

    where = settings.endpoint if settings else "the model endpoint"
    if isinstance(exc, ModelConfigError):
        return str(exc)
    if isinstance(exc, openai.AuthenticationError):
        return f"The endpoint {where} refused the API key: check OPENAI_API_KEY."
    if isinstance(exc, openai.PermissionDeniedError):
        return f"The endpoint {where} denied access for this key: check the key's permissions."
    if isinstance(exc, openai.NotFoundError):
        model = settings.model if settings else "the model"
        return (
            f"Model {model!r} is not available at {where}: set FLOWAGENT_MODEL (or --model) to a model it serves."
        )
    if isinstance(exc, openai.APITimeoutError):
        return f"The model at {where} did not answer in time: raise FLOWAGENT_TIMEOUT_S or check the server."
    if isinstance(exc, openai.APIConnectionError):
        return f"Cannot reach the model endpoint {where}: check OPENAI_BASE_URL and that the server is running."
    if isinstance(exc, openai.RateLimitError):
        return f"The endpoint {where} is rate-limiting or out of quota: wait, or lower FLOWAGENT_RATE_LIMIT_RPS."
    if isinstance(exc, openai.APIStatusError):
        return f"The endpoint {where} answered HTTP {exc.status_code}: {str(exc)[:200]}"
    from flowagent.models.local import LocalModelError

    if isinstance(exc, LocalModelError):
        return str(exc)
    return None
