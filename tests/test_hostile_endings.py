"""Hostile input, round 2 (issue 29): games that always end, numbers with bounds, files
the game reads that nothing writes over, and crashes or wrong exit codes on odd input.
Each test builds its hostile file itself."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import given
from hypothesis import strategies as st

from ckdsl.bots import RandomBot
from ckdsl.cli import cli
from ckdsl.session import GameSetup, start
from ckdsl.turn.game import Game

FAST = ["--players", "random,random,random,random", "--seed", "1"]

PHASE = "add:\n  phases:\n    again:\n      description: loops\n      moves: []\n"


def _variant(tmp_path: Path, body: str, name: str = "v.yaml") -> Path:
    path = tmp_path / name
    path.write_text("extends: base\n" + body)
    return path


def _played(rules: Path, seed: int = 1) -> list[dict[str, object]]:
    game = start(GameSetup(rules=str(rules), seed=seed))
    game.play_out([RandomBot(seed * 10 + p) for p in range(4)])
    assert game.pending.kind == "over"
    return game.events


# --- every game ends -----------------------------------------------------------------------


def test_a_hook_that_always_runs_itself_is_an_error_at_its_run(tmp_path: Path) -> None:
    loop = PHASE + (
        "override:\n  hooks:\n    turn_end:\n      effect: |\n"
        "        phase again by me\n        run turn_end\n"
    )
    result = CliRunner().invoke(cli, ["validate", str(_variant(tmp_path, loop))])
    assert result.exit_code == 1
    assert "v.yaml:12:9: the hook 'turn_end' always runs itself again (turn_end → turn_end)" in (
        result.stderr
    )
    # through another hook, too; a run under a condition may be a countdown: a warning
    two = (
        "add:\n  hooks:\n    ping:\n      effect: run pong\n    pong:\n      effect: |\n"
        "        gain 1 grain\n        run ping\n"
    )
    result = CliRunner().invoke(cli, ["validate", str(_variant(tmp_path, two))])
    assert result.exit_code == 1 and "(ping → pong → ping)" in result.stderr
    counted = two.replace(
        "        run ping\n", "        if turn_number >= 0:\n            run ping\n"
    )
    result = CliRunner().invoke(cli, ["validate", str(_variant(tmp_path, counted))])
    assert result.exit_code == 0, result.output
    assert "warning: the hook 'ping' may run itself again (ping → pong → ping)" in result.stderr


# A hook's run of itself in blocks that always run: each an error at that run (line, col).
ALWAYS = {
    "if true:\n    run turn_end": "13:13",
    "if 1 < 2 and not false:\n    run turn_end": "13:13",
    "if points(me) > 3:\n    run turn_end\nelse:\n    gain 1 grain\n    run turn_end": "13:13",
    "if false:\n    gain 1 grain\nelif true:\n    run turn_end": "15:13",
    "for p in players:\n    run turn_end": "13:13",
    "repeat 2:\n    run turn_end": "13:13",
    "if 1 < 2:\n    for p in [1]:\n        repeat 1 + 1:\n            run turn_end": "15:21",
}
# Runs a condition of the game may skip, or after what may end the effect: warnings.
MAYBE = [
    "if turn_number < 3:\n    run turn_end",
    "optional:\n    run turn_end",
    "for p in opponents where points(p) > 3:\n    run turn_end",
    "repeat hand_size(me):\n    run turn_end",
    "if points(me) > 3:\n    run turn_end\nelse:\n    gain 1 grain",
    "if points(me) > 30:\n    stop\nrun turn_end",
    "require points(me) < 30\nrun turn_end",
]


def _looping(tmp_path: Path, block: str) -> Result:
    effect = "".join(f"        {line}\n" for line in ["phase again by me", *block.split("\n")])
    body = PHASE + "override:\n  hooks:\n    turn_end:\n      effect: |\n" + effect
    return CliRunner().invoke(cli, ["validate", str(_variant(tmp_path, body))])


@pytest.mark.parametrize("block", ALWAYS)
def test_a_nested_run_that_always_happens_is_an_error(tmp_path: Path, block: str) -> None:
    result = _looping(tmp_path, block)
    assert result.exit_code == 1, result.output
    assert f"v.yaml:{ALWAYS[block]}: the hook 'turn_end' always runs itself again" in result.stderr


@pytest.mark.parametrize("block", MAYBE)
def test_a_nested_run_a_condition_may_skip_is_a_warning(tmp_path: Path, block: str) -> None:
    result = _looping(tmp_path, block)
    assert result.exit_code == 0, result.output
    assert "warning: the hook 'turn_end' may run itself again" in result.stderr


def test_a_turn_that_asks_without_end_stops_the_game_unfinished(tmp_path: Path) -> None:
    """A loop validate cannot see (under `if`): the game stops at its budget of decisions
    per turn, logged as unfinished with the budget it reached."""
    body = PHASE + (
        "override:\n  parameters:\n    turn_decision_limit: 40\n  hooks:\n    turn_end:\n"
        "      effect: |\n        phase again by me\n        if turn_number >= 0:\n"
        "            run turn_end\n"
    )
    events = _played(_variant(tmp_path, body))
    assert events[-1] == {
        "event": "unfinished", "player": -1, "turns": 1, "limit": "turn_decision_limit",
        "budget": True,
    }  # fmt: skip
    result = CliRunner().invoke(cli, ["play", *FAST, "--rules", str(tmp_path / "v.yaml")])
    assert result.exit_code == 0
    assert "stopped unfinished in turn 1: it reached its limit turn_decision_limit" in result.output


def test_a_game_past_its_budget_of_decisions_stops_unfinished(tmp_path: Path) -> None:
    body = "override:\n  parameters:\n    game_decision_limit: 120\n"
    events = _played(_variant(tmp_path, body))
    assert events[-1]["event"] == "unfinished" and events[-1]["limit"] == "game_decision_limit"


def test_simulate_counts_the_endless_games_as_unfinished(tmp_path: Path) -> None:
    body = PHASE + (
        "override:\n  parameters:\n    turn_decision_limit: 30\n  hooks:\n    turn_start:\n"
        "      effect: |\n        if turn_number >= 0:\n            phase again by me\n"
        "            run turn_start\n"
    )
    result = CliRunner().invoke(
        cli, ["simulate", str(_variant(tmp_path, body)), "--players", "random,random,random",
              "--games", "2", "--jobs", "1"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "2 games on 2 seeds, 0 finished" in result.stdout
    assert "2 stopped unfinished" in result.stdout


def test_a_hook_that_logs_in_a_loop_is_stopped_and_the_game_ends(tmp_path: Path) -> None:
    """2,000 hooks of 10,000 steps each, every turn, logged 1.2 GB: now no hook runs past
    20,000 events in a step, and the game stops at its budget of the log."""
    body = (
        "override:\n  parameters:\n    game_event_limit: 50000\n  hooks:\n    turn_start:\n"
        "      effect: |\n        repeat 9999:\n            gain 1 grain\n            pay 1 grain\n"
        "        if turn_number >= 0:\n            run turn_start\n"
    )
    events = _played(_variant(tmp_path, body))
    assert len(events) < 100_000  # the budget, and what the last step logged past it
    stops = [e for e in events if e["event"] == "hook_failed"]
    assert stops and "more than 20000 events in one step" in str(stops[0]["reason"])
    assert events[-1]["event"] == "unfinished" and events[-1]["limit"] == "game_event_limit"


def test_stealing_a_billion_from_oneself_moves_nothing(tmp_path: Path) -> None:
    body = (
        "override:\n  hooks:\n    turn_start:\n      effect: |\n        gain 1 grain\n"
        "        steal 1000000000 from me\n        for p in opponents:\n"
        "            steal 1000000000 from p\n"
    )
    events = _played(_variant(tmp_path, body))
    assert events[-1]["event"] in ("win", "unfinished")


def test_card_counts_and_whole_numbers_have_bounds(tmp_path: Path) -> None:
    card = "add:\n  cards:\n    big:\n      deck: trade\n      count: {}\n      effect: stop\n"
    for count, message in (("1e9", "expected a whole number"), ("2000", "must be at most 1000")):
        result = CliRunner().invoke(cli, ["validate", str(_variant(tmp_path, card.format(count)))])
        assert result.exit_code == 1 and f"v.yaml:6:14: {message}" in result.stderr
    body = "override:\n  parameters:\n    points_to_win: 13.0\n"
    result = CliRunner().invoke(cli, ["validate", str(_variant(tmp_path, body))])
    assert result.exit_code == 1 and "expected a whole number, found the number 13.0" in (
        result.stderr
    )
    body = "add:\n  counters:\n    c:\n      start: 99999999999999999999\n"
    result = CliRunner().invoke(cli, ["validate", str(_variant(tmp_path, body))])
    assert result.exit_code == 1 and "must be at most 1000000000000000000" in result.stderr


def test_a_counter_doubled_without_end_stops_and_the_game_saves(tmp_path: Path) -> None:
    """A counter past 4,300 digits made --save fail (exit 3, the game lost)."""
    body = (
        "add:\n  counters:\n    c:\n      per: game\n      start: 1\n"
        "override:\n  hooks:\n    turn_start:\n      effect: |\n"
        "        repeat 100:\n            add counter(c) to c\n"
        "    turn_end:\n      effect: |\n        let x = 1\n"
        "        repeat 70:\n            let x = x + x\n        advance barbarians x\n"
    )
    save = tmp_path / "g.json"
    result = CliRunner().invoke(
        cli, ["play", *FAST, "--rules", str(_variant(tmp_path, body)), "--save", str(save)]
    )
    assert result.exit_code == 0 and save.exists(), result.output
    assert "the counter c would pass the largest number an effect may make" in result.output
    assert "the counter barbarians would pass" in result.output


def test_a_negative_price_or_rate_stops_the_effect_and_the_bank_stays_whole(
    tmp_path: Path,
) -> None:
    body = (
        "override:\n  hooks:\n    turn_start:\n      effect: |\n        let n = 0 - 5\n"
        "        grant price {brick: n} on road\n"
        "    turn_end:\n      effect: |\n        let n = 0 - 5\n        grant rate n on brick\n"
    )
    game = start(GameSetup(rules=str(_variant(tmp_path, body)), seed=1))
    bots = [RandomBot(p) for p in range(4)]
    while game.pending.kind != "over":
        player = game.pending.player
        game.answer(bots[player].choose(game.view(player)))
        assert min(game.state.bank) >= 0 and all(min(p.hand) >= 0 for p in game.state.players)
    stops = [e["reason"] for e in game.events if e["event"] == "hook_failed"]
    assert set(stops) == {
        "a price of -5 brick: it must be 0 or more",
        "a rate of -5: it must be 1 or more",
    }


@given(st.integers(1, 60), st.integers(1, 400), st.integers(1, 10_000))
def test_every_game_ends_within_its_budgets(per_turn: int, per_game: int, seed: int) -> None:
    """Any budgets, any seed: the game ends, and never past either budget."""
    first = start(GameSetup(seed=seed), log=False)
    budgets = {"turn_decision_limit": per_turn, "game_decision_limit": per_game}
    params = {**first.rules.params, **budgets}
    rules = dataclasses.replace(first.rules, params=params)
    game = Game(rules, first.topo, first.layout, 4, seed, log=False)
    game.play_out([RandomBot(seed + p) for p in range(4)])
    assert game.state.decisions <= per_game and game.state.turn_decisions <= per_turn
    assert (
        game.state.decisions == per_game
        or game.state.turn_decisions == per_turn
        or (game.state.winner >= 0)
    )


# --- nothing writes over a file the game reads -----------------------------------------------


def test_no_output_is_written_over_a_file_the_game_reads(tmp_path: Path) -> None:
    parent = _variant(tmp_path, "override:\n  parameters:\n    points_to_win: 12\n", "parent.yaml")
    child = tmp_path / "child.yaml"
    child.write_text("extends: parent.yaml\n")
    standard = Path(__file__).resolve().parent.parent / "rules" / "maps" / "standard.yaml"
    save = tmp_path / "g.json"
    played = CliRunner().invoke(cli, ["play", *FAST, "--rules", str(child), "--save", str(save)])
    assert played.exit_code == 0, played.output
    before = {p: p.read_bytes() for p in (parent, child, save, standard)}
    rules = ["--rules", str(child)]
    for args, option, target, said in (
        (["play", *FAST, *rules, "--save"], "--save", parent, "a file the rules being played"),
        (["watch", *FAST, *rules, "--svg"], "--svg", parent, "a file the rules being played"),
        (["replay", str(save), "--step", "--svg"], "--svg", child, "the rules being played"),
        (["board", "--save", str(save), "--svg"], "--svg", save, "the file being shown"),
        (["board", "--map", str(standard), "--svg"], "--svg", standard, "the map being played"),
        (["compare", "base", str(child), "--games", "1", "--report"], "--report", parent,
         "a file the rules being played"),
    ):  # fmt: skip
        result = CliRunner().invoke(cli, [*args, str(target)])
        assert result.exit_code == 2, (args, result.output)
        assert f"Invalid value for {option}: '{target}' is {said}" in result.stderr, args
    assert {p: p.read_bytes() for p in before} == before


def test_the_terminal_seat_writes_no_save_or_board_over_the_rules(tmp_path: Path) -> None:
    parent = _variant(tmp_path, "override:\n  parameters:\n    points_to_win: 12\n", "parent.yaml")
    child = tmp_path / "child.yaml"
    child.write_text("extends: parent.yaml\n")
    lines = f"save {parent}\nboard {parent}\nquit\nn\n"
    result = CliRunner().invoke(
        cli, ["play", "--players", "human,random,random,random", "--seed", "1",
              "--rules", str(child)], input=lines,
    )  # fmt: skip
    assert result.output.count(f"not saved: {parent} is the rules being played") == 2
    assert parent.read_text().startswith("extends: base\n")


# --- crashes and wrong exit codes --------------------------------------------------------------


def test_bots_make_no_offer_the_rules_forbid(tmp_path: Path) -> None:
    variant = _variant(tmp_path, 'override:\n  allow:\n    offer: "false"\n')
    result = CliRunner().invoke(
        cli, ["play", "--players", "heuristic,heuristic,mcts:iterations=5,heuristic",
              "--seed", "1", "--rules", str(variant)],
    )  # fmt: skip
    assert result.exit_code == 0 and "Final scores" in result.output, result.output


def test_an_empty_name_is_a_usage_error_naming_the_option() -> None:
    for args, option in (
        (["play", *FAST, "--map", ""], "'--map'"),
        (["play", *FAST, "--rules", ""], "'--rules'"),
        (["validate", ""], "'[PATHS]...'"),
        (["simulate", " ", "--games", "1"], "'[RULES]'"),
        (["board", "--map", ""], "'--map'"),
        (["replay", ""], "'SAVE'"),
    ):
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 2, args
        assert f"Invalid value for {option}: an empty name names" in result.stderr, args


def test_links_round_a_loop_and_unreadable_folders_are_findings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "v"
    (folder / "a").mkdir(parents=True)
    (folder / "a" / "self").symlink_to("self")
    (folder / "a" / "up").symlink_to("..")
    result = CliRunner().invoke(cli, ["validate", str(folder)])
    assert result.exit_code == 1, result.output
    assert "a/self: a symbolic link that leads nowhere or round a loop" in result.stderr
    assert "a/up: a link to a folder searched already (a loop): not read" in result.stderr
    for args in (
        ["validate", str(folder / "a" / "self")],
        ["play", "--rules", str(folder / "a" / "self")],
    ):
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 1 and "round a loop" in result.stderr, args
    locked = tmp_path / "locked"
    locked.mkdir()
    real = Path.iterdir

    def refused(self: Path) -> Iterator[Path]:
        if self == locked:
            raise PermissionError(13, "Permission denied", str(self))
        return real(self)

    monkeypatch.setattr(Path, "iterdir", refused)  # (the suite may run as root)
    result = CliRunner().invoke(cli, ["validate", str(locked)])
    assert result.exit_code == 1 and "cannot read this folder: Permission denied" in result.stderr


def test_the_terminal_seat_takes_odd_numbers_and_huge_lines_briefly() -> None:
    lines = "²\n" + "9" * 5000 + "\n" + "x" * 300_000 + "\nlog 99999999999999\nquit\nn\n"
    result = CliRunner().invoke(
        cli, ["play", "--players", "human,random,random,random", "--seed", "1"], input=lines
    )
    assert result.exit_code == 0, result.output
    assert "'²' is not a legal answer for Red now" in result.output
    assert "'10000+' is not a legal answer for Red now" in result.output
    assert "no option 999999999999: give 1 to" in result.output
    assert "x" * 100 not in result.output and len(result.output) < 100_000


def test_thousands_of_findings_in_one_file_are_summed_up(tmp_path: Path) -> None:
    cards = "".join(
        f"    c{i}:\n      deck: nope\n      count: 0\n      effect: gain x y\n" for i in range(300)
    )
    result = CliRunner().invoke(
        cli, ["validate", str(_variant(tmp_path, "add:\n  cards:\n" + cards))]
    )
    assert result.exit_code == 1 and "1200 errors" in result.stderr
    assert "v.yaml: ... and 1,100 more findings here (fix those above first)" in result.stderr
    assert result.stderr.count("\n") < 400


def test_the_python_api_takes_a_path_and_names_a_wrong_argument(tmp_path: Path) -> None:
    import pytest as _pytest

    from ckdsl.board import load_map, map_path, topology_for
    from ckdsl.sim.summary import summarize
    from ckdsl.turn.notation import parse_answer

    rules = _variant(tmp_path, "override:\n  parameters:\n    points_to_win: 12\n")
    game = start(GameSetup(rules=rules, map=map_path(Path("standard")), seed=1))
    assert game.pending.kind == "setup_settlement"
    assert load_map(str(map_path("standard")))[0] is not None
    for call, said in (
        (
            lambda: GameSetup(rules=3),
            "GameSetup.rules takes a name or a file (str or Path), not int 3",
        ),
        (
            lambda: GameSetup(players="4"),
            "GameSetup.players takes a whole number (int), not str '4'",
        ),
        (lambda: parse_answer(game, 5), "parse_answer takes the answer as a text (str), not int"),
        (lambda: topology_for(None), "topology_for takes a MapSpec (from load_map), not NoneType"),
        (lambda: summarize(tmp_path), "summarize takes the games as a DataFrame"),
    ):
        with _pytest.raises(TypeError, match=re.escape(said)):
            call()
    with _pytest.raises(ValueError, match=r"GameSetup\.map is empty"):
        GameSetup(map="")
