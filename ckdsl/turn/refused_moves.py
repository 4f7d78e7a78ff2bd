"""Why a move of the main phase is refused: building, knights, improvements, progress
cards, trading with the bank and the rule set's actions.

Each function asks, in the order a player would think of them, the same questions the
part of the engine that lists the move asks (``building.main_options``,
``knights.main_options``, ...): a place that exists and is free, a piece in the supply,
the place on the player's network, the price in hand, then the rule set's `allow`
condition (``ckdsl.core.unmet``). It answers with the first that fails, or None when
none does, which is exactly when the move is among the options: the tests check both
ways over many random positions. Nothing here decides a rule; it reads the same state
and calls the same functions, and is run only once an answer is refused.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ckdsl.core import derived
from ckdsl.core.allow import Env
from ckdsl.core.building import cost_of
from ckdsl.core.compiled import Bundle, has
from ckdsl.core.decisions import Option, Refusal
from ckdsl.core.improvements import can_improve, improvement_price
from ckdsl.core.knights import meets
from ckdsl.core.state import CITY, DAMAGED, EMPTY, NOBODY, SETTLEMENT
from ckdsl.core.unmet import failed_part, unmet
from ckdsl.dsl.runtime import refusal, unplayable

if TYPE_CHECKING:
    from ckdsl.turn.game import Game

Explain = Callable[["Game", int, Option], "Refusal | None"]
"""Why ``player`` may not make this move now (None: nothing refuses it)."""


# --- ids: a place of this board, a good of this rule set -----------------------------------


def is_intersection(game: Game, value: Any) -> bool:
    return _whole(value) and 0 <= value < len(game.topo.inter_tiles)


def is_edge(game: Game, value: Any) -> bool:
    return _whole(value) and 0 <= value < len(game.topo.edge_ends)


def is_tile(game: Game, value: Any) -> bool:
    return _whole(value) and 0 <= value < len(game.terrain)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def no_intersection(game: Game, value: Any) -> Refusal | None:
    """An answer naming an intersection this board does not have (a raw option, not a
    typed one: the readable form of an answer never names one)."""
    if is_intersection(game, value):
        return None
    return Refusal("refused_no_intersection", {"at": str(value)[:20]})


def not_a_good(game: Game, value: Any) -> Refusal | None:
    if isinstance(value, str) and value in game.rules.good_index:
        return None
    return Refusal("refused_not_a_good", {"id": str(value)[:40]})


def cost_refusal(game: Game, player: int, price: Bundle) -> Refusal | None:
    """docs/rules.md, "Building": a move is paid in full. What it costs, and how many the
    player holds of each good that falls short."""
    hand = game.state.players[player].hand
    if has(hand, price):
        return None
    goods = game.rules.goods
    short = {goods[g]: hand[g] for g, n in price if hand[g] < n}
    return Refusal("refused_cost", {"cost": {goods[g]: n for g, n in price}, "held": short})


def _piece_price(game: Game, player: int, piece: str) -> Refusal | None:
    return cost_refusal(game, player, cost_of(game, player, piece, game.rules.costs[piece])[0])


# --- building ------------------------------------------------------------------------------


def occupied(game: Game, i: int) -> Refusal | None:
    """A building or a knight on ``i``: no new piece goes there."""
    state = game.state
    if state.building[i] != EMPTY:
        return Refusal("refused_building_there", {"at": i})
    if state.knight[i] != NOBODY:
        return Refusal("refused_knight_there", {"at": i})
    return None


def _no_piece(game: Game, player: int, piece: str) -> Refusal | None:
    if game.state.players[player].supply[piece]:
        return None
    return Refusal("refused_no_piece", {"piece": piece})


def _on_roads(game: Game, player: int, i: int) -> Refusal | None:
    """docs/rules.md, "Building": a settlement or a knight stands at an end of one of the
    player's roads."""
    ends = game.topo.edge_ends
    if any(i in ends[e] for e in game.state.players[player].roads):
        return None
    return Refusal("refused_not_on_roads", {"at": i})


def road(game: Game, player: int, option: Option) -> Refusal | None:
    e = option[1]
    if not is_edge(game, e):
        return Refusal("refused_no_edge", {"at": str(e)[:20]})
    state, topo = game.state, game.topo
    at = topo.edge_name(e)
    if state.road[e] != NOBODY:
        return Refusal("refused_road_there", {"at": at})
    found = _no_piece(game, player, "road")
    if found is None and e not in derived.road_spots(game, player):
        # docs/rules.md, "The longest road": another player's piece cuts a road there.
        me = state.players[player]
        mine = {i for r in me.roads for i in topo.edge_ends[r]} | set(me.buildings)
        touching = [i for i in topo.edge_ends[e] if i in mine]
        if touching:
            return Refusal("refused_road_cut", {"at": at, "other": touching[0]})
        return Refusal("refused_road_not_connected", {"at": at})
    return found or _piece_price(game, player, "road") or unmet(game, "road", player, e=e)


