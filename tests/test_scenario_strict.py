"""Scenarios that cannot pass by mistake (issue 16): a `refuse:` that the game does not
even understand fails, as does one the rules accept; `log_absent` asserts that an event
did not happen; a missing event shows the nearest one that did."""

from __future__ import annotations

from pathlib import Path

import pytest

from ckdsl.scenario import run_file

DISTANCE = """\
name: strict refusals
position:
  phase: after_roll
  players:
    red:
      settlements: [13]
      roads: [13-18, 18-23]
      hand: {brick: 2, lumber: 2, wool: 2, grain: 2}
    blue: {settlements: [29]}
steps:
  - refuse: STEP
"""

ROBBER = """\
name: the robber's tile produces nothing
position:
  robber: 4
  players:
    red: {settlements: [13]}
steps:
  - dice: [2, 4]
  - answer: roll
  - expect:
      EXPECT
"""


def scenario(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("refuse", "status", "reason"),
    [
        ("build settlement 18", "pass", None),  # the distance rule refuses it
        ("biuld settlement 18", "fail", "was not understood"),  # a misspelled verb
        ("build settlement 99", "fail", "was not understood"),  # no intersection 99
        ("build road 12-99", "fail", "was not understood"),  # no such edge
        ("build road 17-23", "fail", "was accepted"),  # legal: the rules accept it
    ],
)
def test_a_refusal_passes_only_when_the_rules_refuse_a_real_answer(
    tmp_path: Path, refuse: str, status: str, reason: str | None
) -> None:
    outcome = run_file(scenario(tmp_path, DISTANCE.replace("STEP", refuse)))
    assert outcome.status == status, outcome.reason
    if reason is not None:
        assert reason in (outcome.reason or "")


@pytest.mark.parametrize(
    ("expect", "status"),
    [
        ("log_absent: [{event: produce, player: red}]", "pass"),
        ("log_absent: [{event: roll, player: red}]", "fail"),  # it did happen
        ("log: [{event: roll, player: red, white: 2}]", "pass"),
        ("log: [{event: roll, player: red, white: 3}]", "fail"),
    ],
)
def test_log_absent_and_log(tmp_path: Path, expect: str, status: str) -> None:
    outcome = run_file(scenario(tmp_path, ROBBER.replace("EXPECT", expect)))
    assert outcome.status == status, (outcome.reason, outcome.mismatches)


def test_a_missing_event_shows_the_nearest_that_happened(tmp_path: Path) -> None:
    text = ROBBER.replace("EXPECT", "log: [{event: roll, player: red, white: 3}]")
    outcome = run_file(scenario(tmp_path, text))
    (mismatch,) = outcome.mismatches
    assert "nearest: " in str(mismatch.actual) and "'white': 2" in str(mismatch.actual)


def test_an_unknown_verb_is_named_in_an_effect(tmp_path: Path) -> None:
    """`destroy road 12` says "unknown verb 'destroy'", not what the parser tripped on."""
    from click.testing import CliRunner

    from ckdsl.cli import cli

    variant = tmp_path / "v.yaml"
    variant.write_text(
        "extends: base\noverride:\n  hooks:\n    turn_start:\n      effect: |\n"
        "        destroy road 12-13\n"
    )
    result = CliRunner().invoke(cli, ["validate", str(variant)])
    assert result.exit_code == 1 and "v.yaml:6:9: unknown verb 'destroy'" in result.stderr


IMPOSSIBLE = """\
name: an impossible position
position:
  UNCHECKED
  players:
    red:
      settlements: [13, 18]
      roads: [13-18]
      knights: [{at: 40, level: 3}]
      levels: {science: 2}
steps:
  - expect: {points: {red: 2}}
"""


def test_an_impossible_position_is_an_error_at_its_line_unless_unchecked(tmp_path: Path) -> None:
    outcome = run_file(scenario(tmp_path, IMPOSSIBLE.replace("UNCHECKED", "turn: red")))
    assert outcome.status == "error"
    found = [d.format() for d in outcome.diagnostics]
    assert any(
        ":6:25: a building at 18 next to the one at 13 breaks the distance" in f for f in found
    )
    assert any(":8:17: the knight at 40 is off red's road network" in f for f in found)
    assert any("a mighty_knight needs fortress (politics 3)" in f for f in found)
    assert any(":9:7: red has city improvements but no city" in f for f in found)
    unchecked = run_file(scenario(tmp_path, IMPOSSIBLE.replace("UNCHECKED", "unchecked: true")))
    assert unchecked.status == "pass", unchecked.diagnostics


