"""``ckdsl compare``: a base rule set against variants on paired seeds, with a report."""

from __future__ import annotations

import math
import os
import re
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ckdsl.commands.common import (
    DEFAULT_LINEUP,
    NAME,
    NamedPath,
    bot_specs,
    check_keep_events,
    jobs_option,
    json_option,
    layout_option,
    map_option,
    prepared,
    quiet_option,
    refuse_game_files,
    results_folder,
    rotate_option,
    run_experiment,
    scheduler_option,
    user_metric_args,
    user_metric_options,
)
from ckdsl.diagnostics import CkdslError, Diagnostic

if TYPE_CHECKING:
    import pandas as pd

    from ckdsl.bots.base import BotSpec
    from ckdsl.sim.compare.analysis import ComparisonReport
    from ckdsl.sim.compare.specs import UserMetric
    from ckdsl.sim.experiment import Experiment, WorkSpec
    from ckdsl.sim.runner import RunResult
    from ckdsl.sim.sprt_run import SprtMetric, SprtTest

DEFAULT_PLAYERS = DEFAULT_LINEUP
MAX_GAMES_FACTOR = 10
"""Without --max-games, --until-significant plays at most this many times --games seeds."""


plots_option = click.option(
    "--plots",
    "plots_dir",
    type=NamedPath(path_type=Path, file_okay=False),
    default=None,
    help="Write each plot as PNG and SVG in this folder (with captions.txt).",
)
"""``--plots``: of ``compare`` and of ``report`` (a stored comparison drawn again)."""

headline_option = click.option(
    "--headline",
    default=None,
    metavar="METRIC,...",
    help="The confirmatory family, corrected with Holm (the rest is exploratory, "
    "Benjamini–Hochberg): metric names or patterns, e.g. 'seat_balance,turns' or "
    "'win_seat_*'. Default: seat_balance (the variant × seat test), finished, turns, "
    "score_margin, lead_changes, decisive_fraction.",
)
margin_option = click.option(
    "--margin",
    "margins",
    multiple=True,
    metavar="[METRIC=]DELTA",
    help="The smallest difference of interest, in the metric's units (0.03: 3 points of a "
    "rate; turns=2): an equivalence verdict (TOST) for that metric; a bare DELTA applies "
    "to each seat's win rate and every headline rate. Repeatable.",
)
power_option = click.option(
    "--power",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=0.8,
    show_default=True,
    help="The power of the minimum detectable effects (MDE) the report gives.",
)
table_option = click.option(
    "--table",
    "table_format",
    type=click.Choice(["text", "csv", "latex"]),
    default="text",
    show_default=True,
    help="How to print the differences: the terminal table, or every difference of every "
    "variant as CSV or a LaTeX table (booktabs) for a paper.",
)


def _fail(where: str | Path, message: str) -> CkdslError:
    return CkdslError([Diagnostic(str(where), 0, 0, message)])


