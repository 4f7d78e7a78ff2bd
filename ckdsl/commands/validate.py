"""``ckdsl validate`` and ``ckdsl schema``: check rule sets, variants and locales; the
JSON Schemas editors use."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ckdsl.commands.common import (
    EXIT_FINDINGS,
    PATH,
    echo_json,
    echo_lines,
    json_option,
    print_diagnostics,
    rules_option,
)
from ckdsl.paths import SCHEMA_KINDS

if TYPE_CHECKING:
    pass


@click.command()
@click.argument("paths", nargs=-1, type=PATH)
@rules_option
@click.option(
    "--play",
    "games",
    type=click.IntRange(min=0),
    default=0,
    metavar="N",
    help="Also play N games of heuristic bots of each rule set or variant checked, and "
    "report every effect that stopped on a fault, ended on an empty choice, or a limit hit.",
)
@json_option
def validate(paths: tuple[Path, ...], rules: Path | None, games: int, as_json: bool) -> None:
    """Check rule sets, variants and locale files; report every error at once.

    With no PATH, checks the bundled base rules and the six locales. A PATH may be a
    rule-set folder, a variant file (checked with everything it extends), a locale file
    (checked against --rules) or a folder of those.
    """
    from ckdsl.playcheck import play_check
    from ckdsl.reports.checks import checked_lines, error_count, validation_json
    from ckdsl.validate import validate_paths

    report = validate_paths(list(paths), rules)
    if games:
        for item in [c for c in report.checked if c.kind in ("rules", "variant") and c.ok]:
            found = play_check(item.path, games)
            report.diagnostics.extend(found)
            item.summary += f"; {games} games played, {len(found)} faults in play"
            item.ok = not found
    if as_json:
        echo_json(validation_json(report))
    else:
        diagnostics = report.sorted()
        print_diagnostics(diagnostics)
        echo_lines(checked_lines(report))
        count = error_count(diagnostics)
        if count is not None:
            click.echo(count, err=True)
    if not report.ok:
        sys.exit(EXIT_FINDINGS)


@click.command()
@click.option(
    "--kind",
    type=click.Choice(SCHEMA_KINDS),
    default="rules",
    show_default=True,
    help="Which schema: rule, variant, locale, map or scenario files.",
)
def schema(kind: str) -> None:
    """Print a JSON Schema (draft-07) for editors and other tools."""
    from ckdsl.rules.schemas import load_schema

    click.echo(json.dumps(load_schema(kind), indent=2, ensure_ascii=False))


COMMANDS = [validate, schema]
