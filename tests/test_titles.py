"""Titles and points declared in data (``titles:`` with a `score`, or `points` by
formula; ``ckdsl.turn.titles``): seen by the points everyone reads, the win condition,
the table and the log; ties as declared; misuse reported at its line; a rule set
without them unchanged (docs/variants.md, "Titles and points by formula").

The example variant examples/variants/harbormaster.yaml is proved by its scenario
(tests/test_scenarios.py runs it; under the base rules it fails)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from ckdsl.cli import cli
from ckdsl.core.invariants import broken_invariants
from ckdsl.core.pieces import place_building, points_breakdown
from ckdsl.core.state import CITY, SETTLEMENT
from ckdsl.l10n.catalog import load_catalog
from ckdsl.session import GameSetup, load_rules, start
from ckdsl.table.status import status_lines, title_line
from ckdsl.turn.game import Game

REPO = Path(__file__).resolve().parent.parent
HARBORMASTER = str(REPO / "examples" / "variants" / "harbormaster.yaml")


def variant(tmp_path: Path, body: str) -> str:
    path = tmp_path / "v.yaml"
    path.write_text("extends: base\n" + body, encoding="utf-8")
    return str(path)


def game_of(rules: str) -> Game:
    game = start(GameSetup(rules=rules, map="standard", layout="beginner", players=4, seed=0))
    game.refresh(list_now=True)  # setup's first decision: the titles are counted on the way
    return game


def build(game: Game, player: int, at: int, kind: int = SETTLEMENT) -> None:
    place_building(game, player, at, kind)
    game.refresh(list_now=True)


MOST_CITIES = """add:
  titles:
    mayor:
      points: 1
      score: "count(cities(p))"
      at_least: 1
      ties: {ties}