@click.command("compare")
@click.argument("base", metavar="BASE", type=NAME)
@click.argument("variants", nargs=-1, required=True, metavar="VARIANT...", type=NAME)
@click.option(
    "--players",
    default=DEFAULT_PLAYERS,
    show_default=True,
    help="The bots, one spec per seat, comma-separated (`ckdsl bots` lists them); the same "
    "line-up plays every rule set.",
)
@click.option(
    "--lineups",
    default=None,
    metavar="LINEUP ; LINEUP...",
    help="Several line-ups separated by ';' (instead of --players; BOT*N repeats a bot), "
    "each playing the same seeds under every rule set: the report adds, for each headline "
    "metric, the line-up × variant interaction paired on seeds (does the effect depend on "
    "the bots?). Example: 'heuristic*4 ; mcts,heuristic*3'.",
)
@click.option(
    "--games",
    type=click.IntRange(min=1),
    default=100,
    show_default=True,
    help="How many seeds to play under each rule set (with --rotate-seats, each once per "
    "rotation). With --until-significant: the seeds of each batch.",
)
@click.option(
    "--seed",
    type=int,
    default=0,
    show_default=True,
    help="The master seed: seed number i plays the same game seed under every rule set "
    "(that is the pairing). Also seeds the bootstrap.",
)
@rotate_option
@jobs_option
@scheduler_option
@click.option(
    "--out",
    type=NamedPath(path_type=Path),
    default=None,
    help="Keep the games here, one results folder per rule set (DIR/LABEL). The same "
    "command again plays only the games missing; more --games extends the folders. "
    "Without --out the games are thrown away after the report.",
)
@map_option
@layout_option
@click.option(
    "--report",
    "report_path",
    type=NamedPath(path_type=Path, dir_okay=False),
    default=None,
    help="Write one self-contained HTML file: the design, the tables and the plots.",
)
@plots_option
@click.option(
    "--level",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=0.95,
    show_default=True,
    help="Confidence level of the intervals; 1 - LEVEL is the significance threshold.",
)
@click.option(
    "--bootstrap",
    is_flag=True,
    help="Bootstrap (BCa, resampling seeds) intervals for means instead of t intervals.",
)
@click.option(
    "--until-significant",
    is_flag=True,
    help="Play batches of --games seeds until an SPRT on --sprt-metric decides (or "
    "--max-games seeds are played).",
)
@click.option(
    "--sprt-metric",
    "sprt_metric_name",
    default="seat1",
    show_default=True,
    help="The SPRT's metric, as the per-seed difference B - A: seat1 ... seatN (a seat's "
    "win rate), finished (the finished share) or turns (game length).",
)
@click.option(
    "--h0",
    type=float,
    default=None,
    help="The SPRT's null hypothesis, a difference in the metric's units (default 0).",
)
@click.option(
    "--h1",
    type=float,
    default=None,
    help="The SPRT's alternative (default 0.03 for a rate, 5 for turns); negative to "
    "look for a decrease.",
)
@click.option(
    "--alpha",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=0.05,
    show_default=True,
    help="The SPRT's false-positive rate.",
)
@click.option(
    "--beta",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=0.05,
    show_default=True,
    help="The SPRT's false-negative rate.",
)
@click.option(
    "--max-games",
    type=click.IntRange(min=1),
    default=None,
    help=f"With --until-significant: the most seeds to play (default {MAX_GAMES_FACTOR} "
    "times --games).",
)
@user_metric_options
@headline_option
@margin_option
@power_option
@table_option
@quiet_option
@json_option
def compare_command(
    base: str,
    variants: tuple[str, ...],
    players: str,
    games: int,
    seed: int,
    rotate_seats: bool,
    jobs: int | None,
    scheduler: str | None,
    out: Path | None,
    map_name: str,
    layout: str | None,
    report_path: Path | None,
    plots_dir: Path | None,
    level: float,
    bootstrap: bool,
    until_significant: bool,
    sprt_metric_name: str,
    h0: float | None,
    h1: float | None,
    alpha: float,
    beta: float,
    max_games: int | None,
    lineups: str | None,
    metrics: tuple[tuple[str, str], ...],
    keep_events: bool,
    headline: str | None,
    margins: tuple[str, ...],
    power: float,
    table_format: str,
    quiet: bool,
    as_json: bool,
) -> None:
    """Compare a BASE rule set with one or more VARIANTs on the same seeds.

    BASE and each VARIANT are 'base', a variant file or a rule-set folder. Every seed is
    played under each rule set with the same bots, so the games are paired (same board,
    dice and decks until the rules make them differ). The report gives each rule set's win
    rates by seat and bot (Wilson intervals), seat balance (χ²), game length, points and the
    Cities & Knights metrics, and each variant's differences from the base with paired
    intervals, Holm-corrected tests and a plain-language verdict. Results on stdout
    (--json: the whole report, byte-identical for the same command); progress on stderr.

    \b
    Examples:
      ckdsl compare base examples/variants/fifteen_points.yaml --games 500 --rotate-seats \\
          --report report.html
      ckdsl compare base my-variant.yaml --players random,random,random,random --out runs
      ckdsl compare base my-variant.yaml --until-significant --sprt-metric seat1 \\
          --h1 0.03 --games 100 --max-games 2000
      ckdsl compare base my-variant.yaml --metric walls_at_end="count(walls(p))" \\
          --keep-events --out runs/walls

    A --metric column is reported as the built-in metrics are (per player: its total
    over the seats and each seat's); --keep-events keeps each game's event log in each
    rule set's folder (DIR/LABEL/_events; read it with ckdsl.sim.event_logs.read_events).
    Unfinished games (the turn limit) are counted in every denominator, never dropped.
    """
    from ckdsl.sim import require_extra

    if lineups is not None and players != DEFAULT_PLAYERS:
        raise click.UsageError("give the bots with --players or with --lineups, not both")
    teams = parse_lineups(lineups) if lineups is not None else [bot_specs(players)]
    if len({len(team) for team in teams}) > 1:
        raise click.BadParameter(
            "every line-up needs the same number of seats", param_hint="--lineups"
        )
    margin_of = parse_margins(margins)
    require_extra()
    if report_path is not None or plots_dir is not None:
        require_extra("matplotlib")
    if scheduler is not None:
        require_extra("distributed")
    check_keep_events(keep_events, out)
    if max_games is not None and not until_significant:
        raise click.UsageError("--max-games needs --until-significant")
    sprt_options = (("--sprt-metric", sprt_metric_name != "seat1"), ("--h0", h0), ("--h1", h1))
    for name, value in sprt_options:
        if value and not until_significant:
            raise click.UsageError(f"{name} needs --until-significant")
    check_writable(report_path, plots_dir, out)
    lineup_set = tuple(tuple(spec.full() for spec in team) for team in teams)
    lineup = lineup_set[0]
    refuse_game_files("--report", report_path, [base, *variants], map_name)
    design = _Design(games, seed, rotate_seats, map_name, layout, metrics, keep_events)
    plans = _plans([base, *variants], lineup_set, design)
    seats = len(lineup)
    sprt_metric = None
    if until_significant:
        from ckdsl.sim.sprt_run import sprt_metric as find_metric

        try:
            sprt_metric = find_metric(sprt_metric_name, seats)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--sprt-metric") from None
        default_h0, default_h1 = sprt_metric.default_bounds()
        h0 = default_h0 if h0 is None else h0
        h1 = default_h1 if h1 is None else h1
        if h0 == h1:
            raise click.BadParameter("--h0 and --h1 must differ", param_hint="--h1")
        if sprt_metric.bounded and not (-1 <= h0 <= 1 and -1 <= h1 <= 1):
            raise click.BadParameter(
                "for a rate, --h0 and --h1 are differences between -1 and 1 (0.03: 3 points)",
                param_hint="--h1",
            )
    command = _command_line([base, *variants], lineup_set, design, out)
    began = time.perf_counter()
    with results_folder(out, "compare") as folder:
        report, results = _play_and_compare(
            plans,
            folder,
            jobs,
            scheduler,
            quiet,
            command,
            level,
            bootstrap,
            seed,
            sprt_metric,
            h0,
            h1,
            alpha,
            beta,
            max_games or MAX_GAMES_FACTOR * games,
            Analysis(parse_headline(headline), margin_of, power, _user_columns(plans)),
        )
    wall = time.perf_counter() - began
    _emit(report, results, as_json, report_path, plots_dir, quiet, command, wall, out, table_format)


