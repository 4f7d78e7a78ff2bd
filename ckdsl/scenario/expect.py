"""The visible state, in the shape scenario expectations are written in.

Players by colour, edges as "a-b", goods by id, zero amounts left out: what a person
writes in a scenario file is compared with exactly this.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from ckdsl.engine.game import Game
from ckdsl.engine.notation import edge_name, format_option, player_name
from ckdsl.engine.state import CITY, DAMAGED, NOBODY, SETTLEMENT

_PLAYER_FIELDS = ("player", "victim", "partner", "offerer", "previous", "viewer")


def actual_values(game: Game, wanted: dict[str, Any]) -> dict[str, Any]:
    """For each key of ``wanted``, its actual value now."""
    return {key: _ACTUAL[key](game) for key in wanted}


def _colour(game: Game, player: int) -> str | None:
    return None if player == NOBODY else player_name(game, player)


def _per_player(game: Game, value: Callable[[int], Any]) -> dict[str, Any]:
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


def _knights(game: Game, p: int) -> list[dict[str, Any]]:
    state = game.state
    return [
        {"at": i, "level": state.knight_level[i], "active": state.knight_active[i]}
        for i in sorted(state.players[p].knights)
    ]


def _levels(game: Game, p: int) -> dict[str, int]:
    levels = game.state.players[p].levels
    return {t.id: levels[k] for k, t in enumerate(game.rules.tracks) if levels[k]}


def _metropolises(game: Game) -> dict[str, dict[str, Any]]:
    state = game.state
    out = {}
    for k, track in enumerate(game.rules.tracks):
        at = state.metropolis[k]
        owner = _colour(game, state.owner[at]) if at != NOBODY else None
        out[track.id] = {"owner": owner, "at": None if at == NOBODY else at,
                         "kept": state.metropolis_kept[k]}  # fmt: skip
    return out


def _merchant(game: Game) -> dict[str, Any] | None:
    state = game.state
    if state.merchant == NOBODY:
        return None
    return {"tile": state.merchant, "owner": _colour(game, state.merchant_owner)}


def _log(game: Game) -> list[dict[str, Any]]:
    out = []
    for event in game.events:
        shown = dict(event)
        for key in _PLAYER_FIELDS:
            if key in shown:
                shown[key] = _colour(game, shown[key])
        if shown.get("piece") == "road":
            shown["at"] = edge_name(game, shown["at"])
        out.append(shown)
    return out


_ACTUAL: dict[str, Callable[[Game], Any]] = {
    "pending": _pending,
    "hand": lambda g: _per_player(g, lambda p: _hand(g, p)),
    "hand_size": lambda g: _per_player(g, lambda p: sum(g.state.players[p].hand)),
    "points": lambda g: _per_player(g, lambda p: g.state.players[p].points),
    "settlements": lambda g: _per_player(g, lambda p: _pieces(g, p, SETTLEMENT)),
    "cities": lambda g: _per_player(g, lambda p: _pieces(g, p, CITY)),
    "damaged": lambda g: _per_player(g, lambda p: _pieces(g, p, DAMAGED)),
    "walls": lambda g: _per_player(
        g, lambda p: sorted(i for i in g.state.players[p].buildings if g.state.wall[i])
    ),
    "roads": lambda g: _per_player(
        g, lambda p: sorted(edge_name(g, e) for e in g.state.players[p].roads)
    ),
    "road_length": lambda g: _per_player(g, lambda p: g.state.players[p].road_length),
    "longest_road": lambda g: _colour(g, g.state.longest_road_holder),
    "robber": lambda g: g.state.robber,
    "robber_unlocked": lambda g: g.state.robber_unlocked,
    "bank": lambda g: dict(zip(g.rules.goods, g.state.bank, strict=True)),
    "turn": lambda g: _colour(g, g.state.current),
    "winner": lambda g: _colour(g, g.state.winner),
    "over": lambda g: g.state.over,
    "log": _log,
    "log_so_far": _log,
    "knights": lambda g: _per_player(g, lambda p: _knights(g, p)),
    "levels": lambda g: _per_player(g, lambda p: _levels(g, p)),
    "progress": lambda g: _per_player(g, lambda p: sorted(g.state.players[p].progress)),
    "progress_count": lambda g: _per_player(g, lambda p: len(g.state.players[p].progress)),
    "revealed": lambda g: _per_player(g, lambda p: sorted(g.state.players[p].revealed)),
    "defender": lambda g: _per_player(g, lambda p: g.state.players[p].defender),
    "supply": lambda g: _per_player(g, lambda p: dict(g.state.players[p].supply)),
    "metropolises": _metropolises,
    "barbarians": lambda g: g.state.barbarians,
    "attacks": lambda g: g.state.attacks,
    "merchant": _merchant,
    "deck_sizes": lambda g: {
        t.id: len(g.state.decks[t.deck]) for t in g.rules.tracks if t.deck >= 0
    },
    "numbers": lambda g: {str(t): n for t, n in enumerate(g.state.numbers)},
}


def same(game: Game, field: str, expected: Any, actual: Any) -> bool:
    """Whether an expected value (as written) matches the actual one: lists in any order,
    amounts of 0 left out, knights by their intersection with only the keys given (a level
    by number or id), a metropolis by its owner or by the keys given, cards as multisets."""
    if field == "knights":
        return _same_knights(game, expected, actual)
    if field in ("metropolises", "merchant") and isinstance(expected, dict):
        return isinstance(actual, dict) and all(actual.get(k) == v for k, v in expected.items())
    if field == "metropolises":
        return bool(expected == actual["owner"])
    if field in ("progress", "revealed"):
        return Counter(expected) == Counter(actual)
    if field == "supply":
        return isinstance(actual, dict) and all(actual.get(k) == v for k, v in expected.items())
    return bool(_normal(expected) == _normal(actual))


def _same_knights(game: Game, expected: list[dict[str, Any]], actual: list[dict[str, Any]]) -> bool:
    if len(expected) != len(actual):
        return False
    ids = [lv.id for lv in game.rules.knight_levels]
    by_at = {k["at"]: k for k in actual}
    for want in expected:
        got = by_at.get(want["at"])
        if got is None:
            return False
        level = want.get("level")
        if isinstance(level, str):
            level = ids.index(level) + 1 if level in ids else level
        if level is not None and level != got["level"]:
            return False
        if "active" in want and want["active"] != got["active"]:
            return False
    return True


def _normal(value: Any) -> Any:
    if isinstance(value, list):
        return sorted(str(v).replace(" ", "") for v in value)
    if isinstance(value, dict):
        return {k: v for k, v in value.items() if v != 0}
    return value
