"""The invariant checker detects each kind of broken books (negative tests).

The property tests (test_engine_properties.py) and ``benchmarks/soak.py`` assert that
``broken_invariants`` finds nothing after every answer; that proves something only if the
checker finds a fault when there is one. Here a real mid-game state (random bots play
a 4-player game until cities, settlements, walls, knights, improvements, progress cards,
the merchant and a Defender of Catan card are all in play) is copied and corrupted in one
place at a time, and the checker must name exactly the invariants that the corruption
breaks: each pattern below matches a finding, and each finding matches a pattern.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from ckdsl.bots import RandomBot
from ckdsl.core.invariants import broken_invariants
from ckdsl.core.pieces import defenders_left
from ckdsl.core.state import CITY, EMPTY, NOBODY, SETTLEMENT
from ckdsl.session import GameSetup, start
from ckdsl.turn.game import Game

# Seed 3 since issue 30's base-rule changes (the Defender point does not run out...) ended
# seed 2's game before everything was in play.
SEED, PLAYERS, MAX_ANSWERS = 3, 4, 3000


def _rich(game: Game) -> bool:
    """Everything the corruptions below need is on the table, and no work is queued."""
    s = game.state
    return (
        game.pending.kind == "main"
        and not s.queue
        and s.turn > 10
        and CITY in s.building
        and SETTLEMENT in s.building
        and any(s.wall)
        and _owned_knight(game) is not None
        and any(p.progress for p in s.players)
        and any(any(p.levels) for p in s.players)
        and s.merchant_owner != NOBODY
        and any(p.defender for p in s.players)
    )


@pytest.fixture(scope="module")
def midgame() -> Game:
    game = start(GameSetup(players=PLAYERS, seed=SEED), log=False)
    bots = [RandomBot(SEED + p) for p in range(PLAYERS)]
    for _ in range(MAX_ANSWERS):
        if _rich(game):
            return game
        decision = game.pending
        assert decision.kind != "over", "the game ended before everything was in play"
        game.answer(bots[decision.player].choose(game.view(decision.player)))
    raise AssertionError(f"not everything was in play after {MAX_ANSWERS} answers")


@pytest.fixture
def game(midgame: Game) -> Game:
    """A private copy of the mid-game, to corrupt."""
    return midgame.clone(log=False)


def test_the_midgame_is_rich_and_nothing_is_broken(midgame: Game) -> None:
    assert _rich(midgame)
    assert broken_invariants(midgame) == []


# --- helpers that find something to corrupt --------------------------------------------------


def _holder(game: Game, good: int) -> int:
    """A player holding at least one of ``good``."""
    return next(p for p, me in enumerate(game.state.players) if me.hand[good] > 0)


def _held_good(game: Game) -> int:
    """The first good somebody holds (some of it is out of the bank)."""
    return next(g for g in range(len(game.rules.goods)) if game.state.bank[g] < game.rules.bank[g])


def _owned_knight(game: Game) -> tuple[int, int] | None:
    """(player, intersection) of a knight on the board."""
    for p, me in enumerate(game.state.players):
        if me.knights:
            return p, me.knights[0]
    return None


def _empty_spot(game: Game) -> int:
    s = game.state
    return next(
        i
        for i in range(len(s.building))
        if s.building[i] == EMPTY and s.owner[i] == NOBODY and s.knight[i] == NOBODY
    )


def _builder(game: Game) -> tuple[int, int]:
    """(player, intersection) of a settlement (a city if there is no settlement)."""
    s = game.state
    for wanted in (SETTLEMENT, CITY):
        for p, me in enumerate(s.players):
            for i in me.buildings:
                if s.building[i] == wanted:
                    return p, i
    raise AssertionError("nobody has a building")


def _other(p: int) -> int:
    return (p + 1) % PLAYERS


# --- the corruptions -------------------------------------------------------------------------
# Each returns the patterns of the findings it must cause, and nothing else may be found.

Corruption = Callable[[Game], list[str]]


def hand_gains_a_good(game: Game) -> list[str]:
    g = _held_good(game)
    game.state.players[_holder(game, g)].hand[g] += 1
    return [rf"^{game.rules.goods[g]}: bank \d+ \+ hands = \d+, not {game.rules.bank[g]}$"]


def hand_loses_a_good(game: Game) -> list[str]:
    g = _held_good(game)
    game.state.players[_holder(game, g)].hand[g] -= 1
    return [rf"^{game.rules.goods[g]}: bank \d+ \+ hands = \d+, not {game.rules.bank[g]}$"]


def bank_loses_a_good(game: Game) -> list[str]:
    g = 0
    game.state.bank[g] -= 1
    return [rf"^{game.rules.goods[g]}: bank \d+ \+ hands = \d+, not {game.rules.bank[g]}$"]


def bank_goes_negative(game: Game) -> list[str]:
    # The total still balances: only the negative bank is wrong.
    g = _held_good(game)
    p = _holder(game, g)
    moved = game.state.bank[g] + 1
    game.state.bank[g] -= moved
    game.state.players[p].hand[g] += moved
    return [rf"^{game.rules.goods[g]}: bank -1 \+ hands = {game.rules.bank[g]}, not "]


def hand_goes_negative(game: Game) -> list[str]:
    # The total still balances: only the negative hand is wrong.
    g = 0
    p = 0
    moved = game.state.players[p].hand[g] + 1
    game.state.players[p].hand[g] -= moved
    game.state.bank[g] += moved
    return [rf"^player {p}: a negative count in hand or supply$"]


def supply_gains_a_road(game: Game) -> list[str]:
    p = next(p for p, me in enumerate(game.state.players) if me.roads)
    game.state.players[p].supply["road"] += 1
    total = game.rules.supply["road"]
    return [rf"^player {p}: \d+ road on the board \+ \d+ in supply, not {total}$"]


def supply_goes_negative(game: Game) -> list[str]:
    p = 1
    game.state.players[p].supply["city_wall"] = -1
    return [
        rf"^player {p}: a negative count in hand or supply$",
        rf"^player {p}: \d+ city_wall on the board \+ -1 in supply, not ",
    ]


def points_drift(game: Game) -> list[str]:
    me = game.state.players[2]
    me.points += 1
    return [rf"^player 2: {me.points} points tracked, {me.points - 1} counted$"]


def building_changes_owner_on_the_board(game: Game) -> list[str]:
    p, i = _builder(game)
    game.state.owner[i] = _other(p)
    return [rf"^player {p}: a building listed as theirs belongs to someone else$"]


def building_appears_on_the_board_only(game: Game) -> list[str]:
    i = _empty_spot(game)
    game.state.building[i] = SETTLEMENT
    game.state.owner[i] = 0
    return [r"^the board's buildings and the players' lists disagree$"]


def road_changes_owner_on_the_board(game: Game) -> list[str]:
    p = next(p for p, me in enumerate(game.state.players) if me.roads)
    game.state.road[game.state.players[p].roads[0]] = _other(p)
    return [rf"^player {p}: a road listed as theirs belongs to someone else$"]


def knight_leaves_the_board_only(game: Game) -> list[str]:
    found = _owned_knight(game)
    assert found is not None
    p, i = found
    game.state.knight[i] = NOBODY  # still listed, still levelled: three books disagree
    return [
        rf"^player {p}: the knights listed and those on the board disagree$",
        rf"^intersection {i}: a knight's owner and level disagree$",
    ]


def knight_leaves_the_list_only(game: Game) -> list[str]:
    found = _owned_knight(game)
    assert found is not None
    p, i = found
    level = game.rules.knight_levels[game.state.knight_level[i] - 1]
    game.state.players[p].knights.remove(i)
    return [
        rf"^player {p}: the knights listed and those on the board disagree$",
        rf"^player {p}: \d+ {level.id} on the board \+ \d+ in supply, not {level.supply}$",
    ]


def knight_supply_grows(game: Game) -> list[str]:
    level = game.rules.knight_levels[1]
    game.state.players[3].supply[level.id] += 1
    return [rf"^player 3: \d+ {level.id} on the board \+ \d+ in supply, not {level.supply}$"]


def knight_level_without_owner(game: Game) -> list[str]:
    i = _empty_spot(game)
    game.state.knight_level[i] = 1
    return [rf"^intersection {i}: a knight's owner and level disagree$"]


def deck_loses_a_card(game: Game) -> list[str]:
    deck = next(d for d in game.state.decks if d)
    card = deck.pop()
    return [rf"^progress cards: \{{\}} too many, \{{'{card}': 1\}} missing$"]


def deck_gains_a_copy(game: Game) -> list[str]:
    deck = next(d for d in game.state.decks if d)
    deck.append(deck[0])
    return [rf"^progress cards: \{{'{deck[0]}': 1\}} too many, \{{\}} missing$"]


def hand_holds_too_many_cards_off_turn(game: Game) -> list[str]:
    s = game.state
    p = _other(s.current)
    limit = game.rules.param("progress_hand_limit")
    while len(s.players[p].progress) <= limit:
        deck = next(d for d in s.decks if d)
        s.players[p].progress.append(deck.pop())  # conserved: moved, not made
    return [rf"^player {p}: {limit + 1} progress cards off their turn$"]


def too_many_defenders(game: Game) -> list[str]:
    s = game.state
    p = next(p for p, me in enumerate(s.players) if me.defender)
    extra = defenders_left(game) + 1
    s.players[p].defender += extra
    s.players[p].points += extra * game.rules.defender_points  # the points stay right
    return [r"^more Defender of Catan cards given than there are$"]


def metropolis_on_a_settlement(game: Game) -> list[str]:
    s = game.state
    p, i = _builder(game)
    assert s.building[i] == SETTLEMENT
    s.metropolis[0] = i
    s.players[p].points += game.rules.points["metropolis"]  # the points stay right
    return [rf"^metropolises on \[.*\b{i}\b.*\]: not each on a city of its own$"]


def merchant_without_holder(game: Game) -> list[str]:
    s = game.state
    holder = s.merchant_owner
    s.merchant_owner = NOBODY
    s.players[holder].points -= game.rules.points["merchant"]  # the points stay right
    return [r"^the merchant and its holder disagree$"]


def ship_off_its_track(game: Game) -> list[str]:
    game.state.barbarians = game.rules.barbarian_track
    return [rf"^the barbarian ship stands at {game.rules.barbarian_track}$"]


def level_beyond_its_track(game: Game) -> list[str]:
    game.state.players[1].levels[0] = len(game.rules.tracks[0].levels) + 1
    return [r"^player 1: an improvement level outside its track$"]


CORRUPTIONS: list[Corruption] = [
    hand_gains_a_good,
    hand_loses_a_good,
    bank_loses_a_good,
    bank_goes_negative,
    hand_goes_negative,
    supply_gains_a_road,
    supply_goes_negative,
    points_drift,
    building_changes_owner_on_the_board,
    building_appears_on_the_board_only,
    road_changes_owner_on_the_board,
    knight_leaves_the_board_only,
    knight_leaves_the_list_only,
    knight_supply_grows,
    knight_level_without_owner,
    deck_loses_a_card,
    deck_gains_a_copy,
    hand_holds_too_many_cards_off_turn,
    too_many_defenders,
    metropolis_on_a_settlement,
    merchant_without_holder,
    ship_off_its_track,
    level_beyond_its_track,
]


@pytest.mark.parametrize("corrupt", CORRUPTIONS, ids=lambda c: c.__name__)
def test_the_checker_names_each_corruption(game: Game, corrupt: Corruption) -> None:
    assert broken_invariants(game) == []
    patterns = corrupt(game)
    found = broken_invariants(game)
    missing = [p for p in patterns if not any(re.search(p, f) for f in found)]
    # A corruption changes the board behind the engine's back: the answers it keeps for
    # that board (ckdsl.core.derived) may notice it too, rightly.
    unexpected = [
        f for f in found if not f.startswith("kept ") and not any(re.search(p, f) for p in patterns)
    ]
    assert not missing and not unexpected, f"found {found}, expected {patterns}"


def test_the_corruptions_do_not_touch_the_shared_midgame(midgame: Game) -> None:
    assert broken_invariants(midgame) == []


def test_a_card_being_played_is_counted_once(game: Game) -> None:
    # A card on its way from a hand to the bottom of its deck is a queued effect: counted
    # there, the books balance; counted twice (still in the hand), they do not.
    s = game.state
    holder = next(me for me in s.players if me.progress)
    card = holder.progress[0]
    queued = [t for t in s.queue if t[0] == "effect" and t[1].get("src") == "card"]
    assert not queued
    holder.progress.remove(card)
    s.queue.append(("effect", {"src": "card", "id": card}))
    assert broken_invariants(game) == []
    holder.progress.append(card)
    found = broken_invariants(game)
    assert found == [f"progress cards: {{'{card}': 1}} too many, {{}} missing"]
