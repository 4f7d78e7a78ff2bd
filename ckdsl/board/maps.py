"""Map files: reading, schema validation and the checks a schema cannot make.

A map says which hexes are land, what a random layout deals (terrain pool, number
tokens, harbor kinds) and which fixed layouts exist. Errors point at the value at fault
(``rules/maps/standard.yaml:14:5: ...``), all at once, like the rule files.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ckdsl.board.topology import SIDE_STEPS, Hex
from ckdsl.diagnostics import Diagnostic, JsonPath
from ckdsl.paths import rules_dir
from ckdsl.rules.schemas import suggest, validate
from ckdsl.rules.yamlload import load_yaml


@dataclass(frozen=True)
class FixedLayout:
    terrains: tuple[str, ...]  # in the order of MapSpec.hexes
    numbers: tuple[int | None, ...]
    harbors: tuple[str, ...]


@dataclass(frozen=True)
class MapSpec:
    """A map as its file states it (hexes in file order)."""

    file: str
    name: str
    hexes: tuple[Hex, ...]
    terrains: dict[str, int]
    numbers: tuple[int, ...]
    no_number: frozenset[str]
    apart: frozenset[int]
    harbors: tuple[tuple[Hex, int], ...]
    harbor_kinds: dict[str, int]
    layouts: dict[str, FixedLayout]


def maps_dir() -> Path:
    return rules_dir() / "maps"


def bundled_maps() -> list[str]:
    return sorted(p.stem for p in maps_dir().glob("*.yaml"))


def map_path(name: str) -> Path:
    """A bundled map's file by name, or ``name`` itself as a path."""
    if "/" not in name and "\\" not in name and not name.endswith((".yaml", ".yml")):
        return maps_dir() / f"{name}.yaml"
    return Path(name)


def load_map(path: Path) -> tuple[MapSpec | None, list[Diagnostic]]:
    """Read and check the map file ``path``."""
    if not path.exists() and path.parent == maps_dir():
        known = bundled_maps()
        message = (
            f"unknown map '{path.stem}'{suggest(path.stem, known)} (bundled: {', '.join(known)})"
        )
        return None, [Diagnostic(str(path), 0, 0, message)]
    doc, problems = load_yaml(path)
    if doc is None:
        return None, problems
    problems += validate(doc.data, doc.positions, "map")
    if any(p.severity == "error" for p in problems):
        return None, problems

    def report(at: JsonPath, message: str) -> None:
        problems.append(Diagnostic.at(doc.positions.value(at), message, at))

    spec = _spec(str(path), doc.data)
    _check(spec, report)
    return (None if problems else spec), problems


def _spec(file: str, data: dict[str, Any]) -> MapSpec:
    layouts = {
        name: FixedLayout(
            tuple(lay["terrains"]), tuple(lay["numbers"]), tuple(lay.get("harbors", ()))
        )
        for name, lay in (data.get("layouts") or {}).items()
    }
    return MapSpec(
        file=file,
        name=data["name"],
        hexes=tuple((h[0], h[1]) for h in data["hexes"]),
        terrains=dict(data["terrains"]),
        numbers=tuple(data["numbers"]),
        no_number=frozenset(data.get("no_number", ())),
        apart=frozenset(data.get("apart", ())),
        harbors=tuple(((h["hex"][0], h["hex"][1]), h["side"]) for h in data.get("harbors", ())),
        harbor_kinds=dict(data.get("harbor_kinds") or {}),
        layouts=layouts,
    )


def _check(spec: MapSpec, report: Any) -> None:
    seen: dict[Hex, int] = {}
    for k, h in enumerate(spec.hexes):
        if h in seen:
            report(("hexes", k), f"hex {list(h)} is listed twice (first as hexes[{seen[h]}])")
        seen.setdefault(h, k)
    if not _connected(set(spec.hexes)):
        report(("hexes",), "the land hexes are not all connected")
    count = len(spec.hexes)
    dealt = sum(spec.terrains.values())
    if dealt != count:
        report(("terrains",), f"the terrain pool deals {dealt} hexes, but the map has {count}")
    numbered = sum(n for t, n in spec.terrains.items() if t not in spec.no_number)
    if numbered != len(spec.numbers):
        report(
            ("numbers",),
            f"{len(spec.numbers)} number tokens for {numbered} hexes that take a number",
        )
    for k, (h, side) in enumerate(spec.harbors):
        if h not in seen:
            report(("harbors", k, "hex"), f"hex {list(h)} is not a land hex of this map")
        elif (h[0] + SIDE_STEPS[side][0], h[1] + SIDE_STEPS[side][1]) in seen:
            report(("harbors", k, "side"), f"side {side} of hex {list(h)} is not on the coast")
    kinds = sum(spec.harbor_kinds.values())
    if kinds != len(spec.harbors):
        report(("harbor_kinds",), f"{kinds} harbor kinds for {len(spec.harbors)} harbors")
    for name, lay in spec.layouts.items():
        at: JsonPath = ("layouts", name)
        if len(lay.terrains) != count:
            report((*at, "terrains"), f"{len(lay.terrains)} terrains for {count} hexes")
        if len(lay.numbers) != count:
            report((*at, "numbers"), f"{len(lay.numbers)} numbers for {count} hexes")
        for k, (t, n) in enumerate(zip(lay.terrains, lay.numbers, strict=False)):
            if (n is None) != (t in spec.no_number):
                wants = "no number" if t in spec.no_number else "a number"
                report((*at, "numbers", k), f"hex {k} is {t}: it takes {wants}")
        if lay.harbors and len(lay.harbors) != len(spec.harbors):
            report((*at, "harbors"), f"{len(lay.harbors)} kinds for {len(spec.harbors)} harbors")
        if Counter(t for t in lay.terrains) and not lay.harbors and spec.harbors:
            report((*at,), "a fixed layout of a map with harbors names each harbor's kind")


def _connected(hexes: set[Hex]) -> bool:
    if not hexes:
        return True
    start = next(iter(hexes))
    seen = {start}
    todo = [start]
    while todo:
        q, r = todo.pop()
        for dq, dr in SIDE_STEPS:
            n = (q + dq, r + dr)
            if n in hexes and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(hexes)
