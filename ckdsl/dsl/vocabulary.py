"""The vocabulary of the effect DSL: every verb and function cards and abilities use,
with its typed signature, a one-line doc, and the Python that carries it out against the
engine (the turn's words are in ``turn_vocabulary``; the registry is ``registry``).

A new verb is one decorated function here. Implementations receive an ``Env`` (the game,
the player ``me``, the effect's variables) and plain values.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Literal

from ckdsl.dsl.errors import EffectFailure
from ckdsl.dsl.registry import Args, Clauses, Param, function, verb
from ckdsl.dsl.types import (
    ANY,
    BOOL,
    BUILDING,
    BUNDLE,
    CARD,
    CITY,
    COMMODITY,
    EDGE,
    GOOD,
    INT,
    INTERSECTION,
    KNIGHT,
    PLAYER,
    RESOURCE,
    ROAD,
    SETTLEMENT,
    TERRAIN,
    TILE,
    TRACK,
    list_of,
    words,
)
from ckdsl.engine import board_rules, building, improvements, knights, pieces
from ckdsl.engine.allow import Env
from ckdsl.engine.hands import steal, transfer
from ckdsl.engine.progress import draw, hand_limit
from ckdsl.engine.state import CITY as CITY_KIND
from ckdsl.engine.state import EMPTY, NOBODY
from ckdsl.engine.state import SETTLEMENT as SETTLEMENT_KIND
from ckdsl.engine.tasks import DiscardProgressTask, DiscardTask, Modifier
from ckdsl.engine.values import Value, bundle, items, name, number

if TYPE_CHECKING:
    from ckdsl.engine.game import Game


# --- players ------------------------------------------------------------------------------


@function("me", (), PLAYER, "the player who plays the card (or holds the ability)")
def _me(env: Env) -> int:
    return env.me


@function("opponents", (), list_of(PLAYER), "every other player, in turn order after me", reads=())
def _opponents(env: Env) -> list[int]:
    return [q for q in env.game.order_from(env.me) if q != env.me]


@function("players", (), list_of(PLAYER), "every player, in turn order from me", reads=())
def _players(env: Env) -> list[int]:
    return list(env.game.order_from(env.me))


@function("current", (), PLAYER, "the player whose turn it is", reads=("current",))
def _current(env: Env) -> int:
    return env.game.state.current


@function("points", (PLAYER,), INT, "p's victory points", reads=("points",))
def _points(env: Env, p: int) -> int:
    return env.game.state.players[p].points


@function("hand_size", (PLAYER,), INT, "how many resources and commodities p holds")
def _hand_size(env: Env, p: int) -> int:
    return sum(env.game.state.players[p].hand)


@function("amount", (PLAYER, GOOD), INT, "how many of good g p holds")
def _amount(env: Env, p: int, g: str) -> int:
    return env.game.state.players[p].hand[env.game.rules.good_index[g]]


@function("has", (PLAYER, BUNDLE), BOOL, "whether p holds all these goods")
def _has(env: Env, p: int, goods: dict[str, int]) -> bool:
    hand, index = env.game.state.players[p].hand, env.game.rules.good_index
    return all(hand[index[g]] >= n for g, n in goods.items())


@function("hand", (PLAYER,), list_of(GOOD), "the goods p holds at least one of")
def _hand(env: Env, p: int) -> list[str]:
    hand, goods = env.game.state.players[p].hand, env.game.rules.goods
    return [goods[g] for g, n in enumerate(hand) if n]


@function("progress", (PLAYER,), list_of(CARD), "the progress cards in p's hand")
def _progress(env: Env, p: int) -> list[str]:
    return list(dict.fromkeys(env.game.state.players[p].progress))


@function("level", (PLAYER, TRACK), INT, "p's improvement level in a track (0 to 5)")
def _level_of(env: Env, p: int, track: str) -> int:
    return env.game.state.players[p].levels[env.game.rules.track_index[track]]


@function("can_improve", (PLAYER, TRACK), BOOL, "whether p could improve a track (cost aside)")
def _can_improve(env: Env, p: int, track: str) -> bool:
    return improvements.can_improve(env.game, p, env.game.rules.track_index[track])


# --- the board ----------------------------------------------------------------------------


@function("tiles", (), list_of(TILE), "every tile of the board", reads=())
def _tiles(env: Env) -> list[int]:
    return list(range(len(env.game.terrain)))


@function("intersections", (), list_of(INTERSECTION), "every intersection of the board", reads=())
def _intersections(env: Env) -> list[int]:
    return list(range(len(env.game.topo.inter_tiles)))


@function("edges", (), list_of(EDGE), "every edge of the board", reads=())
def _edges(env: Env) -> list[int]:
    return list(range(len(env.game.topo.edge_ends)))


@function(
    "edge",
    (INTERSECTION, INTERSECTION),
    EDGE,
    "the edge between intersections a and b (`remove road edge(12, 13)`: as answers and "
    "scenarios write it, 12-13)",
    may_fail=True,  # two intersections that are not neighbours
)
def _edge(env: Env, a: int, b: int) -> int:
    found = env.game.topo.edge_between.get((a, b))
    if found is None:
        raise EffectFailure(
            f"intersections {a} and {b} are not neighbours: no edge {a}-{b}",
            "stop_not_neighbours", a=a, b=b,
        )  # fmt: skip
    return found


@function("tiles_of", (TERRAIN,), list_of(TILE), "the tiles of a terrain")
def _tiles_of(env: Env, terrain: str) -> list[int]:
    return [t for t, name in enumerate(env.game.terrain) if name == terrain]


@function("terrain", (TILE,), TERRAIN, "the terrain of tile t", reads=())
def _terrain(env: Env, t: int) -> str:
    return env.game.terrain[t]


@function("number", (TILE,), INT, "the number token on tile t (0 if it has none)", reads=("board",))
def _number(env: Env, t: int) -> int:
    return env.game.state.numbers[t] or 0


@function("land", (TILE,), BOOL, "whether tile t is land (pieces may stand next to it)", reads=())
def _land(env: Env, t: int) -> bool:
    return env.game.terrain[t] in env.game.rules.land


@function("corners", (TILE,), list_of(INTERSECTION), "the six intersections around tile t")
def _corners(env: Env, t: int) -> list[int]:
    return list(env.game.topo.tile_corners[t])


@function("tiles_at", (INTERSECTION,), list_of(TILE), "the tiles around intersection i")
def _tiles_at(env: Env, i: int) -> list[int]:
    return list(env.game.topo.inter_tiles[i])


@function(
    "tiles_next_to",
    (PLAYER,),
    list_of(TILE),
    "the tiles next to p's settlements and cities",
    reads=("board",),
)
def _tiles_next_to(env: Env, p: int) -> list[int]:
    inter_tiles = env.game.topo.inter_tiles
    return sorted({t for i in env.game.state.players[p].buildings for t in inter_tiles[i]})


@function("adjacent", (INTERSECTION, TILE), BOOL, "whether intersection i is a corner of tile t")
def _adjacent(env: Env, i: int, t: int) -> bool:
    return i in env.game.topo.tile_corners[t]


@function("touches", (PLAYER, TILE), BOOL, "whether p has a settlement or city next to tile t")
def _touches(env: Env, p: int, t: int) -> bool:
    owner = env.game.state.owner
    return any(owner[i] == p for i in env.game.topo.tile_corners[t])


@function("robber_tile", (), TILE, "the tile the robber stands on")
def _robber_tile(env: Env) -> int:
    return env.game.state.robber


@function("robber_unlocked", (), BOOL, "whether the robber may move (after the first attack)")
def _robber_unlocked(env: Env) -> bool:
    return env.game.state.robber_unlocked


@function("merchant_tile", (), TILE, "the tile the merchant stands on (-1: not placed)")
def _merchant_tile(env: Env) -> int:
    return env.game.state.merchant


@function("barbarians", (), INT, "how far the barbarian ship has come on its track")
def _barbarians(env: Env) -> int:
    return env.game.state.barbarians


@function("attacks", (), INT, "how many barbarian attacks there have been")
def _attacks(env: Env) -> int:
    return env.game.state.attacks


@function("white_faces", (), list_of(INT), "the faces of the white die", reads=())
def _white_faces(env: Env) -> list[int]:
    return list(env.game.rules.white_faces)


@function("red_faces", (), list_of(INT), "the faces of the red die", reads=())
def _red_faces(env: Env) -> list[int]:
    return list(env.game.rules.red_faces)


# --- buildings ----------------------------------------------------------------------------


def _buildings_where(env: Env, p: int | None, kinds: tuple[int, ...]) -> list[int]:
    state = env.game.state
    kind = state.building
    owners = range(env.game.n) if p is None else (p,)
    return sorted(i for q in owners for i in state.players[q].buildings if kind[i] in kinds)


@function(
    "cities",
    (),
    list_of(CITY),
    "every city on the board (metropolises included)",
    reads=("buildings",),
)
def _all_cities(env: Env) -> list[int]:
    return _buildings_where(env, None, (CITY_KIND,))


@function(
    "cities",
    (PLAYER,),
    list_of(CITY),
    "p's cities (metropolises included)",
    reads=("buildings",),
)
def _cities(env: Env, p: int) -> list[int]:
    return _buildings_where(env, p, (CITY_KIND,))


@function("settlements", (PLAYER,), list_of(SETTLEMENT), "p's settlements", reads=("buildings",))
def _settlements(env: Env, p: int) -> list[int]:
    return _buildings_where(env, p, (SETTLEMENT_KIND,))


@function("buildings", (PLAYER,), list_of(BUILDING), "p's settlements and cities")
def _buildings(env: Env, p: int) -> list[int]:
    return sorted(env.game.state.players[p].buildings)


@function("metropolises", (), list_of(CITY), "every city carrying a metropolis")
def _all_metropolises(env: Env) -> list[int]:
    return sorted(i for i in env.game.state.metropolis if i != NOBODY)


@function("metropolises", (PLAYER,), list_of(CITY), "p's cities carrying a metropolis")
def _metropolises(env: Env, p: int) -> list[int]:
    state = env.game.state
    return sorted(i for i in state.metropolis if i != NOBODY and state.owner[i] == p)


@function("walls", (PLAYER,), list_of(CITY), "p's cities with a city wall", reads=("buildings",))
def _walls(env: Env, p: int) -> list[int]:
    state = env.game.state
    return sorted(i for i in state.players[p].buildings if state.wall[i])


@function("walled", (CITY,), BOOL, "whether city c has a city wall", reads=("buildings",))
def _walled(env: Env, c: int) -> bool:
    return env.game.state.wall[c]


@function("is_metropolis", (CITY,), BOOL, "whether city c carries a metropolis")
def _is_metropolis(env: Env, c: int) -> bool:
    return c in env.game.state.metropolis


@function(
    "owner",
    (BUILDING,),
    PLAYER,
    "who owns the settlement or city on b (-1: nobody)",
    reads=("board",),
)
def _building_owner(env: Env, b: int) -> int:
    return env.game.state.owner[b]


# --- roads --------------------------------------------------------------------------------


@function("roads", (), list_of(ROAD), "every road on the board", reads=("board",))
def _all_roads(env: Env) -> list[int]:
    return [e for e, p in enumerate(env.game.state.road) if p != NOBODY]


@function("roads", (PLAYER,), list_of(ROAD), "p's roads", reads=("board",))
def _roads(env: Env, p: int) -> list[int]:
    return sorted(env.game.state.players[p].roads)


@function("owner", (ROAD,), PLAYER, "who owns road r (-1: nobody)", reads=("board",))
def _road_owner(env: Env, r: int) -> int:
    return env.game.state.road[r]


@function(
    "is_open",
    (ROAD,),
    BOOL,
    "whether one end of road r has no other piece of its owner",
    reads=("board",),
)
def _is_open(env: Env, r: int) -> bool:
    game = env.game
    state, topo = game.state, game.topo
    player = state.road[r]
    if player == NOBODY:
        return False
    for i in topo.edge_ends[r]:
        if state.owner[i] == player or state.knight[i] == player:
            continue
        if not any(e != r and state.road[e] == player for e in topo.inter_edges[i]):
            return True
    return False


@function(
    "connected",
    (PLAYER, INTERSECTION),
    BOOL,
    "whether intersection i touches one of p's roads",
    reads=("board",),
)
def _connected(env: Env, p: int, i: int) -> bool:
    road = env.game.state.road
    return any(road[e] == p for e in env.game.topo.inter_edges[i])


@function("road_spots", (PLAYER,), list_of(EDGE), "where p may build a road now", reads=("board",))
def _road_spots(env: Env, p: int) -> list[int]:
    return list(building.spots(env.game, p, "road"))


# --- knights ------------------------------------------------------------------------------


@function("knights", (), list_of(KNIGHT), "every knight on the board", reads=("knights",))
def _all_knights(env: Env) -> list[int]:
    return sorted(i for p in env.game.state.players for i in p.knights)


@function("knights", (PLAYER,), list_of(KNIGHT), "p's knights", reads=("knights",))
def _knights(env: Env, p: int) -> list[int]:
    return sorted(env.game.state.players[p].knights)


@function(
    "level",
    (KNIGHT,),
    INT,
    "knight k's level (1 basic, 2 strong, 3 mighty)",
    reads=("knights",),
)
def _knight_level(env: Env, k: int) -> int:
    return env.game.state.knight_level[k]


@function(
    "strength",
    (KNIGHT,),
    INT,
    "knight k's strength (from its level in the rule set)",
    reads=("knights",),
)
def _strength(env: Env, k: int) -> int:
    level = env.game.state.knight_level[k]
    return env.game.rules.knight_levels[level - 1].strength if level else 0


@function("active", (KNIGHT,), BOOL, "whether knight k is active", reads=("knights",))
def _active(env: Env, k: int) -> bool:
    return env.game.state.knight_active[k]


@function("owner", (KNIGHT,), PLAYER, "who owns knight k", reads=("board",))
def _knight_owner(env: Env, k: int) -> int:
    return env.game.state.knight[k]


@function("can_promote", (KNIGHT,), BOOL, "whether knight k may be promoted now (cost aside)")
def _can_promote(env: Env, k: int) -> bool:
    owner = env.game.state.knight[k]
    return owner != NOBODY and knights.can_promote_knight(env.game, owner, k)


@function("knights_left", (PLAYER, INT), INT, "how many knights of a level p has in supply")
def _knights_left(env: Env, p: int, level: int) -> int:
    levels = env.game.rules.knight_levels
    if not 1 <= level <= len(levels):
        return 0
    return env.game.state.players[p].supply[levels[level - 1].id]


@function("knight_spots", (PLAYER,), list_of(INTERSECTION), "free intersections on p's roads")
def _knight_spots(env: Env, p: int) -> list[int]:
    return board_rules.knight_spots(env.game.topo, env.game.state, p)


# --- goods, cards, tracks -----------------------------------------------------------------


@function("resources", (), list_of(RESOURCE), "every resource", reads=())
def _resources(env: Env) -> list[str]:
    rules = env.game.rules
    return [rules.goods[g] for g in rules.resources]


@function("commodities", (), list_of(COMMODITY), "every commodity", reads=())
def _commodities(env: Env) -> list[str]:
    rules = env.game.rules
    return [rules.goods[g] for g in rules.commodities]


@function("resources", (PLAYER,), list_of(RESOURCE), "the resources p holds at least one of")
def _resources_of(env: Env, p: int) -> list[str]:
    rules, hand = env.game.rules, env.game.state.players[p].hand
    return [rules.goods[g] for g in rules.resources if hand[g]]


@function("commodities", (PLAYER,), list_of(COMMODITY), "the commodities p holds at least one of")
def _commodities_of(env: Env, p: int) -> list[str]:
    rules, hand = env.game.rules, env.game.state.players[p].hand
    return [rules.goods[g] for g in rules.commodities if hand[g]]


@function("goods", (), list_of(GOOD), "every resource and commodity", reads=())
def _goods(env: Env) -> list[str]:
    return list(env.game.rules.goods)


@function("bank", (GOOD,), INT, "how many of good g the bank holds")
def _bank(env: Env, g: str) -> int:
    return env.game.state.bank[env.game.rules.good_index[g]]


@function("tracks", (), list_of(TRACK), "every improvement track", reads=())
def _tracks(env: Env) -> list[str]:
    return [t.id for t in env.game.rules.tracks]


@function("terrains", (), list_of(TERRAIN), "every terrain", reads=())
def _terrains(env: Env) -> list[str]:
    return list(env.game.rules.production)


@function("deck_size", (TRACK,), INT, "how many cards are left in the progress deck of a track")
def _deck_size(env: Env, track: str) -> int:
    deck = env.game.rules.tracks[env.game.rules.track_index[track]].deck
    return len(env.game.state.decks[deck]) if deck >= 0 else 0


# --- numbers and selections ---------------------------------------------------------------


@function("list", (list_of(ANY),), list_of(ANY), "the items of a selection, picked now", reads=())
def _list(env: Env, items: Sequence[Value]) -> list[Value]:
    return list(items)


@function("count", (list_of(ANY),), INT, "how many items a list or selection has", reads=())
def _count(env: Env, items: Sequence[Value]) -> int:
    return len(items)


@function("sum", (list_of(INT),), INT, "the sum of a list or selection of numbers", reads=())
def _sum(env: Env, items: list[int]) -> int:
    return sum(items)


@function("min", (INT, INT), INT, "the smaller of two numbers", reads=())
def _min2(env: Env, a: int, b: int) -> int:
    return min(a, b)


@function("max", (INT, INT), INT, "the larger of two numbers", reads=())
def _max2(env: Env, a: int, b: int) -> int:
    return max(a, b)


@function(
    "min", (list_of(INT),), INT, "the smallest number of a list or selection (0 if empty)", reads=()
)
def _min(env: Env, items: list[int]) -> int:
    return min(items, default=0)


@function(
    "max", (list_of(INT),), INT, "the largest number of a list or selection (0 if empty)", reads=()
)
def _max(env: Env, items: list[int]) -> int:
    return max(items, default=0)


@function("any", (list_of(BOOL),), BOOL, "whether a selection has any item (or any true)", reads=())
def _any(env: Env, items: list[bool]) -> bool:
    return any(items)


@function("all", (list_of(BOOL),), BOOL, "whether every item of a list is true", reads=())
def _all(env: Env, items: list[bool]) -> bool:
    return all(items)


@function("true", (), BOOL, "yes", reads=())
def _true(env: Env) -> bool:
    return True


@function("false", (), BOOL, "no", reads=())
def _false(env: Env) -> bool:
    return False


# ===== verbs ===============================================================================


def _hand_move(game: Game, giver: int, taker: int, good: str, n: int) -> int:
    """Up to ``n`` of ``good`` from one hand to another (or the bank: NOBODY)."""
    return transfer(game, giver, taker, game.rules.good_index[good], n)


@verb(
    "gain",
    (Param("amount", INT), Param("good", GOOD)),
    "p (default: me) takes that many of a good from the bank, as many as it holds",
    clauses={"to": Param("player", PLAYER, True)},
    example="gain 2 grain",
)
def _gain(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    n, good, p = number(args[0]), name(args[1]), number(clauses.get("to", env.me))
    moved = _hand_move(env.game, NOBODY, p, good, n)
    if moved:
        env.game.log("produce", p, goods={good: moved})


@verb(
    "pay",
    (Param("amount", INT), Param("good", GOOD)),
    "p (default: me) pays that many of a good to the bank, as many as they hold",
    clauses={"from": Param("player", PLAYER, True)},
    example="pay 1 ore",
)
def _pay(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    n, good, p = number(args[0]), name(args[1]), number(clauses.get("from", env.me))
    moved = _hand_move(env.game, p, NOBODY, good, n)
    if moved:
        env.game.log("pay", p, goods={good: moved})


@verb(
    "give",
    (Param("amount", INT), Param("good", GOOD)),
    "one player gives another up to that many of a good (as many as they hold)",
    clauses={"from": Param("giver", PLAYER), "to": Param("taker", PLAYER)},
    example="give 1 g from p to me",
)
def _give(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    giver, taker = number(clauses["from"]), number(clauses["to"])
    _transfer(env, number(args[0]), name(args[1]), giver, taker)


@verb(
    "take",
    (Param("amount", INT), Param("good", GOOD)),
    "take up to that many of a good from p (as many as they hold), for me or `to` q",
    clauses={"from": Param("player", PLAYER), "to": Param("taker", PLAYER, True)},
    example="take 2 r from p",
)
def _take(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    giver, taker = number(clauses["from"]), number(clauses.get("to", env.me))
    _transfer(env, number(args[0]), name(args[1]), giver, taker)


def _transfer(env: Env, n: int, good: str, giver: int, taker: int) -> None:
    if giver == taker:
        return
    moved = _hand_move(env.game, giver, taker, good, n)
    if moved:
        env.game.log("give", giver, partner=taker, goods={good: moved})


@verb(
    "steal",
    (Param("amount", INT),),
    "take that many random resources or commodities from p, one by one",
    clauses={"from": Param("player", PLAYER), "to": Param("taker", PLAYER, True)},
    example="steal 1 from p",
)
def _steal(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    taker, victim = number(clauses.get("to", env.me)), number(clauses["from"])
    if taker == victim:
        return  # from me to me: nothing moves (and a huge amount would never run out)
    for _ in range(min(number(args[0]), sum(env.game.state.players[victim].hand))):
        if steal(env.game, taker, victim) is None:
            break


@verb(
    "discard",
    (Param("amount", INT),),
    "p discards that many resources or commodities of their choice, one at a time",
    clauses={"by": Param("player", PLAYER)},
    example="discard (hand_size(p) / 2) by p",
)
def _discard(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    p = number(clauses["by"])
    n = min(number(args[0]), sum(env.game.state.players[p].hand))
    if n > 0:
        env.game.push(DiscardTask("discard", p, n))


@verb(
    "move",
    (Param("piece", words("robber", "merchant")),),
    "move the robber or the merchant to tile t (the merchant is then mine, or `by` p's)",
    clauses={"to": Param("tile", TILE), "by": Param("player", PLAYER, True)},
    example="move robber to t",
)
def _move(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    game, tile = env.game, number(clauses["to"])
    if args[0] == "robber":
        pieces.move_robber(game, env.me, tile)
    else:
        pieces.move_merchant(game, number(clauses.get("by", env.me)), tile)


@verb(
    "build",
    (Param("piece", words("road", "settlement", "city", "city_wall", "knight")),),
    "build a piece for me, at its usual cost, `free`, or `paying` goods; without `at`, "
    "I choose where among the legal places",
    clauses={
        "at": Param("place", ANY, True),
        "paying": Param("price", BUNDLE, True),
    },
    flags=("free",),
    example="build road free",
    decides={
        "road": "edge",
        "settlement": "intersection",
        "city": "intersection",
        "city_wall": "intersection",
        "knight": "intersection",
    },
)
def _build(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    at = clauses.get("at")
    if at is None:
        return
    paying = clauses.get("paying")
    price = env.game.bundle(_price(paying)) if paying is not None else None
    piece, place, free = name(args[0]), number(at), "free" in flags
    building.try_build(env.game, env.me, piece, place, price=price, free=free)


@verb(
    "improve",
    (Param("track", TRACK),),
    "raise my level in a track by one, at its cost or `free`",
    flags=("free",),
    example="improve science free",
)
def _improve(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    t = env.game.rules.track_index[name(args[0])]
    improvements.try_improve(env.game, env.me, t, free="free" in flags)


@verb(
    "place",
    (Param("piece", words("knight")),),
    "put a knight of mine (or `for` p) on a free intersection, of level `with` n (default "
    "1), inactive, free; any level, whatever the improvements",
    clauses={
        "at": Param("place", INTERSECTION),
        "with": Param("level", INT, True),
        "for": Param("player", PLAYER, True),
    },
    example="place knight at i with 2",
)
def _place(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    game = env.game
    state = game.state
    p, i = number(clauses.get("for", env.me)), number(clauses["at"])
    level = number(clauses.get("with", 1))
    levels = game.rules.knight_levels
    if not 1 <= level <= len(levels) or not state.players[p].supply[levels[level - 1].id]:
        return
    if state.building[i] != EMPTY or state.knight[i] != NOBODY:
        return
    pieces.place_knight(game, p, i, level, False)


@verb(
    "remove",
    (Param("piece", words("knight", "road")), Param("which", ANY)),
    "take a knight or road off the board, back to its owner's supply",
    example="remove road r",
)
def _remove(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    game = env.game
    piece, at = name(args[0]), number(args[1])
    places = game.state.knight if piece == "knight" else game.state.road
    if not 0 <= at < len(places):  # `which` is any number (a road is an edge's index)
        where = "intersection" if piece == "knight" else "edge"
        last = len(places) - 1
        raise EffectFailure(
            f"there is no {where} {at} on this board (0 to {last})",
            f"stop_no_{where}", value=at, last=last,
        )  # fmt: skip
    if piece == "knight" and game.state.knight[at] != NOBODY:
        pieces.remove_knight(game, at)
    elif piece == "road" and game.state.road[at] != NOBODY:
        pieces.remove_road(game, at)


@verb(
    "promote",
    (Param("knight", KNIGHT),),
    "raise knight k one level (the level's requirement applies), at its cost or `free`",
    flags=("free",),
    example="promote k free",
)
def _promote(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    knights.try_promote(env.game, number(args[0]), free="free" in flags)


@verb(
    "activate",
    (Param("knight", KNIGHT),),
    "activate knight k (it may not act this turn), at its cost or `free`",
    flags=("free",),
    example="activate k free",
)
def _activate(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    knights.try_activate(env.game, number(args[0]), free="free" in flags)


@verb(
    "deactivate",
    (Param("knight", KNIGHT),),
    "make knight k inactive",
    example="deactivate k",
)
def _deactivate(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    state, at = env.game.state, number(args[0])
    if state.knight_active[at]:  # logged like `activate` (docs/events.md)
        state.knight_active[at] = False
        env.game.log("deactivate", state.knight[at], at=at)


@verb(
    "displace",
    (Param("knight", KNIGHT),),
    "take knight k off its intersection: its owner puts it on a free place of their "
    "network, or it is removed if there is none",
    example="displace k",
)
def _displace(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    game = env.game
    k = number(args[0])
    owner = game.state.knight[k]
    if owner == NOBODY:
        return
    game.log("displace", env.me, at=k, to=k, victim=owner)
    level, active = pieces.remove_knight(game, k)
    knights.displace_to_network(game, owner, level, active, k)


@verb(
    "swap",
    (Param("tile", TILE),),
    "swap the number tokens of two tiles",
    clauses={"with": Param("other", TILE)},
    example="swap a with b",
)
def _swap(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    game = env.game
    a, b = number(args[0]), number(clauses["with"])
    numbers = game.state.numbers
    numbers[a], numbers[b] = numbers[b], numbers[a]
    game.index_numbers()
    game.log("swap", env.me, tile=a, other=b)


@verb(
    "draw",
    (Param("track", TRACK),),
    "the top card of a track's progress deck goes to me (or `to` p)",
    clauses={"to": Param("player", PLAYER, True)},
    example="draw politics to p",
)
def _draw(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    deck = env.game.rules.tracks[env.game.rules.track_index[name(args[0])]].deck
    if deck >= 0:
        draw(env.game, number(clauses.get("to", env.me)), deck)


def _price(value: Value) -> Mapping[str, int]:
    """Goods paid: none negative (a price of -5 brick would pay the player from the bank,
    and the bank would go below zero)."""
    goods = bundle(value)
    for good, n in goods.items():
        if n < 0:
            raise EffectFailure(
                f"a price of {n} {good}: it must be 0 or more", "stop_negative", value=n
            )
    return goods


MODIFIER_KINDS: dict[str, Literal["cost", "discount", "rate"]] = {  # `grant` word: kind
    "price": "cost",
    "discount": "discount",
    "rate": "rate",
}


@verb(
    "grant",
    (Param("kind", words("rate", "discount", "price")), Param("value", ANY)),
    "a modifier for me until the end of the turn (`always`: for good; `once`: used up by "
    "one purchase): `rate n on goods` trades them n:1 with the bank, `discount n on "
    "improvement` takes n commodities off, `price {..} on city` sets a price",
    clauses={"on": Param("target", ANY)},
    flags=("once", "always"),
    example="grant rate 2 on g",
)
def _grant(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    game = env.game
    kind, value, target = name(args[0]), args[1], clauses["on"]
    price = _price(value) if kind == "price" else None
    if price is None and number(value) < (1 if kind == "rate" else 0):
        # a rate of 0 or less, or a discount below 0, would take goods from nowhere
        lowest = "1" if kind == "rate" else "0"
        raise EffectFailure(
            f"a {kind} of {number(value)}: it must be {lowest} or more", "stop_negative",
            value=number(value),
        )  # fmt: skip
    mod: Modifier = {
        "player": env.me,
        "kind": MODIFIER_KINDS[kind],
        "value": dict(price) if price is not None else number(value),
    }
    if kind == "rate":
        mod["goods"] = (
            [name(g) for g in items(target)] if isinstance(target, list) else [name(target)]
        )
    else:
        mod["target"] = name(target)
    if "once" in flags:
        mod["once"] = True
    if "always" in flags:
        mod["always"] = True
    game.state.modifiers.append(mod)
    game.log("modifier", env.me, kind=kind)
    if kind == "rate":
        pieces.refresh_rates(game, env.me)


@verb(
    "set",
    (Param("what", words("dice")), Param("white", INT), Param("red", INT)),
    "the next roll's white and red dice show these numbers (the event die rolls as usual)",
    example="set dice w r",
)
def _set(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    white, red = number(args[1]), number(args[2])
    env.game.state.next_dice = (white, red)
    env.game.log("dice_set", env.me, white=white, red=red)


@verb(
    "seize",
    (Param("card", CARD),),
    "take a progress card from p's hand into mine (over the hand limit, I discard one)",
    clauses={"from": Param("player", PLAYER)},
    example="seize c from p",
)
def _seize(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    game, card, victim = env.game, name(args[0]), number(clauses["from"])
    held = game.state.players[victim].progress
    if card not in held or victim == env.me:
        return
    held.remove(card)
    mine = game.state.players[env.me].progress
    mine.append(card)
    game.log("seize", env.me, victim=victim, card=card)
    over = len(mine) - hand_limit(game, env.me)
    if over > 0:
        game.push(DiscardProgressTask("discard_progress", env.me, over))


@verb(
    "reveal",
    (Param("player", PLAYER),),
    "p shows me their progress cards",
    example="reveal p",
)
def _reveal(env: Env, args: Args, clauses: Clauses, flags: frozenset[str]) -> None:
    p = number(args[0])
    shown = list(env.game.state.players[p].progress)
    env.game.log("reveal_hand", p, viewer=env.me, cards=shown)


GRANT_TARGETS = frozenset({"improvement", "road", "settlement", "city", "city_wall", "knight"})
