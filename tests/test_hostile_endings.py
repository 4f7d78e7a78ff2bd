"""Hostile input, round 2 (issue 29): games that always end, numbers with bounds, files
the game reads that nothing writes over, and crashes or wrong exit codes on odd input.
Each test builds its hostile file itself."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from ckdsl.bots import RandomBot
from ckdsl.cli import cli
from ckdsl.engine.game import Game
from ckdsl.session import GameSetup, start

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
    # through another hook, too; a run under a condition may be a countdown: not an error
    two = (
        "add:\n  hooks:\n    ping:\n      effect: run pong\n    pong:\n      effect: |\n"
        "        gain 1 grain\n        run ping\n"
    )
    result = CliRunner().invoke(cli, ["validate", str(_variant(tmp_path, two))])
    assert result.exit_code == 1 and "(ping → pong → ping)" in result.stderr
    counted = two.replace("        run ping\n", "        if true:\n            run ping\n")
    assert CliRunner().invoke(cli, ["validate", str(_variant(tmp_path, counted))]).exit_code == 0


def test_a_turn_that_asks_without_end_stops_the_game_unfinished(tmp_path: Path) -> None:
    """A loop validate cannot see (under `if`): the game stops at its budget of decisions
    per turn, logged as unfinished with the budget it reached."""
    body = PHASE + (
        "override:\n  parameters:\n    turn_decision_limit: 40\n  hooks:\n    turn_end:\n"
        "      effect: |\n        phase again by me\n        if true:\n            run turn_end\n"
    )
    events = _played(_variant(tmp_path, body))
    assert events[-1] == {
        "event": "unfinished", "player": -1, "turns": 1, "limit": "turn_decision_limit",
        "decisions": True,
    }  # fmt: skip
    result = CliRunner().invoke(cli, ["play", *FAST, "--rules", str(tmp_path / "v.yaml")])
    assert result.exit_code == 0
    assert "stopped unfinished in turn 1: more decisions than turn_decision_limit" in result.output


def test_a_game_past_its_budget_of_decisions_stops_unfinished(tmp_path: Path) -> None:
    body = "override:\n  parameters:\n    game_decision_limit: 120\n"
    events = _played(_variant(tmp_path, body))
    assert events[-1]["event"] == "unfinished" and events[-1]["limit"] == "game_decision_limit"


def test_simulate_counts_the_endless_games_as_unfinished(tmp_path: Path) -> None:
    body = PHASE + (
        "override:\n  parameters:\n    turn_decision_limit: 30\n  hooks:\n    turn_start:\n"
        "      effect: |\n        if true:\n            phase again by me\n"
        "            run turn_start\n"
    )
    result = CliRunner().invoke(
        cli, ["simulate", str(_variant(tmp_path, body)), "--players", "random,random,random",
              "--games", "2", "--jobs", "1"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "2 games on 2 seeds, 0 finished" in result.stdout
    assert "2 stopped unfinished" in result.stdout


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
