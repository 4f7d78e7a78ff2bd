"""The hex board core: topology of the standard map, layouts, map errors, the picture."""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from ckdsl.board import (
    MapSpec,
    Piece,
    Topology,
    build_topology,
    fixed_layout,
    load_map,
    map_path,
    random_layout,
    render_svg,
    topology_for,
)
from ckdsl.cli import cli
from ckdsl.l10n.catalog import load_catalog

SVG = "{http://www.w3.org/2000/svg}"

Board = tuple[MapSpec, Topology]


@pytest.fixture(scope="module")
def standard() -> Board:
    spec, problems = load_map(map_path("standard"))
    assert problems == [] and spec is not None
    return spec, topology_for(spec)


def write_map(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "m.yaml"
    path.write_text(text, encoding="utf-8")
    return path


TINY = """\
name: tiny
hexes: [[0, 0], [1, 0], [0, 1]]
terrains: {forest: 1, hills: 1, desert: 1}
numbers: [6, 8]
no_number: [desert]
apart: [6, 8]
harbors:
  - {hex: [0, 0], side: 4}
harbor_kinds: {generic: 1}
layouts:
  fixed:
    terrains: [forest, hills, desert]
    numbers: [6, 8, null]
    harbors: [generic]
"""


# --- topology -------------------------------------------------------------------------------


def test_standard_topology_counts(standard: Board) -> None:
    _, topo = standard
    assert len(topo.hexes) == 19
    assert len(topo.inter_tiles) == 54
    assert len(topo.edge_ends) == 72
    assert len(topo.coast_edges) == 30
    # 18 corners on the coast touch one tile, 12 touch two, 24 inland corners touch three.
    assert Counter(len(ts) for ts in topo.inter_tiles) == {1: 18, 2: 12, 3: 24}
    assert Counter(len(ns) for ns in topo.inter_neighbors) == {2: 18, 3: 36}
    assert all(len(set(c)) == 6 for c in topo.tile_corners)
    assert Counter(len(ns) for ns in topo.tile_neighbors) == {3: 6, 4: 6, 6: 7}


def test_adjacency_is_consistent(standard: Board) -> None:
    _, topo = standard
    for i, edges in enumerate(topo.inter_edges):
        assert sorted(topo.edge_ends[e][0] + topo.edge_ends[e][1] - i for e in edges) == list(
            topo.inter_neighbors[i]
        )
    for e, (a, b) in enumerate(topo.edge_ends):
        assert a < b and topo.edge_id(a, b) == topo.edge_id(b, a) == e
        assert topo.edge_between[(b, a)] == e and topo.edge_name(e) == f"{a}-{b}"
    for t, corners in enumerate(topo.tile_corners):
        assert all(t in topo.inter_tiles[i] for i in corners)
        for u in topo.tile_neighbors[t]:
            assert len(set(corners) & set(topo.tile_corners[u])) == 2
    coast = set(topo.coast_edges)
    for e, (a, b) in enumerate(topo.edge_ends):
        shared = set(topo.inter_tiles[a]) & set(topo.inter_tiles[b])
        assert len(shared) == (1 if e in coast else 2)


def test_ids_follow_reading_order(standard: Board) -> None:
    _, topo = standard
    assert [h[1] for h in topo.hexes] == sorted(h[1] for h in topo.hexes)
    assert topo.hexes[:3] == ((0, -2), (1, -2), (2, -2))
    points = [(round(y, 3), round(x, 3)) for x, y in topo.inter_points]
    assert points == sorted(points)
    # Clockwise from the top: 0 top, 4 upper right, 8 lower right, 12 bottom, ...
    assert topo.tile_corners[0] == (0, 4, 8, 12, 7, 3)
    assert topo.tile_corners[9] == (18, 24, 30, 35, 29, 23)
    assert topo.edge_name(topo.edge_id(4, 0)) == "0-4"
    with pytest.raises(KeyError):
        topo.edge_id(0, 1)


def test_harbors_sit_on_the_official_coast_edges(
    standard: Board, harbor_gaps: Callable[..., list[int]]
) -> None:
    spec, topo = standard
    assert len(topo.harbor_edges) == 9 and len(set(topo.harbor_edges)) == 9
    assert set(topo.harbor_edges) <= set(topo.coast_edges)
    assert sum(spec.harbor_kinds.values()) == 9 and spec.harbor_kinds["generic"] == 4
    # The frame alternates harbor and open sea: 3, 4, 3 coast edges apart, three times.
    assert len(topo.coast_edges) == 30
    gaps = harbor_gaps(topo)
    assert sorted(Counter(gaps).items()) == [(3, 6), (4, 3)]
    assert [topo.edge_name(e) for e in topo.harbor_edges][:4] == ["0-3", "1-5", "10-15", "26-32"]


def test_topology_is_built_once_per_map(standard: Board) -> None:
    spec, topo = standard
    assert topology_for(spec) is topo
    assert hash(topo) == hash(topology_for(spec))


def test_any_hex_map() -> None:
    topo = build_topology(((0, 0), (1, 0)), (((0, 0), 4),))
    assert (len(topo.hexes), len(topo.inter_tiles), len(topo.edge_ends)) == (2, 10, 11)
    assert topo.harbor_edges[0] in topo.coast_edges
    assert len(topo.coast_edges) == 10
    ring = build_topology(tuple((q, r) for q in range(-2, 3) for r in range(-2, 3)))
    assert len(ring.hexes) == 25 and topo.tile_points[0] == (0.0, 0.0)


# --- layouts --------------------------------------------------------------------------------


def test_random_layout_is_deterministic_and_respects_the_pools(standard: Board) -> None:
    spec, topo = standard
    a = random_layout(spec, topo, 5)
    b = random_layout(spec, topo, 5)
    c = random_layout(spec, topo, 6)
    assert a == b and repr(a) == repr(b) and a != c
    assert Counter(a.terrain) == Counter(spec.terrains)
    assert sorted(n for n in a.number if n is not None) == sorted(spec.numbers)
    assert all((n is None) == (t == "desert") for t, n in zip(a.terrain, a.number, strict=True))
    assert a.terrain[a.robber] == "desert" and a.number[a.robber] is None
    assert Counter(a.harbors) == Counter(spec.harbor_kinds)


def test_random_layout_uses_only_the_seeds_own_stream(standard: Board) -> None:
    spec, topo = standard
    random.seed(1)
    a = random_layout(spec, topo, 9)
    random.seed(2)
    assert random_layout(spec, topo, 9) == a


def test_six_and_eight_never_touch(standard: Board) -> None:
    spec, topo = standard
    for seed in range(300):
        lay = random_layout(spec, topo, seed)
        for t, n in enumerate(lay.number):
            if n in (6, 8):
                assert all(lay.number[u] not in (6, 8) for u in topo.tile_neighbors[t]), seed


def test_impossible_apart_still_deals_the_same_layout(tmp_path: Path) -> None:
    # Two adjacent hexes, a 6 and an 8: they cannot be kept apart; the layout is dealt anyway.
    text = TINY.replace("desert: 1}", "fields: 0}").replace(
        "[[0, 0], [1, 0], [0, 1]]", "[[0, 0], [1, 0]]"
    )
    text = text[: text.index("layouts:")]
    spec, problems = load_map(write_map(tmp_path, text))
    assert problems == [] and spec is not None
    topo = topology_for(spec)
    lay = random_layout(spec, topo, 1)
    assert None not in lay.number and sorted(n or 0 for n in lay.number) == [6, 8]
    assert random_layout(spec, topo, 1) == lay


def test_beginner_layout(standard: Board) -> None:
    spec, topo = standard
    lay = fixed_layout(spec, topo, "beginner")
    assert lay.terrain[:3] == ("mountains", "pasture", "forest")
    assert lay.number[:3] == (10, 2, 9)
    assert lay.terrain[lay.robber] == "desert" and lay.robber == 9
    assert Counter(lay.terrain) == Counter(spec.terrains)
    assert sorted(n for n in lay.number if n is not None) == sorted(spec.numbers)
    assert lay.harbors[:2] == ("generic", "wool")
    assert Counter(lay.harbors) == Counter(spec.harbor_kinds)
    for t, n in enumerate(lay.number):
        if n in (6, 8):
            assert all(lay.number[u] not in (6, 8) for u in topo.tile_neighbors[t])
    with pytest.raises(KeyError, match="layouts: beginner"):
        fixed_layout(spec, topo, "expert")


def test_fixed_layout_follows_the_hexes_not_the_file_order(tmp_path: Path) -> None:
    text = TINY.replace("[[0, 0], [1, 0], [0, 1]]", "[[0, 1], [1, 0], [0, 0]]")
    spec, problems = load_map(write_map(tmp_path, text))
    assert problems == [] and spec is not None
    topo = topology_for(spec)
    lay = fixed_layout(spec, topo, "fixed")
    assert topo.hexes == ((0, 0), (1, 0), (0, 1))  # reading order
    assert lay.terrain == ("desert", "hills", "forest") and lay.robber == 0


# --- map errors -----------------------------------------------------------------------------


def line_of(text: str, needle: str) -> int:
    """The line of the last occurrence of ``needle``."""
    return text[: text.rindex(needle)].count("\n") + 1


def test_map_errors_point_at_the_value(tmp_path: Path) -> None:
    text = map_path("standard").read_text(encoding="utf-8")
    text = text.replace("  - [0, 2]\n", "  - [1, -2]\n", 1)
    text = text.replace("{hex: [2, -1], side: 0}", "{hex: [2, -1], side: 3}")
    text = text.replace("fields: 4, hills: 3", "fields: 5, hills: 3")
    spec, problems = load_map(write_map(tmp_path, text))
    assert spec is None
    lines = [p.format(relative_to=str(tmp_path)) for p in problems]
    side = line_of(text, "{hex: [2, -1], side: 3}")
    assert lines == [
        f"m.yaml:{line_of(text, '  - [1, -2]')}:5: hex [1, -2] is listed twice "
        "(first as hexes[1]) [$.hexes[18]]",
        f"m.yaml:{line_of(text, 'terrains: {')}:11: the terrain pool deals 20 hexes, "
        "but the map has 19 [$.terrains]",
        f"m.yaml:{line_of(text, 'numbers: [2')}:10: 18 number tokens for 19 hexes that take "
        "a number [$.numbers]",
        f"m.yaml:{side}:26: side 3 of hex [2, -1] is not on the coast (hex [1, 0] is land) "
        "[$.harbors[2].side]",
    ]


def test_more_map_errors(tmp_path: Path) -> None:
    text = TINY.replace("[[0, 0], [1, 0], [0, 1]]", "[[0, 0], [1, 0], [3, 3]]")
    text = text.replace("  - {hex: [0, 0], side: 4}\n", "  - {hex: [0, 0], side: 4}\n" * 2)
    text = text.replace("harbor_kinds: {generic: 1}", "harbor_kinds: {generic: 2}")
    text = text.replace("numbers: [6, 8, null]", "numbers: [6, null, null]")
    text = text.replace("harbors: [generic]", "harbors: [generic, generic, generic]")
    _, problems = load_map(write_map(tmp_path, text))
    assert [(p.line, p.message) for p in problems] == [
        (2, "hex [3, 3] is cut off from the rest of the land: land hexes must be connected"),
        (9, "harbors[0] is already on this edge"),
        (14, "hex 1 is hills: it takes a number"),
        (15, "3 kinds for 2 harbors"),
    ]


def test_unknown_ids_when_checked_against_a_rule_set(tmp_path: Path) -> None:
    text = TINY.replace("forest: 1", "forrest: 1").replace(
        "harbor_kinds: {generic: 1}", "harbor_kinds: {woool: 1}"
    )
    path = write_map(tmp_path, text)
    _, problems = load_map(path, terrains=["forest", "hills", "desert"], resources=["wool"])
    assert [(p.line, p.col, p.message) for p in problems] == [
        (3, 12, "unknown terrain 'forrest' (did you mean 'forest'?)"),
        (9, 16, "unknown harbor kind 'woool' (did you mean 'wool'?)"),
    ]
    result = CliRunner().invoke(cli, ["validate", str(path)])
    assert result.exit_code == 1
    assert "m.yaml:3:12: unknown terrain 'forrest' (did you mean 'forest'?)" in result.stderr


def test_schema_errors_and_unknown_maps(tmp_path: Path) -> None:
    _, problems = load_map(write_map(tmp_path, TINY.replace("side: 4", "side: 6")))
    assert [(p.line, p.col) for p in problems] == [(8, 25)]
    _, problems = load_map(map_path("standrd"))
    assert (
        problems[0].format()
        == "standrd: unknown map (did you mean 'standard'?) (bundled maps: five_six, standard)"
    )


# --- picture --------------------------------------------------------------------------------


def test_svg_is_well_formed_and_shows_every_id(standard: Board) -> None:
    spec, topo = standard
    svg = render_svg(topo, fixed_layout(spec, topo, "beginner"), title="beginner")
    root = ET.fromstring(svg)
    texts = {t.text for t in root.iter(f"{SVG}text")}
    assert {f"tile {t}" for t in range(19)} <= texts
    assert {str(i) for i in range(54)} <= texts
    assert {topo.edge_name(e) for e in range(72)} <= texts
    assert {"3:1", "2:1 wool", "2:1 ore"} <= texts
    reds = {t.text for t in root.iter(f"{SVG}text") if t.get("fill") == "#c62828"}
    assert reds == {"6", "8"}


def test_svg_draws_pieces(standard: Board) -> None:
    spec, topo = standard
    pieces = [
        Piece("settlement", 23, "#d32f2f"),
        Piece("road", topo.edge_id(23, 29), "#d32f2f"),
        Piece("city", 31, "blue"),
        Piece("knight", 40, "orange", label="2"),
    ]
    plain = render_svg(topo, fixed_layout(spec, topo, "beginner"))
    svg = render_svg(topo, fixed_layout(spec, topo, "beginner"), pieces=pieces)
    root = ET.fromstring(svg)
    assert len(svg) > len(plain)
    assert sum(1 for e in root.iter() if e.get("fill") == "blue") == 1
    assert any(e.get("stroke") == "#d32f2f" for e in root.iter(f"{SVG}line"))


# --- command line ---------------------------------------------------------------------------


def test_board_command(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(cli, ["board"])
    assert result.exit_code == 0
    assert result.stdout.startswith("standard: 19 tiles, 54 intersections, 72 edges")
    assert "layout beginner; the robber starts on tile 9" in result.stdout
    assert "harbor    1-5  2:1 Wool" in result.stdout
    result = runner.invoke(cli, ["board", "--seed", "3", "--json"])
    report = json.loads(result.stdout)
    assert len(report["tiles"]) == 19 and len(report["edges"]) == 72
    assert report["edges"][0] == {"id": 0, "name": "0-3", "ends": [0, 3], "coast": True}
    assert report["intersections"][0]["neighbors"] == [3, 4]
    assert report["layout"] == {"seed": 3}
    out = tmp_path / "b.svg"
    result = runner.invoke(cli, ["board", "--layout", "beginner", "--svg", str(out)])
    assert result.exit_code == 0 and out.read_text(encoding="utf-8").startswith("<svg")
    ET.parse(out)


def test_board_command_draws_the_harbor_rates_of_the_rules_in_effect(tmp_path: Path) -> None:
    """A map drawn alone shows the harbors at the rates of --rules (a variant's own), in
    the text, the JSON and the picture; without --rules, the base's."""
    variant = tmp_path / "cheap_harbors.yaml"
    variant.write_text(
        "extends: base\ndescription: Cheaper harbors.\noverride:\n  parameters:\n"
        "    generic_harbor_rate: 2\n    special_harbor_rate: 1\n",
        encoding="utf-8",
    )
    runner = CliRunner()
    base = runner.invoke(cli, ["board"])
    assert "harbor    1-5  2:1 Wool" in base.stdout and "harbor    0-3  3:1" in base.stdout
    result = runner.invoke(cli, ["board", "--rules", str(variant)])
    assert result.exit_code == 0, result.output
    assert "harbor    1-5  1:1 Wool" in result.stdout and "harbor    0-3  2:1" in result.stdout
    assert "3:1" not in result.stdout
    report = json.loads(runner.invoke(cli, ["board", "--rules", str(variant), "--json"]).stdout)
    assert {(h["kind"] == "generic", h["rate"]) for h in report["harbors"]} == {
        (True, 2),
        (False, 1),
    }
    out = tmp_path / "b.svg"
    result = runner.invoke(
        cli, ["board", "--rules", str(variant), "--svg", str(out), "--lang", "pl"]
    )
    assert result.exit_code == 0, result.output
    labels = [t.text for t in ET.parse(out).iter(f"{SVG}text") if t.text and ":1" in t.text]
    pl = load_catalog("pl")
    special = [
        f"1:1 {pl.good_name(h['kind'])}" for h in report["harbors"] if h["kind"] != "generic"
    ]
    assert len(special) == 5 and sorted(labels) == sorted(["2:1"] * 4 + special)
    result = runner.invoke(cli, ["board", "--save", str(out), "--rules", str(variant)])
    assert result.exit_code == 2 and "own rules" in result.stderr


def test_board_command_errors(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(cli, ["board", "--map", "atlantis"])
    assert result.exit_code == 1 and "unknown map" in result.stderr
    broken = write_map(tmp_path, TINY.replace("numbers: [6, 8]", "numbers: [6]"))
    result = runner.invoke(cli, ["board", "--map", str(broken)])
    assert result.exit_code == 1
    assert "m.yaml:4:10: 1 number tokens for 2 hexes that take a number" in result.stderr
    result = runner.invoke(cli, ["board", "--seed", "1", "--layout", "beginner"])
    assert result.exit_code == 2
    result = runner.invoke(cli, ["board", "--layout", "expert"])
    assert result.exit_code == 2 and "layouts: beginner" in result.stderr
    result = runner.invoke(cli, ["board", "--svg", str(tmp_path / "no" / "b.svg")])
    assert result.exit_code == 1 and "Traceback" not in result.output


def test_validate_and_schema_know_maps() -> None:
    runner = CliRunner()
    result = runner.invoke(cli, ["validate", str(map_path("standard"))])
    assert (
        result.exit_code == 0 and "map" in result.stdout and "19 hexes, 9 harbors" in result.stdout
    )
    result = runner.invoke(cli, ["schema", "--kind", "map"])
    assert json.loads(result.stdout)["title"] == "ckdsl map"
