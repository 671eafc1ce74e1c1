"""`python -m flowagent.models.local`: its arguments and its one-line errors, without a download or a server."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from flowagent.models.local.__main__ import main


@pytest.fixture(autouse=True)
def _restore_signal_handlers() -> Iterator[None]:
    """`main` turns SIGTERM and SIGHUP into SystemExit; give the test process its own handlers back."""
    saved = {signum: signal.getsignal(signum) for signum in (signal.SIGTERM, signal.SIGHUP)}
    yield
    for signum, handler in saved.items():
        signal.signal(signum, handler)


def test_an_unknown_model_name_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["ensure", "llama-70b"])
    assert exited.value.code == 2
    assert "invalid choice: 'llama-70b'" in capsys.readouterr().err


def test_a_model_directory_that_cannot_be_made_is_one_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    not_a_dir = tmp_path / "file"
    not_a_dir.write_text("")
    assert main(["ensure", "smollm2", "--dir", str(not_a_dir / "models")]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    [line] = err.splitlines()
    assert line.startswith("flowagent: error: Could not create the model directory"), err
