"""Scenario files: every one under tests/scenarios and examples/ passes; the docs'
examples run; failures and errors are reported precisely."""

from __future__ import annotations

import re
from pathlib import Path

import plainyaml
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from ckdsl.cli import cli
from ckdsl.scenario import run_file, scenario_files

REPO = Path(__file__).resolve().parent.parent
SCENARIOS = sorted(scenario_files([REPO / "tests" / "scenarios", REPO / "examples" / "scenarios"]))
DOC = REPO / "docs" / "scenarios.md"


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_scenario_passes(path: Path) -> None:
    outcome = run_file(path)
    assert outcome.status == "pass", outcome.to_json()


def doc_examples() -> list[str]:
    blocks = re.findall(r"```yaml\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    return [b for b in blocks if "steps:" in b]


@pytest.mark.parametrize("text", doc_examples())
def test_doc_examples_run(text: str, tmp_path: Path) -> None:
    path = tmp_path / "example.yaml"
    path.write_text(text, encoding="utf-8")
    outcome = run_file(path)
    assert outcome.status == "pass", outcome.to_json()


def test_doc_has_examples() -> None:
    assert len(doc_examples()) >= 4


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_wrong_expectation_fails_with_a_diff(tmp_path: Path) -> None:
    path = write(tmp_path, """\
name: wrong on purpose
position:
  players:
    red: {settlements: [13]}
steps:
  - dice: [3, 3]
  - answer: roll
  - expect:
      hand: {red: {brick: 2}}
""")  # fmt: skip
    result = CliRunner().invoke(cli, ["scenario", str(path)])
    assert result.exit_code == 1
    assert result.stdout.splitlines()[1:] == [
        f"      step 3 ({path}:8:5): an expectation does not hold",
        "      hand.red",
        '        expected: {"brick": 2}',
        '        actual:   {"brick": 1}',
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("name: x\nposition:\n  players:\n    purple: {settlements: [1]}\nsteps: []\n",
         "s.yaml:4:5: no player 'purple' in this 4-player game (players: red, blue, white, "
         "orange) [$.position.players.purple]"),
        ("name: x\nposition:\n  players:\n    red: {settlements: [99]}\nsteps: []\n",
         "s.yaml:4:25: there is no intersection 99 (the map has 0 to 53) "
         "[$.position.players.red.settlements[0]]"),
        ("name: x\nposition:\n  players:\n    red: {roads: [0-1]}\nsteps: []\n",
         "s.yaml:4:19: intersections 0 and 1 are not joined by an edge "
         "[$.position.players.red.roads[0]]"),
        ("name: x\nposition:\n  players:\n    red: {hand: {gems: 1}}\nsteps: []\n",
         "s.yaml:4:24: 'gems' is not a resource or commodity [$.position.players.red.hand.gems]"),
        ("name: x\nsteps:\n  - answer: build road 0-4\n",
         "s.yaml:3:13: 'build road 0-4' is refused: roll the dice first [$.steps[0].answer]"),
        ("name: x\nsteps:\n  - answer: build raod 0-4\n",
         "s.yaml:3:13: 'build raod 0-4' is no answer the game knows: check the verb and "
         "that every id exists [$.steps[0].answer]"),
        ("name: x\nsteps:\n  - dice: [3, 9]\n",
         "s.yaml:3:11: dice [3, 9] are not faces of the white and red dice [$.steps[0].dice]"),
        ("name: x\nsteps:\n  - expect: {hands: {}}\n",
         "s.yaml:3:14: unknown key 'hands' (did you mean 'hand'?) [$.steps[0].expect.hands]"),
        ("name: x\nposition:\n  players:\n    red: {progress: [bishup]}\nsteps: []\n",
         "s.yaml:4:22: unknown progress card 'bishup' (did you mean 'bishop'?) "
         "[$.position.players.red.progress[0]]"),
        ("name: x\nposition:\n  players:\n    red: {progress: [printer]}\nsteps: []\n",
         "s.yaml:4:22: printer is shown when drawn, never held: list it under `revealed` "
         "[$.position.players.red.progress[0]]"),
        ("name: x\nposition:\n  players:\n    red: {progress: [printer], revealed: [printer]}"
         "\nsteps: []\n",
         "s.yaml:4:22: printer is shown when drawn, never held: list it under `revealed` "
         "[$.position.players.red.progress[0]]"),
        ("name: x\nposition:\n  players:\n    red: {levels: {sience: 3}}\nsteps: []\n",
         "s.yaml:4:20: unknown track 'sience' (did you mean 'science'?) "
         "[$.position.players.red.levels.sience]"),
        ("name: x\nposition:\n  players:\n    red: {knights: [{at: 3, level: mighty}]}"
         "\nsteps: []\n",
         "s.yaml:4:36: unknown knight level 'mighty' (did you mean 'mighty_knight'?) "
         "[$.position.players.red.knights[0].level]"),
        ("name: x\nposition:\n  players:\n    red: {knights: [{at: 3}, {at: 4}, {at: 5}]}"
         "\nsteps: []\n",
         "s.yaml:4:39: red has no basic_knight left in supply "
         "[$.position.players.red.knights[2]]"),
        ("name: x\nposition:\n  barbarians: 7\nsteps: []\n",
         "s.yaml:3:15: the barbarians' track has 7 steps: the ship stands on 0 to 6 (it attacks "
         "on reaching 7) [$.position.barbarians]"),
        ("name: x\nposition:\n  metropolises: {science: 12}\nsteps: []\n",
         "s.yaml:3:27: intersection 12 holds no city to carry a metropolis "
         "[$.position.metropolises.science]"),
        ("name: x\nposition:\n  decks: {science: [bishop]}\nsteps: []\n",
         "s.yaml:3:21: no bishop is left in the science deck [$.position.decks.science[0]]"),
    ],
)  # fmt: skip
def test_errors_in_a_scenario_point_at_the_value(tmp_path: Path, text: str, expected: str) -> None:
    outcome = run_file(write(tmp_path, text))
    assert outcome.status == "error"
    assert [d.format(relative_to=str(tmp_path)) for d in outcome.diagnostics] == [expected]


