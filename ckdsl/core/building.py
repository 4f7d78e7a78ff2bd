"""Building roads, settlements, cities and city walls in the main phase (docs/rules.md, "Building").

Costs come from the rule set through ``cost_of``, which also applies the cost modifiers a
card may grant until the end of the turn (a discount, a fixed price).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from ckdsl.core import derived, pieces
from ckdsl.core.allow import allowed_items
from ckdsl.core.compiled import Bundle, has
from ckdsl.core.decisions import Option, Verb
from ckdsl.core.state import CITY, DAMAGED, SETTLEMENT

if TYPE_CHECKING:
    from ckdsl.turn.game import Game


def cost_of(game: Game, player: int, what: str, base: Bundle) -> tuple[Bundle, int]:
    """The price of ``what`` (a piece id, or ``improvement``) for ``player`` now, and the
    index of the modifier that set it (-1: none). Modifiers of one purchase never add
    up: the cheapest one applies (docs/rules.md, "Decisions where the sources are
    silent": Cranes are not combined)."""
    mods = game.state.modifiers
    if not mods:
        return base, -1
    best, used = base, -1
    for k, mod in enumerate(mods):
        if mod["player"] != player or mod.get("target") != what:
            continue
        value = mod["value"]
        if mod["kind"] == "cost" and isinstance(value, dict):  # `grant price {...} on ...`
            price = game.bundle(value)
        elif mod["kind"] == "discount" and isinstance(value, int):
            price = _discounted(base, value)
        else:
            continue
        if sum(n for _, n in price) < sum(n for _, n in best):
            best, used = price, k
    return best, used


def _discounted(base: Bundle, less: int) -> Bundle:
    out = []
    for g, n in base:
        cut = min(n, less)
        less -= cut
        if n - cut:
            out.append((g, n - cut))
    return tuple(out)


def spend(game: Game, player: int, cost: Bundle, modifier: int) -> None:
    """Pay ``cost``; a modifier used once is then spent."""
    game.pay(player, cost)
    if modifier >= 0:
        mods = game.state.modifiers
        if mods[modifier].get("once"):
            del mods[modifier]


PIECES: Final = ("road", "settlement", "city", "city_wall")


# The variable that names the place in each piece's `allow` condition.
PLACE_NAMES: Final = {"road": "e", "settlement": "i", "city": "i", "city_wall": "i"}


def main_options(game: Game, player: int, options: list[Option]) -> None:
    hand, costs = game.state.players[player].hand, game.rules.costs
    for piece in PIECES:
        if has(hand, cost_of(game, player, piece, costs[piece])[0]):
            places = allowed_items(game, piece, player, PLACE_NAMES[piece],
                                   spots(game, player, piece))  # fmt: skip
            options += [(piece, at) for at in places]


def _on_build(game: Game, player: int, option: Option) -> None:
    try_build(game, player, option[0], option[1])


def try_build(
    game: Game, player: int, piece: str, at: int, *, price: Bundle | None = None, free: bool = False
) -> bool:
    """Build ``piece`` (road, settlement, city, city_wall, knight) at ``at`` for
    ``player``, if the place is legal and the price is paid: its price now (``cost_of``,
    with the turn's modifiers), ``price`` if given, nothing if ``free``. The main phase
    and the DSL's `build` both come here, so a purchase is one rule; whether it happened."""
    if at not in spots(game, player, piece):
        return False
    if not free:
        if price is None:
            cost, modifier = cost_of(game, player, piece, game.rules.costs[piece])
        else:
            cost, modifier = price, -1
        if not has(game.state.players[player].hand, cost):
            return False
        spend(game, player, cost, modifier)
    if piece == "knight":
        pieces.place_knight(game, player, at, 1, False)
    else:
        build(game, player, piece, at)
    pieces.run_placed(game, "built", player, piece, at)
    return True


def build(game: Game, player: int, piece: str, at: int) -> None:
    """Put ``piece`` (road, settlement, city, city_wall) at ``at``, already paid for."""
    if piece == "road":
        pieces.place_road(game, player, at)
    elif piece == "settlement":
        pieces.place_building(game, player, at, SETTLEMENT)
    elif piece == "city":
        pieces.place_building(game, player, at, CITY)
    else:
        pieces.place_wall(game, player, at)


def spots(game: Game, player: int, piece: str) -> Sequence[int]:
    """Where ``player`` may put ``piece`` (road, settlement, city, city_wall, knight) now,
    cost aside (card effects build for free)."""
    state = game.state
    me = state.players[player]
    building = state.building
    if piece == "city":
        damaged = [i for i in me.buildings if building[i] == DAMAGED]
        if damaged:  # docs/rules.md, "Losing a city": a damaged city is rebuilt first
            return damaged
        return [i for i in me.buildings if building[i] == SETTLEMENT] if me.supply["city"] else []
    if piece == "knight":
        basic = game.rules.knight_levels[0].id
        return derived.knight_spots(game, player) if me.supply[basic] else []
    if not me.supply[piece]:
        return []
    if piece == "road":
        return derived.road_spots(game, player)
    if piece == "settlement":
        return derived.settlement_spots(game, player)
    return [i for i in me.buildings if building[i] == CITY and not state.wall[i]]


VERBS = (
    Verb("road", "build road {1:edge}", main=_on_build),
    Verb("settlement", "build settlement {1}", main=_on_build),
    Verb("city", "build city {1}", main=_on_build),
    Verb("city_wall", "build city_wall {1}", main=_on_build),
)
