"""The `evals` extra: what the evaluation and benchmark commands need beyond flowagent itself."""

from __future__ import annotations

import importlib.util

EXTRA = "evals"
INSTALL_HINT = "pip install 'flowagent[evals]' (in a checkout: pip install -e '.[evals]')"


def missing(*modules: str) -> list[str]:
    """The top-level modules of `modules` that cannot be imported here."""
    return [m for m in modules if importlib.util.find_spec(m) is None]


def require(prog: str, *modules: str) -> str | None:
    """None when every module is installed, else one sentence naming them and the extra to install."""
    absent = missing(*modules)
    if not absent:
        return None
    return f"{prog} needs {', '.join(absent)}, from the '{EXTRA}' extra: {INSTALL_HINT}"
