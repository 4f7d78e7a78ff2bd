"""Layouts: which terrain, number and harbor kind goes where, for one game.

A random layout is drawn from the map's pools with the "layout" stream of the game's seed
(never the global RNG), so the same seed always gives the same board, whatever rule set
the game is played under.
"""

from __future__ import annotations

from dataclasses import dataclass

from ckdsl import arguments
from ckdsl.board.maps import MapSpec
from ckdsl.board.topology import Topology
from ckdsl.rng import Stream, derive


@dataclass(frozen=True)
class Layout:
    """Per tile id: terrain and number; per harbor: its kind; where the robber starts."""

    terrain: tuple[str, ...]
    number: tuple[int | None, ...]
    harbors: tuple[str, ...]
    robber: int


def _robber(number: list[int | None]) -> int:
    """The robber starts on the first tile without a number (the desert), else tile 0."""
    return next((t for t, n in enumerate(number) if n is None), 0)


def fixed_layout(spec: MapSpec, topology: Topology, name: str) -> Layout:
    """The map's fixed layout ``name``; KeyError naming the known ones if there is none
    (a TypeError naming the argument for a wrong type)."""
    _check_board(spec, topology)
    arguments.text(name, "name")
    if name not in spec.layouts:
        known = ", ".join(spec.layouts) or "none"
        raise KeyError(f"map '{spec.name}' has no layout '{name}' (layouts: {known})")
    lay = spec.layouts[name]
    tile = {h: t for t, h in enumerate(topology.hexes)}
    terrain = [""] * len(spec.hexes)
    number: list[int | None] = [None] * len(spec.hexes)
    for k, h in enumerate(spec.hexes):
        terrain[tile[h]] = lay.terrains[k]
        number[tile[h]] = lay.numbers[k]
    return Layout(tuple(terrain), tuple(number), lay.harbors, _robber(number))


# Enough for any sensible map: on the standard one about one shuffle in seven keeps 6 and 8
# apart, so a thousand attempts practically never run out.
ATTEMPTS = 1000


def _check_board(spec: object, topology: object) -> None:
    arguments.instance(spec, MapSpec, "spec", "from load_map")
    arguments.instance(topology, Topology, "topology", "topology_for(spec)")


def random_layout(spec: MapSpec, topology: Topology, seed: int) -> Layout:
    """Terrains, numbers and harbor kinds shuffled from the map's pools with the layout
    stream of ``seed`` only.

    Numbers in ``apart`` (6 and 8) never land on adjacent tiles: the tokens are reshuffled
    until they do not. On a map where that cannot be done the attempt with the fewest
    touching pairs is kept, so a layout is always dealt and always the same for a seed.
    Terrain and harbor pools are laid out in sorted order before shuffling, so their key
    order in the file does not matter; number tokens are taken in file order. A wrong
    type of argument is a TypeError naming it (a ``random.Random`` is no seed: its text
    would change from run to run)."""
    _check_board(spec, topology)
    arguments.whole(seed, "seed")
    rng = Stream(derive(seed, "layout"))
    terrain = [t for t, n in sorted(spec.terrains.items()) for _ in range(n)]
    rng.shuffle(terrain)
    numbered = [t for t, kind in enumerate(terrain) if kind not in spec.no_number]
    tokens = list(spec.numbers)
    best: list[int | None] = []
    fewest = -1
    for _ in range(ATTEMPTS if spec.apart else 1):
        rng.shuffle(tokens)
        number: list[int | None] = [None] * len(terrain)
        for t, n in zip(numbered, tokens, strict=True):
            number[t] = n
        clashes = _clashes(topology, number, spec.apart)
        if fewest < 0 or clashes < fewest:
            best, fewest = number, clashes
        if clashes == 0:
            break
    kinds = [k for k, n in sorted(spec.harbor_kinds.items()) for _ in range(n)]
    rng.shuffle(kinds)
    return Layout(tuple(terrain), tuple(best), tuple(kinds), _robber(best))


def _clashes(topology: Topology, number: list[int | None], apart: frozenset[int]) -> int:
    """How many pairs of adjacent tiles both carry a number of ``apart``."""
    count = 0
    for t, n in enumerate(number):
        if n in apart:
            for u in topology.tile_neighbors[t]:
                if u > t and number[u] in apart:
                    count += 1
    return count