"""


@pytest.mark.parametrize(
    ("ties", "after_tie"),
    [("keep", (0,)), ("nobody", ()), ("shared", (0, 1))],
)
def test_a_tie_for_the_title_is_decided_as_declared(
    tmp_path: Path, ties: str, after_tie: tuple[int, ...]
) -> None:
    game = game_of(variant(tmp_path, MOST_CITIES.format(ties=ties)))
    build(game, 0, 0, CITY)
    assert game.state.titles["mayor"][0] == (0,)
    assert game.state.players[0].points == 3  # the city and the title
    build(game, 1, 20, CITY)  # a tie
    assert game.state.titles["mayor"][0] == after_tie
    for p in (0, 1):
        assert game.state.players[p].points == 2 + (p in after_tie)
    build(game, 1, 40, CITY)  # blue alone has the most: whatever the ties say
    assert game.state.titles["mayor"][0] == (1,)
    assert game.state.players[0].points == 2 and game.state.players[1].points == 5
    assert broken_invariants(game) == []  # the points recounted from scratch agree


def test_the_title_changing_hands_is_logged_and_read_in_every_language(tmp_path: Path) -> None:
    game = game_of(variant(tmp_path, MOST_CITIES.format(ties="nobody")))
    build(game, 0, 0, CITY)
    build(game, 1, 20, CITY)
    build(game, 1, 40, CITY)
    told = [e for e in game.events if e["event"] == "title"]
    assert told == [
        {"event": "title", "player": 0, "title": "mayor", "previous": -1},
        {"event": "title", "player": -1, "title": "mayor", "previous": 0},
        {"event": "title", "player": 1, "title": "mayor", "previous": -1},
    ]


def test_a_title_is_in_the_score_the_table_and_the_win(tmp_path: Path) -> None:
    game = game_of(HARBORMASTER)
    build(game, 0, 0, CITY)  # two harbor points: not yet
    assert "harbormaster" not in game.state.titles or game.state.titles["harbormaster"][0] == ()
    build(game, 0, 15)  # three
    assert points_breakdown(game, 0) == {"settlement": 1, "city": 2, "harbormaster": 2}
    assert game.state.players[0].points == 5
    assert game.view(1).state.players[0].points == 5  # what a bot of another seat sees
    for lang, name in (("en", "Harbormaster: Red"), ("fr", "Maître du port : Rouge")):
        catalog = load_catalog(lang, load_rules(HARBORMASTER).ruleset)
        assert name in title_line(game, catalog)
    lines = "\n".join(status_lines(game, load_catalog("en", load_rules(HARBORMASTER).ruleset), 0))
    assert "Harbormaster 2" in lines  # the points by source beside the total


def test_points_by_formula_count_for_every_player_and_can_win(tmp_path: Path) -> None:
    rules = variant(
        tmp_path,
        'add:\n  titles:\n    hoard: {points: "amount(p, coin)"}\n'
        "override:\n  parameters: {points_to_win: 3}\n",
    )
    game = game_of(rules)
    build(game, 2, 0)
    game.state.players[2].hand[game.rules.good_index["coin"]] = 2
    game.state.turn, game.state.current = 1, 2
    game.refresh()
    assert game.pending.kind == "over" and game.state.winner == 2
    assert points_breakdown(game, 2) == {"settlement": 1, "hoard": 2}


def test_a_rule_set_without_declared_titles_keeps_its_state_digest() -> None:
    game = game_of("base")
    assert "titles" not in game.state.to_data()
    assert game.rules.programs.titles == ()


@pytest.mark.parametrize(
    ("body", "line", "col", "message"),
    [
        ("add:\n  titles:\n    mayor: {points: 2}\n", 4, 5, "a title needs a `score`"),
        (
            'add:\n  titles:\n    mayor: {points: 2, score: "1", supply: 3}\n',
            4, 36, "`supply` is for the title 'defender' only",
        ),
        ('add:\n  titles:\n    road: {points: "1"}\n', 4, 5, "'road' is a piece already"),
        (
            'add:\n  titles:\n    mayor: {points: "count(citys(p))"}\n',
            4, 28, "unknown function 'citys' (did you mean 'cities'?)",
        ),
        (
            'add:\n  titles:\n    mayor: {points: "1", ties: shared}\n',
            4, 26, "`ties` goes with `score`",
        ),
        (
            "override:\n  titles:\n    defender: {score: \"1\"}\n",
            4, 16, "`score` is for a title declared in data",
        ),
        ("remove:\n  titles: [longest_road]\n", 3, 12, "the engine's title 'longest_road'"),
    ],
)  # fmt: skip
def test_misuse_is_reported_at_its_line(
    tmp_path: Path, body: str, line: int, col: int, message: str
) -> None:
    path = variant(tmp_path, body)
    result = CliRunner().invoke(cli, ["validate", path])
    assert result.exit_code == 1, result.output
    found = [row for row in result.stderr.splitlines() if message in row]
    assert found, result.stderr
    assert found[0].startswith(f"{path}:{line}:{col}:"), found[0]


def test_a_formula_that_stops_on_the_board_counts_nothing(tmp_path: Path) -> None:
    """`number(25)` on a board of 19 tiles stops, as it would stop a hook: 0 points."""
    game = game_of(variant(tmp_path, 'add:\n  titles:\n    far: {points: "number(25) + 1"}\n'))
    build(game, 0, 0)
    assert points_breakdown(game, 0) == {"settlement": 1}


def test_a_scenario_expects_who_holds_a_title(tmp_path: Path) -> None:
    scenario = tmp_path / "s.yaml"
    scenario.write_text(
        f"name: a tie shared\nrules: {variant(tmp_path, MOST_CITIES.format(ties='shared'))}\n"
        "position:\n  turn: red\n  phase: after_roll\n"
        "  players:\n    red: {cities: [0]}\n    blue: {cities: [20]}\n"
        "steps:\n  - expect:\n      titles: {mayor: [red, blue]}\n"
        "  - expect:\n      titles: {mayor: red}\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(cli, ["scenario", str(scenario)])
    assert result.exit_code == 1
    assert "titles.mayor" in result.output and 'actual:   ["red", "blue"]' in result.output
    assert "step 2" in result.output  # the first step held
