"""What the board rules compute from where the pieces stand, kept until the board changes.

Listing a main phase's options asks where each player may build a road, a settlement or
a knight and where each knight reaches; a roll asks what each building next to the
rolled number yields. Between two changes of the board those answers do not change,
so they are computed once and kept, stamped with the board they were computed on.

The stamps are exact, not a guess: every change of what these read goes through
``Game.board_changed`` or ``Game.yields_changed``, which draw stamps never used before
in this process: a new ``board_stamp`` when a building, a road or a knight is placed,
moved or removed (what the spots and the knights' reach read), a new stamp for a number
in ``yield_stamps`` when a building next to one of its tiles changes or the robber
leaves or enters one (what production reads; roads and knights, most of a game's
changes, leave them), new stamps for everything when number tokens are swapped or a
position is set directly (``Game.index_numbers``, ``Game.refresh``). A kept answer is
used only under the stamp it was computed on, so clones may share one table: a clone
whose board changed has a new stamp and never reads another's answer as its own.
``stale_entries`` recomputes every answer kept for the current board from scratch and
names any that differ (the differential test, after every answer of random games);
``ENABLED = False`` computes everything afresh every time, for the same games with and
without the tables.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final, TypeVar

from ckdsl.core import board_rules
from ckdsl.core.compiled import Bundle
from ckdsl.core.state import EMPTY

if TYPE_CHECKING:
    from ckdsl.turn.game import Game

Key = tuple[Any, ...]
"""A kept answer's key: what was asked (settlement, road, knight, reach, produce) and of
what (player, knight, number)."""

T = TypeVar("T")

ENABLED = True
"""Keep answers between board changes (off: compute each afresh; same games, slower)."""

_STAMPS: Final = itertools.count(1)


def new_stamp() -> int:
    """A board stamp never drawn before in this process."""
    return next(_STAMPS)


Production = tuple[tuple[tuple[int, Bundle], ...], tuple[tuple[int, int], ...]]
"""What a number yields: per owner, in the order met, the goods due (good, amount), and
the gold choices (owner, how many), before the bank's shortage rule."""


def tiles_by_number(numbers: Sequence[int | None]) -> dict[int, tuple[int, ...]]:
    """Which tiles carry each number token."""
    found: dict[int, list[int]] = {}
    for tile, number in enumerate(numbers):
        if number is not None:
            found.setdefault(number, []).append(tile)
    return {n: tuple(tiles) for n, tiles in found.items()}


def settlement_spots(game: Game, player: int) -> Sequence[int]:
    """``board_rules.settlement_spots``, kept until the board changes."""
    return _kept(game, ("settlement", player), game.board_stamp, _settlement_spots, player)


def road_spots(game: Game, player: int) -> Sequence[int]:
    """``board_rules.road_spots``, kept until the board changes."""
    return _kept(game, ("road", player), game.board_stamp, _road_spots, player)


def knight_spots(game: Game, player: int) -> Sequence[int]:
    """``board_rules.knight_spots``, kept until the board changes."""
    return _kept(game, ("knight", player), game.board_stamp, _knight_spots, player)


def knight_reach(game: Game, player: int, start: int) -> Sequence[int]:
    """``board_rules.knight_reach`` of the knight on ``start``, kept until the board
    changes."""
    return _kept(game, ("reach", player, start), game.board_stamp, _knight_reach, player, start)


def production(game: Game, number: int) -> Production:
    """What the buildings next to the tiles with ``number`` (not under the robber) yield,
    kept until the board changes (``ckdsl.core.production`` applies the bank's rule)."""
    stamp = game.yield_stamps.get(number)
    if stamp is None:  # no tile carries it
        return (), ()
    return _kept(game, ("produce", number), stamp, _production, number)


def _kept(game: Game, key: Key, stamp: int, compute: Callable[..., T], *args: int) -> T:
    entry = game.derived.get(key)
    if entry is not None and entry[0] == stamp and ENABLED:
        kept: T = entry[1]
        return kept
    value = compute(game, *args)
    if ENABLED:
        game.derived[key] = (stamp, value)
    return value


def _settlement_spots(game: Game, player: int) -> tuple[int, ...]:
    return tuple(board_rules.settlement_spots(game.topo, game.state, player))


def _road_spots(game: Game, player: int) -> tuple[int, ...]:
    return tuple(board_rules.road_spots(game.topo, game.state, player))


def _knight_spots(game: Game, player: int) -> tuple[int, ...]:
    return tuple(board_rules.knight_spots(game.topo, game.state, player))


def _knight_reach(game: Game, player: int, start: int) -> tuple[int, ...]:
    return tuple(board_rules.knight_reach(game.topo, game.state, player, start))


def _production(game: Game, number: int) -> Production:
    """docs/rules.md, "Production": every settlement and city next to a tile with the
    number yields what the terrain gives it, but not under the robber."""
    state, corners = game.state, game.topo.tile_corners
    building, owner_of = state.building, state.owner
    owed: dict[int, dict[int, int]] = {}
    gold: list[tuple[int, int]] = []
    for tile in game.tiles_by_number.get(number, ()):
        if tile == state.robber:
            continue
        yields = game.tile_yields[tile]
        for i in corners[tile]:
            kind = building[i]
            if kind == EMPTY:
                continue
            owner = owner_of[i]
            given = yields[kind]
            mine = owed.setdefault(owner, {})
            for g, amount in given.goods:
                mine[g] = mine.get(g, 0) + amount
            if given.choice:
                gold.append((owner, given.choice))
    return tuple((p, tuple(due.items())) for p, due in owed.items()), tuple(gold)


_FRESH: dict[str, Callable[..., Any]] = {
    "settlement": _settlement_spots,
    "road": _road_spots,
    "knight": _knight_spots,
    "reach": _knight_reach,
    "produce": _production,
}


def stale_entries(game: Game) -> list[str]:
    """Every answer kept for the game's current board that a computation from scratch
    does not give (an empty list when the tables are exact). Each finding is a sentence."""
    out: list[str] = []
    for key, (stamp, value) in list(game.derived.items()):
        if stamp != _current(game, key):
            continue  # another board's (an earlier one, or a clone's): never read here
        kind, args = key[0], key[1:]
        fresh = _FRESH[kind](game, *args)
        if fresh != value:
            out.append(f"kept {kind}{tuple(args)} is {value}, from scratch {fresh}")
    return out


def current_entries(game: Game) -> int:
    """How many kept answers belong to the game's current board (a test that checks
    them checks something only when there are some)."""
    return sum(1 for key, (stamp, _) in game.derived.items() if stamp == _current(game, key))


def _current(game: Game, key: Key) -> int:
    """The stamp under which an answer of this kind holds now."""
    return game.yield_stamps.get(key[1], -1) if key[0] == "produce" else game.board_stamp
