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

from hypothesis import given, settings
from hypothesis import strategies as st

from ckdsl.bots import RandomBot
from ckdsl.engine.decisions import IllegalAnswer
from ckdsl.engine.game import Game
from ckdsl.engine.invariants import broken_invariants
from ckdsl.session import GameSetup, start


def check_invariants(game: Game) -> None:
    assert broken_invariants(game) == []


@settings(max_examples=15)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([3, 4]))
def test_invariants_hold_after_every_answer(seed: int, players: int) -> None:
    game = start(GameSetup(players=players, seed=seed))
    bots = [RandomBot(seed + p) for p in range(players)]
    steps = 0
    while game.pending.kind != "over" and steps < 3000:
        decision = game.pending
        game.answer(bots[decision.player].choose(game.view(decision.player)))
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
        game.answer(bot.choose(game.view(game.pending.player)))
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