def settlement(game: Game, player: int, option: Option) -> Refusal | None:
    i = option[1]
    found = no_intersection(game, i) or occupied(game, i) or _no_piece(game, player, "settlement")
    if found is not None:
        return found
    distance = distance_rule(game, i)
    if distance is not None:
        return distance
    return (
        _on_roads(game, player, i)
        or _piece_price(game, player, "settlement")
        or unmet(game, "settlement", player, i=i)
    )


def distance_rule(game: Game, i: int) -> Refusal | None:
    """docs/rules.md, "Building" (the distance rule): no building on a neighbour."""
    building = game.state.building
    for j in game.topo.inter_neighbors[i]:
        if building[j] != EMPTY:
            return Refusal("refused_distance", {"at": i, "other": j})
    return None


def city(game: Game, player: int, option: Option) -> Refusal | None:
    i = option[1]
    found = no_intersection(game, i)
    if found is not None:
        return found
    state = game.state
    mine = state.owner[i] == player
    damaged = [j for j in state.players[player].buildings if state.building[j] == DAMAGED]
    if damaged:  # docs/rules.md, "Losing a city": a damaged city is rebuilt first
        if i not in damaged:
            return Refusal("refused_damaged_first", {"at": damaged[0]})
    elif not mine or state.building[i] != SETTLEMENT:
        return Refusal("refused_city_on_settlement", {"at": i})
    else:
        found = _no_piece(game, player, "city")
    return found or _piece_price(game, player, "city") or unmet(game, "city", player, i=i)


def city_wall(game: Game, player: int, option: Option) -> Refusal | None:
    i = option[1]
    found = no_intersection(game, i) or _no_piece(game, player, "city_wall")
    if found is not None:
        return found
    state = game.state
    if state.owner[i] != player or state.building[i] != CITY:
        return Refusal("refused_wall_on_city", {"at": i})
    if state.wall[i]:
        return Refusal("refused_wall_there", {"at": i})
    return _piece_price(game, player, "city_wall") or unmet(game, "city_wall", player, i=i)


# --- knights -------------------------------------------------------------------------------


def knight(game: Game, player: int, option: Option) -> Refusal | None:
    i = option[1]
    basic = game.rules.knight_levels[0].id
    return (
        no_intersection(game, i)
        or occupied(game, i)
        or _no_piece(game, player, basic)
        or _on_roads(game, player, i)
        or _piece_price(game, player, "knight")
        or unmet(game, "knight", player, i=i)
    )


def _own_knight(game: Game, player: int, k: Any) -> Refusal | None:
    found = no_intersection(game, k)
    if found is None and game.state.knight[k] != player:
        return Refusal("refused_not_your_knight", {"at": k})
    return found


def activate(game: Game, player: int, option: Option) -> Refusal | None:
    k = option[1]
    found = _own_knight(game, player, k)
    if found is None and game.state.knight_active[k]:
        return Refusal("refused_knight_active", {"at": k})
    return (
        found
        or cost_refusal(game, player, game.rules.activate_cost)
        or unmet(game, "activate", player, k=k)
    )


def promote(game: Game, player: int, option: Option) -> Refusal | None:
    """``knights._promotable``, then the price, then the `promote` condition."""
    k = option[1]
    found = _own_knight(game, player, k)
    if found is not None:
        return found
    state, rules = game.state, game.rules
    levels = rules.knight_levels
    level = state.knight_level[k]
    if level >= len(levels):
        return Refusal("refused_knight_top", {"at": k})
    nxt = levels[level]
    if not meets(game, player, nxt.requires):
        assert nxt.requires is not None
        track, needed = rules.tracks[nxt.requires[0]], nxt.requires[1]
        return Refusal(
            "refused_knight_needs",
            {"level": nxt.id, "improvement": track.levels[needed - 1], "track": track.id},
        )
    return (
        _no_piece(game, player, nxt.id)
        or cost_refusal(game, player, rules.promote_cost)
        or unmet(game, "promote", player, k=k)
    )


def _acting(game: Game, player: int, k: Any) -> Refusal | None:
    """The knight on ``k`` is the player's and may act now (`allow: knight_acts`)."""
    return _own_knight(game, player, k) or unmet(game, "knight_acts", player, k=k)


def _reaches(game: Game, player: int, k: int, j: Any) -> Refusal | None:
    """docs/rules.md, "Knights": a knight moves along its owner's roads."""
    found = no_intersection(game, j)
    if found is None and j not in derived.knight_reach(game, player, k):
        return Refusal("refused_knight_cannot_reach", {"at": k, "to": j})
    return found


def move_knight(game: Game, player: int, option: Option) -> Refusal | None:
    _, k, j = option
    found = _acting(game, player, k) or _reaches(game, player, k, j) or occupied(game, j)
    return found or unmet(game, "move_knight", player, k=k, i=j)


