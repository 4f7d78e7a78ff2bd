"""``ckdsl report DIR`` (re-render a stored comparison) and ``ckdsl plan DIR`` (how many
seeds a study needs, from a pilot run): commands that read a ``compare --out`` folder and
play no game."""

from __future__ import annotations

import math
from pathlib import Path

import click

from ckdsl.commands.common import NamedPath, json_option, quiet_option
from ckdsl.commands.compare import (
    Analysis,
    check_writable,
    emit,
    headline_option,
    margin_option,
    parse_headline,
    parse_margins,
    plots_option,
    power_option,
    table_option,
)

_LEVEL = click.FloatRange(0, 1, min_open=True, max_open=True)


@click.command("report")
@click.argument("folder", type=NamedPath(path_type=Path, file_okay=False))
@click.option("--base", default=None, help="The base's label (default: the rule set the "
              "compare command named first).")  # fmt: skip
@click.option(
    "--report",
    "report_path",
    type=NamedPath(path_type=Path, dir_okay=False),
    default=None,
    help="Write the self-contained HTML report.",
)
@plots_option
@click.option("--level", type=_LEVEL, default=0.95, show_default=True,
              help="Confidence level of the intervals.")  # fmt: skip
@click.option("--bootstrap", is_flag=True, help="Bootstrap (BCa over seeds) intervals for means.")
@click.option("--seed", type=int, default=None,
              help="The bootstrap's seed (default: the master seed, as compare used).")  # fmt: skip
@headline_option
@margin_option
@power_option
@table_option
@quiet_option
@json_option
def report_command(
    folder: Path,
    base: str | None,
    report_path: Path | None,
    plots_dir: Path | None,
    level: float,
    bootstrap: bool,
    seed: int | None,
    headline: str | None,
    margins: tuple[str, ...],
    power: float,
    table_format: str,
    quiet: bool,
    as_json: bool,
) -> None:
    """Re-render the report of a stored comparison (the folder of `ckdsl compare --out`):
    the text table, JSON, CSV or LaTeX, the HTML report and the plots, with other analysis
    choices (level, bootstrap, headline family, margins) and without playing a game. The
    report names the commands that played the games.

    \b
    Examples:
      ckdsl report runs/limit9 --report limit9.html
      ckdsl report runs/limit9 --margin win_seat_4=0.03 --table latex
    """
    from ckdsl.sim import require_extra
    from ckdsl.sim.compare.analysis import StoppingRule
    from ckdsl.sim.stored import load

    require_extra()
    if report_path is not None or plots_dir is not None:
        require_extra("matplotlib")
    check_writable(report_path, plots_dir, None)
    stored = load(folder, base)
    analysis = Analysis(
        parse_headline(headline), parse_margins(margins), power, stored.user_metrics
    )
    first = stored.frames[stored.base]
    stopping = StoppingRule("fixed", int(first["seed_index"].nunique()), len(first))
    report = analysis.compare(
        stored.frames,
        base=stored.base,
        level=level,
        seed=seed if seed is not None else int(stored.stores[stored.base]["master_seed"] or 0),
        method="bootstrap" if bootstrap else "t",
        stopping=stopping,
        stores=stored.stores,
    )
    facts: dict[str, str | int] = {
        "re-rendered from": str(folder),
        "games played by": " | ".join(stored.commands) or "unknown",
        "results folder made": stored.created,
    }
    emit(report, as_json, table_format, report_path, plots_dir, quiet, facts)


@click.command("plan")
@click.argument("folder", type=NamedPath(path_type=Path, file_okay=False))
@click.option("--delta", type=float, required=True,
              help="The difference to detect, in the metric's units (0.03: 3 points of a "
              "rate; 2 for two turns).")  # fmt: skip
@click.option("--metric", default="seat1_win", show_default=True,
              help="The metric: seat4_win (a seat's win rate), finished, turns, or any "
              "metric of the report (`ckdsl report DIR --json`).")  # fmt: skip
@click.option("--variant", default=None, help="The variant whose differences from the base "
              "the pilot measured (default: the first).")  # fmt: skip
