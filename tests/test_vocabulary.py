"""Every word of the effect DSL, executed in a game with its effect asserted.

The registry (``ckdsl.dsl.base.registry``: ``FUNCTIONS``, ``VERBS``, ``AGGREGATES``) is what a
house-rule author writes with. Each case below places a position with the scenario
helpers (``ckdsl.scenario.position``), plays the steps that lead up to it, runs an effect
as a hook of a small variant (the ``rules`` fixture: one hook per case), answers the
decisions it opens, and then checks the state the way scenario files do (``expect``) and
the value of DSL formulas (``values``). An assertion fails if a word does something else.

Each effect runs twice: as the engine runs a hook (``Game.run_hook``), compiled to
Python, and under the same rules compiled to closures alone (``closures_only``), where
the hook waits in the queue and runs instruction by instruction, as cards and actions
do. Each formula is evaluated both ways too.

A word is named by its registry entry: a function by its name and parameter types
(``owner(road)``, ``cities``), a selection by ``count(each)``, a verb by its name, and by
``verb word`` for each optional clause, flag, or choice of its word argument (``gain to``,
``build free``, ``move merchant``). ``test_every_word_of_the_registry_has_a_case`` fails,
naming the word, when a word is added to the registry without a case here.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import yaml

from ckdsl.core.allow import Env
from ckdsl.core.invariants import broken_invariants
from ckdsl.dsl.base import ast
from ckdsl.dsl.base.registry import AGGREGATES, FUNCTIONS, VERBS
from ckdsl.dsl.base.types import ANY
from ckdsl.dsl.compiler.program import Names
from ckdsl.dsl.compiler.pycode import closures_only
from ckdsl.dsl.parser import parse, parse_expression
from ckdsl.dsl.program import compile_formula
from ckdsl.rules.positions import Positions
from ckdsl.scenario.expect import actual_values, same
from ckdsl.scenario.position import apply_position
from ckdsl.session import GameSetup, load_rules, start
from ckdsl.turn.game import Game
from ckdsl.turn.notation import parse_answer

RED, BLUE, WHITE, ORANGE = range(4)
NOBODY = -1
GOODS = ["brick", "lumber", "wool", "grain", "ore", "paper", "cloth", "coin"]


@dataclass(frozen=True)
class Edges:
    """Expected edges, by their two intersections ("8-12"): a list of edge ids."""

    names: tuple[str, ...]

    def __init__(self, *names: str) -> None:
        object.__setattr__(self, "names", names)


@dataclass(frozen=True)
class Case:
    """A word (or a few) in play.

    ``position``: placed with the scenario helpers; ``before``: steps played first;
    ``effect``: run as a hook for ``me``; ``steps``: played next; ``expect``: scenario
    expectations at the end; ``values``: DSL formulas (for ``me``) and the values they
    must give at the end. A step is an answer (``"roll"``), the dice of the next roll
    (``(white, red, face)``) or expectations at that point (a dict)."""

    words: tuple[str, ...]
    effect: str | None = None
    position: dict[str, Any] = field(default_factory=dict)
    before: tuple[Any, ...] = ()
    steps: tuple[Any, ...] = ()
    expect: dict[str, Any] = field(default_factory=dict)
    values: dict[str, Any] = field(default_factory=dict)
    check: Callable[[Game], None] | None = None  # anything else to assert at the end
    me: int = RED
    xfail: str | None = None


def case(words: str, **kwargs: Any) -> Case:
    """``words``: the registry words the case shows, separated by ``;``."""
    return Case(tuple(w.strip() for w in words.split(";")), **kwargs)


def red_sees(game: Game, player: int, card: str) -> None:
    """Red's view of the game (``Game.view``) shows ``card`` in ``player``'s hand, or in
    the log as red saw it."""
    view = game.view(RED)
    shown = view.state.players[player].progress
    logged = [e for e in view.events if e["event"] == "reveal_hand" and card in str(e)]
    assert card in shown or logged, (shown, [e for e in view.events])


# --- positions ------------------------------------------------------------------------------

# Blue's turn, after the roll; the effects run for red (`me`), so `current` is blue.
BLUES_TURN: dict[str, Any] = {"turn": "blue", "phase": "after_roll"}
REDS_TURN: dict[str, Any] = {"turn": "red", "phase": "after_roll"}


def at(base: dict[str, Any], **players: dict[str, Any]) -> dict[str, Any]:
    """``base`` with these players' pieces and hands."""
    return {**base, "players": players}


# A board to read: red has 8 points (2 cities, a settlement, the science metropolis, the
# merchant), blue 6 (a settlement, a city with the trade metropolis, a Defender card).
BOARD: dict[str, Any] = {
    "turn": "red",
    "phase": "after_roll",
    "turn_number": 12,
    "barbarians": 3,
    "attacks": 1,
    "robber": 15,
    "merchant": {"tile": 4, "owner": "red"},
    "metropolises": {"science": 26, "trade": 40},
    "players": {
        "red": {
            "cities": [0, 26],
            "walls": [0, 26],
            "settlements": [13],
            "roads": ["0-4", "4-8", "8-12", "20-26"],
            "knights": [{"at": 4, "level": 2, "active": True}, {"at": 8}],
            "hand": {"brick": 2, "ore": 1, "cloth": 1},
            "levels": {"science": 4, "trade": 1},
            "progress": ["bishop", "spy"],
        },
        "blue": {
            "settlements": [23],
            "cities": [40],
            "roads": ["23-29", "29-34"],
            "knights": [{"at": 29, "active": True}],
            "hand": {"wool": 3},
            "levels": {"trade": 4},
            "defender": 1,
        },
    },
}

# Red's knights this turn: one activated, one promoted, one that moved.
KNIGHTS_THIS_TURN = at(
    REDS_TURN,
    red={
        "cities": [0],
        "roads": ["0-4", "1-4", "4-8", "8-13"],
        "knights": [{"at": 4}, {"at": 8, "active": True}, {"at": 1, "level": 2}],
        "hand": {"grain": 1, "wool": 1, "ore": 1},
    },
)

# Red before the roll, at level 3 in science (draws a card on a red 1 to 4 at its gate).
GATE_ROLL = at(
    {"turn": "red"},
    red={"cities": [0], "levels": {"science": 3}},
)


# --- the cases ------------------------------------------------------------------------------

