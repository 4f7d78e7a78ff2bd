"""``ckdsl tune``: search a bot's weights by self-play against a reference line-up."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ckdsl.commands.common import jobs_option, prepared, quiet_option, run_experiment

if TYPE_CHECKING:
    import pandas as pd

    from ckdsl.sim.experiment import Experiment


@click.command("tune")
@click.argument("bot")
@click.option(
    "--against",
    default="heuristic,heuristic,heuristic",
    show_default=True,
    help="The reference line-up the candidates play (the other seats).",
)
@click.option(
    "--budget",
    type=click.IntRange(min=1),
    default=40,
    show_default=True,
    help="Candidates to evaluate.",
)
@click.option(
    "--games",
    type=click.IntRange(min=1),
    default=10,
    show_default=True,
    help="Seeds per candidate, each played with every rotation of the seats.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Games' and optimizer's seed.")
@click.option(
    "--sigma",
    type=click.FloatRange(min=0.01, max=3),
    default=0.3,
    show_default=True,
    help="The optimizer's first step (on the log of each weight's multiplier).",
)
@click.option(
    "--only",
    default="",
    help="Search only these weights (dotted names, comma-separated, e.g. "
    "weights.points,weights.targets.city); default: every non-zero one.",
)
@click.option(
    "--start",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="The weights file to start from (default: the one shipped).",
)
@click.option("--rules", default="base", show_default=True, help="The rule set.")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    required=True,
    help="The run's folder: candidates, their games, record.json and best.yaml. "
    "Run the same command again to resume a run that was stopped.",
)
@jobs_option
@quiet_option
def tune_command(
    bot: str,
    against: str,
    budget: int,
    games: int,
    seed: int,
    sigma: float,
    only: str,
    start: Path | None,
    rules: str,
    out: Path,
    jobs: int | None,
    quiet: bool,
) -> None:
    """Search BOT's weights with CMA-ES, each candidate playing --against on the same seeds.

    \b
    e.g.  ckdsl tune heuristic --against heuristic,heuristic,heuristic --budget 40 \\
              --games 10 --out runs/tune
    Writes DIR/best.yaml (use it as heuristic:weights=DIR/best.yaml) and DIR/record.json
    (every candidate: its weights, games, wins, score). The best score is the maximum of
    noisy estimates: confirm it on other seeds with `ckdsl ladder` or `ckdsl tournament`.
    """
    from ckdsl.bots import BotError, split_players
    from ckdsl.sim import require_extra

    require_extra("pandas", "pyarrow", "cma")
    from ckdsl.sim.store import read_results
    from ckdsl.sim.tune import Settings, TuneError, tune

    settings = Settings(
        bot=bot,
        against=tuple(split_players(against)),
        budget=budget,
        games=games,
        seed=seed,
        sigma=sigma,
        only=tuple(name.strip() for name in only.split(",") if name.strip()),
        start=str(start) if start else "",
        rules=rules,
    )
    command = ["ckdsl", *sys.argv[1:]]

    def play(experiment: Experiment, folder: Path) -> pd.DataFrame:
        spec = prepared(experiment)
        result = run_experiment(
            experiment, spec, folder, jobs=jobs, scheduler=None, quiet=True,
            command=command, kind="tune",
        )  # fmt: skip
        say(result.describe())
        return read_results(folder, experiment.keys())

    def say(line: str) -> None:
        if not quiet:
            click.echo(line, err=True)

    try:
        record = tune(settings, out, play, say)
    except (TuneError, BotError) as exc:
        raise click.UsageError(str(exc)) from None
    best = record.get("best")
    if best is None:
        click.echo("no candidate was evaluated")
        return
    rate = best["win_rate"]
    click.echo(
        f"best of {len(record['candidates'])} candidates: {out / 'best.yaml'} "
        f"(score {best['score']:.3f}; won {best['wins']} of {best['games']} games, "
        f"{rate['estimate']:.1%} [{rate['low']:.1%}, {rate['high']:.1%}] Wilson 95%)"
    )
    click.echo(json.dumps(best["multipliers"]))


COMMANDS = [tune_command]
