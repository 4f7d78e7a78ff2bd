"""The report's figures (matplotlib, Agg backend), each with a caption saying how to read it.

Win rate by seat with error bars, game-length distributions, victory-point trajectories,
barbarian outcomes. :func:`write_plots` saves each as PNG and SVG, with ``captions.txt``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING

from ckdsl.sim.compare.analysis import ComparisonReport
from ckdsl.sim.compare.summaries import MetricSummary

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
    from matplotlib.figure import Figure
    from matplotlib.typing import RcKeyType
from ckdsl.sim.report.cells import _pct
from ckdsl.sim.report.figures import forest_figure, seed_difference_figure
from ckdsl.sim.report.readouts import forest_rows, seed_differences

__all__ = [
    "Plot",
    "figures",
    "write_plots",
]

COLOURS = ("#1f6fb2", "#d1495b", "#2a9d5c", "#e0a100", "#7b4fa0", "#5c6b73")
"""One colour per rule set, the base first (colour-blind-friendly enough for 2 to 4 sets)."""


# --- Figures -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Plot:
    """A figure, its file name (without extension), its title and its caption."""

    name: str
    title: str
    caption: str
    figure: Figure


def _style() -> dict[RcKeyType, float | bool | str]:
    """The rc parameters of every figure (``matplotlib.rc_context``)."""
    return {
        "font.size": 10,
        "axes.titlesize": 11,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "axes.grid": True,
        "grid.alpha": 0.3,
        "svg.hashsalt": "ckdsl",
        "svg.fonttype": "path",
    }


def _colour(index: int) -> str:
    return COLOURS[index % len(COLOURS)]


def _error_bars(
    values: Sequence[MetricSummary | None], scale: float = 1.0
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """The means and their error bars (``yerr``: the rows below and above), scaled."""
    import numpy as np

    means, lows, highs = [], [], []
    for m in values:
        interval = m.interval if m is not None else None
        mean = interval.estimate if interval and interval.estimate is not None else math.nan
        low = interval.low if interval and interval.low is not None else mean
        high = interval.high if interval and interval.high is not None else mean
        means.append(mean * scale)
        lows.append((mean - low) * scale)
        highs.append((high - mean) * scale)
    return np.asarray(means), np.asarray([lows, highs])


def _win_rate_plot(report: ComparisonReport) -> Plot:
    import numpy as np
    from matplotlib.figure import Figure

    seats = max(r.seats for r in report.rulesets)
    count = len(report.rulesets)
    figure = Figure(figsize=(8, 4.2), layout="constrained")
    ax = figure.subplots()
    width = 0.8 / count
    x = np.arange(seats)
    for i, summary in enumerate(report.rulesets):
        rates: list[float] = []
        errors: list[list[float]] = [[], []]
        for seat in summary.win_by_seat:
            interval = seat.interval
            rate = interval.estimate or 0.0
            rates.append(rate * 100)
            errors[0].append((rate - (interval.low or rate)) * 100)
            errors[1].append(((interval.high or rate) - rate) * 100)
        offset = (i - (count - 1) / 2) * width
        ax.bar(
            x[: len(rates)] + offset,
            rates,
            width * 0.92,
            yerr=errors,
            capsize=3,
            color=_colour(i),
            label=summary.label,
        )
        fair = 100 * summary.finished / summary.games / summary.seats if summary.games else 0
        ax.hlines(fair, -0.5, seats - 0.5, colors=_colour(i), linestyles=":", linewidth=1.2)
    ax.set_xticks(x, [f"seat {s + 1}" for s in range(seats)])
    ax.set_xlim(-0.5, seats - 0.5)
    ax.set_ylabel("games won (%)")
    ax.set_title(f"Win rate by seat, with {_pct(report.level)} intervals clustered by seed")
    ax.legend(frameon=False, loc="upper center", bbox_to_anchor=(0.5, -0.08), ncol=count)
    level = _pct(report.level)
    caption = (
        f"Each bar is the share of all games (unfinished ones included) that the seat won, "
        f"with its {level} Wilson interval on the effective number of games (the games of a "
        "seed are not independent: the interval counts them as the design effect of their "
        "clustering says). The dotted line in a rule set's colour is an equal "
        "share of its finished games (finished share ÷ seats): a bar whose interval misses "
        "its line points to a seat advantage. Read the seat-balance test (by seed) in the "
        "tables before drawing a conclusion about a single seat."
    )
    return Plot("win_rate_by_seat", "Win rate by seat", caption, figure)


def _length_plot(report: ComparisonReport) -> Plot:
    import numpy as np
    from matplotlib.figure import Figure

    figure = Figure(figsize=(9, 3.8), layout="constrained")
    hist, ecdf = figure.subplots(1, 2)
    for i, summary in enumerate(report.rulesets):
        edges, counts = summary.turns_histogram
        if counts:
            total = sum(counts)
            share = [100 * c / total for c in counts]
            hist.stairs(share, edges, color=_colour(i), linewidth=1.6, label=summary.label)
        quantiles = summary.turns_quantiles
        if quantiles:
            levels = np.linspace(0, 100, len(quantiles))
            ecdf.step(quantiles, levels, where="post", color=_colour(i), label=summary.label)
    hist.set_xlabel("turns")
    edges = report.rulesets[0].turns_histogram[0]
    width = f" per {edges[1] - edges[0]:g}-turn bin" if len(edges) > 1 else ""
    hist.set_ylabel(f"games (%){width}")
    hist.set_title("Distribution of game length")
    ecdf.set_xlabel("turns")
    ecdf.set_ylabel("games over by then (%)")
    ecdf.set_title("Share of games over, by turn")
    ecdf.legend(frameon=False, loc="upper left")
    caption = (
        "Left: the share of games that lasted each range of turns (the same bins for every "
        "rule set, each a whole number of turns wide). Right: the share of games over by "
        "each turn (an empirical cumulative distribution); a curve further right means "
        "longer games, a steeper one less varied lengths. Games stopped by the turn limit "
        "pile up at the right-hand edge of both "
        "panels: they are counted, never dropped."
    )
    return Plot("game_length", "Game length", caption, figure)


def _trajectory_plot(report: ComparisonReport) -> Plot:
    from matplotlib.figure import Figure

    figure = Figure(figsize=(8, 4.2), layout="constrained")
    ax = figure.subplots()
    horizon = 0
    drawn = False
    for i, summary in enumerate(report.rulesets):
        t = summary.trajectory
        if t is None:
            continue
        # Stop where fewer than 5% of the games are still running.
        end = next((k for k, r in enumerate(t.running) if r < 0.05), len(t.turns) - 1)
        horizon = max(horizon, t.turns[end])
        ax.plot(
            t.turns, t.winner, color=_colour(i), linewidth=1.8, label=f"{summary.label}: winner"
        )
        ax.plot(
            t.turns,
            t.others,
            color=_colour(i),
            linewidth=1.4,
            linestyle="--",
            label=f"{summary.label}: the others",
        )
        drawn = True
    if drawn:
        ax.set_xlim(0, max(horizon, 1))
        ax.legend(frameon=False, loc="upper left")
    else:
        ax.text(0.5, 0.5, "no finished game", ha="center", va="center", transform=ax.transAxes)
    ax.set_xlabel("turns played")
    ax.set_ylabel("mean victory points")
    ax.set_title("Victory points of the eventual winner and of the others")
    caption = (
        "Mean victory points after each turn of the player who eventually won (solid) and "
        "the mean of the other players (dashed), over the finished games; a game that is "
        "over keeps its final score, and the curves stop where fewer than 5% of the games are "
        "still being played. Where the solid line pulls away from the dashed one, the "
        "eventual winner builds a lead; lines that split only at the end mean races decided "
        "late."
    )
    return Plot("vp_trajectories", "Victory-point trajectories", caption, figure)


_BARBARIAN_METRICS = (
    ("attacks_won", "attacks won"),
    ("attacks_lost", "attacks lost"),
    ("cities_pillaged", "cities pillaged"),
    ("defender_awards", "Defender awards"),
)


def _barbarian_plot(report: ComparisonReport) -> Plot:
    import numpy as np
    from matplotlib.figure import Figure

    figure = Figure(figsize=(8, 4.2), layout="constrained")
    ax = figure.subplots()
    count = len(report.rulesets)
    width = 0.8 / count
    x = np.arange(len(_BARBARIAN_METRICS))
    for i, summary in enumerate(report.rulesets):
        values = [summary.metric(name) for name, _ in _BARBARIAN_METRICS]
        means, errors = _error_bars(values)
        offset = (i - (count - 1) / 2) * width
        ax.bar(
            x + offset,
            means,
            width * 0.92,
            yerr=errors,
            capsize=3,
            color=_colour(i),
            label=summary.label,
        )
    ax.set_xticks(x, [label for _, label in _BARBARIAN_METRICS])
    ax.set_ylabel("per game")
    ax.set_title("Barbarian attacks and their outcomes")
    ax.legend(frameon=False, loc="upper center", bbox_to_anchor=(0.5, -0.08), ncol=count)
    level = _pct(report.level)
    caption = (
        "The mean number per game of barbarian attacks the defenders won and lost, of cities "
        "pillaged, and of Defender of Catan awards, with "
        f"{level} intervals over seeds (the games of a seed are averaged first). More attacks "
        "lost per game and more cities pillaged mean deadlier barbarians; the tables give the "
        "share of attacks lost and each difference with its interval."
    )
    return Plot("barbarians", "Barbarian outcomes", caption, figure)


def _forest_plot(report: ComparisonReport) -> Plot:
    level = _pct(report.level)
    figure = forest_figure(forest_rows(report), level, COLOURS)
    caption = (
        f"Each headline difference B − A (variant minus base) with its {level} interval, "
        "paired on seeds, one panel per metric in its own unit; a filled diamond is "
        "significant after Holm's correction, an open circle is not. An interval that "
        "crosses the vertical line at 0 does not show a difference; where a margin of "
        "equivalence was given (--margin), the grey band is (−margin, +margin), and an "
        "interval inside it is a small effect. The variant × seat test, which has no single "
        "difference, is in the table."
    )
    return Plot("forest", "Forest plot of the paired differences", caption, figure)


def _seed_difference_plot(report: ComparisonReport) -> Plot:
    data, labels = seed_differences(report)
    figure = seed_difference_figure(data, labels, COLOURS)
    caption = (
        "For each headline metric, the distribution of the per-seed differences B − A (the "
        "games of a seed averaged first): what the paired interval summarizes. The dashed "
        "line is their mean. A narrow peak at 0 means the seeds gave the same games under "
        "both rule sets; a wide or skewed spread asks for the bootstrap (--bootstrap)."
    )
    return Plot("seed_differences", "Per-seed differences", caption, figure)


PLOTS: tuple[Callable[[ComparisonReport], Plot], ...] = (
    _forest_plot,
    _seed_difference_plot,
    _win_rate_plot,
    _length_plot,
    _trajectory_plot,
    _barbarian_plot,
)


def figures(report: ComparisonReport) -> list[Plot]:
    """Every figure of the report (matplotlib's object API: no pyplot, no global state)."""
    import matplotlib

    with matplotlib.rc_context(_style()):
        return [make(report) for make in PLOTS]


def _save(plot: Plot, target: IO[bytes] | Path, fmt: str, dpi: int = 110) -> None:
    import matplotlib

    metadata: dict[str, str | None] = {"Date": None} if fmt == "svg" else {}
    with matplotlib.rc_context(_style()):
        plot.figure.savefig(target, format=fmt, dpi=dpi, metadata=metadata)
    # laid out once: a figure saved again (PNG, then SVG) is drawn once more, not twice
    plot.figure.set_layout_engine("none")


def write_plots(report: ComparisonReport, folder: Path | str) -> list[Path]:
    """Each figure as ``NAME.png`` and ``NAME.svg`` in ``folder`` (created), and
    ``captions.txt`` with how to read each. Returns the files written."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    lines = []
    for plot in figures(report):
        for fmt in ("png", "svg"):
            path = out / f"{plot.name}.{fmt}"
            _save(plot, path, fmt, dpi=150)
            written.append(path)
        lines.append(f"{plot.name}.png / {plot.name}.svg: {plot.title}\n  {plot.caption}\n")
    captions = out / "captions.txt"
    captions.write_text("\n".join(lines), encoding="utf-8")
    written.append(captions)
    return written
