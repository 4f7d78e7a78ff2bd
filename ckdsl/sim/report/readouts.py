"""What a report adds for a paper, shared by the terminal and the HTML page: the line on the
unit of analysis, the equivalence verdicts, the line-up × variant interaction table, and
the data of the forest plot and of the per-seed differences."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ckdsl.sim.compare.analysis import ComparisonReport
from ckdsl.sim.report.cells import _p_phrase, format_p
from ckdsl.sim.report.figures import ForestRow

__all__ = [
    "UNIT_LINE",
    "equivalence_lines",
    "forest_rows",
    "interaction_rows",
    "seed_differences",
]

UNIT_LINE = (
    "Every interval and test treats the seed (with all its seat rotations and line-ups) as "
    "the unit: the games of a seed share their board and dice."
)


def _signed(value: float) -> str:
    text = f"{value:+.2f}"
    return text.replace("-", "−")


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
                f"{level} CI [{_signed(low * scale)}, {_signed(high * scale)}]"
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
                f"{comparison.variant}, {d.spec.label}: {what} (TOST {_p_phrase(tost.p)}; {ci})"
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
        cells.append(format_p(item.adjusted_p))
        cells.append("yes" if item.significant else "no")
        rows.append(cells)
    return head, rows


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
            if len(set(d.seed_differences)) < 2:
                continue  # nothing to draw: every seed gave the same difference
            data.setdefault(comparison.variant, {})[d.spec.name] = np.asarray(
                d.seed_differences, dtype=np.float64
            )
            labels[d.spec.name] = (d.spec.label, d.spec.unit, d.spec.scale)
    return data, labels
