"""Map files: reading, schema validation and the checks a schema cannot make.

A map says which hexes are land, what a random layout deals (terrain pool, number
tokens, harbor kinds) and which fixed layouts exist. Errors point at the value at fault
(``rules/maps/standard.yaml:14:5: ...``), all at once, like the rule files.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path

from ckdsl import arguments
from ckdsl.board.topology import SIDE_STEPS, Hex
from ckdsl.diagnostics import Diagnostic, JsonPath, sorted_diagnostics
from ckdsl.jsondata import JsonObject, JsonValue, arr, integer, obj, text
from ckdsl.paths import rules_dir
from ckdsl.rules.positions import Positions
from ckdsl.rules.schemas import foreign, suggest, validate

GENERIC = "generic"  # the harbor kind that trades any good (3:1 in the base rules)

_Report = Callable[[JsonPath, str], None]


@dataclass(frozen=True)
class FixedLayout:
    """A named layout of a map, as its file states it."""

    terrains: tuple[str, ...]  # in the order of MapSpec.hexes (file order)
    numbers: tuple[int | None, ...]
    harbors: tuple[str, ...]  # in the order of MapSpec.harbors


@dataclass(frozen=True)
class MapSpec:
    """A map as its file states it (hexes and harbors in file order)."""

    file: str
    name: str
    hexes: tuple[Hex, ...]
    terrains: dict[str, int]  # the pool of a random layout
    numbers: tuple[int, ...]  # the number tokens of a random layout
    no_number: frozenset[str]  # terrains that take no number token
    apart: frozenset[int]  # numbers never on adjacent tiles in a random layout
    harbors: tuple[tuple[Hex, int], ...]  # (hex, side) per harbor slot
    harbor_kinds: dict[str, int]  # the pool of a random layout
    layouts: dict[str, FixedLayout]


def maps_dir() -> Path:
    """The bundled maps (``rules/maps``; in a wheel, ``ckdsl/_data/rules/maps``)."""
    return rules_dir() / "maps"


def bundled_maps() -> list[str]:
    return sorted(p.stem for p in maps_dir().glob("*.yaml"))


def map_path(name_or_path: str | Path) -> Path:
    """A bundled map's file by name ("standard"), else ``name_or_path`` as a file path.

    A name is anything without a folder separator or a YAML suffix that is not an
    existing file, so ``--map standard`` and ``--map my-map.yaml`` both do what they say."""
    name_or_path = arguments.file_name(name_or_path, "map_path")
    given = Path(name_or_path)
    if (
        "/" in name_or_path
        or "\\" in name_or_path
        or given.suffix in (".yaml", ".yml")
        or given.is_file()
    ):
        return given
    return maps_dir() / f"{name_or_path}.yaml"


def load_map(
    path: Path,
    *,
    terrains: Collection[str] | None = None,
    resources: Collection[str] | None = None,
) -> tuple[MapSpec | None, list[Diagnostic]]:
    """Read and check the map file ``path``: the spec, or None and why.

    With ``terrains`` and ``resources`` (the ids of a rule set) the map's terrain ids and
    harbor kinds are checked against them too, each error at its value's position."""
    path = arguments.file_path(path, "load_map")  # (a str or a Path)
    if not path.exists() and path.parent == maps_dir():
        known = bundled_maps()
        message = f"unknown map{suggest(path.stem, known)} (bundled maps: {', '.join(known)})"
        return None, [Diagnostic(path.stem, 0, 0, message)]
    from ckdsl.rules.yamlload import load_yaml  # PyYAML: only when a map is read

    doc, problems = load_yaml(path)
    if doc is None:
        return None, problems
    stranger = foreign(doc.data, str(path), "map")
    if stranger is not None:
        return None, [stranger]
    problems += validate(doc.data, doc.positions, "map")
    if any(p.severity == "error" for p in problems):
        return None, problems
    positions = doc.positions

    def report(at: JsonPath, message: str) -> None:
        problems.append(Diagnostic.at(positions.value(at), message, at))

    data = obj(doc.data)  # the schema says it is a mapping
    spec = _spec(str(path), data)
    _check_shape(spec, report)
    _check_pools(spec, report)
    _check_layouts(spec, report)
    if terrains is not None:
        _check_ids(data, positions, terrains, resources, problems)
    return (None if problems else spec), sorted_diagnostics(problems)


def _texts(value: JsonValue) -> tuple[str, ...]:
    return tuple(map(text, arr(value)))


def _amounts(value: JsonValue) -> dict[str, int]:
    return {key: integer(n) for key, n in obj(value).items()}


def _hex(value: JsonValue) -> Hex:
    pair = arr(value)
    return integer(pair[0]), integer(pair[1])


def _layout(data: JsonObject) -> FixedLayout:
    numbers = tuple(None if n is None else integer(n) for n in arr(data["numbers"]))
    return FixedLayout(_texts(data["terrains"]), numbers, _texts(data.get("harbors", [])))


def _spec(file: str, data: JsonObject) -> MapSpec:
    """The map as its (schema-checked) data states it."""
    harbors = [obj(h) for h in arr(data.get("harbors", []))]
    return MapSpec(
        file=file,
        name=text(data["name"]),
        hexes=tuple(_hex(h) for h in arr(data["hexes"])),
        terrains=_amounts(data["terrains"]),
        numbers=tuple(map(integer, arr(data["numbers"]))),
        no_number=frozenset(_texts(data.get("no_number", []))),
        apart=frozenset(map(integer, arr(data.get("apart", [])))),
        harbors=tuple((_hex(h["hex"]), integer(h["side"])) for h in harbors),
        harbor_kinds=_amounts(data.get("harbor_kinds") or {}),
        layouts={name: _layout(obj(lay)) for name, lay in obj(data.get("layouts") or {}).items()},
    )


