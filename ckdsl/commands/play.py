"""``ckdsl play`` and ``ckdsl replay``: a game played (by bots, or at this terminal) or
replayed from its save, its log and the final scores."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ckdsl.commands.common import (
    EXIT_FINDINGS,
    PATH,
    bot_specs,
    echo_json,
    echo_lines,
    json_option,
    lang_option,
    refuse_game_files,
    rules_option,
    setup_usage_errors,
    table_layout_option,
    table_map_option,
    table_of,
)
from ckdsl.l10n.catalog import load_catalog

if TYPE_CHECKING:
    from ckdsl.bots import Bot
    from ckdsl.core.decisions import Option
    from ckdsl.rules.ruleset import RuleSet
    from ckdsl.session import GameSetup
    from ckdsl.turn.game import Game


def _print_game(game: Game, lang: str, ruleset: RuleSet, as_json: bool) -> None:
    """The log in words, then the final scores (or all of it as JSON)."""
    from ckdsl.reports.game import game_json, game_lines

    if as_json:
        echo_json(game_json(game), indent=None)
    else:
        echo_lines(game_lines(game, load_catalog(lang, ruleset)))


@click.command()
@click.option(
    "--players",
    default=None,
    help="One bot spec per player, comma-separated (`ckdsl bots` lists them), e.g. "
    "heuristic,mcts:iterations=100,random,random (default: four heuristic bots, or as "
    "many as the variant's `table: players`).",
)
@click.option("--seed", type=int, default=0, show_default=True, help="The game's seed.")
@click.option(
    "--rotation",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="Seat the players shifted by this many seats (the bot named first sits in seat "
    "R), as rotation R of an experiment does; each bot keeps its own random stream.",
)
@table_map_option
@table_layout_option
@click.option("--save", "save_path", type=PATH, help="Write a save file.")
@click.option(
    "--delay",
    type=click.FloatRange(min=0),
    default=None,
    help="With a human seat: seconds between the bots' moves (default 0.3 on a terminal).",
)
@click.option(
    "--ask-always",
    is_flag=True,
    help="With a human seat: ask even when there is one answer (by default the table gives "
    "it and says so: a bot's offer you can only decline, the one city to lose).",
)
@lang_option("Language of the game log.")
@rules_option
@json_option
def play(
    players: str | None,
    seed: int,
    rotation: int,
    map_name: str | None,
    layout: str | None,
    save_path: Path | None,
    delay: float | None,
    ask_always: bool,
    lang: str,
    rules: Path | None,
    as_json: bool,
) -> None:
    """Play a complete game and print its log and the final scores.

    A seat is a bot or `human`: a person at this terminal (several for hot-seat), who
    answers by number or by typing the answer (`help` lists the table's commands)."""
    from ckdsl.bots import bot_seed, split_players
    from ckdsl.session import GameSetup, load_rules
    from ckdsl.session import play as run_bots

    target = str(rules) if rules else "base"
    map_name, layout, players = table_of(target, map_name, layout, players)
    items = split_players(players)
    specs = [None if item == "human" else bot_specs(item)[0] for item in items]
    n = len(specs)
    # Seat s holds the line-up's bot (s - rotation) mod n, seeded by its place in the
    # line-up: the games of an experiment's rotations (ckdsl.sim.experiment).
    places = [(seat - rotation) % n for seat in range(n)]
    seats: list[Bot | None] = []
    for p in places:
        spec = specs[p]
        seats.append(None if spec is None else spec.make(bot_seed(seed, p)))
    setup = GameSetup(target, map_name, layout, n, seed)
    if None in seats and as_json:
        raise click.UsageError("a game with a human seat is shown as it is played: no --json")
    _check_save_path(save_path, setup)
    game = _started(setup)
    if None in seats:
        _play_at_table(game, setup, seats, lang, delay, save_path, ask_always)
        return
    bots = [seat for seat in seats if seat is not None]
    run_bots(game, bots)
    saved = _save_or_keep(save_path, game, setup)
    _print_game(game, lang, load_rules(setup.rules).ruleset, as_json)
    if not saved:
        sys.exit(EXIT_FINDINGS)


def _save_or_keep(save_path: Path | None, game: Game, setup: GameSetup) -> bool:
    """Write the save; if that fails, write it to a file of its own in the temporary
    folder and say where (the game just played is never lost). False if it failed."""
    from ckdsl.session import write_save

    if save_path is None:
        return True
    try:
        write_save(save_path, game, setup)
        return True
    except OSError as exc:
        import tempfile

        kept = Path(tempfile.gettempdir()) / f"ckdsl-unsaved-{setup.seed}-{os.getpid()}.json"
        message = f"{save_path}: cannot save the game: {exc.strerror or exc}"
        try:
            write_save(kept, game, setup)
            message += f"; it was saved to {kept} instead"
        except OSError:
            message += "; it could not be saved anywhere (replay it with the same seed)"
        click.echo(message, err=True)
        return False


def _check_save_path(save_path: Path | None, setup: GameSetup) -> None:
    """A save is never written over the files of the game itself."""
    refuse_game_files("--save", save_path, [setup.rules], setup.map)


def _started(setup: GameSetup) -> Game:
    """The game of ``setup`` (a line-up or layout that does not fit: a usage error)."""
    from ckdsl.session import start

    with setup_usage_errors():
        return start(setup)


def _play_at_table(
    game: Game,
    setup: GameSetup,
    seats: list[Bot | None],
    lang: str,
    delay: float | None,
    save_path: Path | None,
    ask_always: bool = False,
) -> None:
    from ckdsl.session import load_rules
    from ckdsl.table.terminal import play_at_table

    catalog = load_catalog(lang, load_rules(setup.rules).ruleset)
    pace = delay if delay is not None else (0.3 if sys.stdout.isatty() else 0.0)
    game, code = play_at_table(
        setup, seats, catalog, delay=pace, save_path=save_path, game=game, ask_forced=ask_always
    )
    if save_path is not None and code == 0 and game.state.over:
        if not _save_or_keep(save_path, game, setup):
            sys.exit(EXIT_FINDINGS)
        click.echo(f"saved to {save_path}", err=True)
    if code:
        sys.exit(code)


@click.command()
@click.argument("save", type=PATH)
@click.option(
    "--step",
    is_flag=True,
    help="One turn at a time: its log and everyone's status, then wait for Enter (when "
    "input is not a terminal, every turn in a row).",
)
@click.option(
    "--svg",
    "svg_path",
    type=PATH,
    help="With --step: rewrite this board picture after every turn.",
)
@click.option(
    "--rules",
    "rules",
    type=PATH,
    default=None,
    help="Where the save's rules are now, if they moved (they must be the same rules).",
)
@lang_option("Language of the game log.")
@json_option
def replay(
    save: Path, step: bool, svg_path: Path | None, rules: Path | None, lang: str, as_json: bool
) -> None:
    """Replay a save file and print its log and the final scores again."""
    from ckdsl.session import load_rules
    from ckdsl.session import replay as replay_save

    if step:
        if as_json:
            raise click.UsageError("--step shows turns in words: not with --json")
        _replay_steps(save, svg_path, lang, rules)
        return
    if svg_path is not None:
        raise click.UsageError("--svg goes with --step (or use `ckdsl board --save`)")
    game, setup = replay_save(save, rules=None if rules is None else str(rules))
    _print_game(game, lang, load_rules(setup.rules).ruleset, as_json)


def _replay_steps(save: Path, svg_path: Path | None, lang: str, rules: Path | None) -> None:
    from ckdsl.commands.board import show_steps
    from ckdsl.session import load_rules, open_replay, saved_option
    from ckdsl.table.watch import steps

    game, setup, answers = open_replay(save, None if rules is None else str(rules))
    refuse_game_files("--svg", svg_path, [setup.rules], setup.map, [save])
    catalog = load_catalog(lang, load_rules(setup.rules).ruleset)

    def given() -> Iterator[Option]:
        for number, text in enumerate(answers, start=1):
            yield saved_option(game, save, number, text)

    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    show_steps(game, catalog, steps(game, catalog, given()), svg_path, 0.0, wait=interactive)


COMMANDS = [play, replay]
