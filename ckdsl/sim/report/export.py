"""The differences of a comparison as a table for a paper: CSV (every difference of every
variant, in display units) or LaTeX (the headline family, booktabs).

One row per (variant, metric) rather than one column per rule set, so the table keeps its
width with any number of variants.
"""

from __future__ import annotations

import csv
import io

from ckdsl.sim.compare.analysis import ComparisonReport
from ckdsl.sim.compare.differences import Difference
from ckdsl.sim.compare.verdicts import format_delta

__all__ = ["COLUMNS", "differences_table", "rows"]

COLUMNS = (
    "variant", "family", "metric", "label", "unit", "a", "b", "delta", "low", "high", "p",
    "adjusted_p", "significant", "test", "n", "mde", "margin", "tost_p", "equivalence",
)  # fmt: skip
"""The CSV's columns: values in display units (percentage points for rates)."""


def _scaled(value: float | None, scale: float) -> str:
    return "" if value is None else f"{value * scale:.6g}"


def _plain(value: float | None) -> str:
    return "" if value is None else f"{value:.6g}"


def rows(report: ComparisonReport) -> list[dict[str, str]]:
    """Every difference of every variant, headline first, as strings keyed by COLUMNS."""
    out = []
    for comparison in report.comparisons:
        for d in (*comparison.headline, *comparison.exploratory):
            scale = d.spec.scale
            tost = d.equivalence
            out.append(
                {
                    "variant": comparison.variant,
                    "family": d.family,
                    "metric": d.spec.name,
                    "label": d.spec.label,
                    "unit": d.spec.unit,
                    "a": _scaled(d.a, scale),
                    "b": _scaled(d.b, scale),
                    "delta": _scaled(d.delta.estimate, scale),
                    "low": _scaled(d.delta.low, scale),
                    "high": _scaled(d.delta.high, scale),
                    "p": _plain(d.p),
                    "adjusted_p": _plain(d.adjusted_p),
                    "significant": "yes" if d.significant else "no",
                    "test": d.test,
                    "n": str(d.n),
                    "mde": _scaled(d.mde, scale),
                    "margin": _scaled(tost.margin, scale) if tost else "",
                    "tost_p": _plain(tost.p) if tost else "",
                    "equivalence": tost.verdict if tost else "",
                }
            )
    return out


_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
    "−": "$-$", "Δ": r"$\Delta$", "×": r"$\times$", "²": r"$^2$", "→": r"$\to$",
}  # fmt: skip


def _tex(text: str) -> str:
    return "".join(_LATEX_SPECIAL.get(c, c) for c in text)


def _p_text(p: float | None) -> str:
    if p is None:
        return "--"
    return "<0.0001" if p < 1e-4 else f"{p:.2g}" if p < 0.001 else f"{p:.3f}"


def _latex(report: ComparisonReport) -> str:
    level = f"{100 * report.level:g}"
    head: tuple[str, ...] = (
        "Metric", "Variant", "A", "B", f"$\\Delta$ B $-$ A [{level}\\% CI]", "p", "p (Holm)"
    )  # fmt: skip
    extra = any(d.equivalence for c in report.comparisons for d in c.headline)
    head += ("MDE", "Equivalence") if extra else ("MDE",)
    lines = [
        r"\begin{tabular}{ll" + "r" * (len(head) - 2) + "}",
        r"\toprule",
        " & ".join(head) + r" \\",
        r"\midrule",
    ]
    for comparison in report.comparisons:
        for d in comparison.headline:
            cells = [
                _tex(d.spec.label),
                _tex(comparison.variant),
                _tex(_value(d, d.a)),
                _tex(_value(d, d.b)),
                _tex(format_delta(d)),
                _tex(_p_text(d.p)),
                _tex(_p_text(d.adjusted_p)),
                _tex(_value(d, d.mde)),
            ]
            if extra:
                tost = d.equivalence
                cells.append(_tex(f"{tost.verdict} (p = {_p_text(tost.p)})" if tost else "--"))
            lines.append(" & ".join(cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines) + "\n"


def _value(d: Difference, value: float | None) -> str:
    if value is None:
        return "--"
    digits = 1 if d.spec.unit in ("pp", "turns", "decisions") else 2
    return f"{value * d.spec.scale:.{digits}f}"


def differences_table(report: ComparisonReport, fmt: str) -> str:
    """The report's differences as ``"csv"`` (every one) or ``"latex"`` (the headline
    family)."""
    if fmt == "latex":
        return _latex(report)
    if fmt != "csv":
        raise ValueError(f"no table format '{fmt}' (csv or latex)")
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(COLUMNS), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows(report))
    return buffer.getvalue()
