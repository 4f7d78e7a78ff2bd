"""Show a :class:`~ckdsl.sim.compare.analysis.ComparisonReport`: a terminal table, plots, one
HTML file.

- :func:`print_report`: the headline table of each variant against the base (A, B, Δ with
  its interval, p, Holm-adjusted p, significant), the seat-balance tests, the pairing gain,
  the verdicts and any warnings, with rich, on stdout.
- :func:`figures` / :func:`write_plots`: the figures (matplotlib, Agg backend): win rate by
  seat with error bars, game-length distributions, victory-point trajectories, barbarian
  outcomes; each with a caption saying how to read it. ``write_plots`` saves each as PNG and
  SVG, with ``captions.txt``.
- :func:`render_html` / :func:`write_html`: one self-contained HTML file (inline CSS, the
  figures as base64 PNG, no script and no external reference) with a header that states the
  design (rules hashes, engine version, bots and versions, seeds, rotations, games, stopping
  rule), the verdicts, the headline tables, the figures, each rule set's metrics, the
  exploratory differences and the methods.

Matplotlib and rich are imported inside the functions that use them.
"""

from __future__ import annotations

import base64
import html
import io
import math
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING

from ckdsl.files import write_whole
from ckdsl.sim.compare.analysis import ComparisonReport
from ckdsl.sim.compare.differences import Comparison, Difference
from ckdsl.sim.compare.summaries import MetricSummary, RuleSetSummary
from ckdsl.sim.compare.verdicts import format_delta

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
    from matplotlib.figure import Figure
    from matplotlib.typing import RcKeyType

__all__ = [
    "Plot",
    "figures",
    "format_p",
    "headline_rows",
    "print_report",
    "render_html",
    "write_html",
    "write_plots",
]

COLOURS = ("#1f6fb2", "#d1495b", "#2a9d5c", "#e0a100", "#7b4fa0", "#5c6b73")
"""One colour per rule set, the base first (colour-blind-friendly enough for 2 to 4 sets)."""

GROUP_TITLES = {
    "outcome": "Outcomes",
    "length": "Game length",
    "points": "Points",
    "ludii": "Lead, drama, decisiveness (Ludii-style)",
    "barbarians": "Barbarians",
    "metropolis": "Improvements and metropolises",
    "progress": "Progress cards",
    "knights": "Knights",
    "board": "Robber, merchant, longest road",
    "building": "Building",
    "trade": "Trade",
    "cards": "Progress cards, card by card",
    "other": "Other",
}


# --- Formatting ----------------------------------------------------------------------------


def format_p(p: float | None) -> str:
    """``"0.024"``, ``"<0.0001"``; ``"–"`` when there was no test."""
    if p is None or not math.isfinite(p):
        return "–"
    if p < 1e-4:
        return "<0.0001"
    if p >= 0.995:
        return "1"
    if p < 0.01:
        return f"{p:.2g}"
    # Three digits near the usual thresholds, so that 0.0496 does not read as 0.05.
    return f"{p:.3g}" if p < 0.1 else f"{p:.2f}"


def _p_phrase(p: float | None) -> str:
    """``"p = 0.54"``, ``"p < 0.0001"``."""
    text = format_p(p)
    return f"p {text[0]} {text[1:]}" if text.startswith("<") else f"p = {text}"


def _value(value: float | None, scale: float, unit: str) -> str:
    if value is None:
        return "n/a"
    if unit == "pp":
        return f"{value * scale:.1f}%"
    magnitude = abs(value * scale)
    digits = 1 if magnitude >= 10 else 2
    if unit in ("turns", "decisions"):
        digits = 1
    return f"{value * scale:.{digits}f}"


def _pct(level: float) -> str:
    """``0.95`` → ``"95%"``, ``0.975`` → ``"97.5%"``."""
    return f"{100 * level:.1f}".removesuffix(".0") + "%"


def _cell(d: Difference, which: str) -> str:
    value = d.a if which == "a" else d.b
    return _value(value, d.spec.scale, d.spec.unit)


def _significance(d: Difference) -> str:
    if d.p is None:
        return "no test"
    return "yes" if d.significant else "no"


def headline_rows(comparison: Comparison) -> list[list[str]]:
    """The headline table's rows: metric, A, B, Δ [interval], p, adjusted p, significant."""
    return [
        [
            d.spec.label,
            _cell(d, "a"),
            _cell(d, "b"),
            format_delta(d),
            format_p(d.p),
            format_p(d.adjusted_p),
            _significance(d),
        ]
        for d in comparison.headline
    ]


