"""Hostile input (issue 15): files that are not what they claim, shared variants and
saves that try to read or show what they should not, saves that must survive a crash,
and usage errors that name the option. Each test builds its hostile file itself."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from ckdsl.cli import cli
from ckdsl.session import GameSetup, start, write_save
from ckdsl.template import bad_fields, fill

FAST = ["--players", "random,random,random,random", "--seed", "1"]
SECRET = "root:x:0:0:TOPSECRET"


def run(
    *args: str, cwd: Path | None = None, timeout: float = 20
) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent))
    return subprocess.run(
        [sys.executable, "-m", "ckdsl", *args],
        capture_output=True, text=True, timeout=timeout, cwd=cwd, env=env,
    )  # fmt: skip


@pytest.mark.parametrize("kind", ["fifo", "device", "folder"])
def test_special_files_are_refused_without_reading(tmp_path: Path, kind: str) -> None:
    target = tmp_path / "rules.yaml"
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "folder":
        target.mkdir()
    else:
        target = Path("/dev/zero")
    for args in (
        ["validate", str(target)],
        ["replay", str(target)],
        ["play", "--rules", str(target)],
    ):
        started = time.monotonic()
        result = run(*args, timeout=10)
        assert time.monotonic() - started < 10
        assert result.returncode in (1, 2) and "Traceback" not in result.stderr, args
    said = {"fifo": "named pipe (FIFO)", "device": "a device", "folder": "a folder"}[kind]
    assert said in run("replay", str(target)).stderr


def test_a_variant_that_extends_a_system_file_shows_none_of_it(tmp_path: Path) -> None:
    secret = tmp_path / "passwd"
    secret.write_text(SECRET + "\n")
    variant = tmp_path / "v.yaml"
    variant.write_text(f"extends: {secret}\n")
    result = run("validate", str(variant))
    assert result.returncode == 1 and "not a .yaml or .yml file" in result.stderr
    assert "TOPSECRET" not in result.stdout + result.stderr
    for option in ("--rules", "--map"):
        result = run("play", option, str(secret), *FAST)
        assert result.returncode in (1, 2) and "TOPSECRET" not in result.stdout + result.stderr


def test_a_yaml_file_that_is_no_mapping_is_not_quoted(tmp_path: Path) -> None:
    variant = tmp_path / "v.yaml"
    variant.write_text(SECRET + "\n")
    result = run("validate", str(variant))
    assert result.returncode == 1 and "TOPSECRET" not in result.stdout + result.stderr


def test_message_templates_fill_plain_fields_only(tmp_path: Path) -> None:
    assert fill("{player} {player.__class__} {n:>1000000000} {{x}}", {"player": "Red", "n": 1}) == (
        "Red {player.__class__} {n:>1000000000} {x}"
    )
    assert bad_fields("{a} {a.b} {c:>9} {d[0]} }") == ["{a.b}", "{c:>9}", "{d[0]}", "}"]
    variant = tmp_path / "v.yaml"
    variant.write_text(
        "extends: base\nnames:\n  en:\n    messages:\n"
        '      log_robber: "{player.__class__.__mro__} moves to {tile:>1000000000}"\n'
    )
    result = CliRunner().invoke(cli, ["validate", str(variant)])
    assert result.exit_code == 1 and "v.yaml:5:19: '{player.__class__.__mro__}'" in result.stderr


@given(st.text(alphabet="{}ab_ 1:.x", max_size=16))
def test_a_template_split_once_fills_as_the_pattern_does(template: str) -> None:
    """``fill`` splits a template once (``template.parts``) and joins its texts and
    values: the same text as replacing each token of the pattern in turn."""
    from ckdsl.template import _TOKEN

    values = {"a": 1, "ab": "X{y}", "b_": None, "x": "{{"}

    def one(match: re.Match[str]) -> str:
        token, name = match[0], match[1]
        if token in ("{{", "}}"):
            return token[0]
        return str(values[name]) if name is not None and name in values else token

    assert fill(template, values) == _TOKEN.sub(one, template)


def test_usage_errors_name_the_option() -> None:
    result = CliRunner().invoke(cli, ["play", "--players", "random,random"])
    assert result.exit_code == 2 and "--players" in result.stderr
    result = CliRunner().invoke(cli, ["play", *FAST, "--layout", "nope"])
    assert result.exit_code == 2 and "--layout" in result.stderr


def test_a_save_is_never_written_over_the_rules_being_played(tmp_path: Path) -> None:
    variant = tmp_path / "v.yaml"
    variant.write_text("extends: base\n")
    result = CliRunner().invoke(
        cli, ["play", *FAST, "--rules", str(variant), "--save", str(variant)]
    )
    assert result.exit_code == 2 and "the rules being played" in result.stderr
    assert variant.read_text() == "extends: base\n"


def test_a_failed_save_keeps_the_game(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["play", *FAST, "--save", str(tmp_path / "no" / "g.json")])
    assert result.exit_code == 1 and "saved to " in result.stderr
    kept = Path(result.stderr.split("saved to ")[1].split(" instead")[0])
    assert json.loads(kept.read_text())["format"] == "ckdsl-save"
    kept.unlink()


def test_a_save_replays_from_anywhere_and_with_moved_rules(tmp_path: Path) -> None:
    folder = tmp_path / "here"
    folder.mkdir()
    (folder / "v.yaml").write_text(
        "extends: base\noverride:\n  parameters:\n    points_to_win: 14\n"
    )
    made = run("play", *FAST, "--rules", "v.yaml", "--save", "g.json", cwd=folder)
    assert made.returncode == 0, made.stderr
    assert json.loads((folder / "g.json").read_text())["setup"]["rules"] == "v.yaml"
    elsewhere = run("replay", str(folder / "g.json"), cwd=tmp_path)
    assert elsewhere.returncode == 0 and elsewhere.stdout == made.stdout
    (folder / "v.yaml").rename(tmp_path / "moved.yaml")
    lost = run("replay", str(folder / "g.json"), cwd=tmp_path)
    assert lost.returncode == 1 and "no such file" in lost.stderr
    found = run("replay", str(folder / "g.json"), "--rules", str(tmp_path / "moved.yaml"))
    assert found.returncode == 0 and found.stdout == made.stdout


@pytest.mark.slow
def test_a_save_killed_mid_write_leaves_the_old_one_whole(tmp_path: Path) -> None:
    """SIGKILL a process that writes saves over one file in a loop: whenever it dies,
    the file is a complete save (the old or the new), never a truncated one."""
    path = tmp_path / "g.json"
    game = start(GameSetup(seed=1))
    write_save(path, game, GameSetup(seed=1))
    writer = (
        "import sys; from pathlib import Path\n"
        "from ckdsl.session import GameSetup, start, write_save\n"
        "from ckdsl.bots import RandomBot\n"
        "setup = GameSetup(seed=2); game = start(setup); bots = [RandomBot(p) for p in range(4)]\n"
        "print('ready', flush=True)\n"
        "while True:\n"
        "    if game.state.over: game = start(setup)\n"
        "    game.answer(bots[game.pending.player].choose(game.view(game.pending.player)))\n"
        "    write_save(Path(sys.argv[1]), game, setup)\n"
    )
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent))
    for k in range(8):
        proc = subprocess.Popen(
            [sys.executable, "-c", writer, str(path)], stdout=subprocess.PIPE, env=env, text=True
        )
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        time.sleep(0.05 + 0.03 * k)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        data = json.loads(path.read_text())  # a truncated file would not parse
        assert data["format"] == "ckdsl-save" and data["answers"] is not None


def _variant(tmp_path: Path, body: str, name: str = "v.yaml") -> Path:
    path = tmp_path / name
    path.write_text("extends: base\n" + body)
    return path


def test_numbers_of_thousands_of_digits_are_errors_not_crashes(tmp_path: Path) -> None:
    big = "1" * 5000
    for body in (f"description: {big}\n", f"override:\n  parameters:\n    points_to_win: {big}\n"):
        result = CliRunner().invoke(cli, ["validate", str(_variant(tmp_path, body))])
        assert result.exit_code == 1 and "v.yaml:" in result.stderr
        assert "a number of 5,000 digits" in result.stderr and "internal error" not in result.stderr
    card = (
        "add:\n  cards:\n    big:\n      deck: trade\n      count: 1\n      effect: |\n"
        f"        gain {big} grain\n"
    )
    result = CliRunner().invoke(cli, ["validate", str(_variant(tmp_path, card))])
    assert "numbers in effects have at most 18" in result.stderr
    save = tmp_path / "g.json"
    save.write_text(
        '{"format": "ckdsl-save", "version": 2, "setup": {"rules": "base", "map": "standard",'
        f' "layout": null, "players": 4, "seed": {big}}}, "answers": []}}'
    )
    result = CliRunner().invoke(cli, ["replay", str(save)])
    assert result.exit_code == 1 and "a number too long" in result.stderr
    save.write_text("[" * 100_000 + "]" * 100_000)
    result = CliRunner().invoke(cli, ["replay", str(save)])
    assert result.exit_code == 1 and "nested too deeply" in result.stderr


def test_effects_nested_too_deeply_are_errors_at_their_place(tmp_path: Path) -> None:
    chain = " + ".join(["1"] * 600)
    blocks = "".join("        " + "    " * i + "if true:\n" for i in range(200))
    for effect in (f"        let y = {chain}\n", blocks + "        " + "    " * 200 + "stop\n"):
        body = "add:\n  cards:\n    deep:\n      deck: trade\n      count: 1\n      effect: |\n"
        result = CliRunner().invoke(cli, ["validate", str(_variant(tmp_path, body + effect))])
        assert result.exit_code == 1 and "nested too deeply" in result.stderr
        assert "internal error" not in result.stderr


def test_an_effect_that_would_run_forever_stops_and_the_game_goes_on(tmp_path: Path) -> None:
    hooks = (
        "override:\n  hooks:\n    turn_start:\n      effect: |\n"
        "        repeat 1000000000000:\n            gain 1 grain\n"
        "    turn_end:\n      effect: |\n"
        "        for a in intersections:\n            for b in intersections:\n"
        "                for c in intersections:\n                    let x = 1\n"
    )
    started = time.monotonic()
    result = CliRunner().invoke(cli, ["play", *FAST, "--rules", str(_variant(tmp_path, hooks))])
    assert result.exit_code == 0 and time.monotonic() - started < 15
    stopped = "The rule “Start of a turn” stops at its line 1: the effect ran past its budget"
    assert stopped in result.output
    assert "The rule “End of a turn” stops at its line 4" in result.output
    assert "Final scores" in result.output


def test_an_answer_with_a_huge_number_is_refused_briefly() -> None:
    from ckdsl.core.decisions import IllegalAnswer
    from ckdsl.turn.notation import parse_answer

    game = start(GameSetup(seed=1))
    with pytest.raises(IllegalAnswer) as refused:
        parse_answer(game, "offer " + "9" * 5000 + " brick for 1 ore")
    assert len(refused.value.reason) < 2000


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("override: !!str\n  parameters:\n    points_to_win: 11\n", "unsupported YAML tag"),
        ("description: !!map x\n", "unsupported YAML tag"),
        ("override:\n  parameters:\n    turn_limit: 1000000000\n", "must be at most 10000"),
        ("override:\n  parameters:\n    points_to_win: 1000000000\n", "must be at most 100"),
    ],
)
def test_tags_and_limits_of_rule_data(tmp_path: Path, body: str, message: str) -> None:
    result = CliRunner().invoke(cli, ["validate", str(_variant(tmp_path, body))])
    assert result.exit_code == 1 and message in result.stderr


def test_extends_its_own_folder_is_one_clear_error(tmp_path: Path) -> None:
    variant = tmp_path / "v.yaml"
    variant.write_text("extends: .\n")
    result = CliRunner().invoke(cli, ["validate", str(variant)])
    assert result.exit_code == 1 and "is the folder this variant is in" in result.stderr
    assert result.stderr.count("\n") <= 3  # one finding, not one per file of the folder


def test_a_reader_that_stops_reading_ends_the_run_quietly() -> None:
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent))
    writer = subprocess.Popen(
        [sys.executable, "-m", "ckdsl", "play", *FAST, "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
    )  # fmt: skip
    assert writer.stdout is not None and writer.stderr is not None
    writer.stdout.read(10)
    writer.stdout.close()  # the reader goes away with most of the output unread
    assert writer.wait(timeout=30) == 0
    assert writer.stderr.read() == b""


def test_a_map_too_small_to_set_up_is_refused_by_name(tmp_path: Path) -> None:
    tiny = tmp_path / "tiny.yaml"
    tiny.write_text(
        "name: tiny\ndescription: one hex\nhexes:\n  - [0, 0]\nterrains: {forest: 1}\n"
        "numbers: [6]\nno_number: [desert]\nharbors: []\n"
    )
    result = CliRunner().invoke(cli, ["play", *FAST, "--map", str(tiny)])
    assert result.exit_code == 2 and "has room for 3 buildings apart" in result.stderr
    assert "internal error" not in result.stderr


NESTED = "count(each a in intersections where count(each b in intersections where count(each c in intersections where true) > 0) > 0) > 0"  # noqa: E501
"""Selections in selections: 54 × 54 × 54 steps, past the budget of 10,000."""


def test_selections_in_selections_stop_in_play_and_are_errors_in_validate(
    tmp_path: Path,
) -> None:
    variant = _variant(tmp_path, f'override:\n  allow:\n    road: "{NESTED}"\n')
    result = CliRunner().invoke(cli, ["validate", str(variant)])
    assert result.exit_code == 1
    assert "v.yaml:4:11: this formula runs past the budget of 10,000 steps" in result.stderr
    save = tmp_path / "g.json"
    started = time.monotonic()
    played = CliRunner().invoke(cli, ["play", *FAST, "--rules", str(variant), "--save", str(save)])
    assert played.exit_code == 0 and time.monotonic() - started < 15
    answers = json.loads(save.read_text())["answers"]
    roads = [a for a in answers if a.startswith("build road")]
    assert len(roads) == 8  # the setup's, which no `allow` governs: the condition stops: false


def test_a_formula_without_nesting_is_not_tried(tmp_path: Path) -> None:
    once = "count(each a in intersections where true) > 0"
    variant = _variant(tmp_path, f'override:\n  allow:\n    road: "{once}"\n')
    assert CliRunner().invoke(cli, ["validate", str(variant)]).exit_code == 0


def test_a_number_squared_again_and_again_stops_the_effect(tmp_path: Path) -> None:
    hooks = (
        "override:\n  hooks:\n    turn_start:\n      effect: |\n"
        "        let x = 2\n        repeat 64:\n            let x = x * x\n"
        "        gain x grain\n"
    )
    result = run("play", *FAST, "--rules", str(_variant(tmp_path, hooks)), timeout=60)
    assert result.returncode == 0 and "Final scores" in result.stdout
    assert "4294967296 × 4294967296 is past the largest number an effect may make" in (
        result.stdout
    )


@pytest.mark.slow
def test_a_variant_of_thousands_of_cards_is_applied_in_linear_time(tmp_path: Path) -> None:
    def variant(n: int) -> Path:
        cards = "".join(
            f"    c{i}:\n      deck: trade\n      count: 1\n      effect: gain 1 grain\n"
            for i in range(n)
        )
        return _variant(tmp_path, "add:\n  cards:\n" + cards, f"v{n}.yaml")

    took = []
    for n in (2_000, 8_000):
        path = variant(n)
        started = time.process_time()
        result = CliRunner().invoke(cli, ["validate", str(path)])
        took.append(time.process_time() - started)
        assert result.exit_code == 1 and "the cards of deck 'trade' add up to" in result.stderr
    # four times the cards: about four times the time (it was sixteen: quadratic)
    assert took[1] < 8 * took[0] + 0.5, took


def test_removing_a_road_the_board_lacks_stops_the_effect(tmp_path: Path) -> None:
    hooks = (
        "override:\n  hooks:\n    turn_start:\n      effect: |\n"
        "        let r = 0 - 1\n        remove road 999\n        remove road r\n"
    )
    result = CliRunner().invoke(cli, ["play", *FAST, "--rules", str(_variant(tmp_path, hooks))])
    assert result.exit_code == 0 and "Final scores" in result.output
    assert "stops at its line 2: there is no edge 999 on this board (0 to 71)" in result.output


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
def test_a_full_disk_behind_the_output_is_said_in_a_line() -> None:
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent))
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [sys.executable, "-m", "ckdsl", "play", *FAST],
            stdout=full, stderr=subprocess.PIPE, text=True, timeout=60, env=env,
        )  # fmt: skip
    assert result.returncode == 1
    assert result.stderr == "ckdsl: cannot write the output: No space left on device\n"


# --- property tests: strategies that reach the hostile families ---------------------------

_TOKENS = [
    "let x = ", "if ", "for i in intersections", " where ", ":", "\n", "\n    ", "repeat ",
    "count(each a in intersections where ", ")", "(", "[", "]", "x * x", " + ", "1", "9" * 30,
    "gain ", "grain", "remove road ", "edge(3, 7)", "-1", "move robber to ", "99", "steal ",
    "from ", "opponents", "choose ", "player", "true", "\"", "==", "=", "0 - 1", "stop",
]  # fmt: skip
effects = st.lists(st.sampled_from(_TOKENS), max_size=40).map("".join)


@given(effects)
def test_any_effect_text_compiles_or_gives_errors_at_a_place(text: str) -> None:
    """Random effects over the hostile words (deep brackets, huge numbers, loops in loops,
    products, ids off the board): compiled, or errors with a place, never an exception
    (how such effects run is shown above, each family by a test of its own)."""
    from ckdsl.dsl.compiler.program import Names
    from ckdsl.dsl.program import compile_effect
    from ckdsl.session import load_rules

    names = Names.of(load_rules("base").ruleset.data)
    program, errors = compile_effect(text, names)
    assert (program is None) == bool(errors)
    assert all(e.line >= 1 and e.col >= 1 for e in errors)


@given(
    st.recursive(
        st.one_of(st.integers(), st.text(max_size=5), st.none()),
        lambda inner: st.one_of(
            st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner, max_size=3)
        ),
        max_leaves=8,
    ),
    st.integers(0, 3000),
)
def test_any_save_text_is_read_or_refused_with_a_message(content: object, depth: int) -> None:
    """Saves of any shape, nested thousands deep or holding huge numbers: a CkdslError
    with a message, never another exception."""
    from ckdsl.diagnostics import CkdslError
    from ckdsl.session import parse_save

    text = "[" * depth + json.dumps(content) + "]" * depth
    try:
        parse_save(text, "s.json")
    except CkdslError as err:
        assert err.diagnostics and err.diagnostics[0].message


def test_a_chain_of_hundreds_of_variants_is_one_clear_error(tmp_path: Path) -> None:
    (tmp_path / "v0.yaml").write_text("extends: base\n")
    for i in range(1, 300):
        (tmp_path / f"v{i}.yaml").write_text(f"extends: v{i - 1}.yaml\n")
    assert CliRunner().invoke(cli, ["validate", str(tmp_path / "v50.yaml")]).exit_code == 0
    result = CliRunner().invoke(cli, ["validate", str(tmp_path / "v299.yaml")])
    assert result.exit_code == 1 and "internal error" not in result.stderr
    assert "v200.yaml:1:10: more than 100 variants extend one another" in result.stderr


def test_folders_nested_thousands_deep_are_not_searched_past_a_depth(tmp_path: Path) -> None:
    deep = tmp_path
    for _ in range(1200):  # (pathlib's mkdir(parents=True) itself recurses)
        deep = deep / "a"
        deep.mkdir()
    (deep / "s.yaml").write_text("steps: []\n")
    try:
        for command in ("validate", "scenario"):
            result = CliRunner().invoke(cli, [command, str(tmp_path / "a")])
            assert result.exit_code == 1 and "internal error" not in result.output
            assert "folders are nested more than 32 deep here: not searched" in result.output
    finally:  # from the bottom up: pytest's own clean-up recurses, and would fail
        (deep / "s.yaml").unlink()
        while deep != tmp_path:
            deep.rmdir()
            deep = deep.parent