FUNCTION_CASES = [
    # players
    case("me", values={"me": BLUE}, me=BLUE, position=BOARD),
    case("opponents", values={"opponents": [ORANGE, RED, BLUE]}, me=WHITE, position=BOARD),
    case("players", values={"players": [WHITE, ORANGE, RED, BLUE]}, me=WHITE, position=BOARD),
    case("current", values={"current": RED}, me=BLUE, position=BOARD),
    case(
        "points(player)",
        position=BOARD,
        values={"list(points(p) for each p in players)": [8, 6, 0, 0]},
    ),
    case(
        "hand_size(player)",
        position=BOARD,
        values={"list(hand_size(p) for each p in players)": [4, 3, 0, 0]},
    ),
    case(
        "amount(player, good)",
        position=BOARD,
        values={"amount(me, brick)": 2, "amount(me, wool)": 0, "amount(current, ore)": 1},
    ),
    case(
        "has(player, bundle)",
        position=BOARD,
        values={
            "has(me, {brick: 2, ore: 1})": True,
            "has(me, {brick: 3})": False,
            "has(me, {brick: 1, wool: 1})": False,
        },
    ),
    case("hand(player)", position=BOARD, values={"hand(me)": ["brick", "ore", "cloth"]}),
    case(
        "progress(player)",
        position=BOARD,
        values={"progress(me)": ["bishop", "spy"], "progress(owner(40))": []},
    ),
    case(
        "level(player, track)",
        position=BOARD,
        values={
            "list(level(p, trade) for each p in players)": [1, 4, 0, 0],
            "level(me, science)": 4,
            "level(me, politics)": 0,
        },
    ),
    case(
        "level(knight)", position=BOARD, values={"list(level(k) for each k in knights)": [2, 1, 1]}
    ),
    case(
        "can_improve(player, track)",
        position=BOARD,
        values={"list(each p in players where can_improve(p, politics))": [RED, BLUE]},
    ),
    # the board
    case("tiles", position=BOARD, values={"tiles": list(range(19))}),
    case("intersections", position=BOARD, values={"intersections": list(range(54))}),
    case("edges", position=BOARD, values={"count(edges)": 72}),
    case(
        "edge(intersection, intersection)",
        position=BOARD,
        values={"[edge(8, 12), edge(12, 8)]": Edges("8-12", "8-12")},
    ),
    case(
        "neighbours(intersection, intersection)",
        position=BOARD,
        values={"[neighbours(8, 12), neighbours(12, 8), neighbours(12, 13)]": [True, True, False]},
    ),
    case(
        "harbor(intersection); harbors(player)",
        position=BOARD,  # red: cities on 0 (a harbor) and 26 (a harbor), a settlement on 13
        values={"[harbor(0), harbor(13)]": [True, False], "harbors(me)": [0, 26]},
    ),
    case(
        "goods_of(terrain); commodity_of(track); track_of(commodity)",
        position=BOARD,
        values={
            "[goods_of(pasture), goods_of(hills), goods_of(desert)]": [
                ["wool", "cloth"],
                ["brick"],
                [],
            ],
            "[commodity_of(science), commodity_of(trade)]": ["paper", "cloth"],
            "[track_of(paper), track_of(coin)]": ["science", "politics"],
        },
    ),
    case(
        "harbor_for(intersection, good); trade_rate(player, good)",
        position=BOARD,  # 1: the wool harbor, 0: a generic one (red's city); red holds the
        # merchant on tile 4 (hills): brick at 2, its other resources at 3 (a harbor)
        values={
            "[harbor_for(1, wool), harbor_for(1, ore), harbor_for(0, wool)]": [True, False, False],
            "[trade_rate(me, brick), trade_rate(me, ore), trade_rate(owner(23), ore)]": [2, 3, 4],
        },
    ),
    case(
        "first_settlement(player)",
        position=BOARD,  # red's first building placed; blue's settlement then city
        values={"[first_settlement(me), first_settlement(owner(23))]": [13, 23]},
    ),
    case(
        "first_settlement(player)",
        effect="remove settlement 13",  # gone: the oldest building left
        position=BOARD,
        values={"first_settlement(me)": 0},
    ),
    case(
        "terrains_of(good)",
        position=BOARD,
        values={
            "[terrains_of(wool), terrains_of(paper), terrains_of(brick)]": [
                ["pasture"],
                ["forest"],
                ["hills"],
            ]
        },
    ),
    case(
        "tiles_of(terrain)",
        position=BOARD,
        values={"tiles_of(hills)": [4, 6, 16], "tiles_of(gold)": []},
    ),
    case("terrain(tile)", position=BOARD, values={"terrain(7)": "fields", "terrain(9)": "desert"}),
    case("number(tile)", position=BOARD, values={"number(4)": 6, "number(9)": 0}),
    case(
        "land(tile)",
        position=BOARD,  # the variant makes the desert sea
        values={"list(each t in tiles where not land(t))": [9]},
    ),
    case("corners(tile)", position=BOARD, values={"corners(4)": [8, 13, 18, 23, 17, 12]}),
    case(
        "tiles_at(intersection)",
        position=BOARD,
        values={"tiles_at(12)": [0, 3, 4], "tiles_at(0)": [0]},
    ),
    case(
        "tiles_next_to(player)",
        position=BOARD,
        values={
            "tiles_next_to(me)": [0, 1, 4, 5, 11],
            "tiles_next_to(owner(40))": [4, 8, 9, 13, 14, 17],
        },
    ),
    case(
        "adjacent(intersection, tile)",
        position=BOARD,
        values={"list(each t in tiles where adjacent(12, t))": [0, 3, 4]},
    ),
    case(
        "touches(player, tile)",
        position=BOARD,
        values={
            "list(each p in players where touches(p, 4))": [RED, BLUE],
            "list(each p in players where touches(p, 13))": [BLUE],
        },
    ),
    case("robber_tile", position=BOARD, values={"robber_tile": 15}),
    case("robber_unlocked", position=BOARD, values={"robber_unlocked": True}),
    case("robber_unlocked", position=REDS_TURN, values={"robber_unlocked": False}),
    case("merchant_tile", position=BOARD, values={"merchant_tile": 4}),
    case("merchant_tile", position=REDS_TURN, values={"merchant_tile": NOBODY}),
    case("barbarians", position=BOARD, values={"barbarians": 3}),
    case("attacks", position=BOARD, values={"attacks": 1}),
    case(
        "white_faces; red_faces",
        position=BOARD,  # the variant gives the red die a 7
        values={"white_faces": [1, 2, 3, 4, 5, 6], "red_faces": [1, 2, 3, 4, 5, 6, 7]},
    ),
    # buildings
    case("cities", position=BOARD, values={"cities": [0, 26, 40]}),
    case("cities(player)", position=BOARD, values={"cities(me)": [0, 26]}),
    case(
        "settlements(player)",
        position=BOARD,
        values={"settlements(me)": [13], "settlements(owner(40))": [23]},
    ),
    case("buildings(player)", position=BOARD, values={"buildings(me)": [0, 13, 26]}),
    case("metropolises", position=BOARD, values={"metropolises": [26, 40]}),
    case(
        "metropolises(player)",
        position=BOARD,
        values={
            "list(count(metropolises(p)) for each p in players)": [1, 1, 0, 0],
            "metropolises(me)": [26],
        },
    ),
    case("walls(player)", position=BOARD, values={"walls(me)": [0, 26]}),
    case(
        "walled(city)", position=BOARD, values={"list(each c in cities where walled(c))": [0, 26]}
    ),
    case(
        "is_metropolis(city)",
        position=BOARD,
        values={"list(each c in cities where is_metropolis(c))": [26, 40]},
    ),
    case(
        "owner(building)",
        position=BOARD,
        values={"owner(0)": RED, "owner(23)": BLUE, "owner(40)": BLUE, "owner(12)": NOBODY},
    ),
    case(
        "owner(building); list(each)",
        position=BOARD,
        values={"list(owner(b) for each b in [0, 23, 40, 12])": [RED, BLUE, BLUE, NOBODY]},
    ),
    # roads
    case("roads", position=BOARD, values={"count(roads)": 6}),
    case(
        "roads(player)",
        position=BOARD,
        values={
            "roads(me)": Edges("0-4", "4-8", "8-12", "20-26"),
            "roads(owner(40))": Edges("23-29", "29-34"),
        },
    ),
    case(
        "owner(road)",
        position=BOARD,
        values={"list(owner(r) for each r in roads)": [RED, RED, RED, RED, BLUE, BLUE]},
    ),
    case(
        "is_open(road)",
        position=BOARD,
        values={"list(each r in roads(me) where is_open(r))": Edges("8-12", "20-26")},
    ),
    case(
        "connected(player, intersection)",
        position=BOARD,
        values={"list(each i in intersections where connected(me, i))": [0, 4, 8, 12, 20, 26]},
    ),
    case(
        "road_spots(player)",
        position=BOARD,
        values={
            "road_spots(me)": Edges(
                "0-3", "1-4", "7-12", "8-13", "9-13", "12-17", "13-18", "15-20", "20-25", "26-32"
            )
        },
    ),
    # knights
    case("knights", position=BOARD, values={"knights": [4, 8, 29]}),
    case("knights(player)", position=BOARD, values={"knights(me)": [4, 8]}),
    case(
        "owner(knight)",
        position=BOARD,
        values={"list(owner(k) for each k in knights)": [RED, RED, BLUE]},
    ),
    case(
        "strength(knight)",
        position=BOARD,
        values={"list(strength(k) for each k in knights)": [2, 1, 1]},
    ),
    case(
        "active(knight)",
        position=BOARD,
        values={"list(each k in knights where active(k))": [4, 29]},
    ),
    case(
        "can_promote(knight)",
        position=BOARD,  # a mighty knight needs the Fortress
        values={"list(each k in knights where can_promote(k))": [8, 29]},
    ),
    case(
        "knights_left(player, number)",
        position=BOARD,
        values={"list(knights_left(me, n) for each n in [0, 1, 2, 3, 4])": [0, 1, 1, 2, 0]},
    ),
    case(
        "knight_spots(player)",
        position=BOARD,
        values={"knight_spots(me)": [12, 20], "knight_spots(owner(40))": [34]},
    ),
    case(
        "knight_reaches(player, intersection, intersection)",
        position=BOARD,  # red's networks: 0-4-8-12 (its knights on 4 and 8) and 20-26
        values={
            "list(each i in knight_spots(me) where knight_reaches(me, 0, i))": [12],
            "list(each i in knight_spots(me) where knight_reaches(me, 26, i))": [20],
            "knight_reaches(me, 26, 12)": False,
        },
    ),
    # goods, cards, tracks
    case("resources", position=BOARD, values={"resources": GOODS[:5]}),
    case("resources(player)", position=BOARD, values={"resources(me)": ["brick", "ore"]}),
    case("commodities", position=BOARD, values={"commodities": GOODS[5:]}),
    case("commodities(player)", position=BOARD, values={"commodities(me)": ["cloth"]}),
    case("goods", position=BOARD, values={"goods": GOODS}),
    case(
        "bank(good)",
        position=BOARD,
        values={"list(bank(g) for each g in goods)": [17, 19, 16, 19, 18, 12, 11, 12]},
    ),
    case("tracks", position=BOARD, values={"tracks": ["trade", "politics", "science"]}),
    case(
        "terrains",
        position=BOARD,
        values={
            "terrains": [
                "hills",
                "forest",
                "pasture",
                "fields",
                "mountains",
                "desert",
                "gold",
                "sea",
            ]
        },
    ),
    case(
        "deck_size(track)",
        position=BOARD,  # red holds two politics cards
        values={"list(deck_size(t) for each t in tracks)": [18, 16, 18]},
    ),
    # numbers and selections
    case(
        "list(list); list(each)",
        position=BOARD,
        values={
            "list(tiles_of(hills))": [4, 6, 16],
            "list(each p in players where points(p) > 5)": [RED, BLUE],
            "list(number(t) for each t in tiles_of(hills))": [6, 10, 5],
        },
    ),
    case(
        "count(list); count(each)",
        position=BOARD,
        values={
            "count(cities)": 3,
            "count([])": 0,
            "count(each t in tiles where terrain(t) == fields)": 4,
        },
    ),
    case(
        "sum(list); sum(each)",
        position=BOARD,
        values={
            "sum([1, 2, 3])": 6,
            "sum(number(t) for each t in tiles_of(hills))": 21,
            "sum(number(t) for each t in tiles_of(hills) where number(t) > 5)": 16,
        },
    ),
    case(
        "min(number, number); min(list); min(each)",
        position=BOARD,
        values={
            "min(5, 2)": 2,
            "min([4, 2, 9])": 2,
            "min(number(t) for each t in tiles)": 0,
            "min(number(t) for each t in tiles where number(t) > 0)": 2,
            "min(number(t) for each t in tiles_of(gold))": 0,
        },
    ),
    case(
        "max(number, number); max(list); max(each)",
        position=BOARD,
        values={
            "max(5, 2)": 5,
            "max([4, 2, 9])": 9,
            "max(number(t) for each t in tiles)": 12,
            "max(number(t) for each t in tiles where number(t) < 12)": 11,
            "max(number(t) for each t in tiles_of(gold))": 0,
        },
    ),
    case(
        "any(list); any(each)",
        position=BOARD,
        values={
            "any([false, true])": True,
            "any([false, false])": False,
            "any(each p in opponents where hand_size(p) > 2)": True,
            "any(each p in opponents where hand_size(p) > 3)": False,
        },
    ),
    case(
        "all(list); all(each)",
        position=BOARD,
        values={
            "all([true, true])": True,
            "all([true, false])": False,
            "all(each k in knights(me) where active(k))": False,
            "all(each k in knights where level(k) > 0)": True,
        },
    ),
    case(
        "true; false",
        position=BOARD,
        values={"true": True, "false": False, "true and not false": True},
    ),
    # the roll
    case(
        "dice_total; white_die; red_die; event_ships; gate_rolled(track); gate_track",
        position=GATE_ROLL,
        before=((2, 3, "science_gate"), "roll"),
        values={
            "dice_total": 5,
            "white_die": 2,
            "red_die": 3,
            "event_ships": 0,
            "list(each t in tracks where gate_rolled(t))": ["science"],
            "gate_track": "science",
        },
    ),
    case(
        "event_ships; gate_rolled(track)",
        position=GATE_ROLL,
        before=((6, 6, "ship"), "roll"),
        values={
            "event_ships": 1,
            "dice_total": 12,
            "any(each t in tracks where gate_rolled(t))": False,
        },
    ),
    case(
        "draws(player, track, number)",
        position=GATE_ROLL,
        values={
            "list(n for each n in red_faces where draws(me, science, n))": [1, 2, 3, 4],
            "any(each n in red_faces where draws(me, trade, n))": False,
        },
    ),
    case("turn_number", position=BOARD, values={"turn_number": 12}),
    case("turn_number", position={"phase": "setup"}, values={"turn_number": 0}),
    case(
        "discard_limit(player)",
        position=BOARD,  # two walls: 7 + 2 * 2
        values={"list(discard_limit(p) for each p in players)": [11, 7, 7, 7]},
    ),
    case(
        "robber_may_go(tile)",
        position=BOARD,
        values={"list(each t in tiles where not robber_may_go(t))": [15]},
    ),
    # the barbarians
    case("attack_at", position=BOARD, values={"attack_at": 9}),  # the variant's track
    case("barbarian_strength", position=BOARD, values={"barbarian_strength": 3}),
    case(
        "defence(player)",
        position=BOARD,
        values={"list(defence(p) for each p in players)": [2, 1, 0, 0]},
    ),
    case(
        "pillageable(player)",
        position=BOARD,  # no metropolis
        values={"pillageable(me)": [0], "pillageable(owner(40))": []},
    ),
    case(
        "settlements_left(player)",
        position=BOARD,
        values={"list(settlements_left(p) for each p in players)": [4, 4, 5, 5]},
    ),
    # the base's supply is unlimited (the pages set no limit: issue 30): turn_limit (500)
    # less those given, and blue holds one
    case("defenders_left", position=BOARD, values={"defenders_left": 499}),
    # knights this turn
    case(
        "activated_this_turn(knight); promotions_this_turn(knight); actions_this_turn(knight)",
        position=KNIGHTS_THIS_TURN,
        before=("activate knight 4", "promote knight 4", "move knight 8 to 13"),
        values={
            "list(each k in knights(me) where activated_this_turn(k))": [4],
            "list(promotions_this_turn(k) for each k in knights(me))": [0, 1, 0],
            "list(level(k) for each k in knights(me))": [2, 2, 1],
            "list(actions_this_turn(k) for each k in knights(me))": [0, 0, 1],
        },
    ),
]