# --- Plans: one experiment per rule set ----------------------------------------------------


@dataclass(frozen=True)
class _Design:
    """What every rule set's experiment shares: seeds, seating, board, user metrics, logs."""

    games: int
    seed: int
    rotate: bool
    map_name: str
    layout: str | None
    metrics: tuple[tuple[str, str], ...] = ()
    keep_events: bool = False


@dataclass(frozen=True)
class _Plan:
    target: str  # as given on the command line
    label: str
    folder: str
    experiment: Experiment
    spec: WorkSpec


def _plans(
    targets: Sequence[str], lineups: tuple[tuple[str, ...], ...], design: _Design
) -> list[_Plan]:
    """An experiment per rule set, loaded and checked (every broken file reported at once),
    with unique labels and folder names."""
    from ckdsl.sim.experiment import Experiment

    loaded: list[tuple[str, Experiment, WorkSpec]] = []
    problems: list[Diagnostic] = []
    for target in targets:
        experiment = Experiment(
            rules=target,
            lineups=lineups,
            games=design.games,
            seed=design.seed,
            rotate=design.rotate,
            map=design.map_name,
            layout=design.layout,
            metrics=design.metrics,
            keep_events=design.keep_events,
        )
        try:
            spec = prepared(experiment)
        except CkdslError as exc:
            problems.extend(exc.diagnostics)
            continue
        loaded.append((target, experiment, spec))
    if problems:
        raise CkdslError(problems)
    plans = []
    used: set[str] = set()
    for target, experiment, spec in loaded:
        label = spec.label
        n = 2
        while label in used:
            label = f"{spec.label}-{n}"
            n += 1
        used.add(label)
        folder = re.sub(r"[^A-Za-z0-9._-]+", "_", label).strip("._") or "rules"
        experiment = replace(experiment, label=label)
        plans.append(_Plan(target, label, folder, experiment, replace(spec, label=label)))
    return plans


