"""Putting pieces on the board and taking them off, with everything that follows from it:
supplies, victory points, harbor rates, broken roads and the longest road.

Every change of the board goes through these functions (the turn flow, knights, the
barbarians, card effects and scenario positions alike), so the books always balance: the
property tests recount points and supplies after every answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ckdsl.core import board_rules
from ckdsl.core.compiled import NO_LIMIT
from ckdsl.core.state import (
    ACTIVATED_THIS_TURN,
    CITY,
    DAMAGED,
    EMPTY,
    NOBODY,
    SETTLEMENT,
)
from ckdsl.core.values import Variables

if TYPE_CHECKING:
    from ckdsl.turn.game import Game

BUILDING_PIECE = {SETTLEMENT: "settlement", CITY: "city", DAMAGED: "city"}


def run_placed(game: Game, hook: str, player: int, piece: str, at: int) -> None:
    """The rule set's `setup_placed` or `built` hook for a piece ``player`` put at ``at``
    (an edge for a road, else an intersection), if it declares one: a rule set without
    it pays one look-up (docs/dsl.md, "Hooks")."""
    if hook in game.rules.programs.hooks:
        road = piece == "road"
        where: Variables = {"piece": piece, "i": NOBODY if road else at,
                            "e": at if road else NOBODY}  # fmt: skip
        game.run_hook(hook, player, where)


# --- settlements and cities ---------------------------------------------------------------


def place_building(game: Game, player: int, i: int, kind: int) -> None:
    """Put a settlement or city of ``player`` on ``i``. A city on the player's settlement
    upgrades it (the settlement returns to the supply); on their damaged city it repairs
    it (no new piece)."""
    state, points = game.state, game.rules.points
    me = state.players[player]
    before = state.building[i]
    if kind == CITY and before == DAMAGED:
        game.add_points(player, points["city"] - points["settlement"])
    elif kind == CITY and before == SETTLEMENT:
        me.supply["settlement"] += 1
        me.supply["city"] -= 1
        game.add_points(player, points["city"] - points["settlement"])
    else:
        me.buildings.append(i)
        state.owner[i] = player
        me.supply[BUILDING_PIECE[kind]] -= 1
        game.add_points(player, points["city" if kind == CITY else "settlement"])
        _harbor(game, player, i)
    state.building[i] = kind
    game.board_changed()
    game.yields_changed(game.topo.inter_tiles[i])
    game.log("build", player, piece=BUILDING_PIECE[kind], at=i)
    if before == EMPTY:  # it may cut another's road (docs/rules.md, "The longest road")
        _recount_roads_through(game, i, player)


def reduce_city(game: Game, i: int, *, damaged: bool) -> None:
    """The city on ``i`` loses its wall and becomes a settlement (its piece back to the
    supply, a settlement piece taken), or, ``damaged``, a damaged city: it keeps its
    piece, counts and produces as a settlement and must be rebuilt before any other city
    (the rule set's `city_lost` hook decides which)."""
    state, points = game.state, game.rules.points
    player = state.owner[i]
    if player == NOBODY or state.building[i] != CITY:
        return
    me = state.players[player]
    remove_wall(game, i)
    if damaged:
        state.building[i] = DAMAGED
    elif me.supply["settlement"] > 0:
        me.supply["settlement"] -= 1
        me.supply["city"] += 1
        state.building[i] = SETTLEMENT
    else:
        return  # no settlement piece to put in its place (the `downgrade` verb says so)
    game.yields_changed(game.topo.inter_tiles[i])
    game.add_points(player, points["settlement"] - points["city"])
    game.log("pillaged", player, at=i, damaged=damaged)


def remove_building(game: Game, i: int) -> None:
    """Take the settlement or city on ``i`` off the board, back to its owner's supply (a
    damaged city: its city piece), with its wall; a metropolis on it is lost (free to be
    taken again), its harbor no longer serves, and the roads it cut join again."""
    state, rules = game.state, game.rules
    player = state.owner[i]
    if player == NOBODY:
        return
    kind = state.building[i]
    me = state.players[player]
    remove_wall(game, i)
    for track, at in enumerate(state.metropolis):
        if at == i:
            state.metropolis[track] = NOBODY
            state.metropolis_kept[track] = False
            game.add_points(player, -rules.points["metropolis"])
    game.add_points(player, -rules.points["city" if kind == CITY else "settlement"])
    me.supply[BUILDING_PIECE[kind]] += 1
    me.buildings.remove(i)
    state.building[i], state.owner[i] = EMPTY, NOBODY
    if i in game.harbor_at:  # the rates of the harbors still held
        me.harbor_rates = [rules.number("bank_trade_rate")] * len(me.harbor_rates)
        for b in me.buildings:
            _harbor(game, player, b)
        refresh_rates(game, player)
    game.board_changed()
    game.yields_changed(game.topo.inter_tiles[i])
    game.log("removed", player, piece=BUILDING_PIECE[kind], at=i)
    for q, other in enumerate(state.players):  # a road cut at ``i`` runs through again
        other.road_length = board_rules.longest_road(game.topo, state, q)
    award_longest_road(game)


def place_wall(game: Game, player: int, i: int) -> None:
    state = game.state
    state.wall[i] = True
    state.players[player].supply["city_wall"] -= 1
    game.log("build", player, piece="city_wall", at=i)


def remove_wall(game: Game, i: int) -> None:
    state = game.state
    if state.wall[i]:
        state.wall[i] = False
        state.players[state.owner[i]].supply["city_wall"] += 1


def set_metropolis(game: Game, track: int, i: int) -> None:
    """Move the metropolis of ``track`` onto the city at ``i`` (off its old city)."""
    state, bonus = game.state, game.rules.points["metropolis"]
    old = state.metropolis[track]
    if old != NOBODY:
        game.add_points(state.owner[old], -bonus)
    state.metropolis[track] = i
    game.add_points(state.owner[i], bonus)
    game.log("metropolis", state.owner[i], track=game.rules.tracks[track].id, at=i)


# --- roads ----------------------------------------------------------------------------------


def place_road(game: Game, player: int, edge: int) -> None:
    """Put a road of ``player`` on ``edge`` (paid or not: the caller decides)."""
    state = game.state
    state.road[edge] = player
    me = state.players[player]
    me.roads.append(edge)
    me.supply["road"] -= 1
    game.board_changed()
    game.log("build", player, piece="road", at=edge)
    # A new road lengthens only its own network (docs/rules.md, "The longest road").
    found = board_rules.longest_road(game.topo, state, player, through=edge)
    if found > me.road_length:
        me.road_length = found
    award_longest_road(game)


def remove_road(game: Game, edge: int) -> None:
    """Take a road off the board, back to its owner's supply (Diplomat)."""
    state = game.state
    player = state.road[edge]
    me = state.players[player]
    state.road[edge] = NOBODY
    me.roads.remove(edge)
    me.supply["road"] += 1
    game.board_changed()
    game.log("removed", player, piece="road", at=edge)
    me.road_length = board_rules.longest_road(game.topo, state, player)
    award_longest_road(game)


# --- knights --------------------------------------------------------------------------------


def place_knight(game: Game, player: int, i: int, level: int, active: bool) -> None:
    """Put a knight of ``level`` (1: basic) on ``i``, taken from the player's supply."""
    state = game.state
    level_id = game.rules.knight_levels[level - 1].id
    state.players[player].supply[level_id] -= 1
    state.players[player].knights.append(i)
    state.knight[i] = player
    state.knight_level[i] = level
    state.knight_active[i] = active
    state.knight_flags[i] = 0
    game.board_changed()
    game.log("knight", player, at=i, level=level_id, active=active)
    _recount_roads_through(game, i, player)


def remove_knight(game: Game, i: int) -> tuple[int, bool]:
    """Take the knight on ``i`` off the board, back to the supply; its (level, active)."""
    state = game.state
    player, level, active = state.knight[i], state.knight_level[i], state.knight_active[i]
    level_id = game.rules.knight_levels[level - 1].id
    state.players[player].supply[level_id] += 1
    state.players[player].knights.remove(i)
    state.knight[i] = NOBODY
    state.knight_level[i] = 0
    state.knight_active[i] = False
    state.knight_flags[i] = 0
    game.board_changed()
    game.log("knight_removed", player, at=i, level=level_id)
    _recount_roads_through(game, i, player)
    return level, active


def move_knight(game: Game, i: int, j: int) -> None:
    """Move the knight on ``i`` to the free intersection ``j``, with its level, status and
    this turn's flags."""
    state = game.state
    player = state.knight[i]
    me = state.players[player]
    me.knights[me.knights.index(i)] = j
    state.knight[j], state.knight[i] = player, NOBODY
    state.knight_level[j], state.knight_level[i] = state.knight_level[i], 0
    state.knight_active[j], state.knight_active[i] = state.knight_active[i], False
    state.knight_flags[j], state.knight_flags[i] = state.knight_flags[i], 0
    game.board_changed()
    _recount_roads_through(game, i, player)
    _recount_roads_through(game, j, player)


def set_knight_level(game: Game, i: int, level: int) -> None:
    """Swap the knight on ``i`` for one of ``level`` from the supply (a promotion)."""
    state, levels = game.state, game.rules.knight_levels
    supply = state.players[state.knight[i]].supply
    supply[levels[state.knight_level[i] - 1].id] += 1
    supply[levels[level - 1].id] -= 1
    state.knight_level[i] = level


def activate_knight(game: Game, i: int) -> None:
    """Activate the knight on ``i``, remembering it was activated this turn (the rule
    set's `knight_acts` condition reads that)."""
    state = game.state
    state.knight_active[i] = True
    state.knight_flags[i] |= ACTIVATED_THIS_TURN
    game.log("activate", state.knight[i], at=i)


# --- roads cut and mended, the longest road -------------------------------------------------


def _recount_roads_through(game: Game, i: int, player: int) -> None:
    """A piece of ``player`` arrived on ``i`` or left it: the roads of others through it
    are broken or join up again (docs/rules.md, "The longest road"). Only a player with
    two roads meeting at ``i`` has a road through it: one road ending there may end
    there whoever stands on it."""
    state, topo = game.state, game.topo
    at = [state.road[e] for e in topo.inter_edges[i]]
    others = {q for q in at if q != player and q != NOBODY and at.count(q) > 1}
    for q in others:
        state.players[q].road_length = board_rules.longest_road(topo, state, q)
    if others:
        award_longest_road(game)


def award_longest_road(game: Game) -> None:
    """docs/rules.md, "The longest road": the longest road of at least the minimum
    length; the holder keeps it on a tie; if it is broken and others tie for the lead,
    nobody holds it."""
    state, rules = game.state, game.rules
    best = max(p.road_length for p in state.players)
    holder = state.longest_road_holder
    leaders = [q for q, p in enumerate(state.players) if p.road_length == best]
    if best < rules.longest_road_min:
        new = NOBODY
    elif holder in leaders:
        new = holder
    else:
        new = leaders[0] if len(leaders) == 1 else NOBODY
    if new == holder:
        return
    game.add_points(holder, -rules.longest_road_points)
    game.add_points(new, rules.longest_road_points)
    state.longest_road_holder = new
    game.log("longest_road", new, previous=holder, length=best)


# --- harbors, the merchant and trade rates --------------------------------------------------


def _harbor(game: Game, player: int, i: int) -> None:
    """A building on a harbor lowers its owner's bank rate (docs/rules.md, "Trading")."""
    kind = game.harbor_at.get(i)
    if kind is None:
        return
    me = game.state.players[player]
    rules = game.rules
    if kind == "generic":
        rate = rules.number("generic_harbor_rate")
        me.harbor_rates = [min(r, rate) for r in me.harbor_rates]
    else:
        g = rules.good_index[kind]
        me.harbor_rates[g] = min(me.harbor_rates[g], rules.number("special_harbor_rate"))
    refresh_rates(game, player)


def refresh_rates(game: Game, player: int) -> None:
    """The player's bank rate for each good now: harbors, the merchant (docs/rules.md,
    "Trading": its holder trades its tile's resource at 2:1) and rate modifiers (Merchant
    Fleet, the Merchant Guild)."""
    state, rules = game.state, game.rules
    me = state.players[player]
    rates = list(me.harbor_rates)
    if state.merchant_owner == player and state.merchant != NOBODY:
        g = rules.terrain_resource.get(game.terrain[state.merchant])
        if g is not None:
            rates[g] = min(rates[g], rules.number("merchant_trade_rate"))
    for mod in state.modifiers:
        rate = mod["value"]
        if mod["kind"] == "rate" and mod["player"] == player and isinstance(rate, int):
            for good in mod["goods"]:
                g = rules.good_index[good]
                rates[g] = min(rates[g], rate)
    me.rates = rates


def refresh_all_rates(game: Game) -> None:
    for p in range(game.n):
        refresh_rates(game, p)


def move_robber(game: Game, player: int, tile: int) -> None:
    """``player`` moves the robber to ``tile`` (docs/rules.md, "The robber"): the tile
    produces nothing while it stands there."""
    game.yields_changed((game.state.robber, tile))
    game.state.robber = tile
    game.log("robber", player, tile=tile)


def move_merchant(game: Game, player: int, tile: int) -> None:
    """docs/rules.md, "Trading": the merchant goes to ``tile`` and ``player`` holds it
    (and its point)."""
    state, bonus = game.state, game.rules.points["merchant"]
    old = state.merchant_owner
    game.add_points(old, -bonus)
    state.merchant, state.merchant_owner = tile, player
    game.add_points(player, bonus)
    game.log("merchant", player, tile=tile)
    if old not in (NOBODY, player):
        refresh_rates(game, old)
    refresh_rates(game, player)


# --- the barbarians --------------------------------------------------------------------------


def defenders_left(game: Game) -> int:
    """How many Defender of Catan cards are left. With `supply: unlimited` (the base
    rules: the pages set no limit), ``turn_limit`` less those given: at most one attack a
    turn, so it never comes to none."""
    rules = game.rules
    supply = rules.defender_supply
    if supply == NO_LIMIT:
        supply = rules.number("turn_limit")
    return supply - sum(p.defender for p in game.state.players)


def award_defender(game: Game, player: int) -> None:
    """Give ``player`` a Defender of Catan card (its points), if one is left."""
    state, rules = game.state, game.rules
    if rules.defender_supply != NO_LIMIT and defenders_left(game) <= 0:
        game.log("defender_none_left", player)
        return
    state.players[player].defender += 1
    game.add_points(player, rules.defender_points)
    game.log("defender", player)


def pillageable(game: Game, player: int) -> list[int]:
    """The player's cities that the barbarians can take (metropolises are never taken)."""
    state = game.state
    building, metropolis = state.building, state.metropolis
    return [
        i for i in state.players[player].buildings if building[i] == CITY and i not in metropolis
    ]


# --- points ---------------------------------------------------------------------------------


def recount_points(game: Game, player: int) -> int:
    """The player's victory points counted afresh from the board and their cards."""
    return sum(points_breakdown(game, player).values())


def points_breakdown(game: Game, player: int) -> dict[str, int]:
    """Where the player's victory points come from, by source (``settlement``, ``city``,
    ``metropolis``, ``longest_road``, ``merchant``, ``defender``, a revealed card's id),
    only the sources that give some: what the tables show beside the total."""
    state, rules = game.state, game.rules
    points = rules.points
    me = state.players[player]
    out: dict[str, int] = {}

    def add(source: str, n: int) -> None:
        if n:
            out[source] = out.get(source, 0) + n

    for i in me.buildings:
        kind = "city" if state.building[i] == CITY else "settlement"
        add(kind, points[kind])
    add(
        "metropolis",
        points["metropolis"]
        * sum(1 for i in state.metropolis if i != NOBODY and state.owner[i] == player),
    )
    if state.longest_road_holder == player:
        add("longest_road", rules.longest_road_points)
    if state.merchant_owner == player:
        add("merchant", points["merchant"])
    add("defender", me.defender * rules.defender_points)
    for card in me.revealed:
        add(card, rules.cards[card].points)
    for title, (_, given) in state.titles.items():  # declared in data (ckdsl.turn.titles)
        add(title, given[player])
    return out
