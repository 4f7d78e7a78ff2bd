"""Shared fixtures: copies of the bundled rules to break, and a CLI runner."""

from __future__ import annotations

import gc
import itertools
import os
import shutil
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, settings

from ckdsl.dsl.program import load_ruleset
from ckdsl.paths import base_rules_dir, locales_dir

REPO = Path(__file__).resolve().parent.parent

# Property tests: a quick profile for every run, a deep one to hunt for bugs by hand
# (HYPOTHESIS_PROFILE=deep pytest tests/test_fuzz.py).
_QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large]
settings.register_profile("default", max_examples=60, deadline=None, suppress_health_check=_QUIET)
settings.register_profile("deep", max_examples=2000, deadline=None, suppress_health_check=_QUIET)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def pytest_collection_finish(session: pytest.Session) -> None:
    """Once collected, the suite's own objects (modules, 2400 test items, the libraries) are
    kept out of the garbage collector's reach: every full collection then walks only what
    the tests make. A full collection of ~280k live objects costs ~0.1 s; statsmodels runs
    one on each of its corrections (Benjamini-Hochberg here; Holm is ckdsl's own,
    ``ckdsl.sim.stats.multiplicity``), and Python when the heap grows. And the first generation
    collected every 10,000 new objects, not 700: the tests make many objects that live
    (rule sets, games, frames), and a full collection comes after so many young ones
    (30 of them, 3.7 s, in a 45 s share of the suite; now 7, 1.6 s)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)


def _group(item: pytest.Item) -> object:
    marker = item.get_closest_marker("xdist_group")
    return (marker.args or [marker.kwargs.get("name")])[0] if marker else None


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The tests marked ``slow`` first, and the whole ``xdist_group`` of one (they share a
    module fixture: apart, ``-n 0`` would make it twice), each in its place otherwise:
    xdist hands out work in collection order, so a long test near the end (the web game
    took 20 s) left one worker running it while the other had finished.

    And a warning if the groups never reach xdist's scheduler: a worker tells it a test's
    group by a suffix on the test's id, which pytest 9.2 no longer lets it change
    (pytest-xdist issue 1386). Nothing fails then, but each group's fixture is made once per
    worker, unseen."""
    if config.getoption("loadgroup", default=False):
        lost = [i.nodeid for i in items if _group(i) is not None and "@" not in i.nodeid]
        if lost:
            warnings.warn(
                pytest.PytestWarning(
                    f"xdist_group ignored ({lost[0]} and {len(lost) - 1} more): pytest "
                    f"{pytest.__version__} with this pytest-xdist (pytest-xdist issue 1386); "
                    "pyproject's dev extra pins the pytest that works"
                ),
                stacklevel=1,
            )
    slow_groups = {_group(i) for i in items if i.get_closest_marker("slow")} - {None}
    items.sort(key=lambda i: not (i.get_closest_marker("slow") or _group(i) in slow_groups))


Edit = tuple[str, str]


def edited_copy(source: Path, folder: Path, edits: dict[str, list[Edit]] | None) -> Path:
    """Copy ``source`` to ``folder``, replacing text in its files: ``{"a.yaml": [(old, new)]}``."""
    shutil.copytree(source, folder)
    for name, changes in (edits or {}).items():
        path = folder / name
        text = path.read_text(encoding="utf-8")
        for old, new in changes:
            assert old in text, f"{old!r} not in {name}"
            text = text.replace(old, new, 1)
        path.write_text(text, encoding="utf-8")
    return folder


@pytest.fixture
def rules_copy(tmp_path: Path) -> Callable[..., Path]:
    """A copy of rules/base to break: ``rules_copy({"goods.yaml": [(old, new)]})``."""
    return lambda edits=None: edited_copy(base_rules_dir(), tmp_path / "rules", edits)


@pytest.fixture
def locales_copy(tmp_path: Path) -> Callable[..., Path]:
    """A copy of rules/locales to break: ``locales_copy({"fr.yaml": [(old, new)]})``."""
    return lambda edits=None: edited_copy(locales_dir(), tmp_path / "locales", edits)


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


# The board of an example variant that needs a board of its own (a variant cannot name
# its map): examples/variants/<stem>.yaml -> a bundled map.
EXAMPLE_MAPS = {"five_six": "five_six"}


@pytest.fixture
def example_table() -> Callable[[Path], tuple[int, str]]:
    """Players and map for a game of an example variant: 4 players if its rules allow
    (else the nearest count they do), on the standard map unless it has its own."""

    def table(path: Path) -> tuple[int, str]:
        ruleset, problems = load_ruleset(path)
        assert ruleset is not None, [p.format() for p in problems]
        low, high = ruleset.parameters["players_min"], ruleset.parameters["players_max"]
        return min(max(4, low), high), EXAMPLE_MAPS.get(path.stem, "standard")

    return table


@pytest.fixture
def harbor_gaps() -> Callable[[Any], list[int]]:
    """``gaps(topo)``: how many coast edges lie from each harbor to the next, walking round
    the coast clockwise from corner 0 (a map's frame alternates harbor and open sea)."""

    def gaps(topo: Any) -> list[int]:
        coast = len(topo.coast_edges)
        ring, prev = [0], None
        while len(ring) < coast + 1:
            here = ring[-1]
            step = [n for n in topo.inter_neighbors[here] if len(topo.inter_tiles[n]) < 3]
            step = [n for n in step if n != prev and topo.edge_id(here, n) in topo.coast_edges]
            nxt = max(step, key=lambda n: topo.inter_points[n][0]) if prev is None else step[0]
            prev = here
            ring.append(nxt)
        assert ring[-1] == 0
        along = [topo.edge_id(a, b) for a, b in itertools.pairwise(ring)]
        at = sorted(along.index(e) for e in topo.harbor_edges)
        return [(b - a) % coast for a, b in zip(at, [*at[1:], at[0]], strict=True)]

    return gaps
