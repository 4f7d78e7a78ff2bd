"""The generic hex board: map files, topology, layouts and pictures.

Any hex map works, not only the standard one; the engine reads only the precomputed
adjacency of a :class:`Topology` and the terrain/number of a :class:`Layout`.
"""

from __future__ import annotations

from ckdsl.board.layout import Layout, fixed_layout, random_layout
from ckdsl.board.maps import MapSpec, bundled_maps, load_map, map_path
from ckdsl.board.topology import Topology, build_topology


def topology_for(spec: MapSpec) -> Topology:
    """The topology of a map (build it once per map: ``ckdsl.session`` caches it)."""
    return build_topology(spec.hexes, spec.harbors)


__all__ = [
    "Layout",
    "MapSpec",
    "Topology",
    "build_topology",
    "bundled_maps",
    "fixed_layout",
    "load_map",
    "map_path",
    "random_layout",
    "topology_for",
]
