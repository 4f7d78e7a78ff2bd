"""Figures for a paper: the forest plot of the paired differences and the distribution of the
per-seed differences.

- :func:`forest_plot`: one panel per metric (each in its own unit), one row per variant:
  the paired difference B − A with its interval, a line at 0 and, where a margin of
  equivalence is set, the band (−m, m) in grey.
- :func:`seed_difference_plot`: for each headline metric, the histogram of the per-seed
  differences B − A (what the paired interval summarizes), their mean marked.

Matplotlib's object API (no pyplot); the styling and the ``Plot`` record are the report's.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ckdsl.sim.compare.summaries import MAX_BINS

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["ForestRow", "forest_figure", "seed_difference_figure"]


@dataclass(frozen=True)
class ForestRow:
    """One variant's difference for one metric, in display units (already scaled)."""

    metric: str  # the metric's label
    unit: str
    variant: str
    estimate: float | None
    low: float | None
    high: float | None
    significant: bool
    margin: float | None = None  # the equivalence margin in display units


def forest_figure(rows: Sequence[ForestRow], level_text: str, colours: Sequence[str]) -> Figure:
    """The forest plot: a panel per metric (its own unit and scale), a row per variant."""
    from matplotlib.figure import Figure

    metrics = list(dict.fromkeys(r.metric for r in rows))
    variants = list(dict.fromkeys(r.variant for r in rows))
    if not metrics:
        empty = Figure(figsize=(8, 2), layout="constrained")
        ax = empty.subplots()
        ax.text(0.5, 0.5, "no difference to show", ha="center", va="center")
        ax.set_axis_off()
        return empty
    height = 0.9 + sum(0.28 * len(variants) + 0.45 for _ in metrics)
    figure = Figure(figsize=(8, max(2.5, height)), layout="constrained")
    axes = figure.subplots(len(metrics), 1, squeeze=False)[:, 0]
    for ax, metric in zip(axes, metrics, strict=True):
        mine = [r for r in rows if r.metric == metric]
        unit = mine[0].unit
        margin = next((r.margin for r in mine if r.margin is not None), None)
        if margin is not None:
            ax.axvspan(-margin, margin, color="#d0d7de", alpha=0.6, linewidth=0)
        ax.axvline(0.0, color="#57606a", linewidth=1)
        for row in mine:
            y = len(variants) - 1 - variants.index(row.variant)
            colour = colours[(variants.index(row.variant) + 1) % len(colours)]
            if row.estimate is None:
                continue
            if row.low is not None and row.high is not None:
                ax.hlines(y, row.low, row.high, color=colour, linewidth=2)
            ax.plot(
                [row.estimate],
                [y],
                marker="D" if row.significant else "o",
                color=colour,
                markerfacecolor=colour if row.significant else "white",
                markersize=6,
            )
        ax.set_yticks(range(len(variants)), list(reversed(variants)))
        ax.set_ylim(-0.6, len(variants) - 0.4)
        ax.set_title(f"{metric}" + (f" (Δ, {unit})" if unit else " (Δ)"), loc="left")
        ax.grid(axis="y", visible=False)
    figure.suptitle(f"Paired differences B − A with {level_text} intervals", fontsize=11)
    return figure


def seed_difference_figure(
    differences: Mapping[str, Mapping[str, npt.NDArray[np.float64]]],
    labels: Mapping[str, tuple[str, str, float]],
    colours: Sequence[str],
) -> Figure:
    """Histograms of the per-seed differences: ``differences[variant][metric]`` (raw
    units), ``labels[metric]`` = (label, unit, scale); a panel per metric, variants
    overlaid, each mean marked by a dashed line."""
    from matplotlib.figure import Figure

    metrics = [m for m in labels if any(m in d for d in differences.values())]
    cols = 2 if len(metrics) > 1 else 1
    rows = max(1, math.ceil(len(metrics) / cols))
    figure = Figure(figsize=(9, 2.6 * rows + 0.6), layout="constrained")
    axes = figure.subplots(rows, cols, squeeze=False).ravel()
    for ax, metric in zip(axes, metrics, strict=False):
        label, unit, scale = labels[metric]
        values = [d[metric] * scale for d in differences.values() if metric in d]
        pooled = np.concatenate(values) if values else np.zeros(0)
        edges = _difference_edges(pooled)
        for i, (variant, per_metric) in enumerate(differences.items()):
            if metric not in per_metric:
                continue
            data = per_metric[metric] * scale
            colour = colours[(i + 1) % len(colours)]
            weights = np.full(data.size, 100.0 / data.size) if data.size else None
            ax.hist(data, bins=edges, weights=weights, histtype="step", color=colour, label=variant)
            if data.size:
                ax.axvline(float(data.mean()), color=colour, linestyle="--", linewidth=1.2)
        ax.axvline(0.0, color="#57606a", linewidth=1)
        ax.set_title(label, loc="left")
        ax.set_xlabel(f"per-seed difference B − A{f' ({unit})' if unit else ''}")
        ax.set_ylabel("seeds (%)")
    for ax in axes[len(metrics) :]:
        ax.set_visible(False)
    if len(differences) > 1 and metrics:
        axes[0].legend(frameon=False)
    figure.suptitle("Per-seed differences (the seed's rotations averaged)", fontsize=11)
    return figure


def _difference_edges(values: npt.NDArray[np.float64]) -> npt.NDArray[np.float64] | int:
    """Bins for differences: on the data's own lattice when it is discrete (a seat's share
    of four rotations moves in steps of 25 points), numpy's rule otherwise."""
    finite = values[np.isfinite(values)]
    if finite.size == 0:
        return 10
    distinct = np.unique(np.round(finite, 9))
    steps = np.diff(distinct)
    step = float(steps.min()) if steps.size else 1.0
    if (distinct[-1] - distinct[0]) / step <= 2 * MAX_BINS:
        lattice: npt.NDArray[np.float64] = np.arange(
            distinct[0] - step / 2, distinct[-1] + step, step
        )
        return lattice
    edges: npt.NDArray[np.float64] = np.histogram_bin_edges(finite, bins="auto")
    if edges.size > MAX_BINS + 1:
        edges = np.histogram_bin_edges(finite, bins=MAX_BINS)
    return edges
