"""The Python API's entry points given a wrong type (issue 29): a TypeError (or a
ValueError for an empty name) that names the argument, raised where the call comes in,
never an AttributeError or an IndexError from deep inside."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from ckdsl.board import load_map, map_path, random_layout, render_svg, topology_for
from ckdsl.session import GameSetup, replay, start, write_save
from ckdsl.sim import Experiment, read_results, run
from ckdsl.sim.compare.analysis import compare
from ckdsl.sim.event_logs import iter_events, read_events
from ckdsl.sim.report.page import render_html, write_html

GAMES = pd.DataFrame({"seed_index": [0]})  # (the types are checked before the columns)

CASES: list[tuple[str, Callable[[], Any], type[Exception], str]] = [
    ("read_results(42)", lambda: read_results(42), TypeError, "out takes a name or a file"),
    ("read_results('')", lambda: read_results(""), ValueError, "out is empty"),
    ("read_results(keys=5)", lambda: read_results("x", keys=5), TypeError, "keys takes game keys"),
    ("read_results(keys=['a'])", lambda: read_results("x", keys=["a"]), TypeError, "each of keys"),
    ("read_events(key=5)", lambda: read_events("x", 5), TypeError, "key takes a game's key"),
    ("read_events(key='abc')", lambda: read_events("x", "abc"), TypeError, "key takes a game's"),
    ("iter_events(42)", lambda: list(iter_events(42)), TypeError, "out takes a name or a file"),
    ("compare(42)", lambda: compare(42, base="a"), TypeError, "frames takes a dict"),
    ("compare('ab')", lambda: compare("ab", base="a"), TypeError, "frames takes a dict"),
    (
        "compare(a DataFrame of 42)",
        lambda: compare({"a": GAMES, "b": 42}, base="a"),
        TypeError,
        "frames['b'] takes a DataFrame",
    ),
    ("compare(base=1)", lambda: compare({"a": GAMES}, base=1), TypeError, "base takes a text"),
    (
        "compare(level='0.9')",
        lambda: compare({"a": GAMES}, base="a", level="0.9"),
        TypeError,
        "level takes a number",
    ),
    (
        "compare(headline='turns')",  # one name, not a list: it would be read letter by letter
        lambda: compare({"a": GAMES}, base="a", headline="turns"),
        TypeError,
        "headline takes a list of texts",
    ),
    (
        "compare(margins=3)",
        lambda: compare({"a": GAMES}, base="a", margins=3),
        TypeError,
        "margins takes a dict",
    ),
    ("render_html('x')", lambda: render_html("x"), TypeError, "report takes a ComparisonReport"),
    ("write_html(42, ...)", lambda: write_html(42, "r.html"), TypeError, "report takes a"),
    ("run(42, ...)", lambda: run(42, "out"), TypeError, "experiment takes an Experiment"),
    ("start(42)", lambda: start(42), TypeError, "setup takes a GameSetup"),
    ("Experiment(rules=42)", lambda: Experiment(rules=42), TypeError, "rules takes a name"),
    (
        "Experiment.single(players=42)",
        lambda: Experiment.single("base", 42),
        TypeError,
        "players takes a line-up",
    ),
    (
        "Experiment.single(players=[1, 2])",
        lambda: Experiment.single("base", [1, 2]),
        TypeError,
        "takes a text (str), not int 1",
    ),
    ("Experiment(seed='1')", lambda: Experiment.single(seed="1"), TypeError, "seed takes a whole"),
    (
        "Experiment(metrics='x')",
        lambda: Experiment.single(metrics="x"),
        TypeError,
        "metrics takes (name, formula) pairs",
    ),
    ("Experiment(label=5)", lambda: Experiment.single(label=5), TypeError, "label takes a text"),
    (
        "random_layout(seed=random.Random(7))",  # its text (an address) would be the seed
        lambda: random_layout(*_board(), random.Random(7)),
        TypeError,
        "seed takes a whole number (int), not Random",
    ),
    ("random_layout(42, ...)", lambda: random_layout(42, _board()[1], 1), TypeError, "spec takes"),
    ("render_svg(42, ...)", lambda: render_svg(42, 42), TypeError, "topology takes a Topology"),
    ("write_save(42, ...)", lambda: write_save(42, 42, 42), TypeError, "path takes a name"),
    (
        "write_save(game=42)",
        lambda: write_save("s.json", 42, GameSetup()),
        TypeError,
        "game takes a Game",
    ),
    ("replay(42)", lambda: replay(42), TypeError, "path takes a name or a file"),
]


def _board() -> tuple[Any, Any]:
    spec, _ = load_map(map_path("standard"))
    return spec, topology_for(spec)


@pytest.mark.parametrize(
    ("call", "kind", "said"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_a_wrong_type_is_named_where_it_comes_in(
    call: Callable[[], Any], kind: type[Exception], said: str, tmp_path: Path
) -> None:
    with pytest.raises(kind, match=re.escape(said)) as found:
        call()
    assert type(found.value) is kind  # (not a subclass: no CompareError, no StoreError)
    assert not list(tmp_path.iterdir())


def test_a_path_is_taken_where_a_folder_is(tmp_path: Path) -> None:
    with pytest.raises(Exception, match="not a results folder") as found:
        read_results(tmp_path)  # a Path: no TypeError, the folder's own problem
    assert not isinstance(found.value, TypeError)


@pytest.mark.parametrize(
    ("option", "says"),
    [((), "a tuple starting with its verb"), (5, "not 5"), (("road",), "lacks the values")],
)
def test_format_option_names_an_option_that_is_none(option: Any, says: str) -> None:
    from ckdsl.turn.notation import format_option

    game = start(GameSetup(seed=1))
    assert format_option(game, game.pending.options[0]) == "build settlement 0"
    with pytest.raises(TypeError, match=re.escape(says)):
        format_option(game, option)