# Dice for the rolls of a round: 2 and nothing produced, a gate no one draws on.
QUIET_DICE = (1, 1, "trade_gate")
ROUND = ("end turn", QUIET_DICE, "roll", "end turn", QUIET_DICE, "roll", "end turn",
         QUIET_DICE, "roll", "end turn", QUIET_DICE, "roll")  # fmt: skip
"""From red's main phase to red's next main phase."""

VERB_CASES = [
    # the roll and the robber
    case(
        "produce",
        effect="produce 6",  # tiles 4 (hills) and 17 (fields, robbed)
        position={
            **at(
                BLUES_TURN,
                red={"settlements": [13]},
                blue={"cities": [23]},
                white={"settlements": [10, 45]},
            ),
            "robber": 17,
        },
        expect={"hand": {"red": {"brick": 1}, "blue": {"brick": 2}, "white": {}}},
    ),
    case(
        "produce",  # the bank holds one brick for two players: neither gets it
        effect="produce 6",
        position=at(
            BLUES_TURN,
            red={"settlements": [13]},
            blue={"settlements": [23]},
            orange={"hand": {"brick": 18}},
        ),
        expect={"hand": {"red": {}, "blue": {}}, "bank": {"brick": 1}},
    ),
    case(
        "rob",
        effect="rob",
        position={
            **at(BLUES_TURN, blue={"settlements": [13], "hand": {"ore": 1}}),
            "robber_unlocked": True,
        },
        steps=(
            {"pending": {"player": "red", "kind": "robber", "excludes": ["move robber to 9"]}},
            "move robber to 4",
            {"pending": {"player": "red", "kind": "steal", "options": ["steal from blue"]}},
            "steal from blue",
        ),
        expect={"robber": 4, "hand": {"red": {"ore": 1}, "blue": {}}},
    ),
    case(
        "rob by",
        effect="rob by current",
        position={
            **at(BLUES_TURN, red={"settlements": [13], "hand": {"ore": 1}}),
            "robber_unlocked": True,
        },
        steps=(
            {"pending": {"player": "blue", "kind": "robber"}},
            "move robber to 4",
            "steal from red",
        ),
        expect={"robber": 4, "hand": {"red": {}, "blue": {"ore": 1}}},
    ),
    # the barbarians
    case(
        "advance",
        effect="advance barbarians 2",
        position={**BLUES_TURN, "barbarians": 1},
        expect={
            "barbarians": 3,
            "attacks": 0,
            "log": [{"event": "barbarians", "player": "red", "position": 3}],
        },
    ),
    case(
        "reset",
        effect="reset barbarians",
        position={**BLUES_TURN, "barbarians": 5},
        expect={"barbarians": 0, "attacks": 1, "robber_unlocked": False},
    ),
    case(
        "roll",
        effect="roll again",
        position=at({"turn": "red"}, red={"settlements": [13]}),
        before=((2, 4, "ship"),),
        expect={
            "hand": {"red": {"brick": 1}},
            "barbarians": 1,
            "log": [{"event": "roll", "player": "red", "total": 6}],
        },
    ),
    case(
        "unlock",
        effect="unlock robber",
        position=BLUES_TURN,
        expect={
            "robber_unlocked": True,
            "attacks": 0,
            "log": [{"event": "robber_unlocked", "player": "red"}],
        },
    ),
    case(
        "log",
        effect="log attack 5 3 false",
        position=BLUES_TURN,
        expect={
            "log": [
                {"event": "attack", "player": "red", "strength": 5, "defence": 3, "won": False}
            ],
            "attacks": 0,
        },
    ),
    case(
        "award",
        effect="award defender to current",
        position=BLUES_TURN,
        expect={"defender": {"blue": 1, "red": 0}, "points": {"blue": 1, "red": 0}},
        values={"defenders_left": 499},
    ),
    case(
        "award",
        effect="award defender to current",  # no limit (issue 30): 499 given, one more
        position=at(BLUES_TURN, red={"defender": 499}),
        expect={"defender": {"blue": 1, "red": 499}, "points": {"blue": 1, "red": 499}},
    ),
    case(
        "reward",
        effect="reward current",
        position=BLUES_TURN,
        steps=(
            {
                "pending": {
                    "player": "blue",
                    "kind": "reward",
                    "options": ["draw trade", "draw politics", "draw science"],
                }
            },
            "draw science",
        ),
        expect={"progress_count": {"blue": 1, "red": 0}, "deck_sizes": {"science": 17}},
    ),
    case(
        "pillage",
        effect="pillage current",
        position={**at(BLUES_TURN, blue={"cities": [26, 40]}), "metropolises": {"science": 40}},
        steps=(
            {"pending": {"player": "blue", "kind": "pillage", "options": ["lose city 26"]}},
            "lose city 26",
        ),
        expect={
            "settlements": {"blue": [26]},
            "cities": {"blue": [40]},
            "pending": {"player": "blue", "kind": "main"},
        },
    ),
    case(
        "downgrade",
        effect="downgrade 26",
        position=at(BLUES_TURN, red={"cities": [26], "walls": [26]}),
        expect={
            "settlements": {"red": [26]},
            "cities": {"red": []},
            "walls": {"red": []},
            "points": {"red": 1},
            "supply": {"red": {"city": 4, "settlement": 4, "city_wall": 3}},
        },
    ),
    case(
        "remove settlement; remove city; remove wall",
        effect="remove wall 0\nremove settlement 13\nremove city 26\nremove city 13",
        position=at(
            {**BLUES_TURN, "metropolises": {"science": 26}},
            red={
                "cities": [0, 26],
                "walls": [0, 26],
                "settlements": [13],
                "levels": {"science": 4},
            },
        ),
        expect={
            "settlements": {"red": []},
            "cities": {"red": [0]},
            "walls": {"red": []},
            "metropolises": {"science": None},
            "points": {"red": 2},
            "supply": {"red": {"city": 3, "settlement": 5, "city_wall": 3}},
        },
    ),
    case(
        "damage",
        effect="damage 26",
        position=at(BLUES_TURN, red={"cities": [26], "walls": [26]}),
        expect={
            "damaged": {"red": [26]},
            "cities": {"red": []},
            "settlements": {"red": []},
            "walls": {"red": []},
            "points": {"red": 1},
        },
    ),
    # hooks, phases, counters
    case(
        "run; run for",
        effect="run bonus\nrun bonus for current",
        position=BLUES_TURN,
        expect={"hand": {"red": {"grain": 1}, "blue": {"grain": 1}, "white": {}}},
    ),
    case(
        "phase",
        effect="phase builder by me",
        position=at(BLUES_TURN, red={"settlements": [13], "hand": {"brick": 1, "lumber": 1}}),
        steps=(
            {
                "pending": {
                    "player": "red",
                    "kind": "phase",
                    "options": [
                        "build road 8-13",
                        "build road 9-13",
                        "build road 13-18",
                        "end phase",
                    ],
                }
            },
            "build road 13-18",
            {"pending": {"player": "red", "kind": "phase", "options": ["end phase"]}},
            "end phase",
        ),
        expect={
            "roads": {"red": ["13-18"]},
            "hand": {"red": {}},
            "pending": {"player": "blue", "kind": "main"},
        },
    ),
    case(
        "add; add for",
        position=BLUES_TURN,
        effect="add 2 to tally\nadd 3 to tally for current\nadd (-1) to tally for current\n"
        "add 4 to rounds\nadd 1 to rounds for current",
        values={
            "counter(tally)": 2,
            "counter(tally, current)": 2,
            "list(counter(tally, p) for each p in players)": [2, 2, 0, 0],
            "counter(rounds)": 5,
            "counter(rounds, current)": 5,
        },
    ),
    case(
        "counter(counter); counter(counter, player)",
        effect="add 7 to tally for owner(40)",
        position=at(BLUES_TURN, white={"cities": [40]}),
        values={"counter(tally)": 0, "counter(tally, owner(40))": 7, "counter(tally, current)": 0},
    ),
    # goods
    case(
        "gain; gain to",
        effect="gain 2 grain\ngain 1 ore to current\ngain 25 wool",
        position=BLUES_TURN,
        expect={
            "hand": {"red": {"grain": 2, "wool": 19}, "blue": {"ore": 1}},
            "bank": {"grain": 17, "ore": 18, "wool": 0},
        },
    ),
    case(
        "pay; pay from",
        effect="pay 1 ore\npay 5 brick from current",
        position=at(BLUES_TURN, red={"hand": {"ore": 2}}, blue={"hand": {"brick": 2}}),
        expect={"hand": {"red": {"ore": 1}, "blue": {}}, "bank": {"ore": 18, "brick": 19}},
    ),
    case(
        "give",
        effect="give 2 wool from current to me\ngive 5 wool from current to owner(40)",
        position=at(BLUES_TURN, blue={"hand": {"wool": 3}}, white={"cities": [40]}),
        expect={"hand": {"red": {"wool": 2}, "blue": {}, "white": {"wool": 1}}},
    ),
    case(
        "take; take to",
        effect="take 2 ore from current\ntake 1 wool from current to owner(40)",
        position=at(BLUES_TURN, blue={"hand": {"ore": 1, "wool": 2}}, white={"cities": [40]}),
        expect={"hand": {"red": {"ore": 1}, "blue": {"wool": 1}, "white": {"wool": 1}}},
    ),
    case(
        "steal",
        effect="steal 1 from current",
        position=at(BLUES_TURN, blue={"hand": {"ore": 1}}),
        expect={"hand": {"red": {"ore": 1}, "blue": {}}},
    ),
    case(
        "steal to",
        effect="steal 3 from current to owner(40)",
        position=at(BLUES_TURN, blue={"hand": {"ore": 1, "wool": 1}}, white={"cities": [40]}),
        expect={"hand": {"red": {}, "blue": {}, "white": {"ore": 1, "wool": 1}}},
    ),
    case(
        "discard",
        effect="discard 2 by current",
        position=at(BLUES_TURN, blue={"hand": {"wool": 3, "ore": 1}}),
        steps=(
            {
                "pending": {
                    "player": "blue",
                    "kind": "discard",
                    "options": ["discard wool", "discard ore"],
                }
            },
            "discard ore",
            "discard wool",
        ),
        expect={"hand": {"blue": {"wool": 2}}, "pending": {"player": "blue", "kind": "main"}},
    ),
    # the board
    case(
        "move; move robber; move merchant; move by",
        position=BLUES_TURN,
        effect="move robber to 4\nmove merchant to 7\nmove merchant to 3 by current",
        expect={
            "robber": 4,
            "merchant": {"tile": 3, "owner": "blue"},
            "points": {"red": 0, "blue": 1},
        },
    ),
    case(
        "move merchant",
        effect="move merchant to 7",
        position=BLUES_TURN,
        expect={"merchant": {"tile": 7, "owner": "red"}, "points": {"red": 1}},
    ),
    case(
        "swap",
        effect="swap 4 with 5\nproduce 4",  # hills 6 and pasture 4
        position=at(BLUES_TURN, red={"settlements": [13]}),
        expect={"numbers": {"4": 4, "5": 6}, "hand": {"red": {"brick": 1}}},
    ),
    # building
    case(
        "build; build road; build free",
        effect="build road free",
        position=at(BLUES_TURN, red={"settlements": [13]}),
        steps=(
            {
                "pending": {
                    "player": "red",
                    "kind": "choose_edge",
                    "options": ["choose edge 8-13", "choose edge 9-13", "choose edge 13-18"],
                }
            },
            "choose edge 8-13",
        ),
        expect={"roads": {"red": ["8-13"]}, "hand": {"red": {}}},
    ),
    case(
        "build settlement; build at",
        effect="build settlement at 24",
        position=at(
            BLUES_TURN,
            red={
                "settlements": [13],
                "roads": ["13-18", "18-24"],
                "hand": {"brick": 1, "lumber": 1, "wool": 1, "grain": 1, "ore": 1},
            },
        ),
        expect={
            "settlements": {"red": [13, 24]},
            "hand": {"red": {"ore": 1}},
            "points": {"red": 2},
        },
    ),
    case(
        "build city; build paying",
        effect="build city at 13 paying {ore: 1}",
        position=at(BLUES_TURN, red={"settlements": [13], "hand": {"ore": 2, "grain": 2}}),
        expect={"cities": {"red": [13]}, "hand": {"red": {"ore": 1, "grain": 2}}},
    ),
    case(
        "build city_wall",
        effect="build city_wall at 0 free\nbuild city_wall at 26",
        position=at(BLUES_TURN, red={"cities": [0, 26], "hand": {"brick": 3}}),
        expect={"walls": {"red": [0, 26]}, "hand": {"red": {"brick": 1}}},
    ),
    case(
        "build knight",
        effect="build knight at 4\nbuild knight at 8",  # no price left
        position=at(
            BLUES_TURN, red={"cities": [0], "roads": ["0-4", "4-8"], "hand": {"wool": 1, "ore": 1}}
        ),
        expect={"knights": {"red": [{"at": 4, "level": 1, "active": False}]}, "hand": {"red": {}}},
    ),
    case(
        "improve; improve free",
        effect="improve science free\nimprove politics",
        position=at(BLUES_TURN, red={"cities": [0], "hand": {"coin": 2}}),
        expect={"levels": {"red": {"science": 1, "politics": 1}}, "hand": {"red": {"coin": 1}}},
    ),
    # knights
    case(
        "place; place with; place for",
        position=BLUES_TURN,
        effect="place knight at 12 with 3\nplace knight at 17 for current",
        expect={
            "knights": {
                "red": [{"at": 12, "level": 3, "active": False}],
                "blue": [{"at": 17, "level": 1, "active": False}],
            }
        },
    ),
    case(
        "remove; remove knight; remove road",
        effect="remove knight 4\nlet r = choose road from roads(me)\nremove road r",
        position=at(
            BLUES_TURN, red={"cities": [0], "roads": ["0-4", "4-8"], "knights": [{"at": 4}]}
        ),
        steps=(
            {"pending": {"kind": "choose_road", "options": ["choose road 0-4", "choose road 4-8"]}},
            "choose road 4-8",
        ),
        expect={
            "knights": {"red": []},
            "roads": {"red": ["0-4"]},
            "supply": {"red": {"basic_knight": 2, "road": 14}},
        },
    ),
    case(
        "promote; promote free",
        effect="promote 4\npromote 1 free",
        position=at(
            BLUES_TURN,
            red={
                "cities": [0],
                "roads": ["0-4", "1-4"],
                "knights": [{"at": 4}, {"at": 1, "level": 2}],
                "levels": {"politics": 3},  # the Fortress
                "hand": {"wool": 1, "ore": 2},
            },
        ),
        expect={
            "knights": {"red": [{"at": 4, "level": 2}, {"at": 1, "level": 3}]},
            "hand": {"red": {"ore": 1}},
        },
    ),
    case(
        "promote free",
        effect="promote 1 free",  # a mighty knight needs the Fortress
        position=at(
            BLUES_TURN,
            red={"cities": [0], "roads": ["0-4", "1-4"], "knights": [{"at": 1, "level": 2}]},
        ),
        expect={"knights": {"red": [{"at": 1, "level": 2}]}},
    ),
    case(
        "activate; activate free",
        effect="activate 4\nactivate 8 free",
        position=at(
            BLUES_TURN,
            red={
                "cities": [0],
                "roads": ["0-4", "4-8"],
                "knights": [{"at": 4}, {"at": 8}],
                "hand": {"grain": 1, "wool": 1},
            },
        ),
        expect={
            "knights": {"red": [{"at": 4, "active": True}, {"at": 8, "active": True}]},
            "hand": {"red": {"wool": 1}},
        },
    ),
    case(
        "activate free",
        effect="activate 4 free",  # it may not act this turn
        position=at(
            REDS_TURN,
            red={
                "cities": [0],
                "roads": ["0-4", "4-8", "8-12"],
                "knights": [{"at": 4}, {"at": 12, "active": True}],
            },
        ),
        expect={
            "pending": {
                "player": "red",
                "kind": "main",
                "includes": ["move knight 12 to 8"],
                "excludes": ["move knight 4 to 8"],
            }
        },
    ),
    case(
        "deactivate",
        effect="deactivate 4",
        position=at(
            BLUES_TURN,
            red={
                "cities": [0],
                "roads": ["0-4"],
                "knights": [{"at": 4, "level": 2, "active": True}],
            },
        ),
        expect={"knights": {"red": [{"at": 4, "level": 2, "active": False}]}},
    ),
    case(
        "displace",
        effect="displace 29",
        position=at(
            BLUES_TURN,
            blue={
                "settlements": [23],
                "roads": ["23-29", "29-34"],
                "knights": [{"at": 29, "active": True}],
            },
        ),
        steps=(
            {
                "pending": {
                    "player": "blue",
                    "kind": "relocate",
                    "options": ["relocate knight to 34"],
                }
            },
            "relocate knight to 34",
        ),
        expect={
            "knights": {"blue": [{"at": 34, "level": 1}]},
            "log": [{"event": "displace", "player": "red", "victim": "blue"}],
        },
    ),
    case(
        "displace",
        effect="displace 29",  # nowhere to go: back to the supply
        position=at(
            BLUES_TURN,
            blue={"settlements": [23], "roads": ["23-29"], "knights": [{"at": 29, "level": 2}]},
        ),
        expect={
            "knights": {"blue": []},
            "supply": {"blue": {"strong_knight": 2}},
            "pending": {"player": "blue", "kind": "main"},
        },
    ),
    # cards
    case(
        "draw; draw to",
        effect="draw science\ndraw politics to current",
        position={**BLUES_TURN, "decks": {"science": ["alchemist"], "politics": ["spy"]}},
        expect={
            "progress": {"red": ["alchemist"], "blue": ["spy"]},
            "deck_sizes": {"science": 17, "politics": 17},
        },
    ),
    case(
        "seize",
        effect="seize spy from current",
        position=at(
            BLUES_TURN,
            red={"progress": ["bishop", "alchemist", "crane", "inventor"]},
            blue={"progress": ["spy", "saboteur"]},
        ),
        steps=({"pending": {"player": "red", "kind": "discard_progress"}}, "discard crane"),
        expect={
            "progress": {"red": ["bishop", "alchemist", "inventor", "spy"], "blue": ["saboteur"]},
            "pending": {"player": "blue", "kind": "main"},
        },
    ),
    case(
        "reveal",
        effect="reveal current",
        position=at(BLUES_TURN, blue={"progress": ["spy"]}),
        expect={
            "log": [{"event": "reveal_hand", "player": "blue", "viewer": "red"}],
            "progress": {"blue": ["spy"], "red": []},
        },
    ),
    case(
        "reveal",
        effect="reveal current",
        position=at(BLUES_TURN, blue={"progress": ["spy"]}),
        check=lambda game: red_sees(game, BLUE, "spy"),
    ),
    case(
        "set",
        effect="set dice 2 3",
        position={"turn": "blue"},
        steps=("roll",),
        values={"white_die": 2, "red_die": 3, "dice_total": 5},
    ),
    # modifiers (red's own turn: a modifier lasts until the end of its player's turn)
    case(
        "grant; grant rate",
        effect="grant rate 2 on wool",
        position=at(REDS_TURN, red={"hand": {"wool": 4}}),
        steps=(
            {"pending": {"player": "red", "kind": "main", "includes": ["trade wool for brick"]}},
            "trade wool for brick",
            *ROUND,
            {"pending": {"player": "red", "kind": "main", "excludes": ["trade wool for brick"]}},
        ),
        expect={"hand": {"red": {"wool": 2, "brick": 1}}},
    ),
    case(
        "grant always",
        effect="grant rate 3 on [wool, ore] always",
        position=at(REDS_TURN, red={"hand": {"wool": 3}}),
        steps=(*ROUND, {"pending": {"includes": ["trade wool for brick"]}}, "trade wool for grain"),
        expect={"hand": {"red": {"grain": 1}}},
    ),
    case(
        "grant discount; grant once",
        effect="grant discount 1 on improvement once",
        position=at(REDS_TURN, red={"cities": [0], "hand": {"coin": 2}}),
        steps=("improve politics", {"hand": {"red": {"coin": 2}}}, "improve politics"),
        expect={"levels": {"red": {"politics": 2}}, "hand": {"red": {}}},
    ),
    case(
        "grant price",
        effect="grant price {ore: 1} on city once",
        position=at(REDS_TURN, red={"settlements": [13, 24], "hand": {"ore": 2, "grain": 2}}),
        steps=(
            {"pending": {"includes": ["build city 13", "build city 24"]}},
            "build city 13",
            {"pending": {"excludes": ["build city 24"]}},
        ),
        expect={"cities": {"red": [13]}, "hand": {"red": {"ore": 1, "grain": 2}}},
    ),
]

