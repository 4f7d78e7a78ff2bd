"""`downgrade` with no settlement piece left stops the effect and says so (it did nothing,
silently, and the rule went on as if the city had become a settlement)."""

from __future__ import annotations

from ckdsl.core.allow import Env
from ckdsl.core.state import CITY
from ckdsl.dsl.base.errors import EffectFailure
from ckdsl.dsl.compiler.blocks import run_code
from ckdsl.dsl.compiler.program import Names
from ckdsl.dsl.program import compile_effect
from ckdsl.rules.positions import Positions
from ckdsl.scenario.position import apply_position
from ckdsl.session import GameSetup, load_rules, start


def test_downgrade_with_no_settlement_piece_left_stops_the_effect() -> None:
    game = start(GameSetup())
    position = {"players": {"red": {"cities": [26], "settlements": [0, 2, 13, 40, 50]}}}
    assert not apply_position(game, position, Positions())
    program, errors = compile_effect(
        "downgrade 26\ngain 1 grain", Names.of(load_rules("base").ruleset.data)
    )
    assert program is not None, errors
    run = run_code(program.code)
    assert run is not None
    try:
        run(Env(game, 0, {}), [], 0, [0])
    except EffectFailure as failure:
        assert str(failure).startswith("no settlement piece is left for the city at 26")
    else:
        raise AssertionError("downgrade went on")
    assert game.state.building[26] == CITY  # still a city