def _user_columns(plans: Sequence[_Plan]) -> tuple[UserMetric, ...]:
    """The user metrics (``--metric``) as the comparison reports them (the same for every
    rule set: compiled against each, so a formula one of them cannot run stopped the
    command before a game)."""
    from ckdsl.sim.compare.specs import UserMetric

    return tuple(UserMetric.from_json(m.describe()) for m in plans[0].spec.metrics)


def check_writable(report: Path | None, plots: Path | None, out: Path | None) -> None:
    """Refuse, before playing a game, outputs that cannot be written."""
    if report is not None:
        parent = report.parent if str(report.parent) else Path(".")
        if report.is_dir():
            raise _fail(report, "is a folder; --report wants an HTML file name")
        if not parent.is_dir():
            raise _fail(report, f"cannot write the report: the folder {parent} does not exist")
        _probe(parent, report, "the report")
    if plots is not None:
        if plots.exists() and not plots.is_dir():
            raise _fail(plots, "is a file; --plots wants a folder")
        try:
            plots.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise _fail(plots, f"cannot create the plots folder: {exc.strerror}") from None
        _probe(plots, plots, "the plots")
    if out is not None:
        if out.exists() and not out.is_dir():
            raise _fail(out, "is a file; --out wants a folder (one results folder per rule set)")
        if (out / "_manifest.json").exists():
            raise _fail(
                out,
                "is a results folder of one rule set (it has a _manifest.json); compare keeps "
                "one such folder per rule set inside --out: give another folder",
            )
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise _fail(out, f"cannot create the results folder: {exc.strerror}") from None
        _probe(out, out, "the results")


def _probe(folder: Path, shown: Path, what: str) -> None:
    try:
        handle, name = tempfile.mkstemp(prefix=".ckdsl-probe-", dir=folder)
    except OSError as exc:
        raise _fail(shown, f"cannot write {what}: {exc.strerror}") from None
    os.close(handle)
    os.unlink(name)


# --- Playing -------------------------------------------------------------------------------


def _play(
    plans: Sequence[_Plan],
    out: Path,
    seeds: int,
    jobs: int | None,
    scheduler: str | None,
    quiet: bool,
    command: list[str],
    results: list[RunResult],
) -> dict[str, pd.DataFrame]:
    """Extend every rule set's store to ``seeds`` seeds; their games, by label."""
    from ckdsl.sim.store import read_results

    frames = {}
    for plan in plans:
        experiment = replace(plan.experiment, games=seeds)
        folder = out / plan.folder
        result = run_experiment(
            experiment,
            plan.spec,
            folder,
            jobs=jobs,
            scheduler=scheduler,
            quiet=quiet,
            command=command,
            kind="compare",
        )
        results.append(result)
        if not quiet:
            click.echo(f"{plan.label}: {result.describe()}", err=True)
        frames[plan.label] = read_results(folder, experiment.keys())
    return frames