STEAL = """\
name: the steal takes the good fixed
position:
  turn: red
  robber_unlocked: true
  players:
    blue: {cities: [0], hand: {brick: 3, ore: 4}}
steps:
  - dice: [3, 4]
  - answer: roll
  - answer: move robber to 0
  - steal: {from: blue, take: TAKE}
  - answer: steal from blue
  - expect: {hand: {red: {TAKE: 1}}}
"""


@pytest.mark.parametrize("take", ["brick", "ore"])
def test_a_steal_takes_the_good_the_scenario_fixes(tmp_path: Path, take: str) -> None:
    assert run_file(scenario(tmp_path, STEAL.replace("TAKE", take))).status == "pass"
    other = "ore" if take == "brick" else "brick"
    text = STEAL.replace("take: TAKE", f"take: {take}").replace("TAKE", other)
    assert run_file(scenario(tmp_path, text)).status == "fail"  # the expectation is checked


def test_a_steal_of_a_good_the_victim_lacks_is_an_error(tmp_path: Path) -> None:
    outcome = run_file(scenario(tmp_path, STEAL.replace("TAKE", "wool")))
    assert outcome.status == "error" and "blue holds no wool" in outcome.diagnostics[0].message


def test_a_new_colour_without_a_name_is_flagged(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from ckdsl.cli import cli

    variant = tmp_path / "v.yaml"
    body = (
        "extends: base\noverride:\n  parameters:\n    player_colours: [red, blue, white, purple]\n"
    )
    variant.write_text(body)
    result = CliRunner().invoke(cli, ["validate", str(variant)])
    assert result.exit_code == 0  # a warning: the rules still work
    assert "v.yaml:4:40: warning: the player colour 'purple' has no English name" in result.stderr
    variant.write_text(body + "names:\n  en:\n    names:\n      colours:\n        purple: Purple\n")
    result = CliRunner().invoke(cli, ["validate", str(variant)])
    assert result.exit_code == 0 and "purple" not in result.stderr


MANY_FAULTS = """\
name: many faults
position:
  players:
    red: {settlements: [99], hand: {brik: 1}}
steps:
  - answer: biuld road 3-7
  - dice: [3, 9]
  - answer: choose edge 13-18
  - answer: roll
    by: grey
  - expect:
      hand: {pink: {ore: 1}}
      bank: {oar: 1}
  - steal: {from: teal, take: wool}
"""


def test_a_scenario_reports_every_fault_at_once(tmp_path: Path) -> None:
    """The position's faults and every step's that shows before playing: all at once, in
    the order of the file (issue 16, item 6); `choose edge 13-18` is an answer."""
    outcome = run_file(scenario(tmp_path, MANY_FAULTS))
    assert outcome.status == "error"
    found = [(d.line, d.col, d.message.split(":")[0]) for d in outcome.diagnostics]
    assert found == [
        (4, 25, "there is no intersection 99 (the map has 0 to 53)"),
        (4, 43, "'brik' is not a resource or commodity (did you mean 'brick'?)"),
        (6, 13, "'biuld road 3-7' is no answer the game knows"),
        (7, 11, "dice [3, 9] are not faces of the white and red dice"),
        (10, 9, "no player 'grey' in this game (players"),
        (12, 20, "`hand` has no 'pink' in this game (it has"),
        (13, 19, "`bank` has no 'oar' in this game (it has"),
        (14, 19, "no player 'teal' in this game (players"),
    ]


def test_an_effect_reports_every_syntax_error_it_can_tell_apart(tmp_path: Path) -> None:
    from ckdsl.dsl.compiler.program import Names
    from ckdsl.dsl.program import compile_effect
    from ckdsl.session import load_rules

    names = Names.of(load_rules("base").ruleset.data)
    text = (
        "let x = 1 +\nif x > 1\n    gain 1 grain\nlet y = = 2\ngain 2 wool\n"
        'destroy road 12-13\nlet z = "unfinished\n'
    )
    program, errors = compile_effect(text, names)
    assert program is None
    assert [(e.line, e.message.split(" ")[0]) for e in errors] == [
        (1, "unexpected"), (2, "`if`"), (4, "`let`"), (6, "unknown"), (7, "this"),
    ]  # fmt: skip
    one, errors = compile_effect("gain 1 grain\nlet y = = 2\n", names)
    assert one is None and [e.line for e in errors] == [2]
