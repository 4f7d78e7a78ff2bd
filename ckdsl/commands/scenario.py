"""``ckdsl scenario``: run scenario files, one line per scenario."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ckdsl.commands.common import (
    EXIT_FINDINGS,
    PATH,
    echo_json,
    echo_lines,
    fail,
    json_option,
)
from ckdsl.diagnostics import Diagnostic

if TYPE_CHECKING:
    pass


@click.command()
@click.argument("paths", nargs=-1, required=True, type=PATH)
@click.option(
    "--rules",
    "rules",
    default=None,
    metavar="RULES",
    help="Run them under these rules instead of their own: base, a shipped variant "
    "(official, five_six), or a rule-set folder or variant file.",
)
@json_option
def scenario(paths: tuple[Path, ...], rules: str | None, as_json: bool) -> None:
    """Run scenario files (or every *.yaml under a folder): one line per scenario.

    With --rules, each runs under those rules instead of its own: "does my house rule's
    scenario fail under the base rules?" (a scenario that passes there does not show the
    rule)."""
    from ckdsl.reports.scenarios import outcome_lines, passed_line
    from ckdsl.scenario import run_file, scenario_files

    missing = [p for p in paths if not p.exists()]
    if missing:
        fail([Diagnostic(str(p), 0, 0, "no such file or folder") for p in missing])
    files = list(scenario_files(paths))
    if not files:  # a folder moved or misnamed: "0 of 0 passed" would pass a CI silently
        where = ", ".join(str(p) for p in paths)
        fail([Diagnostic(where, 0, 0, "no scenario files (*.yaml) here: nothing was run")])
    outcomes = [run_file(path, rules) for path in files]
    if as_json:
        echo_json([{**o.to_json(), **({"rules": rules} if rules else {})} for o in outcomes])
    else:
        if rules is not None:
            click.echo(f"under the rules {rules}:")
        for outcome in outcomes:
            echo_lines(outcome_lines(outcome))
        sys.stdout.flush()  # the results before the count, where both go to one place
        under = f" under the rules {rules}" if rules is not None else ""
        click.echo(passed_line(outcomes) + under, err=True)
    if any(o.status != "pass" for o in outcomes):
        sys.exit(EXIT_FINDINGS)


COMMANDS = [scenario]
