"""``ckdsl board`` (a map's ids, or a saved game's position, as text, JSON, SVG or PNG)
and ``ckdsl watch`` (a bot game shown turn by turn as it is played)."""

from __future__ import annotations

import json
import math
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ckdsl.commands.common import (
    NAME,
    NamedPath,
    bot_specs,
    fail,
    json_option,
    refuse_game_files,
    rules_option,
    setup_usage_errors,
    table_layout_option,
    table_map_option,
    table_of,
)
from ckdsl.l10n.catalog import REFERENCE, all_languages

if TYPE_CHECKING:
    from ckdsl.core.decisions import Option
    from ckdsl.l10n.catalog import Catalog
    from ckdsl.table.watch import Step
    from ckdsl.turn.game import Game

lang_option = click.option(
    "--lang",
    type=click.Choice(all_languages()),
    default=REFERENCE,
    show_default=True,
    help="Language of the picture's and the text's words.",
)
svg_option = click.option(
    "--svg", "svg_path", type=NamedPath(path_type=Path), help="Write the picture as SVG."
)
png_option = click.option(
    "--png",
    "png_path",
    type=NamedPath(path_type=Path),
    help="Write the picture as PNG (needs rsvg-convert, cairosvg or Chromium).",
)


@click.command()
@click.option(
    "--map",
    "map_name",
    default=None,
    type=NAME,
    help="Map name or file (default: the rules' `table: map`, else standard).",
)
@click.option("--seed", type=int, default=None, help="Draw a random layout with this seed.")
@click.option(
    "--layout",
    default=None,
    help="A fixed layout of the map (e.g. beginner; default: the rules' `table: layout`, "
    "else the map's beginner layout, else drawn from seed 0).",
)
@rules_option
@click.option(
    "--save",
    "save_path",
    type=NamedPath(path_type=Path),
    help="Draw a saved game's position instead (its final one, or --at N).",
)
@click.option(
    "--scenario",
    "scenario_path",
    type=NamedPath(path_type=Path),
    help="Draw a scenario's position instead (before its steps, or after --at N of them).",
)
@click.option(
    "--at",
    "at",
    type=click.IntRange(min=0),
    default=None,
    help="With --save: the position after the save's first N answers; with --scenario, "
    "after its first N steps.",
)
@click.option(
    "--highlight/--no-highlight",
    default=True,
    show_default=True,
    help="With --save: mark the places the pending decision may name.",
)
@svg_option
@png_option
@lang_option
@json_option
def board(
    map_name: str | None,
    seed: int | None,
    layout: str | None,
    rules: Path | None,
    save_path: Path | None,
    scenario_path: Path | None,
    at: int | None,
    highlight: bool,
    svg_path: Path | None,
    png_path: Path | None,
    lang: str,
    as_json: bool,
) -> None:
    """Show a board with the ids answers use: tiles, intersections, edges ("12-13").

    Its harbors trade at the rates of --rules (the base rules by default). With --save, a
    saved game's position: every piece, the robber, the merchant, the barbarians, and the
    places the next answer may name."""
    if save_path is not None or scenario_path is not None:
        if seed is not None or layout is not None:
            raise click.UsageError("a game's position has its own board: no --seed or --layout")
        if rules is not None or map_name is not None:
            raise click.UsageError(
                "a game's position has its own rules and map: no --rules or --map"
            )
        if save_path is not None and scenario_path is not None:
            raise click.UsageError("give --save or --scenario, not both")
        _draw_game(save_path, scenario_path, at, highlight, svg_path, png_path, lang, as_json)
        return
    if at is not None:
        raise click.UsageError("--at needs --save or --scenario (the position after N answers)")
    target = str(rules) if rules else "base"
    _draw_map(target, map_name, seed, layout, svg_path, png_path, lang, as_json)


