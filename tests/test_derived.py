"""The board rules' kept answers (``ckdsl.core.derived``) are exact: the differential
test against a count from scratch after every answer of random games, the same games with
and without them, and the checker catching a board change the tables were not told of.

The soak (``benchmarks/soak.py``) runs the same check, through ``broken_invariants``,
over a thousand games and more.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from depth import games
from hypothesis import given, settings
from hypothesis import strategies as st

from ckdsl.bots import RandomBot
from ckdsl.core import derived, pieces
from ckdsl.core.invariants import broken_invariants
from ckdsl.core.state import NOBODY
from ckdsl.dsl.base.registry import READS
from ckdsl.dsl.runtime import unplayable
from ckdsl.session import GameSetup, play, start
from ckdsl.turn import cards
from ckdsl.turn.game import Game

GAMES = settings(max_examples=max(1, settings().max_examples // 4))


def random_game(seed: int, players: int = 4) -> tuple[Game, list[RandomBot]]:
    return start(GameSetup(players=players, seed=seed), log=False), [
        RandomBot(seed * 31 + p) for p in range(players)
    ]


@GAMES
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([3, 4]))
def test_kept_answers_equal_a_count_from_scratch_after_every_answer(
    seed: int, players: int
) -> None:
    game, bots = random_game(seed, players)
    checked = 0
    while game.pending.kind != "over":
        decision = game.pending
        game.answer(bots[decision.player].choose(game.view(decision.player)))
        assert derived.stale_entries(game) == []
        checked += derived.current_entries(game)
    assert checked > 100  # answers kept for the board that stood were compared


SOAK_GAMES = games(20, 200)
"""Random games of the differential test: 20 in the default run, 200 under the deep profile
(tests/depth.py); benchmarks/soak.py plays a thousand and more, with every invariant after
every answer."""


def test_kept_answers_stay_exact_over_many_random_games() -> None:
    checked = answers = 0
    for seed in range(SOAK_GAMES):
        game, bots = random_game(10_000 + seed, 3 + seed % 2)
        while game.pending.kind != "over":
            decision = game.pending
            game.answer(bots[decision.player].choose(game.view(decision.player)))
            stale = derived.stale_entries(game)
            assert stale == [], f"seed {10_000 + seed}, answer {len(game.history)}: {stale}"
            checked += derived.current_entries(game)
            answers += 1
        assert broken_invariants(game) == []
    assert checked > answers  # on average, more than one kept answer compared per answer


PLAYABILITY_GAMES = games(30, 60)
"""Random games whose every hand is asked both ways: 30 by default, 60 under the deep profile."""


def test_kept_playability_equals_a_check_from_scratch_after_every_answer() -> None:
    """``cards.why_not`` keeps a card's playability by what its opening reads: after every
    answer of random games, every card in every hand is asked both ways."""
    reused = 0
    for seed in range(PLAYABILITY_GAMES):
        game, bots = random_game(20_000 + seed, 3 + seed % 2)
        while game.pending.kind != "over":
            decision = game.pending
            game.answer(bots[decision.player].choose(game.view(decision.player)))
            for p, me in enumerate(game.state.players):
                for card in me.progress:
                    before = len(game.playable)
                    kept = cards.why_not(game, p, card)
                    reused += len(game.playable) == before and before > 0
                    assert kept == unplayable(game, p, card), (seed, len(game.history), card)
    assert reused > 1000  # answers kept from an earlier listing were compared


def test_a_kept_playability_keys_on_every_part_a_function_may_declare() -> None:
    """``cards._key`` keys on each part of ``registry.READS``: a part declared but not
    keyed would let a kept answer outlive a change of it."""
    assert cards.KEYED == READS


def test_a_kept_playability_follows_the_board() -> None:
    """Intrigue needs an enemy knight on one's roads: kept as refused, then playable once
    a knight stands there (the board's stamp changed), and forgotten by ``refresh``."""
    game, bots = random_game(7)
    while game.state.turn < 8:
        decision = game.pending
        game.answer(bots[decision.player].choose(game.view(decision.player)))
    state, topo = game.state, game.topo
    me = state.current
    other = (me + 1) % game.n
    assert cards.why_not(game, me, "intrigue") is not None  # no knights on the board yet
    spot = next(
        i
        for e in state.players[me].roads
        for i in topo.edge_ends[e]
        if state.owner[i] == NOBODY and state.knight[i] == NOBODY
    )
    pieces.place_knight(game, other, spot, 1, False)
    assert cards.why_not(game, me, "intrigue") is None
    assert game.playable
    game.refresh()
    assert game.playable == {}


@pytest.fixture
def without_tables() -> Iterator[None]:
    derived.ENABLED = False
    try:
        yield
    finally:
        derived.ENABLED = True


def digests(seeds: range) -> list[tuple[str, int]]:
    out = []
    for seed in seeds:
        game, bots = random_game(seed)
        play(game, bots)
        out.append((game.state.digest(), len(game.history)))
    return out


SEEDS = range(6)


def test_the_same_games_with_and_without_kept_answers(without_tables: None) -> None:
    fresh = digests(SEEDS)
    derived.ENABLED = True
    kept = digests(SEEDS)
    assert kept == fresh


def test_without_the_tables_nothing_is_kept(without_tables: None) -> None:
    game, bots = random_game(1)
    play(game, bots)
    assert game.derived == {} and game.playable == {}


def test_a_board_change_the_tables_were_not_told_of_is_caught() -> None:
    game, bots = random_game(3)
    while game.state.turn < 8:  # into the main phase, with roads on the board
        decision = game.pending
        game.answer(bots[decision.player].choose(game.view(decision.player)))
    player = game.state.current
    before = derived.road_spots(game, player)
    assert before and derived.stale_entries(game) == []
    game.state.road[before[0]] = player  # behind the engine's back: no board_changed
    assert any("road" in finding for finding in derived.stale_entries(game))
    game.refresh()  # the documented way to tell it
    assert derived.stale_entries(game) == []
    assert before[0] not in derived.road_spots(game, player)


def test_a_clone_shares_the_table_but_not_its_board() -> None:
    game, bots = random_game(5)
    while game.state.turn < 8:
        decision = game.pending
        game.answer(bots[decision.player].choose(game.view(decision.player)))
    player = game.state.current
    spots = derived.road_spots(game, player)
    copy = game.clone()
    assert copy.derived is game.derived and copy.board_stamp == game.board_stamp
    pieces.place_road(copy, player, spots[0])
    assert copy.board_stamp != game.board_stamp
    assert spots[0] not in derived.road_spots(copy, player)
    assert derived.road_spots(game, player) == spots  # the original's board is unchanged
    assert game.state.road[spots[0]] == NOBODY
    assert derived.stale_entries(game) == derived.stale_entries(copy) == []


def test_the_robber_and_the_tokens_change_what_a_number_yields() -> None:
    game, bots = random_game(2)
    while game.state.turn < 4:
        decision = game.pending
        game.answer(bots[decision.player].choose(game.view(decision.player)))
    state, corners = game.state, game.topo.tile_corners
    # A tile with a number, a building on a corner and no robber.
    tile = next(
        t
        for t, n in enumerate(state.numbers)
        if n is not None and t != state.robber and any(state.building[i] for i in corners[t])
    )
    number = state.numbers[tile]
    assert number is not None
    before = derived.production(game, number)
    # The Inventor's swap: the tile's token goes to a tile without buildings, and back.
    numbers = state.numbers
    empty = next(t for t in range(len(numbers)) if not any(state.building[i] for i in corners[t]))
    numbers[tile], numbers[empty] = numbers[empty], numbers[tile]
    game.index_numbers()
    assert derived.production(game, number) != before
    assert derived.stale_entries(game) == []
    numbers[tile], numbers[empty] = numbers[empty], numbers[tile]
    game.index_numbers()
    assert derived.production(game, number) == before
    # The robber on the tile: it yields nothing.
    pieces.move_robber(game, NOBODY, tile)
    assert derived.production(game, number) != before
    assert derived.stale_entries(game) == []