CASES = FUNCTION_CASES + VERB_CASES

# What the cases need of the variant besides their hooks.
HELPERS: dict[str, Any] = {
    "counters": {"tally": {"per": "player"}, "rounds": {"per": "game"}},
    "phases": {"builder": {"moves": ["road"]}},
    "hooks": {"bonus": {"effect": "gain 1 grain"}},
}
# What the variant changes, so that the words reading it are told from constants: the
# red die has a 7, the barbarians' track is 9 steps long, the desert is sea.
CHANGES: dict[str, Any] = {
    "dice": {"red_die": {"faces": [1, 2, 3, 4, 5, 6, 7]}},
    "barbarians": {"track_length": 9},
    "terrains": {"desert": {"land": False}},
}


def hook_of(k: int) -> str:
    return f"case_{k}"


# --- the registry's words -------------------------------------------------------------------


def registry_words() -> set[str]:
    """Every word of the registry, as the cases name them (see the module's docstring)."""
    words = set()
    for name, overloads in FUNCTIONS.items():
        for fn in overloads:
            words.add(f"{name}({', '.join(p.name for p in fn.params)})" if fn.params else name)
    words |= {f"{name}(each)" for name in AGGREGATES}
    for verb in VERBS.values():
        words.add(verb.name)
        for param in verb.params:
            if param.type.words is not None and len(param.type.words) > 1:
                words |= {f"{verb.name} {w}" for w in param.type.words}
        words |= {f"{verb.name} {prep}" for prep, p in verb.clauses.items() if p.optional}
        words |= {f"{verb.name} {flag}" for flag in verb.flags}
    return words


