"""The dose-response figure of a sweep: every measure against the swept value.

Panels: each seat's win rate (one line per seat, the fair share dashed), the seat spread
(largest minus smallest seat win rate), the finished share, the game length, and each
user metric; every point with its interval (t over seeds; the spread: bootstrap over
seeds), so a reader sees at once which differences the seeds can tell apart. A sweep of
one parameter puts its values on a numeric axis; a grid puts each combination on its
own tick. Drawn with matplotlib's Agg backend (no display needed).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from ckdsl.sim.sweep import Estimate, Level, label


def draw(
    levels: Sequence[Level],
    path: Path,
    *,
    title: str,
    user: Sequence[str] = (),
    chosen: Sequence[Level] = (),
) -> list[Path]:
    """Write the figure as PNG and SVG (``path`` with each suffix); the files written.
    ``chosen``: values to mark (a search's winner)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    one = all(len(found.point) == 1 for found in levels)
    xs = [found.point[0][1] if one else k for k, found in enumerate(levels)]
    seats = sorted(
        (c for c in levels[0].measures if re.fullmatch(r"seat\d+", c)), key=lambda c: int(c[4:])
    )
    panels: list[tuple[str, list[str], float]] = [
        ("win rate by seat", seats, 100.0),
        ("seat spread (max − min win rate)", ["seat_spread"], 100.0),
        ("finished games", ["finished"], 100.0),
        ("game length (turns)", ["turns"], 1.0),
        *((f"{name} (user metric)", [name], 1.0) for name in user),
    ]
    columns = 2
    rows = (len(panels) + 1) // columns
    figure, axes = plt.subplots(rows, columns, figsize=(11, 3.6 * rows), squeeze=False)
    for k, (name, measures, scale) in enumerate(panels):
        axis = axes[k // columns][k % columns]
        for measure in measures:
            estimates = [found.measures[measure] for found in levels]
            _errorbars(axis, xs, estimates, scale, measure if len(measures) > 1 else None)
        if measures == seats and seats:
            axis.axhline(100.0 / len(seats), color="grey", linestyle="--", linewidth=1)
            axis.legend(fontsize=8, ncols=len(seats))
        for found in chosen:
            x = found.point[0][1] if one else levels.index(found)
            axis.axvline(x, color="tab:red", alpha=0.35, linewidth=6)
        axis.set_title(name, fontsize=10)
        axis.set_ylabel("%" if scale == 100.0 else "")
        if one:
            axis.set_xlabel(levels[0].point[0][0])
            axis.set_xticks(xs)
        else:
            axis.set_xticks(xs, [label(f.point) for f in levels], rotation=30, fontsize=7)
        axis.grid(alpha=0.3)
    for k in range(len(panels), rows * columns):
        axes[k // columns][k % columns].set_visible(False)
    figure.suptitle(title, fontsize=11)
    figure.tight_layout()
    written = []
    for suffix in (".png", ".svg"):
        out = path.with_suffix(suffix)
        out.parent.mkdir(parents=True, exist_ok=True)
        figure.savefig(out, dpi=110, metadata={"Date": None} if suffix == ".svg" else None)
        written.append(out)
    plt.close(figure)
    return written


def _errorbars(axis: object, xs: Sequence[float], estimates: Sequence[Estimate], scale: float,
               name: str | None) -> None:  # fmt: skip
    ys, low, high = [], [], []
    for e in estimates:
        y = e.estimate if e.estimate is not None else float("nan")
        ys.append(scale * y)
        # a bootstrap interval of a biased statistic (the spread) may lie beside its estimate
        low.append(max(0.0, scale * (y - e.low)) if e.low is not None else 0.0)
        high.append(max(0.0, scale * (e.high - y)) if e.high is not None else 0.0)
    axis.errorbar(  # type: ignore[attr-defined]
        xs, ys, yerr=[low, high], marker="o", capsize=3, linewidth=1.2, label=name
    )