def _design_line(report: ComparisonReport, comparison: Comparison) -> str:
    a = report.ruleset(comparison.base)
    b = report.ruleset(comparison.variant)
    rotations = len(a.rotations)
    seeds = f"{a.seeds} seeds" + (f" × {rotations} rotations" if rotations > 1 else "")
    games = f"{a.games} games" if a.games == b.games else f"{a.games} and {b.games} games"
    design = (
        f"paired on {comparison.matched_games} games ({comparison.matched_seeds} seeds)"
        if comparison.paired
        else "unpaired (no common seeds)"
    )
    level = _pct(report.level)
    method = "t" if report.method == "t" else "bootstrap BCa"
    return (
        f"{seeds}: {games}; {design}; {level} intervals ({method}); "
        f"Holm over {report.headline_tests} headline tests"
    )


def _balance_text(summary: RuleSetSummary) -> str:
    test = summary.seat_balance
    if test.p is None or test.statistic is None:
        return f"{summary.label}: no finished game"
    balance = "" if summary.balance is None else f"; balance {summary.balance:.3f}"
    return (
        f"{summary.label}: χ² = {test.statistic:.2f}, {test.dof} df, {_p_phrase(test.p)} "
        f"on {summary.finished} finished of {summary.games} games{balance}"
    )


def _gain_text(comparison: Comparison) -> str:
    parts = []
    for row in comparison.pairing:
        gain = row.gain
        if gain.gain is None:
            parts.append(f"{row.label} n/a")
            continue
        r = f" (r = {gain.correlation:.2f})" if gain.correlation is not None else ""
        parts.append(f"{row.label} {gain.gain:.1f}×{r}")
    return "; ".join(parts)


# --- Terminal ------------------------------------------------------------------------------


