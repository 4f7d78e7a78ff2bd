"""The generic hex board: map files, topology, layouts and pictures.

Every hex map works, not only the standard one; the engine reads only the precomputed
adjacency of a :class:`Topology` and the terrain/number of a :class:`Layout`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from ckdsl.board.layout import Layout, fixed_layout, random_layout
from ckdsl.board.maps import FixedLayout, MapSpec, bundled_maps, load_map, map_path, maps_dir
from ckdsl.board.topology import SIDE_STEPS, Hex, Topology, build_topology

if TYPE_CHECKING:
    from ckdsl.board.svg import Piece, render_svg


def __getattr__(name: str) -> object:
    """The pictures (``ckdsl.board.svg``) load when first named: a game needs none."""
    if name in ("Piece", "render_svg"):
        from ckdsl.board import svg

        return getattr(svg, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def topology_for(spec: MapSpec) -> Topology:
    """The topology of a map, built once per map file and shared by every game on it.

    Keyed by the file and by the shape it states, so an edited file is never served a
    stale topology."""
    if not isinstance(spec, MapSpec):  # load_map's None (a map with errors), say
        raise TypeError(f"topology_for takes a MapSpec (from load_map), not {type(spec).__name__}")
    return _topology(spec.file, spec.hexes, spec.harbors)


@lru_cache(maxsize=32)
def _topology(file: str, hexes: tuple[Hex, ...], harbors: tuple[tuple[Hex, int], ...]) -> Topology:
    return build_topology(hexes, harbors)


__all__ = [
    "SIDE_STEPS",
    "FixedLayout",
    "Hex",
    "Layout",
    "MapSpec",
    "Piece",
    "Topology",
    "build_topology",
    "bundled_maps",
    "fixed_layout",
    "load_map",
    "map_path",
    "maps_dir",
    "random_layout",
    "render_svg",
    "topology_for",
]