def displace(game: Game, player: int, option: Option) -> Refusal | None:
    _, k, j = option
    found = _acting(game, player, k) or _reaches(game, player, k, j)
    if found is not None:
        return found
    other = game.state.knight[j]
    if other == NOBODY:
        return Refusal("refused_no_knight", {"at": j})
    if other == player:
        return Refusal("refused_displace_own", {"at": j})
    return unmet(game, "displace", player, k=k, other=j)


def chase(game: Game, player: int, option: Option) -> Refusal | None:
    k = option[1]
    found = _acting(game, player, k)
    if found is not None:
        return found
    robber = game.state.robber
    if k not in game.topo.tile_corners[robber]:
        return Refusal("refused_chase_far", {"at": k, "tile": robber})
    return unmet(game, "chase", player, k=k)


# --- improvements, cards, the bank, actions ------------------------------------------------


def improve(game: Game, player: int, option: Option) -> Refusal | None:
    rules = game.rules
    t = rules.track_index.get(option[1]) if isinstance(option[1], str) else None
    if t is None:
        return Refusal("refused_not_a_track", {"id": str(option[1])[:40]})
    track = rules.tracks[t]
    price = improvement_price(game, player, t)
    if price is None:
        return _cannot_improve(game, player, t)
    return cost_refusal(game, player, price[0]) or unmet(game, "improve", player, t=track.id)


def _cannot_improve(game: Game, player: int, t: int) -> Refusal:
    """Why ``improvements.can_improve`` says no (docs/rules.md, "Improvements and
    metropolises"): the top level, no city, or no city left for a metropolis."""
    assert not can_improve(game, player, t)
    state, track = game.state, game.rules.tracks[t]
    level = state.players[player].levels[t]
    if level >= len(track.levels):
        return Refusal("refused_track_top", {"track": track.id})
    if not any(state.building[i] == CITY for i in state.players[player].buildings):
        return Refusal("refused_improve_no_city")
    free = {"track": track.id, "level": track.levels[level]}
    return Refusal("refused_improve_no_free_city", free)


def play(game: Game, player: int, option: Option, timing: str) -> Refusal | None:
    """``cards.play_options``: a card in hand, of this timing, that the `play` condition
    allows and whose effect can start."""
    card = option[1]
    cards = game.rules.cards
    if not isinstance(card, str) or card not in cards:
        return Refusal("refused_not_a_card", {"id": str(card)[:40]})
    if card not in game.state.players[player].progress:
        return Refusal("refused_card_not_held", {"card": card})
    when = cards[card].timing
    if when != timing:
        key = "refused_card_on_draw" if when == "on_draw" else f"refused_card_not_{timing}"
        return Refusal(key, {"card": card})
    found = unmet(game, "play", player, c=card)
    if found is not None:
        return found
    why = unplayable(game, player, card)
    return None if why is None else Refusal("refused_card_blocked", {"card": card, "reason": why})


def bank(game: Game, player: int, option: Option) -> Refusal | None:
    """``trade.main_options``: the rate held of what is given, some left in the bank of
    what is asked for, and the `bank` condition."""
    _, give, get = option
    found = not_a_good(game, give) or not_a_good(game, get)
    if found is not None:
        return found
    if give == get:
        return Refusal("refused_bank_same")
    index = game.rules.good_index
    g, h = index[give], index[get]
    me, state = game.state.players[player], game.state
    if me.hand[g] < me.rates[g]:
        return Refusal(
            "refused_bank_rate",
            {"good": give, "need": {give: me.rates[g]}, "held": {give: me.hand[g]}},
        )
    if not state.bank[h]:
        return Refusal("refused_bank_empty", {"good": get})
    return unmet(game, "bank", player, give=give, get=get)


def action(game: Game, player: int, option: Option) -> Refusal | None:
    """``actions.main_options``: the price, the action's `allow`, its opening `require`s."""
    key = option[1]
    found = game.rules.programs.actions.get(key) if isinstance(key, str) else None
    if found is None:
        return Refusal("refused_not_an_action", {"id": str(key)[:40]})
    price = cost_refusal(game, player, game.bundle(dict(found.cost)))
    if price is not None:
        return price
    if found.allow is not None and not found.allow(Env(game, player, {})):
        return failed_part(game, ("actions", key, "allow"), key, player, {})
    why = refusal(game, player, found.program.opening)
    if why is None:
        return None
    return Refusal("refused_action_blocked", {"action": key, "reason": why})


MOVES: Mapping[str, Explain] = {
    "road": road,
    "settlement": settlement,
    "city": city,
    "city_wall": city_wall,
    "knight": knight,
    "activate": activate,
    "promote": promote,
    "move_knight": move_knight,
    "displace": displace,
    "chase": chase,
    "improve": improve,
    "play": lambda game, player, option: play(game, player, option, "after_roll"),
    "bank": bank,
    "action": action,
}
"""Why each move of the main phase is refused, by its verb (``end`` is always offered;
an ``offer`` is checked when given, ``trade.check_offer``)."""
