"""Rules that mutation testing found unchecked (tools/mutation.py).

Each test pins down a documented rule (docs/rules.md) that a one-line change of the
engine's Python could break without the rest of the suite noticing (the mutants are
named in the tests' docstrings). Positions are placed as scenarios place them
(docs/scenarios.md), and everything a player does goes through ``answer``.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import plainyaml

from ckdsl.core import pieces
from ckdsl.core.building import try_build
from ckdsl.core.production import produce
from ckdsl.core.state import CITY, DAMAGED, NOBODY, SETTLEMENT
from ckdsl.rules.positions import Positions
from ckdsl.scenario import run_file
from ckdsl.scenario.position import apply_position
from ckdsl.session import GameSetup, start
from ckdsl.turn.game import Game
from ckdsl.turn.notation import format_option, parse_answer

RED, BLUE, WHITE, ORANGE = range(4)


def game_at(position: str, *, gold: int | None = None, rules: str = "base") -> Game:
    """A game on the beginner layout with ``position`` (YAML, as a scenario's) placed;
    ``gold``: a tile turned into a gold field."""
    game = start(GameSetup(rules=rules, layout="beginner"))
    if gold is not None:
        terrain = list(game.layout.terrain)
        terrain[gold] = "gold"
        layout = dataclasses.replace(game.layout, terrain=tuple(terrain))
        game = Game(game.rules, game.topo, layout, game.n, 0)
    problems = apply_position(game, plainyaml.safe_load(position), Positions())
    assert not problems, [p.format() for p in problems]
    return game


def reduce_city_settlement(game: Game, i: int) -> None:
    """`downgrade i`, as the rule set's `city_lost` hook runs it."""
    pieces.reduce_city(game, i, damaged=False)


def reduce_city_damaged(game: Game, i: int) -> None:
    """`damage i`."""
    pieces.reduce_city(game, i, damaged=True)


def options(game: Game) -> set[str]:
    return {format_option(game, o) for o in game.pending.options}


def answer(game: Game, text: str) -> None:
    game.answer(parse_answer(game, text))


def roll(game: Game, white: int, red: int, face: str = "ship") -> None:
    game.state.fixed_rolls.append((white, red, face))
    answer(game, "roll")


def held(game: Game, player: int) -> dict[str, int]:
    hand = game.state.players[player].hand
    return {g: hand[i] for i, g in enumerate(game.rules.goods) if hand[i]}


def bank_holds(game: Game, good: str, n: int) -> None:
    """Leave ``n`` of ``good`` in the bank, the rest in orange's hand (totals conserved)."""
    g = game.rules.good_index[good]
    game.state.players[ORANGE].hand[g] += game.state.bank[g] - n
    game.state.bank[g] = n


# --- production --------------------------------------------------------------------------


def test_a_bank_that_can_pay_everyone_exactly_pays_everyone() -> None:
    """docs/rules.md, "Production": the shortage rule applies only when the bank cannot
    pay everyone; with exactly what is owed left, everyone is paid and the bank is
    emptied (mutants of ``production.produce``: ``total >= bank[g]``, a total counted
    from 1)."""
    game = game_at("{players: {red: {settlements: [13]}, blue: {settlements: [23]}}}")
    bank_holds(game, "brick", 2)
    roll(game, 2, 4)  # hills 6 (tile 4), corners 13 and 23
    assert held(game, RED) == {"brick": 1} and held(game, BLUE) == {"brick": 1}
    assert game.state.bank[game.rules.good_index["brick"]] == 0
    assert "shortage" not in [e["event"] for e in game.events]


def test_the_shortage_rule_one_taker_gets_what_is_left_two_get_nothing() -> None:
    """docs/rules.md, "Production": a good the bank cannot pay to everyone goes to nobody
    (the log says which), unless one player alone is owed it: they get what is left
    (mutants of ``production.produce``: ``len(takers) >= 1``; the `shortage` event's
    player and good)."""
    game = game_at("{players: {red: {cities: [13]}}}")
    bank_holds(game, "brick", 1)
    roll(game, 2, 4)  # hills 6 (tile 4): red's city is owed 2 bricks, the bank has 1
    assert held(game, RED) == {"brick": 1}
    assert "shortage" not in [e["event"] for e in game.events]
    game = game_at("{players: {red: {settlements: [13]}, blue: {settlements: [23]}}}")
    bank_holds(game, "brick", 1)
    roll(game, 2, 4)
    assert held(game, RED) == {} and held(game, BLUE) == {}
    shortages = [e for e in game.events if e["event"] == "shortage"]
    assert shortages == [{"event": "shortage", "player": NOBODY, "good": "brick"}]


def test_gold_is_chosen_in_turn_order_from_the_roller() -> None:
    """docs/rules.md, "Production": gold is chosen; the players choose in turn from the
    roller, as the roll's other decisions go round (the engine's order, not written in
    docs/rules.md; mutants of ``production.produce``: the gold choices sorted by
    player, from the wrong player, or not sorted)."""
    game = game_at(
        "{turn: blue, players: {red: {settlements: [13]}, blue: {settlements: [23]}}}",
        gold=4,
    )
    roll(game, 2, 4)  # tile 4, gold with a 6
    assert (game.pending.kind, game.pending.player) == ("gold", BLUE)
    answer(game, "take ore")
    assert (game.pending.kind, game.pending.player) == ("gold", RED)
    answer(game, "take wool")
    assert held(game, BLUE) == {"ore": 1} and held(game, RED) == {"wool": 1}


def test_a_number_on_no_tile_produces_nothing() -> None:
    """`produce N` (docs/rules.md, "Production"): every building next to a tile with the
    number yields; a number no tile carries (a 7, or a number a map lacks) yields
    nothing and fails nothing (mutants of ``production.produce``: ``.get(number, None)``)."""
    game = game_at("{players: {red: {settlements: [13]}}}")
    bank = list(game.state.bank)
    produce(game, RED, 7)
    assert game.state.bank == bank and held(game, RED) == {}


# --- losing a city ---------------------------------------------------------------------


def test_only_a_city_is_downgraded_or_damaged() -> None:
    """docs/rules.md, "Losing a city": the barbarians take a city; a settlement or an
    already damaged city is left as it is by `downgrade` and `damage` (mutant of
    ``pieces.reduce_city``: ``player == NOBODY and ...``)."""
    game = game_at("{players: {red: {settlements: [13], damaged: [40], cities: [0]}}}")
    points = game.state.players[RED].points
    for verb in (reduce_city_settlement, reduce_city_damaged):
        verb(game, 13)
        verb(game, 40)
    assert game.state.building[13] == SETTLEMENT and game.state.building[40] == DAMAGED
    assert game.state.players[RED].points == points
    assert game.state.players[RED].supply["settlement"] == 4


def test_a_city_is_downgraded_only_with_a_settlement_piece_left() -> None:
    """docs/rules.md, "Losing a city": a city becomes a settlement when its owner has a
    settlement piece left, the last one included; with none it stays a city for
    `downgrade` (mutants of ``pieces.reduce_city``: ``>= 0``, ``> 1``)."""
    game = game_at("{players: {red: {cities: [0, 13], walls: [0]}}}")
    me = game.state.players[RED]
    me.supply["settlement"] = 1
    reduce_city_settlement(game, 0)
    assert game.state.building[0] == SETTLEMENT and not game.state.wall[0]
    assert me.supply["settlement"] == 0 and me.points == 3
    reduce_city_settlement(game, 13)
    assert game.state.building[13] == CITY
    assert me.supply["settlement"] == 0 and me.points == 3


# --- building ---------------------------------------------------------------------------


def test_no_city_without_a_city_piece_no_knight_without_a_basic_knight() -> None:
    """docs/rules.md, "Numbers and where they come from" (pieces): 4 cities and 2 basic
    knights per player; with none left in the supply no city is offered, and the DSL's
    `build knight` (``try_build``, free) places none (mutants of ``building.spots``: the
    supply checks ``or True``)."""
    game = game_at(
        "{turn: red, phase: after_roll, players: {red: {cities: [0, 10, 26, 40],"
        " settlements: [51], roads: [51-47, 47-43, 43-38],"
        " knights: [{at: 47}, {at: 43}], hand: {grain: 2, ore: 3}}}}"
    )
    me = game.state.players[RED]
    assert me.supply["city"] == 0 and me.supply["basic_knight"] == 0
    assert not [o for o in options(game) if o.startswith("build city ")]
    assert not try_build(game, RED, "knight", 38, free=True)
    assert game.state.knight[38] == NOBODY and me.supply["basic_knight"] == 0


def test_the_longest_road_event_gives_its_length() -> None:
    """docs/engine.md, "The log": the `longest_road` event names the new holder, the
    previous one and the length (mutants of ``pieces.award_longest_road``: the length
    dropped)."""
    game = game_at(
        "{turn: red, phase: after_roll, players: {red: {settlements: [22],"
        " roads: [0-4, 4-8, 8-12, 12-17], hand: {brick: 1, lumber: 1}}}}"
    )
    answer(game, "build road 17-22")
    event = [e for e in game.events if e["event"] == "longest_road"]
    assert event == [{"event": "longest_road", "player": RED, "previous": NOBODY, "length": 5}]


# --- the barbarians ---------------------------------------------------------------------


def test_no_defender_card_left_gives_the_strongest_defender_nothing() -> None:
    """docs/rules.md, "Decisions where the sources differ": with a Defender supply (the
    box's 6 in examples/variants/earlier_base.yaml; the base's 500 is never reached) and
    no card left, the single strongest defender gets nothing, and the log says so
    (mutants of the `defender_none_left` event in ``pieces.award_defender``)."""
    game = game_at(
        "{turn: blue, barbarians: 6, players: {"
        " red: {cities: [0], roads: [0-4], knights: [{at: 4, level: 2, active: true}]},"
        " blue: {cities: [13], defender: 6}}}",
        rules=str(Path(__file__).resolve().parent.parent / "examples/variants/earlier_base.yaml"),
    )
    roll(game, 1, 4)
    assert game.state.players[RED].defender == 0
    assert game.state.players[RED].points == 2
    assert {"event": "defender_none_left", "player": RED} in [
        {k: e[k] for k in ("event", "player") if k in e} for e in game.events
    ]


# --- knights ----------------------------------------------------------------------------


def test_the_smith_promotes_no_knight_past_the_supply() -> None:
    """docs/rules.md, "Decisions where the sources are silent": the Smith promotes up to
    two knights as the supplies allow: with one strong knight left, the second basic
    knight chosen stays basic (mutant of ``knights.try_promote``: ``owner == NOBODY and
    not can_promote_knight``)."""
    game = game_at(
        "{turn: red, phase: after_roll, players: {red: {settlements: [13],"
        " roads: [13-18, 18-23, 18-24],"
        " knights: [{at: 18}, {at: 23, level: 2}, {at: 24}], progress: [smith]}}}"
    )
    me = game.state.players[RED]
    assert me.supply["strong_knight"] == 1
    answer(game, "play smith")
    answer(game, "choose knight 18")
    answer(game, "choose knight 24")
    assert sorted(game.state.knight_level[i] for i in (18, 23, 24)) == [1, 2, 2]
    assert me.supply["strong_knight"] == 0 and me.supply["basic_knight"] == 1
    assert game.pending.kind == "main"


# --- improvements -----------------------------------------------------------------------


def test_a_city_for_the_metropolis_is_needed_from_level_4_on_only() -> None:
    """docs/rules.md, "Checked: no difference": levels 4 and 5 need a city that can take
    a metropolis, or the track's metropolis already; up to level 3 any city will do
    (mutants of ``improvements.can_improve``: ``level + 2``, ``held != NOBODY or``,
    ``held == NOBODY and``)."""
    only_city_has_trade = (
        "{turn: red, phase: after_roll, metropolises: {trade: 40%s},"
        " players: {red: {cities: [40], levels: {trade: 4, science: %d},"
        " hand: {paper: 5}}, blue: {cities: [0], levels: {science: 4}}}}"
    )
    # science 2 -> 3: no free city needed
    assert "improve science" in options(game_at(only_city_has_trade % ("", 2)))
    # science 3 -> 4: blue holds the science metropolis, red has no city to carry one
    blue_science = ", science: 0"
    assert "improve science" not in options(game_at(only_city_has_trade % (blue_science, 3)))
    # science 4 -> 5 for the holder of the science metropolis, whose city carries it
    holder = (
        "{turn: red, phase: after_roll, metropolises: {science: 40},"
        " players: {red: {cities: [40], levels: {science: 4}, hand: {paper: 5}}}}"
    )
    assert "improve science" in options(game_at(holder))


def test_reaching_the_merchant_guild_by_improving_gives_its_rate() -> None:
    """docs/rules.md, "Improvements and metropolises": reaching a level runs its ability;
    the Merchant Guild (trade 3) trades commodities 2:1 from the moment it is built
    (mutants of ``improvements.improve``: the level not passed to ``ability_tasks``)."""
    game = game_at(
        "{turn: red, phase: after_roll,"
        " players: {red: {cities: [40], levels: {trade: 2}, hand: {cloth: 3, coin: 2}}}}"
    )
    assert "trade coin for ore" not in options(game)
    answer(game, "improve trade")
    assert game.state.players[RED].levels[game.rules.track_index["trade"]] == 3
    assert "trade coin for ore" in options(game)


def test_an_ability_runs_when_its_level_is_reached_not_again() -> None:
    """docs/rules.md, "Improvements and metropolises": a level's ability runs when that
    level is reached; improving another track does not run the Merchant Guild's again
    (mutants of ``improvements.improve``: the level not passed to ``ability_tasks``,
    which then runs every level's "reached" ability the player holds)."""
    game = game_at(
        "{turn: red, phase: after_roll,"
        " players: {red: {cities: [40], levels: {trade: 3}, hand: {paper: 1, cloth: 4}}}}"
    )
    answer(game, "improve science")
    answer(game, "improve trade")
    assert [m["kind"] for m in game.state.modifiers] == ["rate"]
    assert [e["event"] for e in game.events].count("modifier") <= 1


# --- progress cards ---------------------------------------------------------------------


def test_a_card_whose_opening_fails_is_refused_with_the_reason(tmp_path: Path) -> None:
    """docs/rules.md, "Progress cards": a card whose opening cannot hold now cannot be
    played, and the refusal says why; an opening that stops on a fault gives the fault as
    the reason (mutant of ``runtime.unplayable``: ``str(None)``)."""
    (tmp_path / "v.yaml").write_text(
        "extends: base\noverride:\n  cards:\n    bishop:\n      effect: |\n"
        "        let n = number(99)\n        move robber to 4\n",
        encoding="utf-8",
    )
    scenario = tmp_path / "s.yaml"
    scenario.write_text(
        "name: x\nrules: v.yaml\nposition:\n  phase: after_roll\n  players:\n"
        "    red: {progress: [bishop]}\nsteps:\n"
        "  - expect:\n      pending: {player: red, kind: main, excludes: [play bishop]}\n"
        "  - refuse: play bishop\n"
        "    message: 'Bishop cannot be played now: there is no tile 99 on this board'\n",
        encoding="utf-8",
    )
    outcome = run_file(scenario)
    assert outcome.status == "pass", outcome.to_json()
