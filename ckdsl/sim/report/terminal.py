"""The report on a terminal: the headline table of each variant against the base, the seat-balance
tests, the pairing gain, the verdicts and warnings (rich, on stdout).
"""

from __future__ import annotations

import sys
from typing import IO

from ckdsl.sim.compare.analysis import ComparisonReport
from ckdsl.sim.compare.verdicts import format_delta
from ckdsl.sim.report.cells import _balance_text, _design_line, _gain_text, _pct, headline_rows

__all__ = [
    "print_report",
]

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
