"""Invariants over random games (hypothesis): whatever the bots do, the books balance.

- goods are conserved: every resource and commodity is in the bank or in a hand;
- no count is ever negative (hands, bank, supplies);
- pieces on the board plus pieces in supply equal the rule set's supply;
- the tracked victory points equal a recount from the board;
- an illegal answer changes nothing.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ckdsl.bots import RandomBot
from ckdsl.engine.decisions import IllegalAnswer
from ckdsl.engine.game import Game
from ckdsl.engine.state import CITY, NOBODY, SETTLEMENT
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
        cities = sum(1 for i in me.buildings if state.building[i] == CITY)
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
            st.sampled_from(["road", "settlement", "city", "bank", "discard", "offer", "x"]),
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
