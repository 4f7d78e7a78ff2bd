"""``ckdsl tournament``: bots against each other, seats rotated, win rates and ratings."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from ckdsl.commands.common import (
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
    type=click.Path(path_type=Path),
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
    from ckdsl.session import load_rules
    from ckdsl.sim import require_extra

    require_extra("pandas", "pyarrow", "openskill")
    from ckdsl.sim.experiment import Experiment
    from ckdsl.sim.store import read_results
    from ckdsl.sim.tournament import lineups, standings

    given = bot_specs(",".join(bots), param_hint="BOTS")
    specs = [spec.full() for spec in given]
    shown = {spec.full(): str(spec) for spec in given}
    compiled = load_rules(rules).compiled
    low, high = compiled.param("players_min"), compiled.param("players_max")
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
        report = standings(read_results(folder, experiment.keys()), level)
    if not quiet:
        click.echo(result.describe(), err=True)
    report["lineups"] = [list(lineup) for lineup in experiment.lineups]
    for row in report["standings"]:
        row["name"] = shown[row["bot"]]
    report["seeds"] = games
    report["master_seed"] = seed
    if as_json:
        click.echo(json.dumps(report, indent=2, sort_keys=True))
    else:
        _print(report)


def _print(report: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False, width=None if sys.stdout.isatty() else 120)
    table = Table(title=f"{report['games']} games ({report['unfinished']} unfinished)")
    for heading in ("bot", "seats", "wins", "win rate [interval]", "points", "rating (μ ± σ)"):
        table.add_column(heading, justify="left" if heading == "bot" else "right")
    for s in report["standings"]:
        rate = s["win_rate"]
        shown = (
            f"{rate['estimate']:.1%} [{rate['low']:.1%}, {rate['high']:.1%}]"
            if rate["estimate"] is not None
            else "-"
        )
        table.add_row(
            s["name"],
            str(s["seats"]),
            str(s["wins"]),
            shown,
            f"{s['mean_points']:.1f}",
            f"{s['mu']:.1f} ± {s['sigma']:.1f}",
        )
    console.print(table)
    names = [s["bot"] for s in report["standings"]]
    short = {s["bot"]: s["name"] for s in report["standings"]}
    cells = {(p["bot"], p["opponent"]): p for p in report["pairwise"]}
    pairs = Table(title="ahead", caption="how often the row bot finished ahead of the column bot")
    pairs.add_column("")
    for name in names:
        pairs.add_column(short[name], justify="right")
    for a in names:
        row = [short[a]]
        for b in names:
            cell = cells.get((a, b))
            share = cell["ahead"]["estimate"] if cell else None
            row.append("-" if share is None else f"{share:.0%}")
        pairs.add_row(*row)
    console.print(pairs)
    console.print(f"{report['intervals']} intervals at {report['level']:.0%}; {report['rating']}")


COMMANDS = [tournament_command]
