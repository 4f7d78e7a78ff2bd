"""The visible state, in the shape scenario expectations are written in.

Players by colour, edges as "a-b", goods by id, zero amounts left out: what a person
writes in a scenario file is compared with exactly this.
"""

from __future__ import annotations

from typing import Any

from ckdsl.engine.game import Game
from ckdsl.engine.notation import edge_name, format_option, player_name
from ckdsl.engine.state import CITY, NOBODY, SETTLEMENT

_PLAYER_FIELDS = ("player", "victim", "partner", "offerer", "previous")


def actual_values(game: Game, wanted: dict[str, Any]) -> dict[str, Any]:
    """For each key of ``wanted``, its actual value now."""
    return {key: _ACTUAL[key](game) for key in wanted}


def _colour(game: Game, player: int) -> str | None:
    return None if player == NOBODY else player_name(game, player)


def _per_player(game: Game, value: Any) -> dict[str, Any]:
    return {player_name(game, p): value(p) for p in range(game.n)}


def _pending(game: Game) -> dict[str, Any]:
    d = game.pending
    return {
        "player": _colour(game, d.player),
        "kind": d.kind,
        "options": [format_option(game, o) for o in d.options],
        "includes": None,
        "excludes": None,
    }


def _hand(game: Game, p: int) -> dict[str, int]:
    hand = game.state.players[p].hand
    return {g: hand[i] for i, g in enumerate(game.rules.goods) if hand[i]}


def _pieces(game: Game, p: int, kind: int) -> list[int]:
    state = game.state
    return sorted(i for i in state.players[p].buildings if state.building[i] == kind)


def _log(game: Game) -> list[dict[str, Any]]:
    out = []
    for event in game.state.log:
        shown = dict(event)
        for key in _PLAYER_FIELDS:
            if key in shown:
                shown[key] = _colour(game, shown[key])
        if shown.get("piece") == "road":
            shown["at"] = edge_name(game, shown["at"])
        out.append(shown)
    return out


_ACTUAL = {
    "pending": _pending,
    "hand": lambda g: _per_player(g, lambda p: _hand(g, p)),
    "hand_size": lambda g: _per_player(g, lambda p: sum(g.state.players[p].hand)),
    "points": lambda g: _per_player(g, lambda p: g.state.players[p].points),
    "settlements": lambda g: _per_player(g, lambda p: _pieces(g, p, SETTLEMENT)),
    "cities": lambda g: _per_player(g, lambda p: _pieces(g, p, CITY)),
    "walls": lambda g: _per_player(
        g, lambda p: sorted(i for i in g.state.players[p].buildings if g.state.wall[i])
    ),
    "roads": lambda g: _per_player(
        g, lambda p: sorted(edge_name(g, e) for e in g.state.players[p].roads)
    ),
    "road_length": lambda g: _per_player(g, lambda p: g.state.players[p].road_length),
    "longest_road": lambda g: _colour(g, g.state.longest_road_holder),
    "robber": lambda g: g.state.robber,
    "bank": lambda g: dict(zip(g.rules.goods, g.state.bank, strict=True)),
    "turn": lambda g: _colour(g, g.state.current),
    "winner": lambda g: _colour(g, g.state.winner),
    "over": lambda g: g.state.over,
    "log": _log,
}
