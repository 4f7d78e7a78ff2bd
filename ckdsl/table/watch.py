"""A game shown one turn at a time: a saved game stepped through (``ckdsl replay
--step``) or a bot game as it is played (``ckdsl watch``).

Each step gives the answers up to the start of the next turn (setup is one step), the
log of that turn in words, a status line per player, and, when asked, the board as it
stands afterwards written to an SVG file, so a person can follow a game at their pace.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ckdsl.core.decisions import Option
from ckdsl.files import write_whole
from ckdsl.l10n.catalog import Catalog
from ckdsl.reports.game import log_renderer
from ckdsl.reports.position import position_svg
from ckdsl.turn.game import Game


@dataclass(frozen=True)
class Step:
    """One turn of a game: its number, its log in words, the status afterwards."""

    turn: int
    lines: list[str]
    status: list[str]


def steps(game: Game, catalog: Catalog, answers: Iterator[Option]) -> Iterator[Step]:
    """Play ``answers`` into ``game``, a turn per step, until the game ends or the
    answers run out."""
    renderer = log_renderer(game, catalog)
    done = False
    while not done and not game.state.over:
        turn, first = game.state.turn, len(game.events)
        while game.state.turn == turn and not game.state.over:
            option = next(answers, None)
            if option is None:
                done = True
                break
            game.answer(option)
        if len(game.events) == first and done:
            return
        events = game.events[first:]
        # A game won as the next turn begins (points reached on another's turn) ends in
        # that turn, with no answer of its own: its start and the win are its own step.
        state = game.state  # (read afresh: the answers above changed it)
        if state.over and state.turn != turn:
            starts = [k for k, e in enumerate(events) if e.get("event") == "turn"]
            if starts:
                if starts[-1]:
                    lines = renderer.lines(events[: starts[-1]])
                    yield Step(turn, lines, status_lines(game, catalog))
                turn, events = state.turn, events[starts[-1] :]
        lines = renderer.lines(events)  # a turn holds whole runs of discards
        yield Step(turn, lines, status_lines(game, catalog))


def bot_answers(game: Game, choose: Callable[[Game], Option]) -> Iterator[Option]:
    """The answers of the bots seated in ``game``, one per decision, until it ends."""
    while not game.state.over:
        yield choose(game)


def status_lines(game: Game, catalog: Catalog) -> list[str]:
    """A line per player: colour, points, cards in hand (a count: the others' hands are
    hidden), progress cards, knights; then the barbarians' position."""
    state = game.state
    renderer_colours = game.rules.names("player_colours")
    lines = []
    for p, player in enumerate(state.players):
        name = catalog.name("colours", renderer_colours[p])
        marker = "▶" if p == state.current and not state.over else " "
        lines.append(
            f" {marker} {name:<10} {player.points:>2} VP · {sum(player.hand):>2} cards · "
            f"{len(player.progress)} progress · {len(player.knights)} knights · "
            f"levels {'/'.join(str(level) for level in player.levels)}"
        )
    barbarians = catalog.name("concepts", "barbarians")
    lines.append(f"   {barbarians} {state.barbarians}/{game.rules.barbarian_track}")
    return lines


def write_board(game: Game, catalog: Catalog, path: Path, title: str) -> None:
    """The board as it stands to ``path`` (replaced whole, so a viewer never reads half)."""
    write_whole(path, position_svg(game, catalog, title=title).encode("utf-8"))
