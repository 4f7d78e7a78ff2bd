"""Hex topology: tiles, intersections, edges and their adjacency, built once per map.

Pointy-topped hexes in axial coordinates. Everything the engine asks in its hot path
(the corners of a tile, the neighbours of an intersection, the ends of an edge) is a
precomputed tuple indexed by integer id. Ids follow reading order, so a person can
find them on the picture `ckdsl board --svg` draws: tiles row by row, intersections by
height then from left to right; an edge is named by its two intersections.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

Hex = tuple[int, int]

# Neighbour of a hex across each side, clockwise from the upper right (pointy-topped).
SIDE_STEPS: tuple[Hex, ...] = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))
SQRT3 = math.sqrt(3)


def hex_center(h: Hex) -> tuple[float, float]:
    """The centre of a hex of radius 1."""
    q, r = h
    return SQRT3 * (q + r / 2), 1.5 * r


def corner_point(h: Hex, k: int) -> tuple[float, float]:
    """Corner ``k`` of a hex, clockwise from the top."""
    x, y = hex_center(h)
    angle = math.radians(60 * k - 90)
    return x + math.cos(angle), y + math.sin(angle)


def _key(point: tuple[float, float]) -> tuple[int, int]:
    return round(point[0] * 1000), round(point[1] * 1000)


@dataclass(frozen=True, slots=True)
class Topology:
    """The shape of a board; immutable, shared by every game on that map."""

    hexes: tuple[Hex, ...]  # tile id -> axial coordinates
    tile_corners: tuple[tuple[int, ...], ...]  # 6 intersections, clockwise from the top
    tile_neighbors: tuple[tuple[int, ...], ...]
    inter_tiles: tuple[tuple[int, ...], ...]  # the land tiles touching an intersection
    inter_neighbors: tuple[tuple[int, ...], ...]
    inter_edges: tuple[tuple[int, ...], ...]
    edge_ends: tuple[tuple[int, int], ...]  # (a, b) with a < b
    coast_edges: tuple[int, ...]  # edges with land on one side only
    tile_points: tuple[tuple[float, float], ...]  # hex centres, for drawing (radius 1)
    inter_points: tuple[tuple[float, float], ...]  # corner points, for drawing
    harbor_edges: tuple[int, ...] = ()  # one edge per harbor slot of the map, in map order
    # (a, b) -> edge id, in both orders, so a lookup needs no comparison.
    edge_between: dict[tuple[int, int], int] = field(
        default_factory=dict, repr=False, compare=False
    )

    def edge_id(self, a: int, b: int) -> int:
        """The edge joining intersections ``a`` and ``b``; KeyError if there is none."""
        return self.edge_between[(a, b)]

    def edge_name(self, edge: int) -> str:
        a, b = self.edge_ends[edge]
        return f"{a}-{b}"


def build_topology(hexes: tuple[Hex, ...], harbors: tuple[tuple[Hex, int], ...] = ()) -> Topology:
    """The topology of the land ``hexes`` with harbors on (hex, side) pairs."""
    order = sorted(range(len(hexes)), key=lambda t: (hexes[t][1], hexes[t][0]))
    hexes = tuple(hexes[t] for t in order)
    tile_of = {h: t for t, h in enumerate(hexes)}
    points: dict[tuple[int, int], tuple[float, float]] = {}
    for h in hexes:
        for k in range(6):
            p = corner_point(h, k)
            points.setdefault(_key(p), p)
    keys = sorted(points, key=lambda k: (k[1], k[0]))
    inter_of = {k: i for i, k in enumerate(keys)}
    tile_corners = tuple(tuple(inter_of[_key(corner_point(h, k))] for k in range(6)) for h in hexes)
    sides: dict[tuple[int, int], int] = {}  # edge -> how many land tiles it borders
    for corners in tile_corners:
        for k in range(6):
            a, b = corners[k], corners[(k + 1) % 6]
            pair = (min(a, b), max(a, b))
            sides[pair] = sides.get(pair, 0) + 1
    edge_ends = tuple(sorted(sides))
    edge_between = {pair: e for e, pair in enumerate(edge_ends)}
    edge_between.update({(b, a): e for e, (a, b) in enumerate(edge_ends)})
    count = len(keys)
    inter_tiles: list[list[int]] = [[] for _ in range(count)]
    for t, corners in enumerate(tile_corners):
        for i in corners:
            inter_tiles[i].append(t)
    neighbors: list[list[int]] = [[] for _ in range(count)]
    edges_at: list[list[int]] = [[] for _ in range(count)]
    for e, (a, b) in enumerate(edge_ends):
        neighbors[a].append(b)
        neighbors[b].append(a)
        edges_at[a].append(e)
        edges_at[b].append(e)
    tile_neighbors = tuple(
        tuple(tile_of[(q + dq, r + dr)] for dq, dr in SIDE_STEPS if (q + dq, r + dr) in tile_of)
        for q, r in hexes
    )
    harbor_edges = tuple(
        edge_between[(tile_corners[tile_of[h]][side], tile_corners[tile_of[h]][(side + 1) % 6])]
        for h, side in harbors
    )
    return Topology(
        hexes=hexes,
        tile_corners=tile_corners,
        tile_neighbors=tile_neighbors,
        inter_tiles=tuple(tuple(ts) for ts in inter_tiles),
        inter_neighbors=tuple(tuple(sorted(ns)) for ns in neighbors),
        inter_edges=tuple(tuple(es) for es in edges_at),
        edge_ends=edge_ends,
        coast_edges=tuple(e for e, pair in enumerate(edge_ends) if sides[pair] == 1),
        tile_points=tuple(hex_center(h) for h in hexes),
        inter_points=tuple(points[k] for k in keys),
        harbor_edges=harbor_edges,
        edge_between=edge_between,
    )
