"""``ckdsl board``: the ids of a board's tiles, intersections, edges and harbors.

Answers name intersections by number and edges by their two ends ("12-13"); this
description is how a player (or a rule author writing a scenario) finds those ids.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple, TypedDict

from ckdsl.board import Layout, MapSpec, Topology
from ckdsl.board.maps import GENERIC
from ckdsl.l10n.catalog import Catalog


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
    rate: int


class HarborRates(NamedTuple):
    """How many of a good a harbor takes for one, by the rules in effect (docs/rules.md
    "Trading"): a generic harbor any good, a special one its own. The base's by default."""

    generic: int = 3
    special: int = 2

    @classmethod
    def of(cls, parameters: Mapping[str, object]) -> HarborRates:
        """The rates a rule set's parameters give (``generic_harbor_rate``, ...)."""
        generic, special = (parameters.get(f"{k}_harbor_rate") for k in ("generic", "special"))
        return cls(
            generic if isinstance(generic, int) else cls().generic,
            special if isinstance(special, int) else cls().special,
        )

    def of_kind(self, kind: str) -> int:
        return self.generic if kind == GENERIC else self.special


BASE_RATES = HarborRates()


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


def harbor_rows(
    topology: Topology, drawn: Layout, rates: HarborRates = BASE_RATES
) -> list[HarborRow]:
    """Each harbor: the edge it sits on (by name and id), its kind and its rate."""
    return [
        {"edge": topology.edge_name(e), "edge_id": e, "kind": kind, "rate": rates.of_kind(kind)}
        for e, kind in zip(topology.harbor_edges, drawn.harbors, strict=False)
    ]


def board_json(
    spec: MapSpec,
    topology: Topology,
    drawn: Layout,
    layout: str | None,
    seed: int | None,
    rates: HarborRates = BASE_RATES,
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
        "harbors": harbor_rows(topology, drawn, rates),
        "robber": drawn.robber,
    }


def board_lines(
    spec: MapSpec,
    topology: Topology,
    drawn: Layout,
    layout: str | None,
    seed: int | None,
    catalog: Catalog,
    rates: HarborRates = BASE_RATES,
) -> list[str]:
    """The board for a terminal, in ``catalog``'s language: counts, how it was drawn,
    each tile (its terrain's name) and harbor (what it trades, at ``rates``)."""
    m = catalog.message
    tiles = tile_rows(topology, drawn)
    counts = {"tiles": len(tiles), "intersections": len(topology.inter_tiles)}
    lines = [
        m("board_summary", map=spec.name, edges=len(topology.edge_ends), **counts),
        f"  {drawn_words(catalog, layout, seed)}; {m('board_robber_start', tile=drawn.robber)}",
    ]
    named = [catalog.name("terrains", str(tile["terrain"])) for tile in tiles]
    width = max((len(n) for n in named), default=0)
    tile_word = max(len(m("board_tile", tile=tile["id"])) for tile in tiles) if tiles else 0
    for tile, terrain in zip(tiles, named, strict=True):
        number = tile["number"] if tile["number"] is not None else "-"
        corners = " ".join(str(c) for c in tile["corners"])
        label = m("board_tile", tile=f"{tile['id']:>2}")
        lines.append(
            f"  {label:<{tile_word}}  {terrain:<{width}} {number:>2}   "
            f"{m('board_corners')} {corners}"
        )
    for h in harbor_rows(topology, drawn, rates):
        said = harbor_words(catalog, h["kind"], rates)
        lines.append(f"  {m('board_harbor')} {h['edge']:>6}  {said}")
    return lines


def drawn_words(catalog: Catalog, layout: str | None, seed: int | None) -> str:
    """How the layout was chosen, in ``catalog``'s language."""
    if layout is not None:
        return catalog.message("board_layout", layout=layout)
    return catalog.message("board_seed", seed=seed)


def harbor_words(catalog: Catalog, kind: str, rates: HarborRates = BASE_RATES) -> str:
    """A harbor's kind as its label says it, at ``rates``: "3:1", or "2:1" and the good
    it trades."""
    rate = f"{rates.of_kind(kind)}:1"
    return rate if kind == GENERIC else f"{rate} {catalog.good_name(kind)}"


def board_title(spec: MapSpec, layout: str | None, seed: int | None, catalog: Catalog) -> str:
    """The picture's title: the map and how its layout was drawn."""
    return f"{spec.name}: {drawn_words(catalog, layout, seed)}"
