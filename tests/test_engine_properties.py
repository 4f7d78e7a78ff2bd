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
from ckdsl.core.board_rules import longest_road
from ckdsl.core.decisions import IllegalAnswer
from ckdsl.core.invariants import broken_invariants
from ckdsl.session import GameSetup, start
from ckdsl.turn.game import Game

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


def _longest_trail(game: Game, player: int) -> int:
    """The longest road the slow way: a trail from every intersection of the network,
    through no intersection where another player's building or knight stands."""
    state, topo = game.state, game.topo
    roads = set(state.players[player].roads)

    def blocked(i: int) -> bool:
        return state.owner[i] not in (-1, player) or state.knight[i] not in (-1, player)

    def longest_from(at: int, used: frozenset[int]) -> int:
        if used and blocked(at):
            return 0
        best = 0
        for e in topo.inter_edges[at]:
            if e in roads and e not in used:
                a, b = topo.edge_ends[e]
                best = max(best, 1 + longest_from(b if a == at else a, used | {e}))
        return best

    ends = {i for e in roads for i in topo.edge_ends[e]}
    return max((longest_from(i, frozenset()) for i in ends), default=0)


@settings(max_examples=max(20, settings().max_examples))
@given(data=st.data())
def test_longest_road_is_the_longest_trail(data: st.DataObject) -> None:
    """Random road networks (loops, branches, several pieces) with enemy pieces on them:
    ``longest_road`` starts its walks only at ends, branches and cuts, and must still find
    the longest trail that a walk from every intersection finds."""
    game = start(GameSetup(seed=0))
    state, topo = game.state, game.topo
    near = sorted(e for e in range(len(topo.edge_ends)) if topo.edge_ends[e][0] < 20)
    roads = data.draw(st.lists(st.sampled_from(near), unique=True, max_size=15))
    if data.draw(st.booleans()):  # the ring of a tile: a loop with no end, unless joined
        ring = topo.tile_corners[data.draw(st.integers(0, 3))]
        edges = range(len(topo.edge_ends))
        roads = [e for e in edges if set(topo.edge_ends[e]) <= set(ring)] + roads
    state.players[0].roads[:] = list(dict.fromkeys(roads))
    corners = sorted({i for e in near for i in topo.edge_ends[e]})
    for i in data.draw(st.lists(st.sampled_from(corners), unique=True, max_size=4)):
        if data.draw(st.booleans()):
            state.owner[i] = 1
        else:
            state.knight[i] = 2
    assert longest_road(game.topo, state, 0) == _longest_trail(game, 0)