def _play_and_compare(
    plans: Sequence[_Plan],
    out: Path,
    jobs: int | None,
    scheduler: str | None,
    quiet: bool,
    command: list[str],
    level: float,
    bootstrap: bool,
    seed: int,
    sprt_metric: SprtMetric | None,
    h0: float | None,
    h1: float | None,
    alpha: float,
    beta: float,
    max_seeds: int,
    analysis: Analysis,
) -> tuple[ComparisonReport, list[RunResult]]:
    from ckdsl.sim.compare.analysis import StoppingRule

    results: list[RunResult] = []
    games = plans[0].experiment.games
    base = plans[0].label
    frames: Mapping[str, pd.DataFrame]
    if sprt_metric is None:
        frames = _play(plans, out, games, jobs, scheduler, quiet, command, results)
        stopping = StoppingRule("fixed", games, len(frames[base]))
    else:
        from ckdsl.sim.sprt_run import until_significant

        def on_batch(seeds: int, tests: Sequence[SprtTest]) -> None:
            if quiet:
                return
            for test in tests:
                click.echo(
                    f"SPRT after {seeds} seeds: {test['variant']} LLR {test['llr']:+.3f} "
                    f"(bounds {test['lower_bound']:+.3f}, {test['upper_bound']:+.3f}): "
                    f"{test['decision']}",
                    err=True,
                )

        assert h0 is not None and h1 is not None
        stopping, frames = until_significant(
            lambda seeds: _play(plans, out, seeds, jobs, scheduler, quiet, command, results),
            base=base,
            metric=sprt_metric,
            h0=h0,
            h1=h1,
            alpha=alpha,
            beta=beta,
            start=games,
            batch=games,
            max_seeds=max(max_seeds, 1),
            on_batch=on_batch,
        )
    from ckdsl.sim.provenance import describe
    from ckdsl.sim.store import read_manifest

    stores = {
        plan.label: {
            "rules": plan.target,
            "master_seed": plan.experiment.seed,
            "map": plan.experiment.map,
            "layout": plan.experiment.layout,
            "rotate": plan.experiment.rotate,
            "folder": plan.folder,
            # which ckdsl played it (its rule files' texts: the folder's manifest)
            "sources": describe(read_manifest(out / plan.folder)),
        }
        for plan in plans
    }
    report = analysis.compare(
        frames,
        base=base,
        level=level,
        seed=seed,
        method="bootstrap" if bootstrap else "t",
        stopping=stopping,
        stores=stores,
    )
    return report, results


# --- Output --------------------------------------------------------------------------------


def _emit(
    report: ComparisonReport,
    results: Sequence[RunResult],
    as_json: bool,
    report_path: Path | None,
    plots_dir: Path | None,
    quiet: bool,
    command: list[str],
    wall: float,
    out: Path | None,
    table_format: str = "text",
) -> None:
    from ckdsl.sim.provenance import run_facts as provenance_facts

    played = sum(r.played for r in results)
    run_facts: dict[str, str | int] = {
        "command": " ".join(command),
        "wall time": f"{wall:.1f} s",
        "games played in this run": played,
        **provenance_facts(),
    }
    emit(report, as_json, table_format, report_path, plots_dir, quiet, run_facts)
    if not quiet:
        where = f"; results in {out}" if out is not None else ""
        click.echo(f"{played} games played in {wall:.1f} s{where}", err=True)


def emit(
    report: ComparisonReport,
    as_json: bool,
    table_format: str,
    report_path: Path | None,
    plots_dir: Path | None,
    quiet: bool,
    run_facts: Mapping[str, str | int],
) -> None:
    """The report on stdout (text, JSON, CSV or LaTeX), as HTML and as plots."""
    from ckdsl.sim.report.page import write_html
    from ckdsl.sim.report.plots import write_plots
    from ckdsl.sim.report.terminal import print_report

    if as_json:
        click.echo(report.dumps())
    elif table_format != "text":
        from ckdsl.sim.report.export import differences_table

        click.echo(differences_table(report, table_format), nl=False)
    else:
        print_report(report)
    if report_path is not None:
        try:
            write_html(report, report_path, run=run_facts)
        except OSError as exc:
            raise _fail(report_path, f"cannot write the report: {exc.strerror}") from None
        if not quiet:
            click.echo(f"wrote {report_path}", err=True)
    if plots_dir is not None:
        try:
            written = write_plots(report, plots_dir)
        except OSError as exc:
            raise _fail(plots_dir, f"cannot write the plots: {exc.strerror}") from None
        if not quiet:
            click.echo(f"wrote {len(written)} files to {plots_dir}", err=True)