def _draw_map(
    rules: str,
    map_name: str | None,
    seed: int | None,
    layout: str | None,
    svg_path: Path | None,
    png_path: Path | None,
    lang: str,
    as_json: bool,
) -> None:
    from dataclasses import replace

    from ckdsl.board import fixed_layout, random_layout
    from ckdsl.board.svg import render_svg
    from ckdsl.l10n.catalog import load_catalog
    from ckdsl.reports.board import (
        HarborRates,
        board_json,
        board_lines,
        board_title,
        default_drawing,
        harbor_words,
    )
    from ckdsl.reports.position import board_words
    from ckdsl.session import load_board, load_rules

    if seed is not None and layout is not None:
        raise click.UsageError("give --seed (a random layout) or --layout (a fixed one), not both")
    # the rules in effect: their harbor rates, their names, and their table's map
    if seed is None:
        map_name, layout, _ = table_of(rules, map_name, layout, None)
    else:
        map_name = table_of(rules, map_name, None, None)[0]
    ruleset = load_rules(rules).ruleset
    rates = HarborRates.of(ruleset.parameters)
    spec, topology = load_board(map_name)
    for option, path in (("--svg", svg_path), ("--png", png_path)):
        refuse_game_files(option, path, [rules], map_name=map_name)
    layout, seed = default_drawing(spec, layout, seed)
    try:
        drawn = (
            fixed_layout(spec, topology, layout)
            if layout is not None
            else random_layout(spec, topology, seed or 0)
        )
    except KeyError as exc:
        raise click.BadParameter(str(exc.args[0]), param_hint="--layout") from None
    catalog = load_catalog(lang, ruleset)
    if svg_path is not None or png_path is not None:
        words = replace(board_words(catalog), harbor=lambda k: harbor_words(catalog, k, rates))
        title = board_title(spec, layout, seed, catalog)
        _write_pictures(render_svg(topology, drawn, title=title, words=words), svg_path, png_path)
    elif as_json:
        report = board_json(spec, topology, drawn, layout, seed, rates)
        click.echo(json.dumps(report, indent=1, ensure_ascii=False))
    else:
        lines = board_lines(spec, topology, drawn, layout, seed, catalog, rates)
        click.echo("\n".join(lines))


def _draw_game(
    save_path: Path | None,
    scenario_path: Path | None,
    at: int | None,
    highlight: bool,
    svg_path: Path | None,
    png_path: Path | None,
    lang: str,
    as_json: bool,
) -> None:
    from ckdsl.l10n.catalog import load_catalog
    from ckdsl.reports.position import position_json, position_lines, position_svg
    from ckdsl.scenario import scenario_position
    from ckdsl.session import load_rules, replay, saved_answers

    if save_path is not None:
        source, unit = save_path, "answers"
        total = saved_answers(save_path)
    else:
        assert scenario_path is not None
        source, unit = scenario_path, "steps"
        total = scenario_position(scenario_path, 0)[2]
    if at is not None and at > total:
        raise click.BadParameter(
            f"{at} is past the end of {source.name}, which has {total} {unit} (give 0 to {total})",
            param_hint="--at",
        )
    if save_path is not None:
        game, setup = replay(save_path, at)
    else:
        game, setup, _ = scenario_position(source, at)
    done = total if at is None else at
    for option, path in (("--svg", svg_path), ("--png", png_path)):
        refuse_game_files(option, path, [setup.rules], setup.map, [source])
    catalog = load_catalog(lang, load_rules(setup.rules).ruleset)
    if svg_path is not None or png_path is not None:
        title = f"{source.name} · {done}/{total}"
        svg = position_svg(game, catalog, title=title, highlight=highlight)
        _write_pictures(svg, svg_path, png_path)
    elif as_json:
        click.echo(json.dumps(position_json(game, done), indent=1, ensure_ascii=False))
    else:
        click.echo("\n".join(position_lines(game, catalog, f"after {done} {unit}")))


