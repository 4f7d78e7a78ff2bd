"""Game.clone(), the random streams, and what a player may see (Game.view)."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ckdsl.bots import RandomBot
from ckdsl.core.invariants import broken_invariants
from ckdsl.core.view import HIDDEN, visible_event
from ckdsl.rng import Stream, below, derive, shuffle
from ckdsl.session import GameSetup, play, start
from ckdsl.turn.game import Game


def advance(game: Game, answers: int, seed: int = 0) -> Game:
    """Let random bots give up to ``answers`` answers."""
    bots = [RandomBot(seed + p) for p in range(game.n)]
    for _ in range(answers):
        decision = game.pending
        if decision.kind == "over":
            break
        game.answer(bots[decision.player].choose(game.view(decision.player)))
    return game


@pytest.fixture(scope="module")
def midgame() -> Game:
    return advance(start(GameSetup(seed=5)), 1200)


# --- clone ----------------------------------------------------------------------------------


@given(st.integers(0, 10_000), st.integers(0, 1500), st.booleans())
def test_a_clone_played_on_never_changes_its_original(seed: int, at: int, log: bool) -> None:
    game = advance(start(GameSetup(seed=seed % 50)), at, seed)
    before = (game.state.digest(), list(game.history), len(game.events), game.pending)
    copy = game.clone(log=log)
    assert copy.state.digest() == before[0] and copy.pending == before[3]
    advance(copy, 300, seed + 1)
    assert (game.state.digest(), game.history, len(game.events), game.pending) == before
    # ... and the original played on does not change the clone either
    frozen = copy.state.digest()
    advance(game, 50, seed + 2)
    assert copy.state.digest() == frozen


def test_a_clone_plays_on_exactly_like_its_original(midgame: Game) -> None:
    copy = midgame.clone()
    a, b = midgame.clone(), copy.clone(log=False)
    advance(a, 400, 9)
    advance(b, 400, 9)
    assert a.state.digest() == b.state.digest() and a.history[-400:] == b.history[-400:]
    assert b.events == [] and len(a.events) > len(midgame.events)


def test_state_copy_covers_every_field(midgame: Game) -> None:
    state = midgame.state
    copy = state.copy()
    assert copy.to_data() == state.to_data()
    for name in (f.name for f in dataclasses.fields(state)):
        value = getattr(state, name)
        if isinstance(value, (list, dict)) and value:
            assert getattr(copy, name) is not value, name
    for p, q in zip(state.players, copy.players, strict=True):
        assert all(
            getattr(q, n) is not getattr(p, n)
            for n in (f.name for f in dataclasses.fields(p))
            if isinstance(getattr(p, n), (list, dict))
        )


def test_a_game_without_log_plays_the_same_game() -> None:
    logged = start(GameSetup(seed=3))
    silent = start(GameSetup(seed=3), log=False)
    for game in (logged, silent):
        play(game, [RandomBot(p) for p in range(4)])
    assert logged.state.digest() == silent.state.digest()
    assert logged.history == silent.history
    assert silent.events == [] and logged.events


def test_listeners_hear_every_event_even_without_a_log() -> None:
    heard: list[dict[str, object]] = []
    game = start(GameSetup(seed=3, players=3), log=False)
    game.listen(heard.append)
    play(game, [RandomBot(p) for p in range(3)])
    logged = start(GameSetup(seed=3, players=3))
    play(logged, [RandomBot(p) for p in range(3)])
    assert heard == logged.events


# --- random streams ------------------------------------------------------------------------


def test_streams_are_stable_and_uniform() -> None:
    assert derive(1, "dice") == derive(1, "dice") != derive(2, "dice") != derive(1, "other")
    # SplitMix64 reference: the first output of seed 0 is 0xe220a8397b1dcdaf.
    table = {"s": 0}
    assert below(table, "s", 1 << 63) == 0xE220A8397B1DCDAF % (1 << 63)
    counts = [0] * 6
    table = {"s": 12345}
    for _ in range(60_000):
        counts[below(table, "s", 6)] += 1
    assert all(9_500 < c < 10_500 for c in counts), counts
    items = list(range(10))
    shuffle({"s": 7}, "s", items)
    assert sorted(items) == list(range(10)) and items != list(range(10))
    with pytest.raises(ValueError):
        Stream(1).below(0)


def test_the_same_seed_rolls_the_same_dice_under_other_rules() -> None:
    """Paired experiments: the board, the decks and the dice of a seed do not depend on
    the rules' other numbers or on what the players do."""
    variant = str(Path(__file__).resolve().parent.parent / "examples/variants/fifteen_points.yaml")
    a = start(GameSetup(seed=21))
    b = start(GameSetup(rules=variant, seed=21))
    assert a.rules.ruleset_hash != b.rules.ruleset_hash
    assert a.layout == b.layout and a.state.decks == b.state.decks
    rolls: list[list[tuple[int, int, str]]] = [[], []]
    for k, game in enumerate((a, b)):
        bots = [RandomBot(100 * k + p) for p in range(4)]  # different players' choices
        while game.pending.kind != "over" and len(rolls[k]) < 40:
            decision = game.pending
            game.answer(bots[decision.player].choose(game.view(decision.player)))
            if game.history[-1] == ("roll",):
                assert game.state.dice is not None
                rolls[k].append(game.state.dice)
    n = min(len(rolls[0]), len(rolls[1]))
    assert n >= 20 and rolls[0][:n] == rolls[1][:n]


# --- views --------------------------------------------------------------------------------


