"""Words about the board: tiles, intersections and edges, buildings, roads, knights, the robber, the
merchant and the barbarians.
"""

from __future__ import annotations

from ckdsl.core import board_rules, building, derived, knights
from ckdsl.core.allow import Env
from ckdsl.core.state import CITY as CITY_KIND
from ckdsl.core.state import NOBODY
from ckdsl.core.state import SETTLEMENT as SETTLEMENT_KIND
from ckdsl.dsl.base.errors import EffectFailure
from ckdsl.dsl.base.registry import function
from ckdsl.dsl.base.types import (
    BOOL,
    BUILDING,
    CITY,
    COMMODITY,
    EDGE,
    GOOD,
    INT,
    INTERSECTION,
    KNIGHT,
    PLAYER,
    ROAD,
    SETTLEMENT,
    TERRAIN,
    TILE,
    TRACK,
    list_of,
)

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


@function(
    "neighbours",
    (INTERSECTION, INTERSECTION),
    BOOL,
    "whether an edge joins intersections a and b (a test, where `edge(a, b)` would stop "
    "the effect for two that are not neighbours)",
    reads=(),
)
def _neighbours(env: Env, a: int, b: int) -> bool:
    return (a, b) in env.game.topo.edge_between


@function(
    "harbor",
    (INTERSECTION,),
    BOOL,
    "whether intersection i is on a harbor (of any kind)",
    reads=(),
)
def _harbor(env: Env, i: int) -> bool:
    return i in env.game.harbor_at


@function(
    "harbors",
    (PLAYER,),
    list_of(INTERSECTION),
    "p's settlements and cities on a harbor (`count(harbors(p))`: p's harbors)",
    reads=("buildings",),
)
def _harbors(env: Env, p: int) -> list[int]:
    return [i for i in env.game.state.players[p].buildings if i in env.game.harbor_at]


@function(
    "harbor_for",
    (INTERSECTION, GOOD),
    BOOL,
    "whether intersection i is on the special harbor of good g (2:1 in the base rules; a "
    "generic harbor is no good's)",
    reads=(),
)
def _harbor_for(env: Env, i: int, g: str) -> bool:
    return env.game.harbor_at.get(i) == g


@function(
    "trade_rate",
    (PLAYER, GOOD),
    INT,
    "how many of good g p gives the bank for one good now (the bank's rate, p's harbors, "
    "the merchant, the Merchant Guild, a card's `grant rate`)",
)
def _trade_rate(env: Env, p: int, g: str) -> int:
    game = env.game
    return game.state.players[p].rates[game.rules.good_index[g]]


@function(
    "first_settlement",
    (PLAYER,),
    BUILDING,
    "p's first settlement of the set-up (a city now, perhaps); if it is gone, p's oldest "
    "building still standing (-1: none)",
    reads=("buildings",),
)
def _first_settlement(env: Env, p: int) -> int:
    buildings = env.game.state.players[p].buildings
    return buildings[0] if buildings else NOBODY


@function(
    "goods_of",
    (TERRAIN,),
    list_of(GOOD),
    "the goods a city next to a tile of this terrain takes (a settlement: the first); none "
    "for a terrain that yields nothing",
    reads=(),
)
def _goods_of(env: Env, terrain: str) -> list[str]:
    rules = env.game.rules
    found = rules.production.get(terrain)
    if found is None:
        return []
    return [rules.goods[g] for g, n in found["city"].goods if n > 0]


@function(
    "terrains_of",
    (GOOD,),
    list_of(TERRAIN),
    "the terrains whose tiles yield good g (to a settlement or a city): `goods_of` turned round",
    reads=(),
)
def _terrains_of(env: Env, g: str) -> list[str]:
    rules = env.game.rules
    index = rules.good_index[g]
    return [
        terrain
        for terrain, by_building in rules.production.items()
        if any(good == index and n > 0 for p in by_building.values() for good, n in p.goods)
    ]


@function(
    "commodity_of",
    (TRACK,),
    COMMODITY,
    "the commodity a track's improvements are paid in (science: paper)",
    reads=(),
)
def _commodity_of(env: Env, track: str) -> str:
    rules = env.game.rules
    return rules.goods[rules.tracks[rules.track_index[track]].commodity]


@function(
    "track_of",
    (COMMODITY,),
    TRACK,
    "the track whose improvements are paid in a commodity (paper: science)",
    reads=(),
    may_fail=True,  # a commodity no track uses, in a house rule
)
def _track_of(env: Env, commodity: str) -> str:
    rules = env.game.rules
    g = rules.good_index[commodity]
    for track in rules.tracks:
        if track.commodity == g:
            return track.id
    raise EffectFailure(f"no track is paid in {commodity}")


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


@function(
    "knight_reaches",
    (PLAYER, INTERSECTION, INTERSECTION),
    BOOL,
    "whether a knight of p on a reaches b along p's roads (the same road network: through "
    "free intersections and p's pieces, never past another player's)",
)
def _knight_reaches(env: Env, p: int, a: int, b: int) -> bool:
    # docs/rules.md "Decisions where the sources differ": a displaced knight stays on the
    # road network it stood on (the base `allow.relocate`).
    return b in derived.knight_reach(env.game, p, a)
