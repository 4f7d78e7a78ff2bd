"""Why an answer is refused (issue 16 item 1; docs/engine.md, "Why an answer is refused").

Over many positions of random games (base rules and variants with phases, actions and
conditions of their own), every well-formed answer of every verb, over every id of the
board and the rule set (and ids just off the board), is asked of
``ckdsl.engine.refusals.explain`` at the pending decision:

- an answer the decision offers gets no reason (the explanation never disagrees with
  the options, and it changes nothing);
- an answer it does not offer gets a reason of its own, never the generic fallback
  (``refused_not_legal``), and ``Game.answer`` refuses it with that reason;
- every reason found renders in every language without a stray ``{placeholder}``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ckdsl.bots import RandomBot
from ckdsl.engine.decisions import IllegalAnswer, Option, Refusal
from ckdsl.engine.game import Game
from ckdsl.engine.notation import format_option, parse_answer, readings
from ckdsl.engine.refusals import explain
from ckdsl.l10n.catalog import FALLBACK_MARK, LANGUAGES, load_catalog
from ckdsl.l10n.refusals import render
from ckdsl.session import GameSetup, start

VARIANTS = "examples/variants"
GAMES = [
    GameSetup(players=4, seed=1),
    GameSetup(players=3, seed=2),
    GameSetup(players=4, seed=3),
    GameSetup(rules=f"{VARIANTS}/five_six.yaml", map="rules/maps/five_six.yaml", players=5, seed=4),
    GameSetup(rules=f"{VARIANTS}/mercenaries.yaml", players=4, seed=5),
    GameSetup(rules=f"{VARIANTS}/no_displace.yaml", players=4, seed=6),
    GameSetup(rules=f"{VARIANTS}/friendly_robber.yaml", players=4, seed=7),
    GameSetup(rules=f"{VARIANTS}/official.yaml", players=4, seed=8),
]
EVERY = 4  # explain at every fourth decision of a game (and at each of a kind not seen)
DECISIONS = 250  # per game (random games end in 300 to 3,300 answers)


def candidates(game: Game) -> Iterator[Option]:
    """Every well-formed answer of every verb over this game's ids, and some just off the
    board: what a player (or a scenario) could write."""
    state, topo, rules = game.state, game.topo, game.rules
    spots, edges, tiles = len(topo.inter_tiles), len(topo.edge_ends), len(game.terrain)
    yield from (("road", e) for e in range(edges + 1))
    for verb in ("settlement", "city", "city_wall", "knight", "activate", "promote", "chase",
                 "relocate", "lose_city", "metropolis"):  # fmt: skip
        yield from ((verb, i) for i in range(spots + 1))
    knights = {k for p in state.players for k in p.knights} | {0}
    for k in sorted(knights):
        for j in range(spots):
            yield ("move_knight", k, j)
            yield ("displace", k, j)
    yield from (("improve", t.id) for t in rules.tracks)
    for card in rules.cards:
        yield ("play", card)
        yield ("discard_card", card)
    for give in rules.goods:
        yield ("discard", give)
        yield ("take", give)
        yield from (("bank", give, get) for get in rules.goods)
    yield from (("robber", t) for t in range(tiles + 1))
    for q in range(game.n):
        yield ("steal", q)
        yield ("partner", q)
    yield from (("reward", d.id) for d in rules.decks)
    yield from (("action", a) for a in rules.programs.actions)
    for verb in ("roll", "end", "accept", "decline", "cancel", "pass", "do", "skip", "done"):
        yield (verb,)


def positions(setup: GameSetup) -> Iterator[tuple[str, Game]]:
    """Positions of a random game: every fourth decision, and each of a kind not seen."""
    game = start(setup, log=False)
    bots = [RandomBot(setup.seed * 10 + p) for p in range(setup.players)]
    seen: set[str] = set()
    shown = answered = 0
    while game.pending.kind != "over" and shown < DECISIONS:
        decision = game.pending
        if answered % EVERY == 0 or decision.kind not in seen:
            seen.add(decision.kind)
            shown += 1
            yield f"answer {answered}", game
        game.answer(bots[decision.player].choose(game.view(decision.player)))
        answered += 1


FOUND: dict[str, Refusal] = {}
"""A refusal of each key met, for the test of their words (filled by the test before it)."""


@pytest.mark.parametrize("setup", GAMES, ids=lambda s: f"{s.rules}#{s.seed}")
def test_every_refused_answer_says_why_and_no_offered_one_is_refused(setup: GameSetup) -> None:
    for where, game in positions(setup):
        decision = game.pending
        digest = game.state.digest()
        offered = set(decision.options)
        for option in decision.options:
            assert explain(game, decision, option) is None, (where, decision.kind, option)
        for option in candidates(game):
            if option in offered:
                continue
            why = explain(game, decision, option)
            assert why is not None, (where, decision.kind, option)
            assert why.key != "refused_not_legal", (where, decision.kind, option)
            FOUND.setdefault(why.key, why)
        assert game.state.digest() == digest  # explaining changes nothing


@pytest.mark.parametrize("setup", GAMES[:2] + GAMES[3:5], ids=lambda s: s.rules)
def test_game_answer_refuses_with_the_reason(setup: GameSetup) -> None:
    """``Game.answer`` and ``parse_answer`` give the reason ``explain`` gives."""
    game = start(setup, log=False)
    bots = [RandomBot(p) for p in range(setup.players)]
    for step in range(300):
        decision = game.pending
        if decision.kind == "over":
            break
        if step % 7 == 0:
            for option in list(candidates(game))[::37]:
                if option in decision.options:
                    continue
                why = explain(game, decision, option)
                digest = game.state.digest()
                with pytest.raises(IllegalAnswer) as refused:
                    game.answer(option)
                assert refused.value.refusal == why
                assert game.state.digest() == digest
                # Written out and read back: the same reason (a reason of its own where two
                # verbs read alike: "discard spy" may be a good that is not one).
                text = format_option(game, option)
                with pytest.raises(IllegalAnswer) as read:
                    parse_answer(game, text)
                found = read.value.refusal
                assert found is not None and not found.key.startswith("refused_unknown")
                assert found == why or len(readings(game, text)) > 1
        game.answer(bots[decision.player].choose(game.view(decision.player)))


def test_every_reason_met_reads_in_every_language() -> None:
    """The reasons the random positions met (run after them), each in each language:
    complete, no placeholder left, no English fallback."""
    if not FOUND:
        pytest.skip("run with the test of the positions")
    for language in LANGUAGES:
        catalog = load_catalog(language)
        for key, why in FOUND.items():
            text = render(catalog, key, why.fields)
            assert "{" not in text.replace("{{", "") and not text.startswith(key), (language, key)
            assert FALLBACK_MARK not in text, (language, key)


def test_the_reasons_of_the_base_rules_conditions_are_theirs() -> None:
    """Each part of a base condition that ``unmet.KNOWN`` tells in words is a part of a
    base condition (renaming one in rules/base/turn.yaml must not silently lose it)."""
    from ckdsl.engine.unmet import KNOWN

    game = start(GameSetup(players=4, seed=1))
    parts = {text for found in game.rules.programs.conjuncts.values() for text, _ in found}
    assert set(KNOWN) <= parts


def test_an_over_game_refuses_everything_as_over() -> None:
    game = start(GameSetup(players=4, seed=1))
    game.state.over = True
    game.refresh()
    assert explain(game, game.pending, ("roll",)) == Refusal("refused_game_over")
    with pytest.raises(IllegalAnswer, match="the game is over"):
        game.answer(("roll",))