LOGGED_TWICE = """name: a roll, checked; then the same roll expected again
position: {turn: red}
steps:
  - dice: [2, 3, ship]
  - answer: roll
  - expect:
      {key}: [{event: roll, player: red, total: 5}]
  - answer: end turn
  - expect:
      {key}: [{event: roll, player: red, total: 5}]
"""


def test_a_log_expectation_does_not_match_an_event_already_checked(tmp_path: Path) -> None:
    """`log` looks at the events since the previous `log` expectation: red's roll, checked
    once, does not satisfy the second expectation; `log_so_far` looks at every event."""
    outcome = run_file(write(tmp_path, LOGGED_TWICE.replace("{key}", "log")))
    assert outcome.status == "fail" and outcome.step == 5, outcome.to_json()
    assert outcome.mismatches[0].field == "log[0]"
    assert "since the previous `log` expectation" in str(outcome.mismatches[0].actual)
    outcome = run_file(write(tmp_path, LOGGED_TWICE.replace("{key}", "log_so_far")))
    assert outcome.status == "pass", outcome.to_json()


def test_by_the_wrong_player_fails(tmp_path: Path) -> None:
    outcome = run_file(write(tmp_path, "name: x\nsteps:\n  - answer: roll\n    by: blue\n"))
    assert outcome.status == "fail" and outcome.step == 1
    assert outcome.mismatches[0].expected == "blue" and outcome.mismatches[0].actual == "red"


def test_a_refusal_that_is_accepted_fails(tmp_path: Path) -> None:
    outcome = run_file(write(tmp_path, "name: x\nsteps:\n  - refuse: roll\n"))
    assert outcome.status == "fail"
    assert "was accepted" in outcome.reason


def test_json_output_and_missing_paths(tmp_path: Path) -> None:
    import json

    runner = CliRunner()
    result = runner.invoke(cli, ["scenario", "--json", str(SCENARIOS[0])])
    assert json.loads(result.stdout)[0]["status"] == "pass"
    result = runner.invoke(cli, ["scenario", str(tmp_path / "nope.yaml")])
    assert result.exit_code == 1 and "no such file or folder" in result.stderr


def _leaves(node: object, path: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    if isinstance(node, dict):
        return [p for k, v in node.items() for p in _leaves(v, (*path, k))] or [path]
    if isinstance(node, list):
        return [p for i, v in enumerate(node) for p in _leaves(v, (*path, i))] or [path]
    return [path]


@settings(max_examples=max(1, settings().max_examples * 2 // 3))  # the profile decides
@given(data=st.data())
def test_any_mutation_of_a_scenario_gives_an_outcome_not_an_exception(
    data: st.DataObject, tmp_path_factory: pytest.TempPathFactory
) -> None:
    import yaml

    source = data.draw(st.sampled_from(SCENARIOS))
    doc = plainyaml.safe_load(source.read_text(encoding="utf-8"))
    path = data.draw(st.sampled_from(_leaves(doc)))
    value = data.draw(
        st.one_of(
            st.integers(-3, 120), st.text(max_size=8), st.booleans(), st.none(),
            st.lists(st.integers(-2, 60), max_size=3), st.just("99-100"), st.just("0-4"),
        )
    )  # fmt: skip
    node = doc
    for key in path[:-1]:
        node = node[key]  # type: ignore[index]
    if path:
        node[path[-1]] = value  # type: ignore[index]
    out = tmp_path_factory.mktemp("fuzz") / source.name
    out.write_text(yaml.safe_dump(doc), encoding="utf-8")
    outcome = run_file(out)
    assert outcome.status in ("pass", "fail", "error")
    assert all(d.message for d in outcome.diagnostics)


def test_a_rules_name_with_a_nul_is_an_error_outcome(tmp_path: Path) -> None:
    """Found by the mutation runs' property test: a NUL in `rules:` is a missing file,
    reported at the key, not a ValueError from the path functions."""
    file = tmp_path / "nul.yaml"
    file.write_text('name: x\nrules: "\\0"\nsteps:\n  - answer: roll\n', encoding="utf-8")
    outcome = run_file(file)
    assert outcome.status == "error"
    assert "a name cannot hold a NUL" in outcome.diagnostics[0].format()
    assert outcome.diagnostics[0].line == 2