def _write_pictures(svg: str, svg_path: Path | None, png_path: Path | None) -> None:
    from ckdsl.reports.picture import NoConverter, svg_to_png

    if svg_path is not None:
        try:
            svg_path.write_text(svg, encoding="utf-8")
        except OSError as exc:
            raise click.FileError(str(svg_path), hint=exc.strerror or str(exc)) from None
        click.echo(f"wrote {svg_path}", err=True)
    if png_path is not None:
        try:
            svg_to_png(svg, png_path)
        except NoConverter as exc:
            raise click.UsageError(str(exc)) from None
        except OSError as exc:
            raise click.FileError(str(png_path), hint=exc.strerror or str(exc)) from None
        click.echo(f"wrote {png_path}", err=True)


def _finite(value: float | None, option: str) -> float | None:
    """``value`` unless it is nan (which every range test lets through)."""
    if value is not None and math.isnan(value):
        raise click.BadParameter("give a number, not nan", param_hint=option)
    return value


@click.command()
@click.option(
    "--players",
    default=None,
    help="One bot spec per player, comma-separated (`ckdsl bots` lists them; default: "
    "four heuristic bots, or as many as the variant's `table: players`).",
)
@click.option("--seed", type=int, default=0, show_default=True, help="The game's seed.")
@click.option(
    "--delay",
    type=click.FloatRange(min=0, max=3600),  # (nan passes a range test: _finite refuses it)
    callback=lambda ctx, param, value: _finite(value, "--delay"),
    default=None,
    help="Seconds between turns (default: 1 on a terminal, 0 otherwise).",
)
@rules_option
@table_map_option
@table_layout_option
@svg_option
@lang_option
def watch(
    players: str | None,
    seed: int,
    delay: float | None,
    rules: Path | None,
    map_name: str | None,
    layout: str | None,
    svg_path: Path | None,
    lang: str,
) -> None:
    """Watch a bot game as it is played, one turn at a time (with --svg, the board file is
    rewritten after every turn: keep it open in a viewer that reloads)."""
    from ckdsl.bots import bot_seed
    from ckdsl.l10n.catalog import load_catalog
    from ckdsl.session import GameSetup, load_rules, start
    from ckdsl.table.watch import bot_answers, steps

    target = str(rules) if rules else "base"
    map_name, layout, players = table_of(target, map_name, layout, players)
    specs = bot_specs(players)
    bots = [spec.make(bot_seed(seed, p)) for p, spec in enumerate(specs)]
    setup = GameSetup(target, map_name, layout, len(specs), seed)
    with setup_usage_errors():
        game = start(setup)
    refuse_game_files("--svg", svg_path, [setup.rules], setup.map)
    catalog = load_catalog(lang, load_rules(setup.rules).ruleset)
    pause = delay if delay is not None else (1.0 if sys.stdout.isatty() else 0.0)

    def choose(g: Game) -> Option:
        return bots[g.pending.player].choose(g.view(g.pending.player))

    show_steps(game, catalog, steps(game, catalog, bot_answers(game, choose)), svg_path, pause)


def show_steps(
    game: Game,
    catalog: Catalog,
    turns: Iterator[Step],
    svg_path: Path | None,
    pause: float,
    wait: bool = False,
) -> None:
    """Print each turn's log and the status after it, rewrite the board file, then pause
    (or, with ``wait``, wait for Enter); the final scores at the end."""
    from ckdsl.diagnostics import Diagnostic
    from ckdsl.reports.game import score_lines
    from ckdsl.table.watch import write_board

    for step in turns:
        title = f"turn {step.turn}" if step.turn else "setup"
        click.echo(f"── {title} " + "─" * 40)
        click.echo("\n".join([*step.lines, *step.status]))
        if svg_path is not None:
            try:
                write_board(game, catalog, svg_path, title)
            except OSError as exc:  # (a missing folder, a folder in its place, a full disk)
                message = f"cannot write the board: {exc.strerror or exc}"
                fail([Diagnostic(str(svg_path), 0, 0, message)])
        if wait:
            click.prompt("", default="", show_default=False, prompt_suffix="⏎ ")
        elif pause:
            time.sleep(pause)
    if game.state.over:
        click.echo("\n".join(score_lines(game, catalog)))


COMMANDS = [board, watch]
