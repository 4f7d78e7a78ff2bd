"""``ckdsl tournament``: bots against each other, seats rotated, win rates and ratings."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import click

from ckdsl.commands.common import (
    NamedPath,
    bot_specs,
    jobs_option,
    json_option,
    layout_option,
    map_option,
    prepared,
    quiet_option,
    results_folder,
    run_experiment,
    scheduler_option,
)

if TYPE_CHECKING:
    import pandas as pd

    from ckdsl.bots import BotSpec
    from ckdsl.sim.tournament import TournamentReport


@click.command("tournament")
@click.argument("bots", nargs=-1, required=True)
@click.option(
    "--games",
    type=click.IntRange(min=1),
    default=100,
    show_default=True,
    help="Seeds to play; each seed is played with every line-up and every rotation.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="The master seed.")
@click.option(
    "--seats",
    type=click.IntRange(min=1),
    default=None,
    help="Players at the table (default: as many as bots, if the rules allow; else 4).",
)
@click.option(
    "--rules",
    default="base",
    show_default=True,
    help="The rule set: base, a variant file or folder.",
)
@jobs_option
@scheduler_option
@click.option(
    "--out",
    type=NamedPath(path_type=Path),
    default=None,
    help="Keep (and resume) the games in this folder, as `ckdsl simulate` does.",
)
@click.option("--level", type=click.FloatRange(0.5, 0.999), default=0.95, show_default=True)
@map_option
@layout_option
@quiet_option
@json_option
def tournament_command(
    bots: tuple[str, ...],
    games: int,
    seed: int,
    seats: int | None,
    rules: str,
    jobs: int | None,
    scheduler: str | None,
    out: Path | None,
    level: float,
    map_name: str,
    layout: str | None,
    quiet: bool,
    as_json: bool,
) -> None:
    """Play BOTS against each other and rank them.

    \b
    Each BOT is a spec (`ckdsl bots`): e.g.
      ckdsl tournament heuristic random random random --games 100
      ckdsl tournament mcts:iterations=200 heuristic heuristic heuristic --games 50
      ckdsl tournament heuristic heuristic:weights=mine.yaml --seats 4
      ckdsl tournament heuristic random --seats 6 --rules examples/variants/five_six.yaml \\
          --map five_six
    With as many bots as seats they share one table; with fewer, the seats are filled in
    turn (A,B,A,B); with more, every combination of bots plays. Seats always rotate. The
    report: win rates per seat held (Wilson intervals), who finished ahead of whom, and an
    OpenSkill rating.
    """
    given = bot_specs(",".join(bots), param_hint="BOTS")
    played = play_tournament(
        given, games, seed, seats, rules, jobs, scheduler, out, level, map_name, layout, quiet
    )
    report = played.report
    if as_json:
        click.echo(json.dumps(report, indent=2, sort_keys=True))
    else:
        _print(report)


class Played(NamedTuple):
    """A tournament's games (rows of its store, by key) and its report."""

    games: pd.DataFrame
    report: TournamentReport


def play_tournament(
    given: list[BotSpec],
    games: int,
    seed: int,
    seats: int | None,
    rules: str,
    jobs: int | None,
    scheduler: str | None,
    out: Path | None,
    level: float,
    map_name: str,
    layout: str | None,
    quiet: bool,
) -> Played:
    """Play (or resume) the tournament of the bots ``given``, seats rotated on shared
    seeds (``ckdsl.sim.tournament.lineups``), and rank them; ``ckdsl ladder`` too."""
    from ckdsl.session import load_rules
    from ckdsl.sim import require_extra

    require_extra("pandas", "pyarrow", "openskill")
    from ckdsl.sim.experiment import Experiment
    from ckdsl.sim.store import read_results
    from ckdsl.sim.tournament import lineups, standings, tournament_report

    specs = [spec.full() for spec in given]
    shown = {spec.full(): str(spec) for spec in given}
    compiled = load_rules(rules).compiled
    low, high = compiled.number("players_min"), compiled.number("players_max")
    if seats is None:
        seats = len(specs) if low <= len(specs) <= high else min(max(4, low), high)
    if not low <= seats <= high:
        raise click.BadParameter(f"these rules seat {low} to {high} players", param_hint="--seats")
    experiment = Experiment(
        rules=rules,
        lineups=lineups(specs, seats),
        games=games,
        seed=seed,
        rotate=True,
        map=map_name,
        layout=layout,
    )
    command = ["ckdsl", *sys.argv[1:]]
    spec = prepared(experiment)
    with results_folder(out, "tournament") as folder:
        result = run_experiment(
            experiment,
            spec,
            folder,
            jobs=jobs,
            scheduler=scheduler,
            quiet=quiet,
            command=command,
            kind="tournament",
        )
        df = read_results(folder, experiment.keys())
    found = standings(df, level)
    if not quiet:
        click.echo(result.describe(), err=True)
    return Played(df, tournament_report(found, experiment.lineups, games, seed, shown))


def _print(report: TournamentReport) -> None:
    from rich.console import Console
    from rich.table import Table

    from ckdsl.sim.tournament import (
        STANDINGS_HEADINGS,
        ahead_cells,
        standings_cells,
        standings_footer,
        standings_title,
    )

    console = Console(highlight=False, width=None if sys.stdout.isatty() else 120)
    table = Table(title=standings_title(report))
    for heading in STANDINGS_HEADINGS:
        table.add_column(heading, justify="left" if heading == "bot" else "right")
    for cells in standings_cells(report):
        table.add_row(*cells)
    console.print(table)
    names, rows = ahead_cells(report)
    pairs = Table(title="ahead", caption="how often the row bot finished ahead of the column bot")
    pairs.add_column("")
    for name in names:
        pairs.add_column(name, justify="right")
    for row in rows:
        pairs.add_row(*row)
    console.print(pairs)
    console.print(standings_footer(report))


COMMANDS = [tournament_command]
