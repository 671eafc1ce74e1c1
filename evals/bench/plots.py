"""PNG plots of the benchmark results (matplotlib, Agg backend: no display needed)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402 - the backend must be chosen first

Series = Mapping[str, tuple[Sequence[float], Sequence[float]]]


def lines(
    path: Path,
    *,
    title: str,
    xlabel: str,
    ylabel: str,
    series: Series,
    logy: bool = False,
    reference: tuple[str, Sequence[float], Sequence[float]] | None = None,
) -> None:
    """One line per series (x, y); an optional dashed reference line (label, x, y)."""
    fig, ax = plt.subplots(figsize=(7.5, 4.5), dpi=110)
    for label, (xs, ys) in series.items():
        ax.plot(xs, ys, marker="o", label=label)
    if reference is not None:
        label, xs, ys = reference
        ax.plot(xs, ys, linestyle="--", color="grey", label=label)
    if logy:
        ax.set_yscale("log")
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def bars(path: Path, *, title: str, ylabel: str, groups: list[str], series: dict[str, list[float]]) -> None:
    """Grouped bars: one group per label in `groups`, one bar per series."""
    fig, ax = plt.subplots(figsize=(min(11.0, max(7.5, 0.3 * len(groups) * max(1, len(series)))), 4.8), dpi=110)
    width = 0.8 / max(1, len(series))
    for i, (label, values) in enumerate(series.items()):
        xs = [g + i * width for g in range(len(groups))]
        ax.bar(xs, values, width=width, label=label)
    ax.set_xticks([g + width * (len(series) - 1) / 2 for g in range(len(groups))])
    ax.set_xticklabels(groups, rotation=30, ha="right", fontsize=7)
    ax.set_title(title)
    ax.set_ylabel(ylabel)
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
