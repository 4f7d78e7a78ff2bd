"""Invariants over random games (hypothesis): whatever the bots do, the books balance.

- goods are conserved: every resource and commodity is in the bank or in a hand;
- no count is ever negative (hands, bank, supplies);
- pieces on the board plus pieces in supply equal the rule set's supply;
- the tracked victory points equal a recount from the board;
- Cities & Knights: knights on the board and in supply add up per level, progress cards
  are conserved (decks + hands + shown + the one being played), metropolises stand on
  cities, nobody holds more progress cards than the limit off their turn, the ship never
  stands at the end of its track;
- an illegal answer changes nothing.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from ckdsl.bots import RandomBot
from ckdsl.engine.decisions import IllegalAnswer
from ckdsl.engine.game import Game
from ckdsl.engine.state import CITY, DAMAGED, NOBODY, SETTLEMENT
from ckdsl.session import GameSetup, start


def check_invariants(game: Game) -> None:
    state, rules = game.state, game.rules
    for g, total in enumerate(rules.bank):
        in_hands = sum(p.hand[g] for p in state.players)
        assert state.bank[g] + in_hands == total, rules.goods[g]
        assert state.bank[g] >= 0
    for p, me in enumerate(state.players):
        assert min(me.hand) >= 0
        assert min(me.supply.values()) >= 0
        settlements = sum(1 for i in me.buildings if state.building[i] == SETTLEMENT)
        cities = sum(1 for i in me.buildings if state.building[i] in (CITY, DAMAGED))
        walls = sum(1 for i in me.buildings if state.wall[i])
        assert settlements + me.supply["settlement"] == rules.supply["settlement"]
        assert cities + me.supply["city"] == rules.supply["city"]
        assert walls + me.supply["city_wall"] == rules.supply["city_wall"]
        assert len(me.roads) + me.supply["road"] == rules.supply["road"]
        assert all(state.owner[i] == p for i in me.buildings)
        assert all(state.road[e] == p for e in me.roads)
        assert me.points == game.recount_points(p)
    assert sum(1 for o in state.owner if o != NOBODY) == sum(
        len(p.buildings) for p in state.players
    )
    check_cities_and_knights(game)


def check_cities_and_knights(game: Game) -> None:
    state, rules = game.state, game.rules
    levels = rules.knight_levels
    for p, me in enumerate(state.players):
        assert sorted(me.knights) == [i for i, q in enumerate(state.knight) if q == p]
        for n, level in enumerate(levels, start=1):
            on_board = sum(1 for i in me.knights if state.knight_level[i] == n)
            assert on_board + me.supply[level.id] == level.supply, (p, level.id)
        assert all(0 <= lv <= len(t.levels) for lv, t in zip(me.levels, rules.tracks, strict=True))
        waiting = any(t[0] == "discard_progress" and t[1] == p for t in state.queue)
        if p != state.current and not waiting:
            assert len(me.progress) <= rules.param("progress_hand_limit"), p
    assert all(
        (state.knight[i] == NOBODY) == (state.knight_level[i] == 0)
        for i in range(len(state.knight))
    )
    held = [i for i in state.metropolis if i != NOBODY]
    assert len(held) == len(set(held)) and all(state.building[i] == CITY for i in held)
    assert sum(p.defender for p in state.players) <= rules.defender_supply
    assert (state.merchant == NOBODY) == (state.merchant_owner == NOBODY)
    assert 0 <= state.barbarians < rules.barbarian_track
    cards: Counter[str] = Counter()
    for deck in state.decks:
        cards.update(deck)
    for me in state.players:
        cards.update(me.progress)
        cards.update(me.revealed)
    cards.update(t[1]["id"] for t in state.queue if t[0] == "effect" and t[1]["src"] == "card")
    assert cards == Counter(c for deck in rules.decks for c in deck.cards)


@settings(max_examples=15)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([3, 4]))
def test_invariants_hold_after_every_answer(seed: int, players: int) -> None:
    game = start(GameSetup(players=players, seed=seed))
    bots = [RandomBot(seed + p) for p in range(players)]
    steps = 0
    while game.pending.kind != "over" and steps < 3000:
        decision = game.pending
        game.answer(bots[decision.player].choose(game, decision))
        check_invariants(game)
        steps += 1


JUNK_VERBS = (
    "road",
    "settlement",
    "city",
    "bank",
    "discard",
    "offer",
    "x",
    "knight",
    "activate",
    "promote",
    "move_knight",
    "displace",
    "chase",
    "improve",
    "play",
    "choose",
    "skip",
    "do",
    "done",
    "metropolis",
    "lose_city",
    "relocate",
)


@settings(max_examples=15)
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_illegal_answers_change_nothing(seed: int, data: st.DataObject) -> None:
    game = start(GameSetup(players=3, seed=seed))
    bot = RandomBot(seed)
    for _ in range(data.draw(st.integers(0, 300))):
        if game.pending.kind == "over":
            break
        game.answer(bot.choose(game, game.pending))
    junk = data.draw(
        st.tuples(
            st.sampled_from(JUNK_VERBS),
            st.one_of(
                st.integers(-5, 200), st.text(max_size=3), st.dictionaries(st.text(), st.integers())
            ),
        )
    )
    if junk in game.pending.options:
        return
    digest = game.state.digest()
    try:
        game.answer(junk)
    except IllegalAnswer:
        assert game.state.digest() == digest