@click.option("--base", default=None, help="The base's label (default: as `ckdsl report`).")
@power_option
@click.option("--alpha", type=_LEVEL, default=0.05, show_default=True,
              help="The two-sided significance level; divide by the size of the headline "
              "family to plan a Holm-corrected test.")  # fmt: skip
@json_option
def plan_command(
    folder: Path,
    delta: float,
    metric: str,
    variant: str | None,
    base: str | None,
    power: float,
    alpha: float,
    as_json: bool,
) -> None:
    """How many seeds a comparison needs to detect --delta in --metric with --power, from a
    pilot run (the folder of `ckdsl compare --out`): the standard deviation of the pilot's
    per-seed differences (variant − base, the seed's rotations averaged) in the paired
    t-test's power equation (statsmodels' TTestPower), and the pilot's own minimum
    detectable effect.

    \b
    Example:
      ckdsl plan runs/limit9 --delta 0.03 --metric seat4_win
    """
    import json

    import numpy as np

    from ckdsl.sim import require_extra
    from ckdsl.sim.compare.analysis import compare
    from ckdsl.sim.compare.specs import metric_name
    from ckdsl.sim.stats.planning import minimum_detectable_effect, seeds_needed
    from ckdsl.sim.stored import load

    require_extra()
    if delta == 0 or not math.isfinite(delta):
        message = f"the difference to detect is a finite number other than 0, not {delta}"
        raise click.BadParameter(message, param_hint="--delta")
    stored = load(folder, base)
    name = metric_name(metric)
    report = compare(stored.frames, base=stored.base)
    chosen = variant or report.labels[1]
    if chosen not in report.labels[1:]:
        raise click.BadParameter(
            f"no variant '{chosen}' (the pilot has {', '.join(report.labels[1:])})",
            param_hint="--variant",
        )
    diff = report.comparison(chosen).difference(name)
    if diff is None or not diff.seed_differences:
        raise click.BadParameter(
            f"the pilot has no paired metric '{metric}'", param_hint="--metric"
        )
    values = np.asarray(diff.seed_differences)
    sd = float(np.std(values, ddof=1)) if values.size > 1 else math.nan
    needed = seeds_needed(sd, delta, alpha, power)
    mde = minimum_detectable_effect(sd, int(values.size), alpha, power)
    summary = report.ruleset(stored.base)
    per_seed = summary.games / summary.seeds if summary.seeds else 1.0
    scale, unit = diff.spec.scale, f" {diff.spec.unit}" if diff.spec.unit else ""
    if as_json:
        click.echo(
            json.dumps(
                {
                    "pilot": str(folder),
                    "base": stored.base,
                    "variant": chosen,
                    "metric": name,
                    "pilot_seeds": int(values.size),
                    "games_per_seed": per_seed,
                    "sd_per_seed_difference": sd,
                    "pilot_difference": diff.delta.to_json(),
                    "delta": delta,
                    "alpha": alpha,
                    "power": power,
                    "seeds_needed": needed,
                    "pilot_mde": mde,
                },
                indent=2,
                sort_keys=True,
            )
        )
        return

    def show(value: float | None) -> str:
        return "n/a" if value is None else f"{value * scale:.3g}{unit}"

    each_seed = f"{per_seed:g} game{'' if per_seed == 1 else 's'} per seed"

    click.echo(
        f"Pilot: {folder} ({stored.base} against {chosen}, {values.size} seeds, {each_seed})"
    )
    click.echo(
        f"{diff.spec.label}: pilot difference {show(diff.delta.estimate)}; SD of the per-seed "
        f"differences {show(sd)}"
    )
    if needed is None:
        click.echo("The per-seed differences do not vary: no sample size can be computed.")
        return
    click.echo(
        f"To detect Δ = {show(delta)} with {power:.0%} power (paired t, two-sided α = "
        f"{alpha:g}): {needed} seeds ({math.ceil(needed * per_seed)} games per rule set at "
        f"{each_seed})."
    )
    click.echo(f"With the pilot's {values.size} seeds: MDE {show(mde)} at {power:.0%} power.")


COMMANDS = [report_command, plan_command]
