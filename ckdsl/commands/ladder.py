"""``ckdsl ladder``: rate bots and weights files from round-robin games on shared seeds."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ckdsl.commands.common import (
    NamedPath,
    bot_specs,
    jobs_option,
    json_option,
    layout_option,
    map_option,
    quiet_option,
    scheduler_option,
)
from ckdsl.commands.tournament import play_tournament


def as_spec(item: str) -> str:
    """A bot spec, or a weights file named as such: a model of the learned bot (it lists
    ``features``) or else the heuristic's weights."""
    path = Path(item)
    if path.suffix not in (".yaml", ".yml") or ":" in item:
        return item
    from ckdsl.userfiles import NO_SUCH_FILE, UnsafeFile, read_user_yaml

    try:  # a regular file only: a FIFO or a device would never end
        data = read_user_yaml(path)
    except UnsafeFile as exc:
        said = (
            f"no weights file '{item}'" if exc.message == NO_SUCH_FILE else f"{item}: {exc.message}"
        )
        raise click.BadParameter(said, param_hint="BOTS") from None
    kind = "learned:model" if isinstance(data, dict) and "features" in data else "heuristic:weights"
    return f"{kind}={path.resolve()}"


@click.command("ladder")
@click.argument("bots", nargs=-1, required=True)
@click.option(
    "--games",
    type=click.IntRange(min=1),
    default=50,
    show_default=True,
    help="Seeds to play; each seed is played with every line-up and every rotation.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="The master seed.")
@click.option("--seats", type=click.IntRange(min=2), default=4, show_default=True)
@click.option("--rules", default="base", show_default=True, help="The rule set.")
@jobs_option
@scheduler_option
@click.option(
    "--out",
    type=NamedPath(path_type=Path),
    default=None,
    help="Keep (and resume) the games in this folder.",
)
@map_option
@layout_option
@quiet_option
@json_option
def ladder_command(
    bots: tuple[str, ...],
    games: int,
    seed: int,
    seats: int,
    rules: str,
    jobs: int | None,
    scheduler: str | None,
    out: Path | None,
    map_name: str,
    layout: str | None,
    quiet: bool,
    as_json: bool,
) -> None:
    """Rank BOTS (specs or weights files) by which is stronger, and by how much.

    \b
    e.g.  ckdsl ladder heuristic learned mcts:iterations=50 random --games 20
          ckdsl ladder heuristic runs/tune/best.yaml rules/bots/learned.yaml
    Every combination of the bots plays every seed, seats rotated (with fewer bots than
    seats, the seats are filled in turn). The table: the OpenSkill rating with its
    interval (mu +- 1.96 sigma), the win rate (Wilson), and for each bot and the next, the
    share of their meetings it finished ahead with a bootstrap interval over the seeds,
    and a verdict.
    """
    from ckdsl.sim.ladder import ladder

    if len(bots) < 2:
        raise click.BadParameter("a ladder needs two bots at least", param_hint="BOTS")
    given = bot_specs(",".join(as_spec(item) for item in bots), param_hint="BOTS")
    if len({spec.full() for spec in given}) < len(given):
        raise click.BadParameter("a bot is named twice", param_hint="BOTS")
    played = play_tournament(
        given, games, seed, seats, rules, jobs, scheduler, out, 0.95, map_name, layout, quiet
    )
    # Each bot as the user named it: a weights file by its path as given.
    named = (
        {spec.full(): item for spec, item in zip(given, bots, strict=True)}
        if len(given) == len(bots)
        else None
    )
    rungs = ladder(played.games, played.report, named)
    if as_json:
        data = {
            "games": played.report["games"],
            "unfinished": played.report["unfinished"],
            "seeds": games,
            "master_seed": seed,
            "lineups": played.report["lineups"],
            "rating": played.report["rating"],
            "ladder": rungs,
        }
        click.echo(json.dumps(data, indent=2, sort_keys=True))
        return
    from rich.console import Console
    from rich.table import Table

    from ckdsl.sim.ladder import LADDER_HEADINGS, ladder_cells

    console = Console(highlight=False, width=None if sys.stdout.isatty() else 140)
    report = played.report
    table = Table(title=f"{report['games']} games ({report['unfinished']} unfinished)")
    for heading in LADDER_HEADINGS:
        table.add_column(heading, justify="left" if heading in ("bot", "verdict") else "right")
    for cells in ladder_cells(rungs):
        table.add_row(*cells)
    console.print(table)
    console.print(
        f"{report['rating']}; unfinished games count as losses for every seat; "
        f"{len(report['lineups'])} line-ups x {games} seeds, seats rotated"
    )


COMMANDS = [ladder_command]