def _check_shape(spec: MapSpec, report: _Report) -> None:
    """Duplicate hexes, an island in pieces, harbors off the coast or twice on one edge."""
    seen: dict[Hex, int] = {}
    for k, h in enumerate(spec.hexes):
        if h in seen:
            report(("hexes", k), f"hex {list(h)} is listed twice (first as hexes[{seen[h]}])")
        seen.setdefault(h, k)
    for piece in _pieces(set(spec.hexes))[1:]:
        first = min(piece, key=lambda h: seen[h])
        more = len(piece) - 1
        group = f" (with {more} other hex{'es' if more > 1 else ''})" if more else ""
        report(
            ("hexes", seen[first]),
            f"hex {list(first)}{group} is cut off from the rest of the land: "
            "land hexes must be connected",
        )
    slots: dict[frozenset[Hex], int] = {}
    for k, (h, side) in enumerate(spec.harbors):
        if h not in seen:
            report(("harbors", k, "hex"), f"hex {list(h)} is not a land hex of this map")
            continue
        across = (h[0] + SIDE_STEPS[side][0], h[1] + SIDE_STEPS[side][1])
        if across in seen:
            report(
                ("harbors", k, "side"),
                f"side {side} of hex {list(h)} is not on the coast (hex {list(across)} is land)",
            )
            continue
        edge = frozenset((h, across))
        if edge in slots:
            report(("harbors", k), f"harbors[{slots[edge]}] is already on this edge")
        slots.setdefault(edge, k)


def _check_pools(spec: MapSpec, report: _Report) -> None:
    """A random layout deals every pool exactly onto the hexes and harbors."""
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
    kinds = sum(spec.harbor_kinds.values())
    if kinds != len(spec.harbors):
        report(("harbor_kinds",), f"{kinds} harbor kinds for {len(spec.harbors)} harbors")


def _check_layouts(spec: MapSpec, report: _Report) -> None:
    """A fixed layout names a terrain and a number for every hex, a kind for every harbor."""
    count = len(spec.hexes)
    for name, lay in spec.layouts.items():
        at: JsonPath = ("layouts", name)
        if len(lay.terrains) != count:
            report((*at, "terrains"), f"{len(lay.terrains)} terrains for {count} hexes")
        if len(lay.numbers) != count:
            report((*at, "numbers"), f"{len(lay.numbers)} numbers for {count} hexes")
        for k, (t, n) in enumerate(zip(lay.terrains, lay.numbers, strict=False)):
            if (n is None) != (t in spec.no_number):
                wants = "no number (null)" if t in spec.no_number else "a number"
                report((*at, "numbers", k), f"hex {k} is {t}: it takes {wants}")
        if spec.harbors and not lay.harbors:
            report(at, f"name the kind of each of the {len(spec.harbors)} harbors ('harbors:')")
        elif len(lay.harbors) != len(spec.harbors):
            report((*at, "harbors"), f"{len(lay.harbors)} kinds for {len(spec.harbors)} harbors")


def _check_ids(
    data: JsonObject,
    positions: Positions,
    terrains: Collection[str],
    resources: Collection[str] | None,
    problems: list[Diagnostic],
) -> None:
    """Terrain ids and harbor kinds the rule set does not define."""

    def unknown(pos_at: JsonPath, word: str, what: str, known: Collection[str]) -> None:
        message = f"unknown {what} '{word}'{suggest(word, known)}"
        problems.append(Diagnostic.at(positions.value(pos_at), message, pos_at))

    def unknown_key(pos_at: JsonPath, word: str, what: str, known: Collection[str]) -> None:
        message = f"unknown {what} '{word}'{suggest(word, known)}"
        problems.append(Diagnostic.at(positions.key(pos_at), message, pos_at))

    kinds = {GENERIC, *(resources or ())}
    for t in obj(data["terrains"]):
        if t not in terrains:
            unknown_key(("terrains", t), t, "terrain", terrains)
    for k, t in enumerate(_texts(data.get("no_number", []))):
        if t not in terrains:
            unknown(("no_number", k), t, "terrain", terrains)
    for kind in obj(data.get("harbor_kinds") or {}):
        if resources is not None and kind not in kinds:
            unknown_key(("harbor_kinds", kind), kind, "harbor kind", sorted(kinds))
    for name, value in obj(data.get("layouts") or {}).items():
        lay = obj(value)
        for k, t in enumerate(_texts(lay["terrains"])):
            if t not in terrains:
                unknown(("layouts", name, "terrains", k), t, "terrain", terrains)
        for k, kind in enumerate(_texts(lay.get("harbors", []))):
            if resources is not None and kind not in kinds:
                at: JsonPath = ("layouts", name, "harbors", k)
                unknown(at, kind, "harbor kind", sorted(kinds))


def _pieces(hexes: set[Hex]) -> list[set[Hex]]:
    """The connected pieces of land (neighbours across a side), largest first."""
    pieces: list[set[Hex]] = []
    left = set(hexes)
    while left:
        start = min(left)
        piece = {start}
        todo = [start]
        while todo:
            q, r = todo.pop()
            for dq, dr in SIDE_STEPS:
                n = (q + dq, r + dr)
                if n in left and n not in piece:
                    piece.add(n)
                    todo.append(n)
        left -= piece
        pieces.append(piece)
    return sorted(pieces, key=len, reverse=True)
