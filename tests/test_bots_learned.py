"""The learned bot (a second family: its own features, a value fitted on games), its
descriptors, and mcts's selection rule against hand-computed values."""

from __future__ import annotations

import ast
import math
import random
from pathlib import Path

import pytest

from ckdsl.bots import BotError, bot_seed, make_bot
from ckdsl.bots.descriptors import NAMES, ROLLS_CAP, Describer, dice_odds, missing, rolls_to
from ckdsl.bots.learned import LearnedBot, load_model
from ckdsl.bots.mcts import MctsBot, Node
from ckdsl.session import GameSetup, start
from ckdsl.turn.game import Game

REPO = Path(__file__).resolve().parent.parent


def test_dice_odds_are_the_two_dice_sums() -> None:
    odds = dice_odds(start(GameSetup(seed=1), log=False).rules)
    assert odds[7] == pytest.approx(6 / 36)
    assert odds[2] == pytest.approx(1 / 36) and odds[12] == pytest.approx(1 / 36)
    assert odds[6] == pytest.approx(5 / 36) and odds[8] == pytest.approx(5 / 36)
    assert sum(odds.values()) == pytest.approx(1.0)


def test_missing_counts_the_cards_short_of_a_cost() -> None:
    assert missing([1, 0, 3, 0], ((0, 2), (2, 1), (3, 1))) == 2
    assert missing([5, 5, 5, 5], ((0, 2), (1, 1))) == 0


def test_descriptors_read_only_what_the_player_may_see() -> None:
    """Two samples of a view (the opponents' hands and cards dealt differently) and the
    real game give the player the same numbers: nothing hidden is read."""
    game = start(GameSetup(seed=3), log=False)
    bots = [make_bot("random", bot_seed(3, s)) for s in range(4)]
    for _ in range(400):  # into the game, past setup
        d = game.pending
        game.answer(bots[d.player].choose(game.view(d.player)))
    describer = Describer(game.rules)
    rng = random.Random(1)
    for player in range(4):
        view = game.view(player)
        real = describer.describe(game, player)
        assert len(real) == len(NAMES)
        assert describer.describe(view.determinize(rng), player) == real
        assert describer.describe(view.determinize(rng), player) == real
    assert game.state.turn > 0 and any(describer.describe(game, p)[2] > 0 for p in range(4))


def test_the_learned_bot_never_reads_the_heuristics_value() -> None:
    """Not a feature, not a weight, not a call: its modules import nothing of the
    heuristic's (features.py, heuristic.py)."""
    for name in ("learned", "descriptors"):
        tree = ast.parse((REPO / "ckdsl" / "bots" / f"{name}.py").read_text(encoding="utf-8"))
        imported = {
            node.module
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module is not None
        }
        imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        assert not {"ckdsl.bots.features", "ckdsl.bots.heuristic"} & imported, name


def test_the_shipped_model_values_points_and_production() -> None:
    """The fitted model says what any Catan player knows: a point more, or production
    more, with the rest equal, raises the chance to win."""
    model = load_model()
    base = [0.0] * len(NAMES)
    for i, mean in zip(model.indices, model.means, strict=True):
        base[i] = mean
    for feature in ("points", "production"):
        better = list(base)
        k = NAMES.index(feature)
        scale = model.scales[model.names.index(feature)]
        better[k] += scale
        if feature == "points":  # a point of mine is also a point of lead
            better[NAMES.index("lead")] += scale
        assert model.logit(better) > model.logit(base), feature
    assert 0.0 < model.probability(base) < 0.5  # the mean position: one of four players


def test_a_broken_model_file_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "model.yaml"
    bad.write_text("intercept: 1\nfeatures: [{name: pointz, coefficient: 1}]\n")
    with pytest.raises(BotError, match=r"model\.yaml: the features are .* \(pointz\)"):
        load_model(str(bad))
    bad.write_text("intercept: 1\nfeatures: [{name: points, coefficient: 1}]\n")
    with pytest.raises(BotError, match=r"model\.yaml: not a model of the learned bot"):
        load_model(str(bad))
    bad.write_text("features: [1, 2\n")
    with pytest.raises(BotError, match=r"cannot read the model \(not valid YAML at 2:1"):
        load_model(str(bad))
    bad.write_text("- a list\n")
    with pytest.raises(BotError, match="not a mapping"):
        load_model(str(bad))
    with pytest.raises(BotError, match="learned:version: 4 is not a version"):
        make_bot("learned:version=4", 1)
    with pytest.raises(BotError, match="cannot read the model"):
        make_bot(f"learned:model={tmp_path / 'none.yaml'}", 1)


def test_the_learned_bot_beats_random_bots_and_is_deterministic() -> None:
    """A strength check with margin: against three random bots it wins every game of
    these seeds (version 3 won 199 of 200 measured, docs/bots.md; a model with a sign
    flipped loses them), and the same seed gives the same game."""
    finals = []
    for seed in (11, 12):
        game = start(GameSetup(seed=seed), log=False)
        seat = seed % 4
        bots = [
            LearnedBot(bot_seed(seed, s)) if s == seat else make_bot("random", bot_seed(seed, s))
            for s in range(4)
        ]
        game.play_out(bots)
        assert game.state.winner == seat
        finals.append(game.state.digest())
    again = start(GameSetup(seed=11), log=False)
    again.play_out(
        [
            LearnedBot(bot_seed(11, s)) if s == 3 else make_bot("random", bot_seed(11, s))
            for s in range(4)
        ]
    )
    assert again.state.digest() == finals[0]


