"""``ckdsl simulate``: many bot games of one rule set, stored, resumable, summarized."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ckdsl.commands.common import (
    NAME,
    NamedPath,
    bot_specs,
    check_keep_events,
    jobs_option,
    json_option,
    prepared,
    quiet_option,
    results_folder,
    rotate_option,
    run_experiment,
    scheduler_option,
    table_layout_option,
    table_map_option,
    table_of,
    user_metric_args,
    user_metric_options,
)

if TYPE_CHECKING:
    from ckdsl.sim.experiment import Experiment, WorkSpec


@click.command("simulate")
@click.argument("rules", default="base", metavar="[RULES]", type=NAME)
@click.option(
    "--players",
    default=None,
    help="The bots, one spec per seat, comma-separated (`ckdsl bots` lists them), "
    "e.g. heuristic,mcts:iterations=200,random,random (default: four heuristic bots, or "
    "as many as the variant's `table: players`).",
)
@click.option(
    "--games",
    type=click.IntRange(min=1),
    default=100,
    show_default=True,
    help="How many seeds to play (with --rotate-seats, each once per rotation).",
)
@click.option(
    "--seed",
    type=int,
    default=0,
    show_default=True,
    help="The master seed: seed number i of the experiment plays the game seed derived "
    "from (S, i), the same under any rule set and seating.",
)
@rotate_option
@jobs_option
@scheduler_option
@click.option(
    "--out",
    type=NamedPath(path_type=Path),
    default=None,
    help="Keep the games in this folder (one Parquet row per game, plus _manifest.json). "
    "The same command again plays only the games it lacks; more --games extends it. "
    "Without --out the games are summarized and thrown away.",
)
@click.option(
    "--label", default=None, help="The rule set's name in the results (default: its own)."
)
@table_map_option
@table_layout_option
@user_metric_options
@quiet_option
@json_option
def simulate_command(
    rules: str,
    players: str | None,
    games: int,
    seed: int,
    rotate_seats: bool,
    jobs: int | None,
    scheduler: str | None,
    out: Path | None,
    label: str | None,
    map_name: str | None,
    layout: str | None,
    metrics: tuple[tuple[str, str], ...],
    keep_events: bool,
    quiet: bool,
    as_json: bool,
) -> None:
    """Play many bot games of a rule set and summarize them: win rates per seat and per
    bot (Wilson intervals), finished games, game length and points (t intervals over
    seeds).

    RULES is 'base' (the default), a variant file or a rule-set folder. Every game is
    one row (seed, seats, winner, points, turns, decisions, metrics); the summary goes
    to stdout (--json: byte-identical for the same command), the progress bar and the
    run's speed to stderr.

    \b
    Examples:
      ckdsl simulate --players random,random,random,random --games 200 --jobs 2
      ckdsl simulate examples/variants/fifteen_points.yaml --rotate-seats --out runs/fifteen
      ckdsl simulate --scheduler tcp://10.0.0.5:8786 --games 10000 --out runs/big
      ckdsl simulate --metric walls_at_end="count(walls(p))" --keep-events --out runs/w

    A run stopped at any moment (Ctrl-C, kill -9) keeps every game stored so far.
    """
    from ckdsl.sim import require_extra

    check_keep_events(keep_events, out)
    map_name, layout, players = table_of(rules, map_name, layout, players)
    specs = bot_specs(players)
    require_extra()
    if scheduler is not None:
        require_extra("distributed")
    from ckdsl.sim.experiment import Experiment

    experiment = Experiment(
        rules=rules,
        lineups=(tuple(spec.full() for spec in specs),),
        games=games,
        seed=seed,
        rotate=rotate_seats,
        map=map_name,
        layout=layout,
        label=label,
        metrics=metrics,
        keep_events=keep_events,
    )
    spec = prepared(experiment)
    command = _command_line(rules, experiment, jobs, scheduler, out)
    with results_folder(out, "simulate") as folder:
        result = run_experiment(
            experiment,
            spec,
            folder,
            jobs=jobs,
            scheduler=scheduler,
            quiet=quiet,
            command=command,
            kind="simulate",
        )
        _report(experiment, spec, folder, as_json)
    if not quiet:
        where = f"; results in {out}" if out is not None else ""
        click.echo(result.describe() + where, err=True)


def _report(experiment: Experiment, spec: WorkSpec, out: Path, as_json: bool) -> None:
    from ckdsl.sim import user_metrics
    from ckdsl.sim.experiment import experiment_header
    from ckdsl.sim.store import read_results
    from ckdsl.sim.summary import format_summary, summarize

    rows = read_results(out, experiment.keys())
    summary = summarize(rows)
    mine = user_metrics.summarize(rows, spec.metrics)
    if as_json:
        header = experiment_header(experiment, spec)
        extra = {"user_metrics": mine} if mine else {}
        text = json.dumps({"experiment": header, "summary": summary, **extra}, indent=1)
        click.echo(text)
    else:
        click.echo("\n".join([format_summary(summary), *user_metrics.format_summary(mine)]))


def _command_line(
    rules: str, experiment: Experiment, jobs: int | None, scheduler: str | None, out: Path | None
) -> list[str]:
    """The command as the manifest records it: every option that shapes the results."""
    line = ["ckdsl", "simulate", rules, "--players", ",".join(experiment.lineups[0])]
    line += ["--games", str(experiment.games), "--seed", str(experiment.seed)]
    if experiment.rotate:
        line.append("--rotate-seats")
    if experiment.map != "standard":
        line += ["--map", experiment.map]
    if experiment.layout is not None:
        line += ["--layout", experiment.layout]
    if experiment.label is not None:
        line += ["--label", experiment.label]
    line += user_metric_args(experiment.metrics, experiment.keep_events)
    if jobs is not None:
        line += ["--jobs", str(jobs)]
    if scheduler is not None:
        line += ["--scheduler", scheduler]
    if out is not None:
        line += ["--out", str(out)]
    return line


COMMANDS = [simulate_command]