def names_used(c: Case) -> set[str]:
    """What a case's effect and formulas name: verbs (with ``verb word`` for their word
    arguments, clauses and flags), functions, names, and ``f(each)`` for selections."""
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, ast.Action):
            found.add(node.verb)
            for arg in node.args:
                if isinstance(arg, ast.Name):
                    found.add(f"{node.verb} {arg.id}")
            found.update(f"{node.verb} {clause.prep}" for clause in node.clauses)
        if isinstance(node, ast.Call):
            found.add(node.func)
            if len(node.args) == 1 and isinstance(node.args[0], ast.Each):
                found.add(f"{node.func}(each)")
        if isinstance(node, ast.Name):
            found.add(node.id)
        if isinstance(node, (tuple, list)):
            for item in node:
                walk(item)
        elif dataclasses.is_dataclass(node):
            for f in dataclasses.fields(node):
                walk(getattr(node, f.name))

    if c.effect is not None:
        walk(parse(c.effect))
    for formula in c.values:
        walk(parse_expression(formula))
    return found


def test_every_word_of_the_registry_has_a_case() -> None:
    covered = {w for c in CASES for w in c.words}
    missing = sorted(registry_words() - covered)
    unknown = sorted(covered - registry_words())
    assert not missing, f"words of the DSL without a case in tests/test_vocabulary.py: {missing}"
    assert not unknown, f"cases name words the registry does not have: {unknown}"


