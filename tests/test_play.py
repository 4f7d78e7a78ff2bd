"""`ckdsl play` and `ckdsl replay`: complete games, identical twice, saves that replay."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from ckdsl.bots import RandomBot
from ckdsl.cli import cli
from ckdsl.session import GameSetup, play, replay, save_data, start

FAST = ["--players", "random,random,random", "--seed", "7"]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    save = tmp_path_factory.mktemp("play") / "game.json"
    result = CliRunner().invoke(cli, ["play", *FAST, "--save", str(save)])
    assert result.exit_code == 0, result.output
    return result.stdout, save


REPO = Path(__file__).resolve().parent.parent


def test_play_prints_a_log_and_final_scores(played: tuple[str, Path]) -> None:
    out, _ = played
    assert out.startswith("Red builds: Settlement at ")
    assert "Turn 1: Red" in out
    assert "\nFinal scores\n  Red: " in out
    assert ("wins with" in out) != ("stopped unfinished" in out)


def test_the_same_command_twice_prints_the_same(played: tuple[str, Path]) -> None:
    again = CliRunner().invoke(cli, ["play", *FAST])
    assert again.stdout == played[0]


def test_replay_prints_the_game_again(played: tuple[str, Path]) -> None:
    out, save = played
    result = CliRunner().invoke(cli, ["replay", str(save)])
    assert result.exit_code == 0, result.output
    assert result.stdout == out


def test_replay_reaches_the_identical_state(tmp_path: Path) -> None:
    setup = GameSetup(players=3, seed=11)
    game = start(setup)
    play(game, [RandomBot(p) for p in range(3)])
    path = tmp_path / "save.json"
    path.write_text(json.dumps(save_data(game, setup)), encoding="utf-8")
    again, _ = replay(path)
    assert again.state.digest() == game.state.digest()
    assert again.history == game.history


def test_play_json(played: tuple[str, Path]) -> None:
    result = CliRunner().invoke(cli, ["play", *FAST, "--json"])
    report = json.loads(result.stdout)
    assert set(report["scores"]) == {"red", "blue", "white"}
    assert report["finished"] == (report["winner"] is not None)
    assert report["log"][0]["event"] == "build"


def test_play_in_french(played: tuple[str, Path]) -> None:
    result = CliRunner().invoke(cli, ["play", *FAST, "--lang", "fr"])
    assert result.exit_code == 0
    assert result.stdout != played[0]
    assert "Final scores" not in result.stdout


def broken(save: Path, tmp_path: Path, edit: object) -> Path:
    data = json.loads(save.read_text(encoding="utf-8"))
    edit(data)  # type: ignore[operator]
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_save_under_other_rules_is_refused(played: tuple[str, Path], tmp_path: Path) -> None:
    path = broken(played[1], tmp_path, lambda d: d.update(ruleset_hash="0" * 64))
    result = CliRunner().invoke(cli, ["replay", str(path)])
    assert result.exit_code == 1
    assert "saved under other rules" in result.stderr
    assert "Traceback" not in result.output


def test_a_corrupted_answer_is_named(played: tuple[str, Path], tmp_path: Path) -> None:
    def corrupt(data: dict[str, list[str]]) -> None:
        data["answers"][3] = "build road 0-53"

    path = broken(played[1], tmp_path, corrupt)
    result = CliRunner().invoke(cli, ["replay", str(path)])
    assert result.exit_code == 1
    assert "answer 4 ('build road 0-53') cannot be replayed: " in result.stderr
    assert "legal: 'build road" in result.stderr


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "broken.json:1:2: not valid JSON"),
        ("[]", "broken.json:1:1: not a ckdsl save file"),
        ('{"format": "ckdsl-save", "version": 9}', "save format version 9 is not supported"),
        (
            '{"format": "ckdsl-save", "version": 1, "setup": {"rules": "base"}}',
            "version 1 saves were written by ckdsl 0.1",
        ),
        (
            '{"format": "ckdsl-save", "version": 2, "setup": {"rules": "base"}}',
            "'setup' must have exactly",
        ),
        ('{"format": "ckdsl-save", "version": "2"}', "version is a number, not the text '2'"),
        (
            '{"format": "ckdsl-save", "version": 2, "setup": {"rules": "", "map": "standard", '
            '"layout": null, "players": 4, "seed": 1}, "answers": []}',
            "broken.json:1:1: setup.rules is empty",  # (was exit 3: a ValueError)
        ),
    ],
)
def test_broken_save_files(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "broken.json"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(cli, ["replay", str(path)])
    assert result.exit_code == 1
    assert message in result.stderr
    assert "Traceback" not in result.output


def test_missing_save_file(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["replay", str(tmp_path / "nope.json")])
    assert result.exit_code == 1 and "no such file" in result.stderr


def test_bad_arguments() -> None:
    runner = CliRunner()
    result = runner.invoke(cli, ["play", "--players", "random,genius,random"])
    assert result.exit_code == 2 and "unknown bot 'genius'" in result.stderr
    result = runner.invoke(cli, ["play", "--players", "random,random"])
    assert result.exit_code == 2 and "3 to 4 players, not 2" in result.stderr
    assert "Invalid value for --players" in result.stderr  # the option, not a file '.'
    result = runner.invoke(cli, ["play", "--layout", "nope"])
    assert result.exit_code == 2 and "Invalid value for --layout" in result.stderr
    result = runner.invoke(cli, ["play", *FAST, "--map", "atlantis"])
    assert result.exit_code == 1 and "atlantis" in result.stderr


@pytest.mark.parametrize("lang", ["en", "fr", "it", "pl", "pt", "sr", "sr-Latn"])
def test_every_event_renders_in_every_language(lang: str) -> None:
    """Each kind of event, in each language: no placeholder or message id left over."""
    from ckdsl.l10n.catalog import load_catalog
    from ckdsl.l10n.events import EventRenderer
    from ckdsl.session import load_rules
    from ckdsl.turn.notation import edge_name, player_name

    game = start(GameSetup(players=4, seed=2))
    play(game, [RandomBot(p) for p in range(4)])
    extra = [
        {"event": "offer", "player": 0, "give": {"brick": 2}, "get": {"coin": 1}},
        {"event": "accept", "player": 1, "offerer": 0},
        {"event": "decline", "player": 2, "offerer": 0},
        {"event": "trade", "player": 0, "partner": 1, "give": {"brick": 2}, "get": {"coin": 1}},
        {"event": "trade_cancelled", "player": 0},
        {"event": "shortage", "player": -1, "good": "ore"},
        {"event": "longest_road", "player": -1, "previous": 0, "length": 5},
        {"event": "title", "player": 1, "title": "longest_road", "previous": -1},
        {"event": "title", "player": -1, "title": "longest_road", "previous": 1},
        {"event": "win", "player": 3, "points": 13},
        {"event": "unfinished", "player": -1, "turns": 500},
        {
            "event": "unfinished",
            "player": -1,
            "turns": 9,
            "limit": "turn_decision_limit",
            "budget": True,
        },
        # Cities & Knights, every kind with the fields the engine gives it.
        {"event": "barbarians", "player": 0, "position": 3},
        {"event": "attack", "player": 0, "strength": 4, "defence": 5, "won": True},
        {"event": "attack", "player": 0, "strength": 4, "defence": 2, "won": False},
        {"event": "defender", "player": 1},
        {"event": "defender_none_left", "player": 1},
        {"event": "robber_unlocked", "player": 0},
        {"event": "pillaged", "player": 2, "at": 12, "damaged": False},
        {"event": "pillaged", "player": 2, "at": 12, "damaged": True},
        {"event": "metropolis", "player": 1, "track": "science", "at": 26},
        {"event": "improve", "player": 1, "track": "trade", "level": "market"},
        {"event": "knight", "player": 0, "at": 4, "level": "strong_knight", "active": True},
        {"event": "knight_removed", "player": 0, "at": 4, "level": "basic_knight"},
        {"event": "activate", "player": 0, "at": 4},
        {"event": "promote", "player": 0, "at": 4, "level": "mighty_knight"},
        {"event": "move_knight", "player": 0, "at": 4, "to": 8},
        {"event": "displace", "player": 0, "at": 4, "to": 8, "victim": 1},
        {"event": "chase", "player": 0, "at": 4},
        {"event": "draw", "player": 2, "deck": "politics", "card": "spy"},
        {"event": "reveal", "player": 2, "card": "printer"},
        {"event": "deck_empty", "player": 2, "deck": "trade"},
        {"event": "discard_card", "player": 2, "card": "spy"},
        {"event": "play", "player": 0, "card": "bishop"},
        {"event": "give", "player": 1, "partner": 0, "goods": {"ore": 1}},
        {"event": "pay", "player": 1, "goods": {"ore": 1}},
        {"event": "removed", "player": 1, "piece": "road", "at": 3},
        {"event": "merchant", "player": 1, "tile": 4},
        {"event": "swap", "player": 1, "tile": 4, "other": 7},
        {"event": "dice_set", "player": 1, "white": 3, "red": 4},
        {"event": "reveal_hand", "player": 1, "viewer": 0},
        {"event": "seize", "player": 0, "victim": 1, "card": "spy"},
        {"event": "modifier", "player": 0, "kind": "rate"},
        {"event": "card_failed", "player": 0, "card": "bishop", "line": 2, "reason": "..."},
        {"event": "level_failed", "player": 0, "level": "aqueduct", "line": 1, "reason": "..."},
        {"event": "hook_failed", "player": 0, "hook": "seven", "line": 1, "reason": "..."},
        {"event": "action_failed", "player": 0, "action": "hire", "line": 1, "reason": "..."},
        {"event": "action", "player": 0, "action": "hire"},
    ]
    catalog = load_catalog(lang, load_rules("base").ruleset)
    colours = [player_name(game, p) for p in range(4)]
    renderer = EventRenderer(
        catalog, colours, lambda piece, at: edge_name(game, at) if piece == "road" else str(at)
    )
    kinds = set()
    for event in game.events + extra:
        line = renderer.render(event)
        kinds.add(event["event"])
        if line is None:
            continue
        assert "{" not in line and "log_" not in line, (event, line)
    assert {"roll", "produce", "build", "bank_trade", "turn", "discard"} <= kinds
    # Every kind of event the engine logs anywhere is among those rendered here.
    source = "".join(p.read_text(encoding="utf-8") for p in (REPO / "ckdsl").rglob("*.py"))
    logged = set(re.findall(r'\blog\(\s*"([a-z_]+)"', source))
    assert logged <= kinds, logged - kinds
