"""Rules as data all the way down: hooks, `allow` conditions, actions, phases, counters
and the conditional expression, each shown to change the game (docs/dsl.md, "Hooks").

The variants under examples/variants/ (friendly robber, peaceful knights, shared
defence, mercenaries, double promotion, the 5-6 player extension) are proved by their
scenarios under examples/scenarios/ (tests/test_scenarios.py runs them) and played to the
end by bots (tests/test_variants.py); these tests cover the mechanisms themselves.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from ckdsl.bots import RandomBot
from ckdsl.cli import cli
from ckdsl.core import building
from ckdsl.core.compiled import ENGINE_PARAMETERS
from ckdsl.core.decisions import IllegalAnswer
from ckdsl.dsl.parser import parse_expression
from ckdsl.dsl.pretty import expr
from ckdsl.session import GameSetup, play, start
from ckdsl.turn.game import Game
from ckdsl.turn.notation import parse_answer

REPO = Path(__file__).resolve().parent.parent


def variant(tmp_path: Path, body: str, name: str = "v.yaml") -> str:
    path = tmp_path / name
    path.write_text("extends: base\n" + body, encoding="utf-8")
    return str(path)


def main_phase(game: Game) -> Game:
    """Play random answers until it is a main-phase decision of the player whose turn it is."""
    bot = RandomBot(7)
    while not (game.pending.kind == "main" and game.state.turn > 2):
        game.answer(bot.choose(game.view(game.pending.player)))
    return game


# --- parameters ---------------------------------------------------------------------------


def test_a_parameter_that_nothing_reads_fails_validate(tmp_path: Path) -> None:
    """Without the `promote` condition, knight_promotions_per_turn is read by nothing:
    validate says so at the parameter's own line."""
    rules = tmp_path / "rules"
    shutil.copytree(REPO / "rules" / "base", rules)
    turn = rules / "turn.yaml"
    text = turn.read_text(encoding="utf-8")
    text = re.sub(r"\n  promote: .*\n", "\n", text)
    turn.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(cli, ["validate", str(rules)])
    assert result.exit_code == 1
    line = next(
        n
        for n, row in enumerate((rules / "game.yaml").read_text().splitlines(), 1)
        if row.strip().startswith("knight_promotions_per_turn:")
    )
    assert f"game.yaml:{line}:3: parameter 'knight_promotions_per_turn' is read by nothing" in (
        result.stderr
    )
    assert "knight_actions_per_turn" not in result.stderr  # still read by `knight_acts`


def test_the_engines_own_parameters_are_declared() -> None:
    """Every parameter the engine's Python reads is in ENGINE_PARAMETERS (so the check
    above cannot miss one), and every one declared there is read."""
    source = "".join(
        p.read_text(encoding="utf-8")
        for folder in ("core", "turn", "dsl")
        for p in (REPO / "ckdsl" / folder).rglob("*.py")
    )
    accessors = r"(?:\.param|\.number|\.flag|\.text|\.names)\(|params\["
    read = set(re.findall(rf"""(?:{accessors})\s*"([a-z_]+)"\s*[)\]]""", source))
    read |= set(re.findall(r'"(progress_hand_limit(?:_own_turn)?)"', source))
    # the budgets every game has, read once by name (turn.game.Game.budgets)
    read |= set(re.findall(r'"((?:turn|game)_(?:decision|event)_limit)"', source))
    assert read == ENGINE_PARAMETERS


# --- allow ----------------------------------------------------------------------------------


def test_false_forbids_a_move_and_a_condition_limits_it(tmp_path: Path) -> None:
    rules = variant(
        tmp_path,
        """override:
  allow:
    road: "false"
    bank: "give != grain"
""",
    )
    game = main_phase(start(GameSetup(rules=rules, seed=3)))
    player = game.state.current
    me = game.state.players[player]
    me.hand[:] = [9] * len(me.hand)
    game.refresh()
    verbs = {o[0] for o in game.pending.options}
    assert building.spots(game, player, "road") and "road" not in verbs
    assert "city" in verbs  # the others are offered as before
    assert not any(o[0] == "bank" and o[1] == "grain" for o in game.pending.options)
    assert any(o[0] == "bank" and o[1] == "ore" for o in game.pending.options)
    with pytest.raises(IllegalAnswer):
        game.answer(("road", game.state.players[player].roads[0]))


def test_offers_and_cards_follow_their_conditions(tmp_path: Path) -> None:
    rules = variant(
        tmp_path,
        """override:
  allow:
    offer: "turn_number > 1000"
    play: "c != spy"
""",
    )
    game = main_phase(start(GameSetup(rules=rules, seed=3)))
    player = game.state.current
    game.state.players[player].hand[0] = 2
    game.state.players[player].progress = ["spy"]
    game.refresh()
    assert ("play", "spy") not in game.pending.options
    with pytest.raises(IllegalAnswer, match="condition for play does not hold: c != spy"):
        parse_answer(game, "play spy")
    with pytest.raises(
        IllegalAnswer, match="condition for offer does not hold: turn_number > 1000"
    ):
        game.answer(("offer", {game.rules.goods[0]: 1}, {game.rules.goods[1]: 1}))


