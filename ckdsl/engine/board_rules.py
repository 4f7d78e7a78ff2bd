"""Where pieces may go, and how long a road is: the board rules of the base game.

Pure functions of the topology and the state's occupancy lists, written for the hot path:
no allocation beyond the result, adjacency read from precomputed tuples.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ckdsl.engine.state import EMPTY, NOBODY, GameState

if TYPE_CHECKING:
    from ckdsl.board import Topology


def distance_ok(topo: Topology, state: GameState, i: int) -> bool:
    """Source §2 (distance rule): a free intersection whose neighbours are all free."""
    building = state.building
    if building[i] != EMPTY:
        return False
    return all(building[j] == EMPTY for j in topo.inter_neighbors[i])


def passable(state: GameState, i: int, player: int) -> bool:
    """A road network runs through ``i`` unless another player's piece stands there."""
    owner = state.owner[i]
    return owner in (NOBODY, player)


def road_spots(topo: Topology, state: GameState, player: int) -> list[int]:
    """Free edges touching the player's network (a road end not blocked, or a building)."""
    road = state.road
    me = state.players[player]
    ends: set[int] = set(me.buildings)
    edge_ends = topo.edge_ends
    for e in me.roads:
        a, b = edge_ends[e]
        if passable(state, a, player):
            ends.add(a)
        if passable(state, b, player):
            ends.add(b)
    spots: set[int] = set()
    for i in ends:
        for e in topo.inter_edges[i]:
            if road[e] == NOBODY:
                spots.add(e)
    return sorted(spots)


def settlement_spots(topo: Topology, state: GameState, player: int) -> list[int]:
    """Intersections on the player's roads where the distance rule allows a settlement."""
    edge_ends = topo.edge_ends
    spots: set[int] = set()
    for e in state.players[player].roads:
        for i in edge_ends[e]:
            if distance_ok(topo, state, i):
                spots.add(i)
    return sorted(spots)


def longest_road(topo: Topology, state: GameState, player: int) -> int:
    """The player's longest simple path of roads; another player's piece breaks it (§16)."""
    roads = state.players[player].roads
    if not roads:
        return 0
    mine = set(roads)
    edge_ends = topo.edge_ends
    inter_edges = topo.inter_edges
    best = 0

    def walk(at: int, used: set[int], length: int) -> None:
        nonlocal best
        best = max(best, length)
        if length and not passable(state, at, player):
            return  # the path may end here, but not run through an enemy piece
        for e in inter_edges[at]:
            if e in mine and e not in used:
                a, b = edge_ends[e]
                used.add(e)
                walk(b if a == at else a, used, length + 1)
                used.discard(e)

    starts = {i for e in roads for i in edge_ends[e]}
    for i in starts:
        walk(i, set(), 0)
    return best