def print_report(
    report: ComparisonReport, file: IO[str] | None = None, *, width: int | None = None
) -> None:
    """The headline tables and verdicts on ``file`` (stdout), with rich."""
    from rich import box
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    out = file or sys.stdout
    if width is None and not out.isatty():
        width = 120
    console = Console(file=out, width=width, highlight=False, soft_wrap=False)
    for summary in report.rulesets:
        hashes = ", ".join(h[:12] for h in summary.rules_hashes) or "?"
        console.print(
            f"[bold]{summary.label}[/bold]  rules {hashes}  {summary.games} games, "
            f"{summary.finished} finished ({summary.games - summary.finished} hit the turn "
            "limit)"
        )
    if report.stopping is not None:
        console.print(f"Stopping rule: {report.stopping.describe()}")
    for comparison in report.comparisons:
        console.print()
        table = Table(
            title=f"{comparison.variant} against {comparison.base}",
            caption=_design_line(report, comparison),
            box=box.SIMPLE_HEAD,
            title_justify="left",
            caption_justify="left",
        )
        table.add_column("metric", ratio=1)
        table.add_column(f"A: {comparison.base}", justify="right")
        table.add_column(f"B: {comparison.variant}", justify="right")
        table.add_column(f"Δ B − A [{_pct(report.level)} CI]", justify="right", no_wrap=True)
        table.add_column("p", justify="right", no_wrap=True)
        table.add_column("p Holm", justify="right", no_wrap=True)
        table.add_column("signif.", justify="center", no_wrap=True)
        for d, row in zip(comparison.headline, headline_rows(comparison), strict=True):
            style = "bold" if d.significant else None
            table.add_row(*row, style=style)
        console.print(table)
        console.print("[bold]Seat balance[/bold] (χ² test of wins across seats):")
        for label in (comparison.base, comparison.variant):
            console.print("  " + _balance_text(report.ruleset(label)), highlight=False)
        if comparison.pairing:
            console.print(
                "[bold]Pairing gain[/bold] (variance unpaired ÷ paired): " + _gain_text(comparison)
            )
        console.print("[bold]Verdict[/bold]")
        for line in comparison.verdicts:
            console.print(Text("  • " + line))
        found = [d for d in comparison.exploratory if d.significant]
        tested = sum(1 for d in comparison.exploratory if d.p is not None)
        console.print(
            f"[bold]Exploratory panel[/bold]: {len(found)} of {tested} metrics differ "
            "significantly after Benjamini–Hochberg" + (":" if found else ".")
        )
        for d in found[:12]:
            console.print(Text(f"  • {d.spec.label}: {format_delta(d)}"))
        if len(found) > 12:
            console.print(f"  … and {len(found) - 12} more (see --json or --report)")
        for warning in comparison.warnings:
            console.print(Text(f"warning: {warning}"), style="yellow")


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
    ax.set_title(f"Win rate by seat, with {_pct(report.level)} Wilson intervals")
    ax.legend(frameon=False, loc="upper center", bbox_to_anchor=(0.5, -0.08), ncol=count)
    level = _pct(report.level)
    caption = (
        f"Each bar is the share of all games (unfinished ones included) that the seat won, "
        f"with its {level} Wilson interval. The dotted line in a rule set's colour is an equal "
        "share of its finished games (finished share ÷ seats): a bar whose interval misses "
        "its line points to a seat advantage. Read the seat-balance χ² test in the tables "
        "before drawing a conclusion about a single seat."
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
    hist.set_ylabel("games (%)")
    hist.set_title("Distribution of game length")
    ecdf.set_xlabel("turns")
    ecdf.set_ylabel("games over by then (%)")
    ecdf.set_title("Share of games over, by turn")
    ecdf.legend(frameon=False, loc="upper left")
    caption = (
        "Left: the share of games that lasted each range of turns (the same bins for every "
        "rule set). Right: the share of games over by each turn (an empirical cumulative "
        "distribution); a curve further right means longer games, a steeper one less varied "
        "lengths. Games stopped by the turn limit pile up at the right-hand edge of both "
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


PLOTS: tuple[Callable[[ComparisonReport], Plot], ...] = (
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


# --- HTML ----------------------------------------------------------------------------------

CSS = """
:root { color-scheme: light; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial,
  sans-serif; color: #1d232a; background: #fff; margin: 0; }
main { max-width: 1040px; margin: 0 auto; padding: 24px 28px 64px; }
h1 { font-size: 1.6em; margin: 0.2em 0 0.1em; }
h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #d8dee4; padding-bottom: 4px; }
h3 { font-size: 1.05em; margin-top: 1.5em; }
p.lead { color: #57606a; margin-top: 0; }
table { border-collapse: collapse; margin: 0.6em 0 1em; font-size: 0.92em; width: 100%; }
th, td { padding: 4px 8px; border-bottom: 1px solid #e5e9ee; vertical-align: top; }
td .mono { overflow-wrap: anywhere; }
th { text-align: left; background: #f4f6f8; font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.sig td { font-weight: 600; }
tr.sig td.flag { color: #1a7f37; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  font-size: 0.9em; }
ul.verdict li { margin: 0.25em 0; }
.warning { background: #fff8c5; border: 1px solid #d4a72c; padding: 6px 10px;
  border-radius: 4px; margin: 0.5em 0; }
figure { margin: 1.5em 0; }
figure img { max-width: 100%; height: auto; border: 1px solid #e5e9ee; }
figcaption { color: #414a53; font-size: 0.92em; margin-top: 0.4em; }
.muted { color: #57606a; }
details summary { cursor: pointer; font-weight: 600; margin: 0.6em 0; }
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _table(head: Sequence[str], rows: Sequence[Sequence[str]], numeric: Sequence[int] = ()) -> str:
    """An HTML table; ``rows`` are already-escaped cells; ``numeric``: right-aligned columns."""
    cols = "".join(
        f'<th class="num">{h}</th>' if i in numeric else f"<th>{h}</th>" for i, h in enumerate(head)
    )
    body = []
    for row in rows:
        cls = ""
        if row and isinstance(row, _Row) and row.significant:
            cls = ' class="sig"'
        cells = "".join(
            f'<td class="num">{c}</td>' if i in numeric else f"<td>{c}</td>"
            for i, c in enumerate(row)
        )
        body.append(f"<tr{cls}>{cells}</tr>")
    return f"<table><thead><tr>{cols}</tr></thead><tbody>{''.join(body)}</tbody></table>"


class _Row(list[str]):
    """A table row that can be marked significant (shown in bold)."""

    significant: bool = False


def _sig_row(cells: Sequence[str], significant: bool) -> _Row:
    row = _Row(cells)
    row.significant = significant
    return row


def _design_section(report: ComparisonReport, run: Mapping[str, str | int] | None) -> str:
    rows = []
    for summary in report.rulesets:
        versions = dict(summary.bot_versions)
        lineups = "<br>".join(
            ", ".join(
                f"<span class='mono'>{_e(bot)}</span>"
                + (f" <span class='muted'>v{_e(versions[bot])}</span>" if bot in versions else "")
                for bot in lineup
            )
            for lineup in summary.lineups
        )
        hashes = "<br>".join(f"<span class='mono'>{_e(h)}</span>" for h in summary.rules_hashes)
        store = summary.store
        source = _e(store.get("rules", "")) if store else ""
        master = store.get("master_seed") if store else None
        seeds = (
            f"{summary.seeds} (index {summary.seed_index_range[0]}–"
            f"{summary.seed_index_range[1]}"
            + (f", master seed {_e(master)}" if master is not None else "")
            + f"; digest <span class='mono'>{_e(summary.seeds_digest)}</span>)"
        )
        rows.append(
            [
                f"<b>{_e(summary.label)}</b>"
                + (f"<br><span class='muted'>{source}</span>" if source else ""),
                hashes,
                ", ".join(_e(v) for v in summary.engine_versions),
                lineups,
                seeds,
                ", ".join(str(r) for r in summary.rotations),
                f"{summary.games}",
                f"{summary.finished} ({100 * summary.finished / summary.games:.1f}%)",
            ]
        )
    table = _table(
        [
            "rule set",
            "rules hash (SHA-256)",
            "engine",
            "bots (seat order of rotation 0)",
            "seeds",
            "rotations",
            "games",
            "finished",
        ],
        rows,
        numeric=(6, 7),
    )
    level = _pct(report.level)
    method = (
        "t intervals"
        if report.method == "t"
        else f"bootstrap BCa intervals (seed {report.seed}, resampling seeds)"
    )
    stopping = report.stopping.describe() if report.stopping else "fixed number of games"
    facts = [
        ("Stopping rule", _e(stopping)),
        ("Intervals", _e(f"{level}; means: {method}; proportions: Wilson / Newcombe")),
        (
            "Multiplicity",
            _e(
                f"Holm over {report.headline_tests} headline tests; Benjamini–Hochberg over "
                f"{report.exploratory_tests} exploratory tests"
            ),
        ),
    ]
    for comparison in report.comparisons:
        design = (
            f"paired on {comparison.matched_games} games, {comparison.matched_seeds} seeds "
            "(same seed, line-up and rotation)"
            if comparison.paired
            else "independent samples (no common seeds)"
        )
        facts.append((f"{_e(comparison.variant)} vs {_e(comparison.base)}", _e(design)))
    if run:
        for key in ("command",):
            if key in run:
                facts.append(("Command", f"<span class='mono'>{_e(run[key])}</span>"))
    facts_html = "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in facts)
    return f"{table}<table>{facts_html}</table>"


def _headline_section(report: ComparisonReport, comparison: Comparison) -> str:
    level = _pct(report.level)
    head = [
        "metric",
        f"A: {_e(comparison.base)}",
        f"B: {_e(comparison.variant)}",
        f"Δ B − A [{level} CI]",
        "p",
        "p (Holm)",
        "significant",
        "test",
    ]
    rows = [
        _sig_row([_e(c) for c in row] + [_e(d.test)], d.significant)
        for d, row in zip(comparison.headline, headline_rows(comparison), strict=True)
    ]
    parts = [f"<h3>{_e(comparison.variant)} against {_e(comparison.base)}</h3>"]
    parts.append(_table(head, rows, numeric=(1, 2, 3, 4, 5)))
    balance = "".join(
        f"<li>{_e(_balance_text(report.ruleset(label)))}</li>"
        for label in (comparison.base, comparison.variant)
    )
    parts.append(f"<p><b>Seat balance</b> (χ² test of wins across seats):</p><ul>{balance}</ul>")
    if comparison.pairing:
        rows_gain = []
        for row in comparison.pairing:
            g = row.gain
            rows_gain.append(
                [
                    _e(row.label),
                    _e(_num(g.var_independent)),
                    _e(_num(g.var_paired)),
                    _e("n/a" if g.gain is None else f"{g.gain:.1f}×"),
                    _e("n/a" if g.correlation is None else f"{g.correlation:.2f}"),
                    str(g.n),
                ]
            )
        parts.append(
            "<p><b>Pairing gain</b>: the variance of the mean difference if the seeds had been "
            "independent, over that of the paired design. A gain of 4× means an unpaired "
            "experiment would need 4 times as many seeds for the same precision.</p>"
        )
        parts.append(
            _table(
                [
                    "metric",
                    "variance, independent",
                    "variance, paired",
                    "gain",
                    "correlation A–B per seed",
                    "seeds",
                ],
                rows_gain,
                numeric=(1, 2, 3, 4, 5),
            )
        )
    for warning in comparison.warnings:
        parts.append(f"<div class='warning'>{_e(warning)}</div>")
    return "".join(parts)


def _num(value: float | None) -> str:
    if value is None:
        return "n/a"
    return f"{value:.3g}"


def _interval_text(m: MetricSummary | None) -> str:
    if m is None or m.interval.estimate is None:
        return "n/a"
    spec = m.spec
    est = _value(m.interval.estimate, spec.scale, spec.unit)
    if m.interval.low is None or m.interval.high is None:
        return est
    low = _value(m.interval.low, spec.scale, spec.unit)
    high = _value(m.interval.high, spec.scale, spec.unit)
    return f"{est} [{low}, {high}]"


def _quartiles(m: MetricSummary | None) -> str:
    if m is None or m.median is None or m.spec.kind == "proportion":
        return ""
    spec = m.spec
    return (
        f"{_value(m.median, spec.scale, spec.unit)} "
        f"({_value(m.q1, spec.scale, spec.unit)}–{_value(m.q3, spec.scale, spec.unit)})"
    )


def _rulesets_section(report: ComparisonReport) -> str:
    first = report.rulesets[0]
    groups: dict[str, list[str]] = {}
    for metric in first.metrics:
        groups.setdefault(metric.spec.group, []).append(metric.spec.name)
    level = _pct(report.level)
    parts = [
        "<p>Each rule set on its own: the mean with its "
        f"{level} interval (Wilson over games for shares, t or bootstrap over seeds for "
        "means), and the median with the quartiles of the per-game values. n counts the games "
        "where the metric has a value (a metric that needs a winner has none for an "
        "unfinished game).</p>"
    ]
    for group, names in groups.items():
        head = ["metric"]
        for summary in report.rulesets:
            head += [f"{_e(summary.label)}: mean [CI]", "median (IQR)", "n"]
        rows = []
        for name in names:
            label = first.metric(name)
            row = [_e(label.spec.label if label else name)]
            for summary in report.rulesets:
                m = summary.metric(name)
                row += [_e(_interval_text(m)), _e(_quartiles(m)), str(m.n if m else 0)]
            rows.append(row)
        numeric = tuple(range(1, len(head)))
        table = _table(head, rows, numeric=numeric)
        title = _e(GROUP_TITLES.get(group, group.title()))
        if group == "cards":
            parts.append(f"<details><summary>{title}</summary>{table}</details>")
        else:
            parts.append(f"<h3>{title}</h3>{table}")
    # Bots.
    rows = []
    for summary in report.rulesets:
        for bot in summary.win_by_bot:
            interval = bot.interval
            rows.append(
                [
                    _e(summary.label),
                    f"<span class='mono'>{_e(bot.bot)}</span>",
                    _e(bot.version),
                    str(bot.wins),
                    str(bot.seats_held),
                    _e(interval.format(1, 100, "%")),
                ]
            )
    parts.append("<h3>Win rate by bot</h3>")
    parts.append(
        "<p>Wins over the seats the bot held (a game with the bot in two seats counts "
        "twice), with Wilson intervals.</p>"
    )
    parts.append(
        _table(["rule set", "bot", "version", "wins", "seats held", "win rate"], rows, (3, 4, 5))
    )
    return "".join(parts)


def _exploratory_section(report: ComparisonReport) -> str:
    level = _pct(report.level)
    parts = [
        "<p>Every other metric, variant against base, with its paired interval and the "
        "p-value adjusted with Benjamini–Hochberg over "
        f"{report.exploratory_tests} tests (a false discovery rate of "
        f"{_pct(1 - report.level)}). Treat a significant line here as a lead to follow with a "
        "dedicated experiment, not as a finding.</p>"
    ]
    for comparison in report.comparisons:
        groups: dict[str, list[Difference]] = {}
        for d in comparison.exploratory:
            groups.setdefault(d.spec.group, []).append(d)
        parts.append(f"<h3>{_e(comparison.variant)} against {_e(comparison.base)}</h3>")
        for group, diffs in groups.items():
            rows = [
                _sig_row(
                    [
                        _e(d.spec.label),
                        _e(_cell(d, "a")),
                        _e(_cell(d, "b")),
                        _e(format_delta(d)),
                        _e(format_p(d.p)),
                        _e(format_p(d.adjusted_p)),
                        _e(_significance(d)),
                        str(d.n),
                    ],
                    d.significant,
                )
                for d in diffs
            ]
            table = _table(
                [
                    "metric",
                    "A",
                    "B",
                    f"Δ B − A [{level} CI]",
                    "p",
                    "p (BH)",
                    "significant",
                    "seeds",
                ],
                rows,
                numeric=(1, 2, 3, 4, 5, 7),
            )
            title = _e(GROUP_TITLES.get(group, group.title()))
            if group == "cards":
                parts.append(f"<details><summary>{title}</summary>{table}</details>")
            else:
                parts.append(f"<h4>{title}</h4>{table}")
    return "".join(parts)


def _png(plot: Plot) -> str:
    buffer = io.BytesIO()
    _save(plot, buffer, "png", dpi=110)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def render_html(report: ComparisonReport, *, run: Mapping[str, str | int] | None = None) -> str:
    """The report as one self-contained HTML page (no script, no external reference).

    ``run``: facts about this run that are not part of the results (the command line, the
    wall time); shown in a separate section at the end.
    """
    variants = ", ".join(c.variant for c in report.comparisons)
    title = f"{variants} against {report.base}"
    body = [f"<h1>Rule-set comparison: {_e(title)}</h1>"]
    body.append(
        "<p class='lead'>Made by <span class='mono'>ckdsl compare</span>. Differences are "
        "B − A: the variant minus the base. Every interval and test treats the seed (all the "
        "games played on one seed) as the unit.</p>"
    )
    body.append("<h2>Design</h2>")
    body.append(_design_section(report, run))
    body.append("<h2>Verdict</h2><ul class='verdict'>")
    for comparison in report.comparisons:
        body.extend(f"<li>{_e(line)}</li>" for line in comparison.verdicts)
    body.append("</ul>")
    body.append("<h2>Headline metrics</h2>")
    body.extend(_headline_section(report, c) for c in report.comparisons)
    body.append("<h2>Figures</h2>")
    for plot in figures(report):
        body.append(
            f"<figure id='{_e(plot.name)}'><img alt='{_e(plot.title)}' "
            f"src='data:image/png;base64,{_png(plot)}'>"
            f"<figcaption><b>{_e(plot.title)}.</b> {_e(plot.caption)}</figcaption></figure>"
        )
    body.append("<h2>Each rule set</h2>")
    body.append(_rulesets_section(report))
    body.append("<h2>Exploratory differences</h2>")
    body.append(_exploratory_section(report))
    body.append("<h2>Methods</h2><ul>")
    body.extend(f"<li>{_e(note)}</li>" for note in report.notes)
    body.append("</ul>")
    timings = report.run_section()
    if run or timings:
        body.append(
            "<h2>This run</h2><p class='muted'>Not part of the results: timings vary "
            "from run to run.</p><ul>"
        )
        for key, value in (run or {}).items():
            if key != "command":
                body.append(f"<li>{_e(key)}: {_e(value)}</li>")
        for label, facts in timings.items():
            if isinstance(facts, Mapping):
                seconds = facts.get("game_seconds")
                rate = facts.get("games_per_cpu_second")
                body.append(
                    f"<li>{_e(label)}: {_e(seconds)} s of play in total, "
                    f"{_e(rate)} games per second of one core</li>"
                )
        body.append("</ul>")
    return (
        "<!DOCTYPE html>\n<html lang='en'>\n<head>\n<meta charset='utf-8'>\n"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>\n"
        f"<title>{_e(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n<main>\n"
        + "\n".join(body)
        + "\n</main>\n</body>\n</html>\n"
    )


def write_html(
    report: ComparisonReport, path: Path | str, *, run: Mapping[str, str | int] | None = None
) -> Path:
    """Write :func:`render_html` to ``path`` (through a temporary file, then renamed)."""
    target = Path(path)
    text = render_html(report, run=run)
    write_whole(target, text.encode("utf-8"))
    return target
