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
@json_option
def scenario(paths: tuple[Path, ...], as_json: bool) -> None:
    """Run scenario files (or every *.yaml under a folder): one line per scenario."""
    from ckdsl.reports.scenarios import outcome_lines, passed_line
    from ckdsl.scenario import run_file, scenario_files

    missing = [p for p in paths if not p.exists()]
    if missing:
        fail([Diagnostic(str(p), 0, 0, "no such file or folder") for p in missing])
    outcomes = [run_file(path) for path in scenario_files(paths)]
    if as_json:
        echo_json([o.to_json() for o in outcomes])
    else:
        for outcome in outcomes:
            echo_lines(outcome_lines(outcome))
        sys.stdout.flush()  # the results before the count, where both go to one place
        click.echo(passed_line(outcomes), err=True)
    if any(o.status != "pass" for o in outcomes):
        sys.exit(EXIT_FINDINGS)


COMMANDS = [scenario]
