"""``ckdsl sweep`` and ``ckdsl search``: a parameter at several values on paired seeds, its
dose-response plot, and a search for the value that meets a target, confirmed on fresh
seeds (``ckdsl.sim.sweep``, ``ckdsl.sim.rule_search``)."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ckdsl.commands.common import (
    PATH,
    NamedPath,
    bot_specs,
    jobs_option,
    json_option,
    prepared,
    quiet_option,
    results_folder,
    rotate_option,
    run_experiment,
    scheduler_option,
    table_of,
    user_metric_options,
)
from ckdsl.diagnostics import CkdslError, Diagnostic

if TYPE_CHECKING:
    import pandas as pd

    from ckdsl.sim.sweep import Level, Number, Point


def _sweep_options(command: Any) -> Any:
    """What both commands take: the rule set, the values, the bots, seeds and outputs."""
    for option in reversed(
        [
            click.argument("rules", default="base", metavar="[RULES]"),
            click.option(
                "--set",
                "sets",
                multiple=True,
                metavar="NAME=VALUES",
                help="A parameter and its values: 7..11, 7..11:2, 0.5..1.5:0.25 or 7,9,11. "
                "Several --set make a grid.",
            ),
            click.option(
                "--sweep",
                "sweep_file",
                type=PATH,
                default=None,
                help="A YAML file of `parameters:` NAME: VALUES, instead of --set.",
            ),
            click.option(
                "--players",
                default=None,
                help="The bots, one spec per seat (default: four heuristic bots).",
            ),
            click.option(
                "--games",
                type=click.IntRange(min=2),
                default=40,
                show_default=True,
                help="Seeds per value (the same seeds for every value).",
            ),
            click.option("--seed", type=int, default=0, show_default=True, help="The master seed."),
            rotate_option,
            jobs_option,
            scheduler_option,
            click.option(
                "--out",
                type=NamedPath(path_type=Path, file_okay=False),
                default=None,
                help="Keep the games: one results folder per value, the variants in "
                "DIR/_variants. The same command again plays only what is missing.",
            ),
            click.option(
                "--plot",
                "plot_path",
                type=PATH,
                default=None,
                help="Write the dose-response figure here (PNG, and SVG beside it).",
            ),
            click.option(
                "--level",
                type=click.FloatRange(0, 1, min_open=True, max_open=True),
                default=0.95,
                show_default=True,
                help="Confidence level of the intervals.",
            ),
            user_metric_options,
            quiet_option,
            json_option,
        ]
    ):
        command = option(command)
    return command


def _space(sets: Sequence[str], sweep_file: Path | None) -> list[tuple[str, list[Number]]]:
    from ckdsl.sim.sweep import parse_set, read_sweep_file

    if sweep_file is not None and sets:
        raise click.UsageError("give --set or --sweep, not both")
    if sweep_file is not None:
        return read_sweep_file(sweep_file)
    if not sets:
        raise click.UsageError("say what to sweep: --set NAME=VALUES (e.g. hand_limit=7..11)")
    out = []
    for text in sets:
        try:
            out.append(parse_set(text))
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--set") from None
    return out


class _Runner:
    """Plays the variants of one rule set on the same seeds, into one folder each."""

    def __init__(self, rules: str, players: str | None, rotate: bool, options: dict[str, Any],
                 metrics: tuple[tuple[str, str], ...], folder: Path) -> None:  # fmt: skip
        self.rules, self.rotate, self.options = rules, rotate, options
        self.map, self.layout, line = table_of(rules, None, None, players)
        self.lineup = tuple(spec.full() for spec in bot_specs(line))
        self.metrics = metrics
        self.folder = folder

    def check(self, points: Sequence[Point]) -> None:
        """Every value's rule set loaded before a game is played: a value the rules refuse
        (``hand_limit`` above ``hand_limit_cap``) is a finding naming it and the file
        and place of the rule it breaks, rather than a failure in the middle of the run."""
        from dataclasses import replace

        from ckdsl.session import load_rules
        from ckdsl.sim.sweep import label, write_variant

        found: list[Diagnostic] = []
        for point in points:
            try:  # loaded from where play() writes it, so play() finds it in the cache
                load_rules(str(write_variant(self.rules, point, self.folder / "_variants")))
            except CkdslError as exc:
                found += [replace(d, message=f"{label(point)}: {d.message}")
                          for d in exc.diagnostics]  # fmt: skip
        if found:
            raise CkdslError(found)

    def play(self, point: Point, games: int, seed: int, where: str) -> pd.DataFrame:
        from ckdsl.sim.experiment import Experiment
        from ckdsl.sim.store import read_results
        from ckdsl.sim.sweep import folder_name, label, write_variant

        variant = write_variant(self.rules, point, self.folder / "_variants")
        experiment = Experiment(
            rules=str(variant),
            lineups=(self.lineup,),
            games=games,
            seed=seed,
            rotate=self.rotate,
            map=self.map,
            layout=self.layout,
            label=label(point),
            metrics=self.metrics,
        )
        spec = prepared(experiment)
        out = self.folder / where / folder_name(point)
        command = ["ckdsl", *sys.argv[1:]]  # the whole command: it shapes every value's games
        result = run_experiment(experiment, spec, out, command=command, kind="sweep",
                                **self.options)  # fmt: skip
        if not self.options["quiet"]:
            click.echo(f"{label(point)}: {result.describe()}", err=True)
        return read_results(out, experiment.keys())


def _check_parameters(rules: str, space: Sequence[tuple[str, Sequence[Number]]]) -> Point:
    """The rule set's own values of the swept parameters (a usage error if one is not a
    number parameter of it)."""
    from ckdsl.sim.sweep import current_values

    try:
        current = current_values(rules, [name for name, _ in space])
    except CkdslError as exc:
        d = exc.diagnostics[0]
        raise click.BadParameter(
            d.message + "; " + "; ".join(d.notes), param_hint="--set"
        ) from None
    return tuple((name, current[name]) for name, _ in space)


@click.command("sweep")
@_sweep_options
def sweep_command(rules: str, sets: tuple[str, ...], sweep_file: Path | None, players: str | None,
                  games: int, seed: int, rotate_seats: bool, jobs: int | None,
                  scheduler: str | None, out: Path | None, plot_path: Path | None, level: float,
                  metrics: tuple[tuple[str, str], ...], keep_events: bool, quiet: bool,
                  as_json: bool) -> None:  # fmt: skip
    """Play a parameter of RULES at several values on the same seeds and draw how each
    measure responds: seat win rates, seat spread, finished share, game length and your
    --metric columns, with intervals over seeds, and each value's paired difference from
    the rule set's own value.

    \b
    Examples:
      ckdsl sweep base --set hand_limit=7..11 --games 40 --plot dose.png
      ckdsl sweep my-variant.yaml --set points_to_win=10..16:2 --rotate-seats --out runs/p
    """
    from ckdsl.sim import require_extra
    from ckdsl.sim.sweep import analyse, format_levels, grid, label

    require_extra()
    if plot_path is not None:
        require_extra("matplotlib")
    if keep_events:
        raise click.UsageError("--keep-events: keep logs with `ckdsl simulate` of one variant")
    space = _space(sets, sweep_file)
    current = _check_parameters(rules, space)
    points = grid(space)
    reference = current if current in points else points[0]
    options = {"jobs": jobs, "scheduler": scheduler, "quiet": quiet}
    with results_folder(out, "sweep") as folder:
        runner = _Runner(rules, players, rotate_seats, options, metrics, folder)
        runner.check(points)
        frames = {point: runner.play(point, games, seed, ".") for point in points}
        user = [name for name, _ in metrics]
        levels = analyse(frames, reference, user=user, level=level, seed=seed)
    header = {
        "rules": rules,
        "parameters": {name: list(values) for name, values in space},
        "reference": label(reference),
        "players": list(runner.lineup),
        "seeds": games,
        "master_seed": seed,
        "rotate": rotate_seats,
        "level": level,
        "method": "means over seeds (each seed's games averaged first), t intervals; seat "
        "spread: percentile bootstrap over seeds; differences paired on seeds",
    }
    if as_json:
        click.echo(json.dumps({"sweep": header, "levels": [x.to_json() for x in levels]},
                              indent=1, ensure_ascii=False))  # fmt: skip
    else:
        click.echo(f"{rules}: {', '.join(label(p) for p in points)}; {games} seeds each "
                   f"(master seed {seed}); reference {label(reference)}")  # fmt: skip
        click.echo(format_levels(levels, reference, level, user))
    _plot(plot_path, levels, f"{rules}: sweep of {', '.join(n for n, _ in space)} "
          f"({games} seeds per value)", user, (), quiet)  # fmt: skip


def _plot(path: Path | None, levels: Sequence[Level], title: str, user: Sequence[str],
          chosen: Sequence[Level], quiet: bool) -> None:  # fmt: skip
    if path is None:
        return
    from ckdsl.sim.dose_plot import draw

    try:
        written = draw(levels, path, title=title, user=user, chosen=chosen)
    except OSError as exc:
        raise CkdslError(
            [Diagnostic(str(path), 0, 0, f"cannot write the plot: {exc.strerror}")]
        ) from None
    if not quiet:
        click.echo("wrote " + ", ".join(str(p) for p in written), err=True)


@click.command("search")
@_sweep_options
@click.option(
    "--target",
    default="balance",
    show_default=True,
    help="What to aim for: balance (the smallest seat spread) or MEASURE=VALUE, e.g. "
    "turns=80, seat4=0.25 or a --metric name.",
)
@click.option(
    "--trials",
    type=click.IntRange(min=1, max=200),
    default=8,
    show_default=True,
    help="Values the optimizer (Optuna TPE) tries on the search seeds.",
)
@click.option(
    "--confirm-games",
    type=click.IntRange(min=2),
    default=None,
    help="Fresh seeds to confirm the winner on (default: twice --games).",
)
@click.option(
    "--confirm-seed",
    type=int,
    default=None,
    help="The master seed of the confirmation (default: --seed + 1): seeds the search never saw.",
)
def search_command(rules: str, sets: tuple[str, ...], sweep_file: Path | None, players: str | None,
                 games: int, seed: int, rotate_seats: bool, jobs: int | None,
                 scheduler: str | None, out: Path | None, plot_path: Path | None, level: float,
                 metrics: tuple[tuple[str, str], ...], keep_events: bool, quiet: bool,
                 as_json: bool, target: str, trials: int, confirm_games: int | None,
                 confirm_seed: int | None) -> None:  # fmt: skip
    """Search the values of --set for the one that best meets --target (Optuna's TPE on
    the same search seeds for every value), then play the winner and the rule set's own
    value on fresh seeds and report that confirmation, paired, next to the search's
    optimistic score.

    \b
    Examples:
      ckdsl search base --set hand_limit=4..13 --target balance --trials 6 --games 40
      ckdsl search base --set points_to_win=10..16 --target turns=80 --plot search.png
    """
    from ckdsl.sim import require_extra
    from ckdsl.sim.rule_search import (
        SELECTION_NOTE,
        Target,
        best,
        score_difference,
        search,
        verdict,
    )
    from ckdsl.sim.sweep import analyse, grid, per_seed

    require_extra()
    require_extra("optuna")
    if plot_path is not None:
        require_extra("matplotlib")
    if keep_events:
        raise click.UsageError("--keep-events: keep logs with `ckdsl simulate` of one variant")
    try:
        aim = Target.parse(target)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--target") from None
    user = [name for name, _ in metrics]
    seats_known = aim.measure.startswith("seat") or aim.measure in (
        "turns", "finished", "seat_spread", *user)  # fmt: skip
    if not seats_known:
        raise click.BadParameter(f"no measure '{aim.measure}': turns, finished, seatN, or a "
                                 "--metric name", param_hint="--target")  # fmt: skip
    space = _space(sets, sweep_file)
    current = _check_parameters(rules, space)
    fresh_seeds = confirm_games or 2 * games
    fresh_seed = seed + 1 if confirm_seed is None else confirm_seed
    if fresh_seed == seed:
        raise click.BadParameter("the confirmation needs other seeds than the search",
                                 param_hint="--confirm-seed")  # fmt: skip
    options = {"jobs": jobs, "scheduler": scheduler, "quiet": quiet}
    with results_folder(out, "search") as folder:
        runner = _Runner(rules, players, rotate_seats, options, metrics, folder)
        runner.check(grid(space))
        frames: dict[Point, pd.DataFrame] = {}
        levels: dict[Point, Level] = {}

        def evaluate(point: Point) -> float:
            frames[point] = runner.play(point, games, seed, "search")
            found = analyse({point: frames[point]}, point, user=user, level=level, seed=seed)[0]
            levels[point] = found
            return aim.score(found)

        tried = search(space, evaluate, trials=trials, seed=seed)
        winner = best(tried, current)
        confirm_points = [winner] if winner == current else [winner, current]
        fresh = {p: runner.play(p, fresh_seeds, fresh_seed, "confirm") for p in confirm_points}
        confirmed = analyse(fresh, current, user=user, level=level, seed=fresh_seed)
        tables = {p: per_seed(frame, user) for p, frame in fresh.items()}
        difference = score_difference(tables[winner], tables[current], aim, level, fresh_seed)
    ordered = [levels[p] for p in sorted(levels)]
    report = _search_report(rules, aim, tried, winner, current, levels, confirmed, games,
                          fresh_seeds, fresh_seed, seed, level)  # fmt: skip
    note = SELECTION_NOTE.format(n=len(tried), seeds=games, fresh=fresh_seeds, seed=fresh_seed)
    report["selection_bias"] = note
    report["confirmation"]["score_difference"] = difference.to_json()
    report["confirmation"]["verdict"] = verdict(difference)
    if as_json:
        click.echo(json.dumps(report, indent=1, ensure_ascii=False))
    else:
        click.echo(_format_search(report, confirmed, current, level, user))
    _plot(plot_path, ordered, f"{rules}: search for {aim.describe()} ({games} search seeds a "
          "value; winner shaded)", user, [levels[winner]], quiet)  # fmt: skip


def _search_report(rules: str, aim: Any, tried: Sequence[tuple[Point, float]], winner: Point,
                 current: Point, levels: dict[Point, Level], confirmed: Sequence[Level],
                 games: int, fresh_seeds: int, fresh_seed: int, seed: int,
                 level: float) -> dict[str, Any]:  # fmt: skip
    from ckdsl.sim.sweep import label

    by_point = {c.point: c for c in confirmed}
    measure = aim.measure
    return {
        "rules": rules,
        "target": aim.describe(),
        "optimizer": "Optuna TPE sampler (seeded with the master seed)",
        "search": {
            "master_seed": seed,
            "seeds": games,
            "trials": [
                {
                    "values": label(p),
                    "score": _round(s),
                    measure: levels[p].measures[measure].to_json(),
                }
                for p, s in tried
            ],
        },
        "winner": label(winner),
        "reference": label(current),
        "winner_search_score": _round(aim.score(levels[winner])),
        "confirmation": {
            "master_seed": fresh_seed,
            "seeds": fresh_seeds,
            "level": level,
            "winner": by_point[winner].to_json(),
            "winner_score": _round(aim.score(by_point[winner])),
            "reference": by_point[current].to_json(),
            "reference_score": _round(aim.score(by_point[current])),
        },
    }


def _round(value: float) -> float | None:
    return (
        None if value != value or value in (float("inf"), float("-inf")) else float(f"{value:.6g}")
    )


def _format_search(report: dict[str, Any], confirmed: Sequence[Level], current: Point,
                 level: float, user: Sequence[str]) -> str:  # fmt: skip
    from ckdsl.sim.sweep import format_levels

    search = report["search"]
    lines = [
        f"{report['rules']}: search for {report['target']} with {report['optimizer']}",
        f"search seeds: {search['seeds']} (master seed {search['master_seed']}); "
        f"{len(search['trials'])} values tried:",
    ]
    for trial in sorted(search["trials"], key=lambda t: (t["score"] is None, t["score"])):
        lines.append(f"  {trial['values']:<24} score {trial['score']}")
    conf = report["confirmation"]
    lines += [
        f"winner: {report['winner']} (search score {report['winner_search_score']}); "
        f"the rule set's own value: {report['reference']}",
        "",
        f"confirmation on {conf['seeds']} fresh seeds (master seed {conf['master_seed']}), "
        f"paired: winner score {conf['winner_score']}, own value {conf['reference_score']}",
        f"  winner − own value: {conf['verdict']} (percentile bootstrap over the fresh "
        "seeds, paired)",
        format_levels(confirmed, current, level, user),
        "",
        report["selection_bias"],
    ]
    return "\n".join(lines)


COMMANDS = [sweep_command, search_command]