@pytest.mark.parametrize("k", range(len(CASES)), ids=lambda k: CASES[k].words[0])
def test_a_case_uses_the_words_it_names(k: int) -> None:
    c = CASES[k]
    used = names_used(c)
    for word in c.words:  # `owner(road)`: some call of `owner`; `count(each)` as it is
        head = word if word.endswith("(each)") else word.split("(")[0]
        assert head in used, f"{word!r} is named by the case but not used by it"


# --- running a case -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def rules(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The variant (base, with the helpers and one hook per case that runs an effect), by
    mode: two copies, one compiled to Python, one to closures alone."""
    hooks = {hook_of(k): {"effect": c.effect} for k, c in enumerate(CASES) if c.effect}
    doc = {
        "extends": "base",
        "add": {**HELPERS, "hooks": {**HELPERS["hooks"], **hooks}},
        "override": CHANGES,
    }
    folder = tmp_path_factory.mktemp("vocabulary")
    paths = {}
    for mode in ("python", "closures"):
        path = folder / f"words_{mode}.yaml"
        path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
        with compiled(mode):
            load_rules(str(path))  # raises with every fault of the variant
        paths[mode] = str(path)
    return paths


def compiled(mode: str) -> contextlib.AbstractContextManager[None]:
    return closures_only() if mode == "closures" else contextlib.nullcontext()


def new_game(rules: str, position: dict[str, Any], mode: str = "python") -> Game:
    with compiled(mode):  # (were the rules dropped from the cache, compiled again alike)
        game = start(GameSetup(rules=rules, layout="beginner"))
    faults = apply_position(game, position, Positions())
    assert not faults, [d.message for d in faults]
    return game


def play(game: Game, steps: tuple[Any, ...]) -> None:
    for step in steps:
        if isinstance(step, tuple):
            game.state.fixed_rolls.append(step)
        elif isinstance(step, dict):
            check(game, step)
        else:
            game.answer(parse_answer(game, step))


def check(game: Game, expect: dict[str, Any]) -> None:
    """Scenario expectations (docs/scenarios.md, "Expectations"); ``log``: these events,
    in this order, anywhere in the log."""
    actual = actual_values(game, expect)
    wrong: list[str] = []
    for key, wanted in expect.items():
        found = actual[key]
        if key == "pending":
            options = found["options"]
            for part, value in wanted.items():
                if part == "includes":
                    ok = set(value) <= set(options)
                elif part == "excludes":
                    ok = not set(value) & set(options)
                elif part == "options":
                    ok = sorted(value) == sorted(options)
                else:
                    ok = value == found[part]
                if not ok:
                    wrong.append(f"pending.{part}: expected {value}, actual {found}")
        elif key == "log":
            events = iter(found)
            for pattern in wanted:
                if not any(all(e.get(f) == v for f, v in pattern.items()) for e in events):
                    wrong.append(f"log: no {pattern} (in order) in {found}")
        elif isinstance(wanted, dict) and key != "merchant":
            for sub, value in wanted.items():
                if not same(game, key, value, found.get(str(sub))):
                    wrong.append(f"{key}.{sub}: expected {value}, actual {found.get(str(sub))}")
        elif not same(game, key, wanted, found):
            wrong.append(f"{key}: expected {wanted}, actual {found}")
    assert not wrong, "\n".join(wrong)


def normal(game: Game, value: Any) -> Any:
    if isinstance(value, Edges):
        return sorted(game.topo.edge_id(*map(int, n.split("-"))) for n in value.names)
    return value


def evaluate(game: Game, names: Names, formula: str, me: int, mode: str) -> Any:
    with compiled(mode):
        fn, errors = compile_formula(formula, names, {}, ANY)
    assert fn is not None and not errors, [e.message for e in errors]
    return fn(Env(game, me, {}))


def runs() -> Iterator[Any]:
    for k, c in enumerate(CASES):
        marks = [pytest.mark.xfail(strict=True, reason=c.xfail)] if c.xfail else []
        for mode in ("python", "closures"):
            yield pytest.param(k, mode, marks=marks, id=f"{'+'.join(c.words[:2])}-{mode}")


@pytest.mark.parametrize(("k", "mode"), list(runs()))
def test_word(rules: dict[str, str], k: int, mode: str) -> None:
    c = CASES[k]
    game = new_game(rules[mode], c.position, mode)
    assert game.rules.programs.python == (mode == "python")
    play(game, c.before)
    if c.effect is not None:
        game.run_hook(hook_of(k), c.me)
        game.refresh(list_now=True)  # runs what is due: the effect, up to its first question
        failed = [e for e in game.events if e["event"].endswith("_failed")]
        assert not failed, failed
    play(game, c.steps)
    check(game, c.expect)
    if c.check is not None:
        c.check(game)
    names = Names.of(load_rules(rules[mode]).ruleset.data)
    for formula, expected in c.values.items():
        got = evaluate(game, names, formula, c.me, mode)
        if isinstance(expected, Edges):
            got = sorted(got)
        want = normal(game, expected)
        assert got == want, f"{formula} ({mode}): {got!r}, expected {want!r}"
    assert broken_invariants(game) == []
