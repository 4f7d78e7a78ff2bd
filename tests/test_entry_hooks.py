"""The entry hooks of set-up, building and stealing (`setup_placed`, `built`, `stolen`:
docs/dsl.md, "Hooks"): what each is told, when it runs and when it does not, and that
a rule set without them runs none. examples/variants/frontier.yaml is proved by its
scenarios (tests/test_scenarios.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from ckdsl.cli import cli
from ckdsl.core import building, hands
from ckdsl.core.pieces import place_building
from ckdsl.core.state import SETTLEMENT
from ckdsl.core.tasks import StealTask
from ckdsl.session import GameSetup, start
from ckdsl.turn.game import Game

# Each hook adds to a counter what it was told, so a test reads it back.
TOLD = """add:
  counters:
    told: {per: game}
override:
  hooks:
    built:
      effect: |
        if piece == road and i not in intersections and e in roads(me):
            add 1 to told
        if piece == city and e not in edges and i in cities(me):
            add 10 to told
    stolen:
      effect: |
        add (1 if g == ore else 2) to told
        gain 1 coin to victim
"""


def variant(tmp_path: Path, body: str) -> str:
    path = tmp_path / "v.yaml"
    path.write_text("extends: base\n" + body, encoding="utf-8")
    return str(path)


def game_of(rules: str) -> Game:
    game = start(GameSetup(rules=rules, map="standard", layout="beginner", players=4, seed=0))
    game.refresh(list_now=True)
    return game


def told(game: Game) -> int:
    value = game.state.counters["told"]
    assert isinstance(value, int)
    return value


def test_built_is_told_the_piece_and_its_place(tmp_path: Path) -> None:
    game = game_of(variant(tmp_path, TOLD))
    place_building(game, 0, 13, SETTLEMENT)  # a position's piece: no hook
    assert told(game) == 0
    edge = next(iter(building.spots(game, 0, "road")))
    assert building.try_build(game, 0, "road", edge, free=True)
    assert told(game) == 1  # a road on its edge, i: -1
    assert building.try_build(game, 0, "city", 13, free=True)
    assert told(game) == 11  # a city on its intersection, e: -1


def test_a_cards_build_runs_built_too(tmp_path: Path) -> None:
    rules = variant(tmp_path, TOLD + "    turn_start:\n      effect: |\n        build road free\n")
    game = game_of(rules)
    place_building(game, 0, 13, SETTLEMENT)
    game.run_hook("turn_start", 0)
    game.refresh(list_now=True)
    assert game.pending.kind == "choose_edge"
    game.answer(game.pending.options[0])
    assert told(game) == 1  # a road, told once


def test_stolen_is_told_the_victim_and_the_good(tmp_path: Path) -> None:
    game = game_of(variant(tmp_path, TOLD))
    ore = game.rules.good_index["ore"]
    game.state.players[1].hand[ore] = 1
    assert hands.steal(game, 0, 1) == "ore"
    assert told(game) == 1
    assert game.state.players[1].hand[game.rules.good_index["coin"]] == 1  # the hook's gift


def test_setup_placed_runs_for_each_set_up_piece_and_built_does_not(tmp_path: Path) -> None:
    body = TOLD + (
        "    setup_placed:\n      effect: |\n"
        "        add (10 if piece == settlement and e not in edges else 1 if piece == road"
        " else 100) to told\n"
    )
    game = game_of(variant(tmp_path, body))
    for _ in range(4):  # red's settlement and road, blue's settlement and road
        game.answer(game.pending.options[0])
    assert told(game) == 22  # two settlements, two roads; `built` never ran


def test_the_base_rules_declare_none_of_them() -> None:
    hooks = game_of("base").rules.programs.hooks
    assert not {"setup_placed", "built", "stolen"} & set(hooks)


@pytest.mark.parametrize(
    ("effect", "message"),
    [
        ("if piece == 3:\n            stop", "'==' compares a piece with a number"),
        ("gain 1 g", "unknown name 'g'"),  # the good of `stolen`, not of `built`
    ],
)
def test_a_hooks_variables_are_typed_and_its_own(tmp_path: Path, effect: str, message: str) -> None:
    path = variant(
        tmp_path, f"override:\n  hooks:\n    built:\n      effect: |\n        {effect}\n"
    )
    result = CliRunner().invoke(cli, ["validate", path])
    assert result.exit_code == 1
    assert f"{path}:6:" in result.stderr and message in result.stderr, result.stderr


ROBBER_CHOICE = str(
    Path(__file__).resolve().parent.parent / "examples" / "variants" / "robber_choice.yaml"
)


@pytest.mark.parametrize(("rules", "offered"), [("base", False), (ROBBER_CHOICE, True)])
def test_steal_nothing_is_offered_only_when_the_rule_set_says_what_follows(
    rules: str, offered: bool
) -> None:
    game = game_of(rules)
    place_building(game, 1, 13, SETTLEMENT)
    game.state.players[1].hand[0] = 1
    game.state.turn, game.state.current = 1, 0
    game.push(StealTask("steal", 0))
    game.state.robber = next(t for t, corners in enumerate(game.topo.tile_corners) if 13 in corners)
    game.refresh(list_now=True)
    assert game.pending.kind == "steal"
    assert (("no_steal",) in game.pending.options) == offered
    if offered:
        game.answer(("no_steal",))
        assert game.pending.kind == "choose_resource"  # the hook's choice
        assert game.state.players[1].hand[0] == 1  # nothing stolen
