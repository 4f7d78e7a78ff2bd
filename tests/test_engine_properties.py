"""Invariants over random games (hypothesis): whatever the bots do, the books balance.

- goods are conserved: every resource and commodity is in the bank or in a hand;
- no count is ever negative (hands, bank, supplies);
- pieces on the board plus pieces in supply equal the rule set's supply;
- the tracked victory points equal a recount from the board;
- Cities & Knights: knights on the board and in supply add up per level, progress cards
  are conserved (decks + hands + shown + the one being played), metropolises stand on
  cities, nobody holds more progress cards than the limit off their turn, the ship never
  stands at the end of its track;
- an illegal answer is refused (``IllegalAnswer``) and changes nothing.

That ``broken_invariants`` detects each of these faults is tested in test_invariants.py.
Example counts follow the Hypothesis profile (tests/conftest.py): every example here plays
a game, so these tests take a quarter of the profile's count (15 by default, 500 with
``HYPOTHESIS_PROFILE=deep``).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ckdsl.bots import RandomBot
from ckdsl.engine.decisions import IllegalAnswer
from ckdsl.engine.game import Game
from ckdsl.engine.invariants import broken_invariants
from ckdsl.session import GameSetup, start

# A game per example: a quarter of the current profile's examples (read when this module is
# imported, after conftest.py has loaded the profile).
GAMES = settings(max_examples=max(1, settings().max_examples // 4))
# Random games end in 300 to 3,300 answers (620 seeds measured); one still going after
# MAX_ANSWERS is stuck.
MAX_ANSWERS = 20_000


def check_invariants(game: Game) -> None:
    assert broken_invariants(game) == []


@GAMES
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([3, 4]))
def test_invariants_hold_after_every_answer(seed: int, players: int) -> None:
    game = start(GameSetup(players=players, seed=seed))
    bots = [RandomBot(seed + p) for p in range(players)]
    steps = 0
    while game.pending.kind != "over" and steps < MAX_ANSWERS:
        decision = game.pending
        game.answer(bots[decision.player].choose(game.view(decision.player)))
        check_invariants(game)
        steps += 1
    assert game.pending.kind == "over", f"no winner after {steps} answers"


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


@GAMES
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
    with pytest.raises(IllegalAnswer):
        game.answer(junk)
    assert game.state.digest() == digest
