"""The report's words for what the seed-as-unit analysis adds: seat balance by seed beside
the χ² over games, equivalence verdicts, and the line-up × variant interactions; plain text
and table rows shared by the terminal and the HTML report."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ckdsl.sim.compare.analysis import ComparisonReport
from ckdsl.sim.compare.summaries import RuleSetSummary
from ckdsl.sim.report.figures import ForestRow

__all__ = [
    "UNIT_LINE",
    "equivalence_lines",
    "forest_rows",
    "headline_extra",
    "interaction_rows",
    "seat_balance_line",
    "seed_differences",
]

UNIT_LINE = (
    "Every interval and test treats the seed (with all its seat rotations and line-ups) as "
    "the unit: the games of a seed share their board and dice."
)


def _p(p: float | None) -> str:
    if p is None:
        return "–"
    return "< 0.0001" if p < 1e-4 else f"{p:.2g}" if p < 0.001 else f"{p:.3f}"


def seat_balance_line(summary: RuleSetSummary) -> str:
    """``"base: by seed F(3, 196) = 2.70, p = 0.047 (200 seeds); χ² over games 17.65, p =
    0.0005 (counts a seed's 4 games as independent); balance 0.885"``."""
    chi = summary.seat_balance
    balance = "n/a" if summary.balance is None else f"{summary.balance:.3f}"
    if summary.seat_test is None:
        stat = "n/a" if chi.statistic is None else f"{chi.statistic:.2f}"
        return (
            f"{summary.label}: χ² = {stat}, {chi.dof} df, p = {_p(chi.p)} on "
            f"{summary.finished} finished of {summary.games} games (one game per seed); "
            f"balance {balance}"
        )
    test = summary.seat_test
    per_seed = summary.games / summary.seeds if summary.seeds else 0
    stat = "n/a" if chi.statistic is None else f"{chi.statistic:.2f}"
    deffs = [d for d in summary.seat_design_effects if d is not None]
    deff = f"; design effect {sum(deffs) / len(deffs):.2f}" if deffs else ""
    return (
        f"{summary.label}: by seed {test.describe()}; the χ² over games, which counts a "
        f"seed's {per_seed:g} games as independent, would say χ² = {stat}, p = {_p(chi.p)}"
        f"{deff}; balance {balance}"
    )


def equivalence_lines(report: ComparisonReport) -> list[str]:
    """One line per difference with a margin: the TOST verdict with its interval."""
    lines = []
    level = f"{100 * (2 * report.level - 1):g}%"
    for comparison in report.comparisons:
        for d in comparison.differences:
            tost = d.equivalence
            if tost is None:
                continue
            scale, unit = d.spec.scale, f" {d.spec.unit}" if d.spec.unit else ""
            margin = f"±{tost.margin * scale:g}{unit}"
            low, high = tost.interval.low, tost.interval.high
            ci = (
                f"{level} CI [{low * scale:+.2f}, {high * scale:+.2f}]"
                if low is not None and high is not None
                else "no interval"
            )
            what = {
                "equivalent": f"equivalent within {margin}",
                "different, within the margin": f"different, but within {margin}",
                "different": f"different, and not shown to be within {margin}",
                "inconclusive": f"inconclusive: neither a difference nor equivalence within "
                f"{margin} (more seeds)",
            }[tost.verdict]
            lines.append(
                f"{comparison.variant}, {d.spec.label}: {what} (TOST p = {_p(tost.p)}; {ci})"
            )
    return lines


def interaction_rows(report: ComparisonReport) -> tuple[list[str], list[list[str]]]:
    """The interaction table: per variant and headline metric, the effect under each
    line-up, the test of equal effects and its Holm-adjusted p."""
    head = ["variant", "metric", *report.lineups, "interaction", "p Holm", "depends?"]
    rows = []
    for item in report.interactions:
        if item.metric == "seat_balance":
            continue
        cells = [item.variant, item.label]
        cells += [item.effect_text(e.effect) for e in item.effects]
        test = item.test
        cells.append("n/a" if test.f is None else f"F({test.df1}, {test.df2}) = {test.f:.2f}")
        cells.append(_p(item.adjusted_p))
        cells.append("yes" if item.significant else "no")
        rows.append(cells)
    return head, rows


def headline_extra(report: ComparisonReport) -> dict[tuple[str, str], tuple[str, str]]:
    """(variant, metric) → (the MDE, the equivalence verdict) as table cells."""
    out = {}
    for comparison in report.comparisons:
        for d in comparison.headline:
            scale = d.spec.scale
            mde = "–" if d.mde is None else f"{d.mde * scale:.2f}"
            tost = d.equivalence.verdict if d.equivalence else "–"
            out[(comparison.variant, d.spec.name)] = (mde, tost)
    return out


def forest_rows(report: ComparisonReport) -> list[ForestRow]:
    """The headline differences of every variant (the variant × seat test apart, which has
    no interval) in display units, for ``figures.forest_figure``."""
    rows = []
    for comparison in report.comparisons:
        for d in comparison.headline:
            if d.seat_test is not None:
                continue
            scale = d.spec.scale

            def shown(value: float | None, scale: float = scale) -> float | None:
                return None if value is None else value * scale

            margin = d.equivalence.margin * scale if d.equivalence else None
            rows.append(
                ForestRow(
                    d.spec.label,
                    d.spec.unit,
                    comparison.variant,
                    shown(d.delta.estimate),
                    shown(d.delta.low),
                    shown(d.delta.high),
                    d.significant,
                    margin,
                )
            )
    return rows


def seed_differences(
    report: ComparisonReport,
) -> tuple[dict[str, dict[str, npt.NDArray[np.float64]]], dict[str, tuple[str, str, float]]]:
    """The per-seed differences of the headline metrics by variant, and each metric's
    (label, unit, scale), for ``figures.seed_difference_figure``."""
    data: dict[str, dict[str, npt.NDArray[np.float64]]] = {}
    labels: dict[str, tuple[str, str, float]] = {}
    for comparison in report.comparisons:
        for d in comparison.headline:
            if not d.seed_differences:
                continue
            data.setdefault(comparison.variant, {})[d.spec.name] = np.asarray(
                d.seed_differences, dtype=np.float64
            )
            labels[d.spec.name] = (d.spec.label, d.spec.unit, d.spec.scale)
    return data, labels
