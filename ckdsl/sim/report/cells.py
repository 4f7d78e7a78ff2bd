"""The words and numbers of a report, shared by the terminal and the HTML page: p-values,
differences, the design in one line.
"""

from __future__ import annotations

import math

from ckdsl.sim.compare.analysis import ComparisonReport
from ckdsl.sim.compare.differences import Comparison, Difference
from ckdsl.sim.compare.summaries import RuleSetSummary
from ckdsl.sim.compare.verdicts import enough_digits, format_delta

__all__ = [
    "format_p",
    "headline_columns",
    "headline_rows",
]

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
    "user": "Your metrics (--metric)",
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
    return f"{value * scale:.{enough_digits(digits, magnitude)}f}"


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


def _mde(d: Difference) -> str:
    if d.mde is None:
        return "–"
    unit = f" {d.spec.unit}" if d.spec.unit else ""
    return f"{d.mde * d.spec.scale:.{2 if unit in ('', ' VP') else 1}f}{unit}"


def headline_columns(report: ComparisonReport) -> list[str]:
    """The headline table's header (after the metric and the two rule sets)."""
    head = [f"Δ B − A [{_pct(report.level)} CI]", "p", "p Holm", "signif.", "MDE"]
    return [*head, "equivalence"] if report.margins else head


def headline_rows(comparison: Comparison, margins: bool = False) -> list[list[str]]:
    """The headline table's rows: metric, A, B, Δ [interval], p, adjusted p, significant,
    the minimum detectable effect, and with ``margins`` the TOST verdict."""
    rows = []
    for d in comparison.headline:
        row = [
            d.spec.label,
            _cell(d, "a"),
            _cell(d, "b"),
            format_delta(d),
            format_p(d.p),
            format_p(d.adjusted_p),
            _significance(d),
            _mde(d),
        ]
        if margins:
            row.append(d.equivalence.verdict if d.equivalence else "–")
        rows.append(row)
    return rows


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
    """The seat-balance test with the seed as the unit, and with several games per seed the
    χ² over games beside it, for reference: ``"base: by seed F(3, 196) = 2.70, p = 0.047
    (200 seeds); the χ² over games, which counts a seed's 4 games as independent, would say
    χ² = 17.65, p = 0.00052; design effect 2.31; balance 0.885"``."""
    chi = summary.seat_balance
    balance = "" if summary.balance is None else f"; balance {summary.balance:.3f}"
    if chi.p is None or chi.statistic is None:
        return f"{summary.label}: no finished game"
    if summary.seat_test is None:
        return (
            f"{summary.label}: χ² = {chi.statistic:.2f}, {chi.dof} df, {_p_phrase(chi.p)} "
            f"on {summary.finished} finished of {summary.games} games (one game per seed)"
            f"{balance}"
        )
    per_seed = summary.games / summary.seeds if summary.seeds else 0
    deffs = [d for d in summary.seat_design_effects if d is not None]
    deff = f"; design effect {sum(deffs) / len(deffs):.2f}" if deffs else ""
    return (
        f"{summary.label}: by seed {summary.seat_test.describe()}; the χ² over games, which "
        f"counts a seed's {per_seed:g} games as independent, would say χ² = "
        f"{chi.statistic:.2f}, {_p_phrase(chi.p)}{deff}{balance}"
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
