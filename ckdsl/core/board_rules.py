"""Where pieces may go, how far a knight reaches, how long a road is: the board rules.

Pure functions of the topology and the state's occupancy lists, written for the hot path:
no allocation beyond the result, adjacency read from precomputed tuples.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ckdsl.core.state import EMPTY, NOBODY, GameState

if TYPE_CHECKING:
    from ckdsl.board import Topology


def distance_ok(topo: Topology, state: GameState, i: int) -> bool:
    """docs/rules.md, "Building" (the distance rule): a free intersection whose neighbours
    hold no building."""
    building = state.building
    if building[i] != EMPTY or state.knight[i] != NOBODY:
        return False
    return all(building[j] == EMPTY for j in topo.inter_neighbors[i])


def passable(state: GameState, i: int, player: int) -> bool:
    """A road network runs through ``i`` unless another player's building or knight
    stands there (docs/rules.md, "The longest road": enemy pieces break a road)."""
    return state.owner[i] in (NOBODY, player) and state.knight[i] in (NOBODY, player)


def network_ends(topo: Topology, state: GameState, player: int) -> set[int]:
    """Intersections the player's network reaches and may grow from: their buildings, and
    the ends of their roads not blocked by another player's piece."""
    ends: set[int] = set(state.players[player].buildings)
    edge_ends = topo.edge_ends
    owner, knight = state.owner, state.knight
    for e in state.players[player].roads:
        for i in edge_ends[e]:
            if owner[i] in (NOBODY, player) and knight[i] in (NOBODY, player):
                ends.add(i)
    return ends


def road_spots(topo: Topology, state: GameState, player: int) -> list[int]:
    """Free edges touching the player's network (a road end not blocked, or a building)."""
    road = state.road
    spots: set[int] = set()
    for i in network_ends(topo, state, player):
        for e in topo.inter_edges[i]:
            if road[e] == NOBODY:
                spots.add(e)
    return sorted(spots)


def settlement_spots(topo: Topology, state: GameState, player: int) -> list[int]:
    """Intersections on the player's roads where the distance rule allows a settlement
    (and no knight stands: one's own knight must move away first, docs/rules.md, "Knights")."""
    edge_ends = topo.edge_ends
    spots: set[int] = set()
    for e in state.players[player].roads:
        for i in edge_ends[e]:
            if distance_ok(topo, state, i):
                spots.add(i)
    return sorted(spots)


def knight_spots(topo: Topology, state: GameState, player: int) -> list[int]:
    """Free intersections on the player's roads: where a knight may be built or placed
    (docs/rules.md, "Knights": on one's own network, no distance rule)."""
    edge_ends = topo.edge_ends
    building, knight = state.building, state.knight
    spots: set[int] = set()
    for e in state.players[player].roads:
        for i in edge_ends[e]:
            if building[i] == EMPTY and knight[i] == NOBODY:
                spots.add(i)
    return sorted(spots)


def knight_reach(topo: Topology, state: GameState, player: int, start: int) -> list[int]:
    """Intersections a knight at ``start`` reaches along its owner's roads: it passes
    through free intersections and its owner's pieces, and stops at another player's
    piece (where it may displace a knight, never pass it)."""
    road, edge_ends, inter_edges = state.road, topo.edge_ends, topo.inter_edges
    owner, knight = state.owner, state.knight
    seen = {start}
    todo = [start]
    reached: list[int] = []
    while todo:
        at = todo.pop()
        for e in inter_edges[at]:
            if road[e] != player:
                continue
            a, b = edge_ends[e]
            nxt = b if a == at else a
            if nxt in seen:
                continue
            seen.add(nxt)
            reached.append(nxt)
            if owner[nxt] in (NOBODY, player) and knight[nxt] in (NOBODY, player):
                todo.append(nxt)
    return reached


def longest_road(topo: Topology, state: GameState, player: int, through: int = -1) -> int:
    """The player's longest simple path of roads; another player's piece breaks it
    (docs/rules.md, "The longest road"). With ``through`` (a road of the player), only
    the network of roads joined to it is searched: a road just built changes no other
    network, so the player's longest road is then the larger of the one before and this
    network's (``pieces.place_road``)."""
    roads = state.players[player].roads
    if not roads:
        return 0
    # Each intersection of the network with the roads that leave it and where they lead;
    # each road is a bit of its own, so the roads a trail has used are one int.
    links: dict[int, list[tuple[int, int]]] = {}
    for k, e in enumerate(roads):
        a, b = topo.edge_ends[e]
        bit = 1 << k
        links.setdefault(a, []).append((bit, b))
        links.setdefault(b, []).append((bit, a))
    if through >= 0:
        joined = _network(topo.edge_ends[through][0], links)
        links = {i: out for i, out in links.items() if i in joined}
    cut = {i for i in links if not passable(state, i, player)}
    best = 0
    # A longest trail can be taken to start where the network ends, branches or is cut
    # (a trail that starts at a plain bend is a loop that can be turned to start at one of
    # these); a network that is only a loop gets one start of its own.
    seen: set[int] = set()
    for i, out in links.items():
        if len(out) != 2 or i in cut:
            best = max(best, _trail(links, cut, i, 0, 0))
            if i not in seen:
                seen |= _network(i, links)
    for i in links:
        if i not in seen:  # a loop with no end: start anywhere on it
            best = max(best, _trail(links, cut, i, 0, 0))
            seen |= _network(i, links)
    return best


def _trail(
    links: dict[int, list[tuple[int, int]]], cut: set[int], at: int, used: int, length: int
) -> int:
    """The longest trail that goes on from ``at``, where a trail of ``length`` roads (the
    bits of ``used``) has led; it may end at a cut intersection, not run through it."""
    best = length
    if length and at in cut:
        return best
    for bit, nxt in links[at]:
        if not used & bit:
            found = _trail(links, cut, nxt, used | bit, length + 1)
            if found > best:
                best = found
    return best


def _network(start: int, links: dict[int, list[tuple[int, int]]]) -> set[int]:
    """Intersections joined to ``start`` by the roads of ``links``."""
    seen = {start}
    todo = [start]
    while todo:
        for _, nxt in links[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen
