"""Every parameter of the rules, at a value other than its default, changes the game.

Each case is a variant that overrides one parameter (``parameters:`` of
rules/base/game.yaml, described by rules/schema/rules.schema.json) and a scenario
(docs/scenarios.md) that shows the consequence: a player with 5 points wins, a hand of 5
is halved on a 7, a knight is promoted twice. The same scenario under the base rules must
not pass, so the consequence is the parameter's. ``test_every_parameter_has_a_case``
fails, naming the parameter, when one is added without a case here.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import plainyaml
import pytest
import yaml

from ckdsl.paths import base_rules_dir
from ckdsl.scenario import run_file

REPO = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Case:
    """``parameter`` set to ``value`` (with ``also``, other parameters the value needs);
    ``scenario``: the scenario's position and steps (YAML), which pass under the variant
    and not under the base rules."""

    parameter: str
    value: Any
    scenario: str
    also: dict[str, Any] | None = None
    xfail: str | None = None


# Dice of a roll that produces nothing and moves no ship: 2, with a gate.
CASES = [
    Case(
        "points_to_win",
        5,
        """
position:
  players:
    red: {cities: [0, 26], settlements: [13]}   # 5 points
steps:
  - expect:
      pending: {kind: over}
  - expect:
      winner: red
""",
    ),
    Case(
        "win_on_own_turn_only",
        False,
        """
position:
  turn: red
  players:
    blue: {cities: [0, 26, 43], settlements: [10], defender: 6}   # 13 points
steps:
  - expect:
      pending: {kind: over}
  - expect:
      winner: blue
""",
    ),
    Case(
        "players_min",
        2,
        """
players: 2
position:
  turn: blue
steps:
  - expect:
      pending: {player: blue, kind: roll}
  - answer: roll
  - answer: end turn
  - expect:
      turn: red
""",
    ),
    Case(
        "players_max",
        5,
        also={"player_colours": ["red", "blue", "white", "orange", "green"]},
        scenario="""
players: 5
position:
  turn: green
  players:
    green: {settlements: [13]}
steps:
  - expect:
      pending: {player: green, kind: roll}
      points: {green: 1}
""",
    ),
    Case(
        "player_colours",
        ["red", "blue", "white", "purple"],
        """
position:
  turn: purple
  players:
    purple: {settlements: [13]}
steps:
  - expect:
      pending: {player: purple, kind: roll}
      points: {purple: 1}
""",
    ),
    Case(
        "second_setup_piece",
        "settlement",
        """
position:
  phase: setup
steps:
  - answer: build settlement 0
  - answer: build road 0-3
  - answer: build settlement 2
  - answer: build road 2-6
  - answer: build settlement 26
  - answer: build road 26-32
  - answer: build settlement 43
  - answer: build road 43-47
  - expect:
      pending: {player: orange, kind: setup_settlement}
  - answer: build settlement 50
  - expect:
      settlements: {orange: [43, 50]}
      cities: {orange: []}
""",
    ),
    Case(
        "robber_locked_until_first_attack",
        False,
        """
steps:
  - expect:
      robber_unlocked: true
  - dice: [3, 4]
  - answer: roll
  - expect:
      pending: {player: red, kind: robber}
  - answer: move robber to 4
  - expect:
      robber: 4
""",
    ),
    Case(
        "hand_limit",
        4,
        """
position:
  players:
    red: {hand: {brick: 5}}
steps:
  - dice: [3, 4]
  - answer: roll
  - expect:
      pending: {player: red, kind: discard}
  - answer: discard brick
  - answer: discard brick
  - expect:
      hand: {red: {brick: 3}}
      pending: {player: red, kind: main}
""",
    ),
    Case(
        "city_wall_hand_bonus",
        5,
        """
position:
  players:
    red: {cities: [0], walls: [0], hand: {brick: 11}}   # 7 + 5 for the wall
steps:
  - dice: [3, 4]
  - answer: roll
  - expect:
      pending: {player: red, kind: main}
      hand_size: {red: 11}
""",
    ),
    Case(
        "hand_limit_cap",
        8,
        """
position:
  players:
    red: {cities: [0, 26], walls: [0, 26], hand: {brick: 10}}   # 7 + 2 + 2, but 8 at most
steps:
  - dice: [3, 4]
  - answer: roll
  - expect:
      pending: {player: red, kind: discard}
""",
    ),
    Case(
        "progress_hand_limit",
        2,
        """
position:
  players:
    blue: {cities: [40], levels: {science: 1}, progress: [bishop, spy]}
steps:
  - dice: [1, 1, science_gate]
  - answer: roll            # blue draws a third card on red's turn
  - expect:
      progress_count: {blue: 3}
      pending: {player: blue, kind: discard_progress}
  - answer: discard spy
  - expect:
      progress_count: {blue: 2}
      pending: {player: red, kind: main}
""",
    ),
    Case(
        "progress_hand_limit_own_turn",
        6,
        """
position:
  players:
    red: {cities: [0], levels: {science: 1}, progress: [bishop, spy, wedding, diplomat, deserter]}
steps:
  - dice: [1, 1, science_gate]
  - answer: roll            # red draws a sixth card on their own turn, and keeps it
  - expect:
      progress_count: {red: 6}
      pending: {player: red, kind: main}
""",
    ),
    Case(
        "bank_trade_rate",
        3,
        """
position:
  phase: after_roll
  players:
    red: {hand: {wool: 3}}
steps:
  - answer: trade wool for brick
  - expect:
      hand: {red: {brick: 1}}
""",
    ),
    Case(
        "generic_harbor_rate",
        2,
        """
position:
  phase: after_roll
  players:
    red: {settlements: [0], hand: {wool: 2}}   # the generic harbor 0-3
steps:
  - answer: trade wool for brick
  - expect:
      hand: {red: {brick: 1}}
""",
    ),
    Case(
        "special_harbor_rate",
        1,
        """
position:
  phase: after_roll
  players:
    red: {settlements: [1], hand: {wool: 1}}   # the wool harbor 1-5
steps:
  - answer: trade wool for brick
  - expect:
      hand: {red: {brick: 1}}
""",
    ),
    Case(
        "merchant_trade_rate",
        1,
        """
position:
  phase: after_roll
  merchant: {tile: 4, owner: red}               # hills: brick
  players:
    red: {hand: {brick: 1}}
steps:
  - answer: trade brick for ore
  - expect:
      hand: {red: {ore: 1}}
""",
    ),
    Case(
        "merchant_guild_rate",
        1,
        """
position:
  phase: after_roll
  players:
    red: {cities: [0], levels: {trade: 3}, hand: {cloth: 1}}   # the Merchant Guild
steps:
  - answer: trade cloth for ore
  - expect:
      hand: {red: {ore: 1}}
""",
    ),
    Case(
        "knight_promotions_per_turn",
        2,
        """
position:
  phase: after_roll
  players:
    red:
      cities: [0]
      roads: [0-4]
      knights: [{at: 4}]
      levels: {politics: 3}                     # the Fortress
      hand: {wool: 2, ore: 2}
steps:
  - answer: promote knight 4
  - answer: promote knight 4
  - expect:
      knights: {red: [{at: 4, level: mighty_knight}]}
      hand: {red: {}}
""",
    ),
    Case(
        "knight_actions_per_turn",
        0,
        """
position:
  phase: after_roll
  players:
    red: {cities: [0], roads: [0-4, 4-8], knights: [{at: 4, active: true}]}
steps:
  - expect:
      pending: {player: red, kind: main, excludes: [move knight 4 to 8]}
""",
    ),
    Case(
        "knight_actions_per_turn",
        2,
        """
position:
  phase: after_roll
  players:
    red:
      cities: [0]
      roads: [0-4, 4-8]
      knights: [{at: 4, active: true}]
steps:
  - answer: move knight 4 to 8
  - expect:                                 # acted once of twice: still active
      pending: {player: red, kind: main, includes: [move knight 8 to 4]}
  - answer: move knight 8 to 4
  - expect:                                 # twice: inactive now
      pending: {player: red, kind: main, excludes: [move knight 4 to 8]}
""",
    ),
    Case(
        "turn_limit",
        3,
        """
position:
  phase: after_roll
  turn_number: 3
steps:
  - answer: end turn
  - expect:
      over: true
      winner: null
      log: [{event: unfinished, turns: 3}]
""",
    ),
    Case(
        "turn_decision_limit",
        2,
        """
position:
  phase: after_roll
  players:
    red: {hand: {wool: 2}}
steps:
  - answer: offer 1 wool for 1 ore
  - answer: decline
    by: blue
  - expect:
      over: true
      winner: null
      log: [{event: unfinished, turns: 1, limit: turn_decision_limit, budget: true}]
""",
    ),
    Case(
        "game_decision_limit",
        2,
        """
position:
  phase: after_roll
steps:
  - answer: end turn
  - answer: roll
  - expect:
      over: true
      winner: null
      log: [{event: unfinished, turns: 2, limit: game_decision_limit, budget: true}]
""",
    ),
    Case(
        "game_event_limit",
        2,
        """
position:
  phase: after_roll
steps:
  - answer: end turn
  - expect:
      over: true
      winner: null
      log: [{event: unfinished, turns: 2, limit: game_event_limit, budget: true}]
""",
    ),
    Case(
        "trade_offers_per_turn",
        1,
        """
position:
  phase: after_roll
  players:
    red: {hand: {wool: 2}}
steps:
  - answer: offer 1 wool for 1 ore
  - answer: decline
    by: blue
  - answer: decline
    by: white
  - answer: decline
    by: orange
  - answer: cancel trade
  - expect:
      pending: {player: red, kind: main}
  - refuse: offer 1 wool for 1 grain
    message: at most 1 trade offer per turn
""",
    ),
]


def base_parameters() -> dict[str, Any]:
    data = plainyaml.safe_load((base_rules_dir() / "game.yaml").read_text(encoding="utf-8"))
    return dict(data["parameters"])


def schema_parameters() -> set[str]:
    schema = json.loads((REPO / "rules" / "schema" / "rules.schema.json").read_text("utf-8"))
    return set(schema["properties"]["parameters"]["properties"])


def test_every_parameter_has_a_case() -> None:
    declared = set(base_parameters()) | schema_parameters()
    covered = {c.parameter for c in CASES}
    assert not declared - covered, (
        f"parameters without a case in tests/test_parameters.py: {sorted(declared - covered)}"
    )
    assert not covered - declared, f"cases of unknown parameters: {sorted(covered - declared)}"


def test_the_base_rules_set_every_parameter_of_the_schema() -> None:
    assert set(base_parameters()) == schema_parameters()


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.parameter}={c.value}")
def test_every_value_in_a_case_is_not_the_default(case: Case) -> None:
    assert case.value != base_parameters()[case.parameter]


def runs() -> list[Any]:
    return [
        pytest.param(
            c,
            marks=[pytest.mark.xfail(strict=True, reason=c.xfail)] if c.xfail else [],
            id=f"{c.parameter}={json.dumps(c.value)}",
        )
        for c in CASES
    ]


@pytest.mark.parametrize("case", runs())
def test_a_parameter_changes_the_game(case: Case, tmp_path: Path) -> None:
    override = {case.parameter: case.value, **(case.also or {})}
    variant = tmp_path / "variant.yaml"
    variant.write_text(
        yaml.safe_dump({"extends": "base", "override": {"parameters": override}}),
        encoding="utf-8",
    )
    outcomes = {}
    for rules in ("variant.yaml", "base"):
        scenario = tmp_path / f"{rules}.scenario.yaml"
        name = json.dumps(f"{case.parameter}: {case.value}")
        scenario.write_text(f"name: {name}\nrules: {rules}\n{case.scenario}", encoding="utf-8")
        outcomes[rules] = run_file(scenario)
    assert outcomes["variant.yaml"].status == "pass", outcomes["variant.yaml"].to_json()
    # The base rules, with the default value, do not give the same game.
    assert outcomes["base"].status != "pass", "the scenario passes under the base rules too"