def _command_line(
    targets: Sequence[str], lineups: Sequence[Sequence[str]], design: _Design, out: Path | None
) -> list[str]:
    """The command as the manifests record it: what shapes the results."""
    line = ["ckdsl", "compare", *targets]
    if len(lineups) == 1:
        line += ["--players", ",".join(lineups[0])]
    else:
        line += ["--lineups", " ; ".join(",".join(lineup) for lineup in lineups)]
    line += ["--games", str(design.games), "--seed", str(design.seed)]
    if design.rotate:
        line.append("--rotate-seats")
    if design.map_name != "standard":
        line += ["--map", design.map_name]
    if design.layout is not None:
        line += ["--layout", design.layout]
    line += user_metric_args(design.metrics, design.keep_events)
    if out is not None:
        line += ["--out", str(out)]
    return line


def parse_lineups(text: str) -> list[list[BotSpec]]:
    """``"heuristic*4 ; mcts,heuristic*3"``: line-ups separated by ';', BOT*N for N seats of
    one bot; a usage error naming the line-up otherwise."""
    teams = []
    for part in text.split(";"):
        from ckdsl.bots.base import BotError, split_players

        seats: list[str] = []
        try:
            items = split_players(part.strip()) if part.strip() else []
        except BotError as exc:
            raise click.BadParameter(str(exc), param_hint="--lineups") from None
        for item in items:
            found = re.fullmatch(r"(.+?)\s*\*\s*(\d+)", item)
            seats += [found.group(1)] * int(found.group(2)) if found else [item]
        if not seats:
            raise click.BadParameter(f"an empty line-up in '{text}'", param_hint="--lineups")
        teams.append(bot_specs(",".join(seats), "--lineups"))
    return teams


def parse_margins(values: Sequence[str]) -> dict[str, float]:
    """``--margin`` values: ``METRIC=DELTA``, or a bare DELTA for every rate (key
    ``EVERY_RATE``)."""
    from ckdsl.sim.compare.analysis import EVERY_RATE

    margins: dict[str, float] = {}
    for value in values:
        name, _, number = value.rpartition("=")
        try:
            delta = float(number)
        except ValueError:
            raise click.BadParameter(
                f"'{value}' is not DELTA or METRIC=DELTA (e.g. 0.03, turns=2)",
                param_hint="--margin",
            ) from None
        if not 0 < delta < math.inf:  # (nan and inf too: "equivalent within ±inf" says nothing)
            message = f"a margin must be a positive finite number: '{value}'"
            raise click.BadParameter(message, param_hint="--margin")
        margins[name.strip() or EVERY_RATE] = delta
    return margins


@dataclass(frozen=True)
class Analysis:
    """The choices of the analysis beyond the level: the headline family, margins, power."""

    headline: list[str] | None
    margins: Mapping[str, float]
    power: float
    user_metrics: Sequence[UserMetric] = ()

    def compare(self, frames: Mapping[str, pd.DataFrame], **options: Any) -> ComparisonReport:
        """``analysis.compare`` with these choices; a metric they name that the report lacks
        is a usage error (exit 2)."""
        from ckdsl.sim.compare.analysis import compare
        from ckdsl.sim.compare.specs import CompareError

        try:
            return compare(
                frames,
                headline=self.headline,
                margins=self.margins,
                power=self.power,
                user_metrics=self.user_metrics,
                **options,
            )
        except CompareError as exc:
            raise click.UsageError(str(exc)) from None


def parse_headline(text: str | None) -> list[str] | None:
    """``--headline a,b``: the metric names or patterns (None: the default family)."""
    return [h.strip() for h in text.split(",") if h.strip()] if text else None


COMMANDS = [compare_command]
