"""The `flowagent` command line."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    print("flowagent: no model configured yet (the chat lands with the graph).", file=sys.stderr)
    return 1
