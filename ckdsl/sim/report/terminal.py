"""The report on a terminal: the headline table of each variant against the base, the seat-balance
tests, the pairing gain, the verdicts and warnings (rich, on stdout).
"""

from __future__ import annotations

import sys
from typing import IO, TYPE_CHECKING

from ckdsl.sim.compare.analysis import ComparisonReport

if TYPE_CHECKING:
    from rich.console import Console
from ckdsl.sim.compare.verdicts import format_delta
from ckdsl.sim.report.cells import (
    _balance_text,
    _design_line,
    _gain_text,
    _value,
    format_p,
    headline_columns,
    headline_rows,
)
from ckdsl.sim.report.readouts import UNIT_LINE, equivalence_lines, interaction_rows

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
    console.print(Text(UNIT_LINE))
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
            title=f"B: {comparison.variant} against A: {comparison.base}",
            caption=_design_line(report, comparison),
            box=box.SIMPLE_HEAD,
            title_justify="left",
            caption_justify="left",
        )
        # the rule sets' names in the title, not over their columns: a long name would
        # squeeze the metric's column to nothing
        table.add_column("metric", ratio=1, min_width=18)
        table.add_column("A", justify="right", no_wrap=True)
        table.add_column("B", justify="right", no_wrap=True)
        for name in headline_columns(report):
            if name == "signif.":
                table.add_column(name, justify="center", no_wrap=True)
            else:
                table.add_column(name, justify="right", no_wrap=True)
        rows = headline_rows(comparison, bool(report.margins))
        for d, row in zip(comparison.headline, rows, strict=True):
            style = "bold" if d.significant else None
            table.add_row(*row, style=style)
        console.print(table)
        console.print("[bold]Seat balance[/bold] (are the seats' win shares equal?):")
        for label in (comparison.base, comparison.variant):
            console.print(Text("  " + _balance_text(report.ruleset(label))))
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
        mine = [d for d in comparison.exploratory if d.spec.group == "user"]
        if mine:  # what the user asked to measure, significant or not
            console.print("[bold]Your metrics[/bold] (--metric; exploratory, Benjamini–Hochberg):")
            for d in mine:
                a, b = (_value(x, d.spec.scale, d.spec.unit) for x in (d.a, d.b))
                console.print(Text(f"  • {d.spec.label}: {a} → {b}, Δ {format_delta(d)}, "
                                   f"p BH {format_p(d.adjusted_p)}"))  # fmt: skip
        for warning in comparison.warnings:
            console.print(Text(f"warning: {warning}"), style="yellow")
    lines = equivalence_lines(report)
    if lines:
        console.print()
        console.print("[bold]Equivalence[/bold] (TOST against --margin):")
        for line in lines:
            console.print(Text("  • " + line))
    if report.interactions:
        _print_interactions(console, report)


def _print_interactions(console: Console, report: ComparisonReport) -> None:
    """The line-up × variant table and its verdicts."""
    from rich import box
    from rich.table import Table
    from rich.text import Text

    head, rows = interaction_rows(report)
    console.print()
    table = Table(
        title="Does the effect depend on the bots? (line-up × variant, paired on seeds)",
        box=box.SIMPLE_HEAD,
        title_justify="left",
    )
    for i, name in enumerate(head):
        table.add_column(name, justify="left" if i < 2 else "right")
    for row in rows:
        table.add_row(*row)
    console.print(table)
    for item in report.interactions:
        if item.metric != "seat_balance":
            console.print(Text("  • " + item.verdict()))