# --- mcts's selection rule ---------------------------------------------------------------------


def _node(visits: int, total: float, avail: int) -> Node:
    node = Node()
    node.visits, node.total, node.avail = visits, total, avail
    return node


def test_mcts_selection_is_ucb1_by_hand() -> None:
    """UCB1 (Auer et al. 2002) as ISMCTS uses it: mean + c * sqrt(ln(availability) /
    visits). 3/4 + 0.7 * sqrt(ln 10 / 4) = 0.75 + 0.7 * 0.758714 = 1.281100."""
    bot = MctsBot(1, exploration=0.7)
    assert bot.ucb(_node(4, 3.0, 10)) == pytest.approx(1.281100, abs=1e-6)
    assert bot.ucb(_node(1, 0.2, 1)) == pytest.approx(0.2)  # ln 1 = 0: the mean alone
    assert bot.ucb(_node(0, 0.0, 5)) == math.inf  # an unvisited child first
    # The better mean wins at equal visits; the less visited at equal means.
    assert bot.ucb(_node(10, 8.0, 20)) > bot.ucb(_node(10, 2.0, 20))
    assert bot.ucb(_node(2, 1.0, 20)) > bot.ucb(_node(10, 5.0, 20))
    assert MctsBot(1, exploration=0.0).ucb(_node(4, 3.0, 10)) == pytest.approx(0.75)


# --- version 3: its numbers, its trades, version 2 kept ----------------------------------------


def test_rolls_to_a_purchase_by_hand() -> None:
    """Two bricks short at 0.5 a roll and one lumber at 0.25 a roll: 4 rolls either way;
    a good never produced: the cap."""
    made = [0.5, 0.25, 0.0, 0.0]
    assert rolls_to([0, 0, 0, 0], ((0, 2), (1, 1)), made) == pytest.approx(4.0)
    assert rolls_to([2, 1, 0, 0], ((0, 2), (1, 1)), made) == 0.0
    assert rolls_to([0, 0, 0, 0], ((2, 1),), made) == ROLLS_CAP


def _offered(seed: int, points: int) -> tuple[Game, int]:
    """A game on an offer of the ore that completes a city for a wool (the player asked
    holds 2 wool, 2 grain, 2 ore), made by the player whose turn it is with ``points``
    points; and the player asked first."""
    game = start(GameSetup(seed=seed), log=False)
    bots = [make_bot("random", bot_seed(seed, s)) for s in range(4)]
    while not (game.pending.kind == "main" and game.state.turn > 4):
        d = game.pending
        game.answer(bots[d.player].choose(game.view(d.player)))
    me = game.state.current
    state = game.state
    state.players[me].hand[4] += 1
    state.players[me].points = points
    asked = (me + 1) % 4
    state.players[asked].hand[:] = [0, 0, 2, 2, 2, 0, 0, 0]
    game.answer(("offer", {"ore": 1}, {"wool": 1}))
    assert game.pending.kind == "respond" and game.pending.player == asked
    return game, asked


def test_version_3_answers_an_offer_by_the_hand_it_leaves() -> None:
    """The ore of a city for a wool is taken; not from a player within two points of winning;
    version 2 took every offer it could pay."""
    game, asked = _offered(5, 3)
    assert LearnedBot(1).choose(game.view(asked)) == ("accept",)
    game, asked = _offered(5, 12)
    assert LearnedBot(1).choose(game.view(asked)) == ("decline",)
    assert LearnedBot(1, version=2).choose(game.view(asked)) == ("accept",)


def test_version_2_plays_on_with_its_model() -> None:
    """``learned:version=2`` reads version 2's model (its 19 numbers), version 3 more."""
    old, new = make_bot("learned:version=2", 1), make_bot("learned", 1)
    assert len(old.model.names) == 19  # type: ignore[attr-defined]
    assert set(old.model.names) < set(new.model.names)  # type: ignore[attr-defined]
    assert set(new.model.names) <= set(NAMES)  # type: ignore[attr-defined]


def test_version_3_offers_the_card_a_city_lacks() -> None:
    """Three wool, two grain, two ore: the city lacks one ore, and wool is the good held
    most beyond its cost; one offer a turn."""
    game, _ = _offered(5, 3)
    me = game.state.current
    game.state.players[me].hand[:] = [0, 0, 3, 2, 2, 0, 0, 0]
    game.state.offers_made = 0
    bot = LearnedBot(1)
    assert bot.offer(game, me, bot.value(game, me)) == ("offer", {"wool": 1}, {"ore": 1})
    game.state.offers_made = 1
    assert bot.offer(game, me, bot.value(game, me)) is None