# --- hooks ------------------------------------------------------------------------------------


def test_a_hook_that_fails_stops_with_a_logged_reason_and_the_game_goes_on(tmp_path: Path) -> None:
    rules = variant(
        tmp_path,
        """override:
  hooks:
    turn_start:
      effect: |
        gain 1 grain
        move robber to 99
        gain 1 ore
""",
    )
    game = start(GameSetup(rules=rules, seed=2))
    play(game, [RandomBot(p) for p in range(4)])
    failed = [e for e in game.events if e["event"] == "hook_failed"]
    assert failed and failed[0]["hook"] == "turn_start" and failed[0]["line"] == 2
    assert "there is no tile 99" in failed[0]["reason"]
    assert game.state.over


def test_turn_hooks_and_a_game_counter(tmp_path: Path) -> None:
    """A counter per game counts the turns' ends in `turn_end`; `turn_start` gives the
    player a grain on every turn whose number is a multiple of 3 (a conditional
    expression decides how many)."""
    rules = variant(
        tmp_path,
        """add:
  counters:
    ends: {per: game}
override:
  hooks:
    turn_end:
      effect: add 1 to ends
    turn_start:
      effect: gain (1 if turn_number % 3 == 0 else 0) grain
""",
    )
    game = start(GameSetup(rules=rules, seed=5))
    bot = RandomBot(1)
    while game.state.turn < 7:
        game.answer(bot.choose(game.view(game.pending.player)))
    assert game.state.counters["ends"] == 6
    gains = [e for e in game.events if e["event"] == "produce" and e.get("goods") == {"grain": 1}]
    turns = {e["turn"] for e in game.events if e["event"] == "turn"}
    assert {3, 6} <= turns and len(gains) >= 2


def test_the_conditional_expression_prints_back() -> None:
    for text in (
        "2 if level(me, science) >= 3 else 1",
        "(1 if a else 2) + 3",
        "a if b else c if d else e",
    ):
        printed = expr(parse_expression(text))
        assert expr(parse_expression(printed)) == printed
    assert expr(parse_expression("(1 if a else 2) + 3")) == "(1 if a else 2) + 3"


def test_a_counter_per_player_resets_each_turn(tmp_path: Path) -> None:
    rules = variant(
        tmp_path,
        """add:
  counters:
    bought: {per: player, reset: turn, start: 2}
override:
  hooks:
    turn_start:
      effect: add 1 to bought for me
""",
    )
    game = start(GameSetup(rules=rules, seed=5))
    bot = RandomBot(1)
    while game.state.turn < 3:
        game.answer(bot.choose(game.view(game.pending.player)))
    current = game.state.current
    values = game.state.counters["bought"]
    assert values[current] == 3 and all(v == 2 for p, v in enumerate(values) if p != current)


def test_knights_that_may_never_act_are_offered_no_action(tmp_path: Path) -> None:
    """`knight_acts: "false"`: an active knight next to the robber, with free
    intersections to move to, is offered nothing (not even by the listing's fast path)."""
    rules = variant(tmp_path, 'override:\n  allow:\n    knight_acts: "false"\n')
    game = main_phase(start(GameSetup(rules=rules, seed=3)))
    player = game.state.current
    state = game.state
    spot = next(iter(building.spots(game, player, "knight")), None)
    assert spot is not None
    from ckdsl.core import pieces

    pieces.place_knight(game, player, spot, 2, True)
    game.refresh()
    verbs = {o[0] for o in game.pending.options}
    assert not verbs & {"move_knight", "displace", "chase"}
    assert state.knight_active[spot]


def test_a_variant_that_leaves_a_parameter_unread_is_warned(tmp_path: Path) -> None:
    """A variant may switch a rule off (knights never act), leaving its parameter
    (knight_actions_per_turn) behind: validate warns, and the variant loads and plays."""
    rules = variant(
        tmp_path,
        'override:\n  allow:\n    knight_acts: "false"\n'
        "  hooks:\n    knight_acted: {effect: stop}\n",
    )
    result = CliRunner().invoke(cli, ["validate", rules])
    assert result.exit_code == 0, result.output
    assert "warning: parameter 'knight_actions_per_turn' is read by nothing" in result.stderr


def test_a_hook_that_runs_itself_is_stopped_not_a_hang(tmp_path: Path) -> None:
    # Under a condition, so `validate` (ckdsl.dsl.hook_loops) lets it through to the runtime.
    rules = variant(
        tmp_path,
        """add:
  hooks:
    forever:
      effect: |
        gain 1 grain
        if turn_number >= 0:
            run forever
override:
  hooks:
    turn_start:
      effect: run forever
""",
    )
    game = start(GameSetup(rules=rules, seed=2))
    bot = RandomBot(1)
    while game.state.turn < 3:
        game.answer(bot.choose(game.view(game.pending.player)))
    failed = [e for e in game.events if e["event"] == "hook_failed"]
    assert failed and "does a hook run itself?" in failed[0]["reason"]
    assert failed[0]["hook"] == "forever"
