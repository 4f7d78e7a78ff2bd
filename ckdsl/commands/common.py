"""What every command shares: exit codes, printing diagnostics, common options."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NoReturn

import click

from ckdsl.diagnostics import CkdslError, Diagnostic

if TYPE_CHECKING:
    from ckdsl.bots import BotSpec

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 3

json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON.")


def print_diagnostics(diagnostics: Sequence[Diagnostic]) -> None:
    for d in diagnostics:
        click.echo(d.format(), err=True)


def fail(diagnostics: Sequence[Diagnostic]) -> NoReturn:
    raise CkdslError(diagnostics)


def bot_specs(text: str, param_hint: str = "--players") -> list[BotSpec]:
    """Bot specs from the command line (``heuristic,mcts:iterations=200,random``); a
    usage error (exit 2) naming what is wrong otherwise."""
    from ckdsl.bots import BotError, parse_players

    try:
        specs = parse_players(text)
        for spec in specs:  # a bot that cannot be made (a weights file missing) says so now
            spec.make(0)
    except (BotError, ValueError) as exc:
        raise click.BadParameter(str(exc), param_hint=param_hint) from None
    return specs