def test_the_view_masks_what_the_player_may_not_know(midgame: Game) -> None:
    me = midgame.pending.player
    view = midgame.view(me)
    assert view.decision == midgame.pending
    for q, seen in enumerate(view.state.players):
        real = midgame.state.players[q]
        if q == me:
            assert seen.hand == real.hand and seen.progress == real.progress
        else:
            assert seen.hand == [] and seen.progress == []
            assert seen.revealed == real.revealed and seen.points == real.points
    assert view.hand_sizes == tuple(sum(p.hand) for p in midgame.state.players)
    assert view.state.decks == [[] for _ in midgame.state.decks] and view.state.rng == {}
    other = midgame.view((me + 1) % midgame.n)
    assert other.decision.options == () and other.decision.kind == midgame.pending.kind
    with pytest.raises(ValueError):
        midgame.view(7)


def test_two_games_differing_only_in_hidden_cards_look_the_same(midgame: Game) -> None:
    me = midgame.pending.player
    other = midgame.clone()
    state = other.state
    q = next(q for q in range(other.n) if q != me and sum(state.players[q].hand) >= 1)
    r = next(r for r in range(other.n) if r not in (me, q))
    # swap one card of q's hand for another good in r's hand, and reorder the decks
    g = next(g for g, n in enumerate(state.players[q].hand) if n)
    h = next((h for h, n in enumerate(state.players[r].hand) if n and h != g), None)
    if h is not None:
        state.players[q].hand[g] -= 1
        state.players[q].hand[h] += 1
        state.players[r].hand[h] -= 1
        state.players[r].hand[g] += 1
    for deck in state.decks:
        deck.reverse()
    state.rng = {name: value + 1 for name, value in state.rng.items()}
    other.refresh()
    assert other.state.digest() != midgame.state.digest()
    assert other.view(me).key() == midgame.view(me).key()
    # The hidden parts are filled from the view alone: the same draws give the same game.
    a = midgame.view(me).determinize(random.Random(4))
    b = other.view(me).determinize(random.Random(4))
    assert a.state.digest() == b.state.digest()


@given(st.integers(0, 40), st.integers(200, 2000), st.integers(0, 1000))
def test_a_determinization_is_a_consistent_game(seed: int, at: int, draw: int) -> None:
    game = advance(start(GameSetup(seed=seed)), at, seed)
    if game.pending.kind == "over":
        return
    me = game.pending.player
    view = game.view(me)
    sample = view.determinize(random.Random(draw))
    assert broken_invariants(sample) == []
    assert sample.pending.player == me and sample.pending.kind == game.pending.kind
    mine = sample.state.players[me]
    assert mine.hand == game.state.players[me].hand
    assert mine.progress == game.state.players[me].progress
    for q, p in enumerate(sample.state.players):
        assert sum(p.hand) == view.hand_sizes[q]
        assert len(p.progress) == view.progress_counts[q]
    assert tuple(len(d) for d in sample.state.decks) == view.deck_sizes
    advance(sample, 200, draw)  # and it plays on
    assert broken_invariants(sample) == []


def test_the_log_as_each_player_saw_it() -> None:
    draw = {"event": "draw", "player": 1, "deck": "science", "card": "alchemist"}
    steal = {"event": "steal", "player": 1, "victim": 2, "good": "ore"}
    assert visible_event(draw, 1) == draw
    assert visible_event(draw, 0)["card"] == HIDDEN and visible_event(draw, 0)["deck"]
    assert visible_event(steal, 2) == steal and visible_event(steal, 1) == steal
    assert visible_event(steal, 3)["good"] == HIDDEN
    game = advance(start(GameSetup(seed=8)), 1500)
    seen = game.view(0).events
    assert len(seen) == len(game.events)
    hidden = [e for e in seen if e["event"] == "draw" and e["player"] != 0]
    assert hidden and all(e["card"] == HIDDEN for e in hidden)


def test_a_clone_taken_during_an_offer_keeps_the_offer_shared() -> None:
    """The players asked about an offer and its maker share one offer (who accepted): in a
    clone taken while the answers come in, an acceptance must reach the maker's choice of
    partner, as it does in the original."""
    game = start(GameSetup(seed=3), log=False)
    bots = [RandomBot(3 + p) for p in range(4)]
    goods = game.rules.goods
    while True:
        decision = game.pending
        assert decision.kind != "over", "no offer could be made"
        if decision.kind == "main":
            me = game.state.players[decision.player]
            give = next((g for g in range(len(goods)) if me.hand[g]), None)
            takers = [
                (q, h)
                for q in range(4)
                for h in range(len(goods))
                if q != decision.player and h != give and game.state.players[q].hand[h]
            ]
            if give is not None and takers:
                break
        game.answer(bots[decision.player].choose(game.view(decision.player)))
    acceptor, wanted = takers[0]
    game.answer(("offer", {goods[give]: 1}, {goods[wanted]: 1}))
    while game.pending.player != acceptor:
        game.answer(("decline",))
    copy = game.clone()
    for g in (game, copy):
        g.answer(("accept",))
        while g.pending.kind == "respond":
            g.answer(("decline",))
        assert g.pending.kind == "partner"
        assert ("partner", acceptor) in g.pending.options


def test_a_shallow_copy_shares_every_attribute(midgame: Game) -> None:
    new = midgame._shallow_copy()
    if hasattr(midgame, "__dict__"):  # pure Python (a mypyc build has no __dict__)
        assert vars(new).keys() == vars(midgame).keys()
        assert all(getattr(new, k) is v for k, v in vars(midgame).items())
