"""The hex board core: topology of the standard map, layouts, map errors, the picture."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from ckdsl.board import build_topology, fixed_layout, load_map, map_path, random_layout
from ckdsl.board.svg import render_svg
from ckdsl.cli import cli
from ckdsl.session import load_board


@pytest.fixture(scope="module")
def standard():  # type: ignore[no-untyped-def]
    return load_board("standard")


def test_standard_topology_counts(standard) -> None:  # type: ignore[no-untyped-def]
    _, topo = standard
    assert len(topo.hexes) == 19
    assert len(topo.inter_tiles) == 54
    assert len(topo.edge_ends) == 72
    assert len(topo.coast_edges) == 30
    assert Counter(len(ts) for ts in topo.inter_tiles) == {1: 18, 2: 12, 3: 24}
    assert {len(ns) for ns in topo.inter_neighbors} == {2, 3}
    assert all(len(set(c)) == 6 for c in topo.tile_corners)
    assert Counter(len(ns) for ns in topo.tile_neighbors) == {3: 6, 4: 6, 6: 7}


def test_ids_follow_reading_order(standard) -> None:  # type: ignore[no-untyped-def]
    _, topo = standard
    assert [h[1] for h in topo.hexes] == sorted(h[1] for h in topo.hexes)
    ys = [round(p[1], 3) for p in topo.inter_points]
    assert ys == sorted(ys)
    assert topo.tile_corners[0] == (0, 4, 8, 12, 7, 3)
    assert topo.edge_name(topo.edge_id(4, 0)) == "0-4"
    with pytest.raises(KeyError):
        topo.edge_id(0, 1)


def test_harbors_sit_on_the_coast(standard) -> None:  # type: ignore[no-untyped-def]
    spec, topo = standard
    assert len(topo.harbor_edges) == 9 and len(set(topo.harbor_edges)) == 9
    assert set(topo.harbor_edges) <= set(topo.coast_edges)
    assert sum(spec.harbor_kinds.values()) == 9 and spec.harbor_kinds["generic"] == 4


def test_random_layout_is_deterministic_and_respects_the_pools(standard) -> None:  # type: ignore[no-untyped-def]
    spec, topo = standard
    a = random_layout(spec, topo, random.Random(5))
    b = random_layout(spec, topo, random.Random(5))
    c = random_layout(spec, topo, random.Random(6))
    assert a == b and a != c
    assert Counter(a.terrain) == Counter(spec.terrains)
    assert sorted(n for n in a.number if n is not None) == sorted(spec.numbers)
    assert a.terrain[a.robber] == "desert" and a.number[a.robber] is None
    assert Counter(a.harbors) == Counter(spec.harbor_kinds)


def test_six_and_eight_never_touch(standard) -> None:  # type: ignore[no-untyped-def]
    spec, topo = standard
    for seed in range(300):
        lay = random_layout(spec, topo, random.Random(seed))
        for t, n in enumerate(lay.number):
            if n in (6, 8):
                assert all(lay.number[u] not in (6, 8) for u in topo.tile_neighbors[t]), seed


def test_beginner_layout(standard) -> None:  # type: ignore[no-untyped-def]
    spec, topo = standard
    lay = fixed_layout(spec, topo, "beginner")
    assert lay.terrain[:3] == ("mountains", "pasture", "forest")
    assert lay.number[:3] == (10, 2, 9)
    assert lay.terrain[lay.robber] == "desert" and lay.robber == 9
    with pytest.raises(KeyError, match="layouts: beginner"):
        fixed_layout(spec, topo, "expert")


def test_any_hex_map() -> None:
    topo = build_topology(((0, 0), (1, 0)), (((0, 0), 4),))
    assert (len(topo.hexes), len(topo.inter_tiles), len(topo.edge_ends)) == (2, 10, 11)
    assert topo.harbor_edges[0] in topo.coast_edges


def test_map_errors_point_at_the_value(tmp_path: Path) -> None:
    text = map_path("standard").read_text(encoding="utf-8")
    text = text.replace("  - [0, 2]\n", "  - [1, -2]\n", 1)
    text = text.replace("{hex: [2, -1], side: 0}", "{hex: [2, -1], side: 3}")
    text = text.replace("fields: 4, hills: 3", "fields: 5, hills: 3")
    path = tmp_path / "m.yaml"
    path.write_text(text, encoding="utf-8")
    spec, problems = load_map(path)
    assert spec is None
    lines = [p.format(relative_to=str(tmp_path)) for p in problems]
    assert lines == [
        "m.yaml:32:5: hex [1, -2] is listed twice (first as hexes[1]) [$.hexes[18]]",
        "m.yaml:35:11: the terrain pool deals 20 hexes, but the map has 19 [$.terrains]",
        "m.yaml:36:10: 18 number tokens for 19 hexes that take a number [$.numbers]",
        "m.yaml:46:26: side 3 of hex [2, -1] is not on the coast [$.harbors[2].side]",
    ]


def test_svg_is_well_formed_and_shows_the_ids(standard) -> None:  # type: ignore[no-untyped-def]
    spec, topo = standard
    svg = render_svg(topo, fixed_layout(spec, topo, "beginner"), title="beginner")
    root = ET.fromstring(svg)
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "tile 18" in texts and "53" in texts and "3:1" in texts


def test_board_command(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(cli, ["board"])
    assert result.exit_code == 0
    assert result.stdout.startswith("standard: 19 tiles, 54 intersections, 72 edges")
    result = runner.invoke(cli, ["board", "--seed", "3", "--json"])
    import json

    report = json.loads(result.stdout)
    assert len(report["tiles"]) == 19 and len(report["edges"]) == 72
    out = tmp_path / "b.svg"
    result = runner.invoke(cli, ["board", "--layout", "beginner", "--svg", str(out)])
    assert result.exit_code == 0 and out.read_text(encoding="utf-8").startswith("<svg")
    result = runner.invoke(cli, ["board", "--map", "atlantis"])
    assert result.exit_code == 1 and "unknown map 'atlantis'" in result.stderr
    result = runner.invoke(cli, ["board", "--seed", "1", "--layout", "beginner"])
    assert result.exit_code == 2
