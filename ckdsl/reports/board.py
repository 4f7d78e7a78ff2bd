"""``ckdsl board``: the ids of a board's tiles, intersections, edges and harbors.

Answers name intersections by number and edges by their two ends ("12-13"); this
description is how a player (or a rule author writing a scenario) finds those ids.
"""

from __future__ import annotations

from typing import TypedDict

from ckdsl.board import Layout, MapSpec, Topology


class TileRow(TypedDict):
    id: int
    hex: list[int]
    terrain: str
    number: int | None
    corners: list[int]
    neighbors: list[int]


class IntersectionRow(TypedDict):
    id: int
    tiles: list[int]
    neighbors: list[int]
    edges: list[int]


class EdgeRow(TypedDict):
    id: int
    name: str
    ends: list[int]
    coast: bool


class HarborRow(TypedDict):
    edge: str
    edge_id: int
    kind: str


class SeedDrawing(TypedDict):
    seed: int | None


class BoardReport(TypedDict):
    """The whole board, as ``ckdsl board --json`` prints it (keys in that order)."""

    map: str
    layout: str | SeedDrawing
    tiles: list[TileRow]
    intersections: list[IntersectionRow]
    edges: list[EdgeRow]
    harbors: list[HarborRow]
    robber: int


def default_drawing(
    spec: MapSpec, layout: str | None, seed: int | None
) -> tuple[str | None, int | None]:
    """The layout or seed to show when neither is given: the map's beginner layout if it
    has one (what a first game uses), else the layout drawn from seed 0."""
    if layout is None and seed is None:
        layout = "beginner" if "beginner" in spec.layouts else None
        seed = 0 if layout is None else None
    return layout, seed


def drawn_as(layout: str | None, seed: int | None) -> str:
    """How the layout was chosen, in words ("layout beginner", "seed 7")."""
    return f"layout {layout}" if layout is not None else f"seed {seed}"


def tile_rows(topology: Topology, drawn: Layout) -> list[TileRow]:
    """Each tile: its hex coordinates, terrain, number token, corners and neighbours."""
    return [
        {
            "id": t,
            "hex": list(topology.hexes[t]),
            "terrain": drawn.terrain[t],
            "number": drawn.number[t],
            "corners": list(topology.tile_corners[t]),
            "neighbors": list(topology.tile_neighbors[t]),
        }
        for t in range(len(topology.hexes))
    ]


def harbor_rows(topology: Topology, drawn: Layout) -> list[HarborRow]:
    """Each harbor: the edge it sits on (by name and id) and its kind."""
    return [
        {"edge": topology.edge_name(e), "edge_id": e, "kind": kind}
        for e, kind in zip(topology.harbor_edges, drawn.harbors, strict=False)
    ]


def board_json(
    spec: MapSpec, topology: Topology, drawn: Layout, layout: str | None, seed: int | None
) -> BoardReport:
    """The board with every id and adjacency (``--json``)."""
    coast = set(topology.coast_edges)
    return {
        "map": spec.name,
        "layout": layout if layout is not None else {"seed": seed},
        "tiles": tile_rows(topology, drawn),
        "intersections": [
            {
                "id": i,
                "tiles": list(ts),
                "neighbors": list(topology.inter_neighbors[i]),
                "edges": list(topology.inter_edges[i]),
            }
            for i, ts in enumerate(topology.inter_tiles)
        ],
        "edges": [
            {"id": e, "name": topology.edge_name(e), "ends": list(ends), "coast": e in coast}
            for e, ends in enumerate(topology.edge_ends)
        ],
        "harbors": harbor_rows(topology, drawn),
        "robber": drawn.robber,
    }


def board_lines(
    spec: MapSpec, topology: Topology, drawn: Layout, layout: str | None, seed: int | None
) -> list[str]:
    """The board for a terminal: counts, how it was drawn, each tile and harbor."""
    tiles = tile_rows(topology, drawn)
    lines = [
        f"{spec.name}: {len(tiles)} tiles, {len(topology.inter_tiles)} intersections, "
        f"{len(topology.edge_ends)} edges",
        f"  {drawn_as(layout, seed)}; the robber starts on tile {drawn.robber}",
    ]
    for tile in tiles:
        number = tile["number"] if tile["number"] is not None else "-"
        corners = " ".join(str(c) for c in tile["corners"])
        lines.append(
            f"  tile {tile['id']:>2}  {tile['terrain']:<10} {number:>2}   corners {corners}"
        )
    for h in harbor_rows(topology, drawn):
        lines.append(f"  harbor {h['edge']:>6}  {h['kind']}")
    return lines


def board_title(spec: MapSpec, layout: str | None, seed: int | None) -> str:
    """The picture's title: the map and how its layout was drawn."""
    return f"{spec.name}: " + (f"layout {layout}" if layout else f"seed {seed}")
