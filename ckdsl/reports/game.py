"""``ckdsl play`` and ``ckdsl replay``: a finished game's report, as data or as its log in
words followed by the final scores.

Both commands print the same report, so a saved game replays to the very text (and the
same ``--json``) that was printed when it was played.
"""

from __future__ import annotations

from typing import TypedDict

from ckdsl.l10n.catalog import Catalog
from ckdsl.l10n.events import EventRenderer
from ckdsl.turn.game import Event, Game
from ckdsl.turn.notation import edge_name, player_name


class GameReport(TypedDict):
    """A game's outcome, answers and log (``--json``; keys in this order)."""

    winner: str | None
    finished: bool
    turns: int
    scores: dict[str, int]
    answers: int
    state_digest: str
    log: list[Event]


def colours(game: Game) -> list[str]:
    """The players' colour ids by seat: the names answers, saves and scores use."""
    return [player_name(game, p) for p in range(game.n)]


def scores(game: Game) -> dict[str, int]:
    """Each player's victory points, by colour, in seat order."""
    names = colours(game)
    return {names[p]: game.state.players[p].points for p in range(game.n)}


def game_json(game: Game) -> GameReport:
    """Who won, after how many turns and answers, the scores, the digest of the final
    state (to compare two runs) and the raw event log."""
    state = game.state
    names = colours(game)
    return {
        "winner": names[state.winner] if state.winner >= 0 else None,
        "finished": state.winner >= 0,
        "turns": state.turn,
        "scores": scores(game),
        "answers": len(game.history),
        "state_digest": state.digest(),
        "log": game.events,
    }


def log_renderer(game: Game, catalog: Catalog) -> EventRenderer:
    """The renderer of ``game``'s events in the catalog's language. Roads are placed on
    edges, which read as their two intersections ("12-13"); every other piece sits on an
    intersection, named by its number."""

    def place(piece: str, at: int) -> str:
        return edge_name(game, at) if piece == "road" else str(at)

    return EventRenderer(catalog, colours(game), place, game.rules.goods)


def game_lines(game: Game, catalog: Catalog) -> list[str]:
    """The log in the catalog's language, a blank line, then the final scores."""

    renderer = log_renderer(game, catalog)
    lines = renderer.lines(game.events)  # a run of discards in one line
    return [*lines, "", *score_lines(game, catalog)]


def score_lines(game: Game, catalog: Catalog) -> list[str]:
    """ "Final scores" (or the scores so far, of a game not over) and a line per player."""
    renderer = log_renderer(game, catalog)
    lines = [catalog.message("final_scores" if game.state.over else "scores_so_far")]
    for p in range(game.n):
        name = renderer.player(p)
        points = game.state.players[p].points
        lines.append("  " + catalog.message("score_line", points, player=name))
    return lines
