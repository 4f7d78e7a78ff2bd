"""Why an answer is refused (issue 16 item 1; docs/engine.md, "Why an answer is refused").

Over many positions of random games (base rules and variants with phases, actions and
conditions of their own), every well-formed answer of every verb, over every id of the
board and the rule set (and ids just off the board), is asked of
``ckdsl.turn.refusals.explain`` at the pending decision:

- an answer the decision offers gets no reason (the explanation never disagrees with
  the options, and it changes nothing);
- an answer it does not offer gets a reason of its own, never the generic fallback
  (``refused_not_legal``), and ``Game.answer`` refuses it with that reason;
- every reason found renders in every language without a stray ``{placeholder}``.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from ckdsl.bots import RandomBot
from ckdsl.core.decisions import IllegalAnswer, Option, Refusal
from ckdsl.core.state import ACTION, ACTIVATED_THIS_TURN, PROMOTION
from ckdsl.l10n.catalog import FALLBACK_MARK, LANGUAGES, load_catalog
from ckdsl.l10n.refusals import render
from ckdsl.session import GameSetup, start
from ckdsl.turn.game import Game, tables
from ckdsl.turn.notation import format_option, parse_answer, readings
from ckdsl.turn.refusals import explain

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

FORMS = tables().forms
"""How each verb's answer reads (``refusals.explain`` is told it)."""


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
    # Ids of the wrong kind, as a raw answer may name them: a good for a card, a card for
    # a good, a player who does not play.
    yield from (("improve", "brick"), ("play", "brick"), ("discard", "bishop"), ("take", "bishop"))
    yield from (("bank", "bishop", "brick"), ("reward", "brick"), ("action", "brick"))
    yield from (("steal", game.n), ("discard_card", "brick"), ("partner", game.n))


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
            assert explain(game, decision, option, FORMS) is None, (where, decision.kind, option)
        for option in candidates(game):
            if option in offered:
                continue
            why = explain(game, decision, option, FORMS)
            assert why is not None, (where, decision.kind, option)
            assert why.key != "refused_not_legal", (where, decision.kind, option)
            FOUND.setdefault(why.key, why)
        assert game.state.digest() == digest  # explaining changes nothing


def mutated(game: Game, rng: random.Random) -> Game:
    """A copy of ``game`` with a few of what the rules read changed at random, so the
    positions reach what random play rarely does: a rich hand (the price paid, the rules'
    conditions asked), an empty bank or deck, no piece left, knights that acted or were
    promoted this turn, a track at its top, the robber locked or not."""
    new = game.clone(log=False)
    state, rules = new.state, new.rules
    for me in state.players:
        if rng.random() < 0.7:
            me.hand = [rng.choice((0, 2, 5)) for _ in me.hand]
        if rng.random() < 0.3:
            me.supply[rng.choice(sorted(me.supply))] = 0
        if rng.random() < 0.3 and rules.tracks:
            t = rng.randrange(len(rules.tracks))
            me.levels[t] = rng.choice((0, 3, len(rules.tracks[t].levels)))
        for k in me.knights:
            state.knight_flags[k] = rng.choice((0, 0, ACTIVATED_THIS_TURN, PROMOTION, ACTION))
            state.knight_active[k] = rng.random() < 0.6
            state.knight_level[k] = rng.randint(1, len(rules.knight_levels))
    for g in range(len(state.bank)):
        if rng.random() < 0.2:
            state.bank[g] = 0
    for deck in state.decks:
        if rng.random() < 0.2:
            deck.clear()
    state.robber_unlocked = rng.random() < 0.5
    new.refresh(list_now=True)
    return new


@pytest.mark.parametrize("setup", GAMES[:3] + GAMES[4:6], ids=lambda s: f"{s.rules}#{s.seed}")
def test_mutated_positions_agree_too(setup: GameSetup) -> None:
    """The same both ways, on positions changed at random (``mutated``)."""
    rng = random.Random(setup.seed)
    for where, game in positions(setup):
        if game.pending.kind not in ("main", "roll", "phase") or rng.random() < 0.5:
            continue
        changed = mutated(game, rng)
        decision = changed.pending
        for option in decision.options:
            assert explain(changed, decision, option, FORMS) is None, (where, decision.kind, option)
        for option in candidates(changed):
            if option not in decision.options:
                why = explain(changed, decision, option, FORMS)
                assert why is not None and why.key != "refused_not_legal", (where, option)
                FOUND.setdefault(why.key, why)


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
                why = explain(game, decision, option, FORMS)
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


JUNK = (-5, 200, True, "", "x", "brick", "bishop", 1.5, None, {}, {"brick": 1}, [], (1,))
"""Values of any type, as a raw answer (``Game.answer``) may carry them."""


@pytest.mark.parametrize("setup", GAMES[:1] + GAMES[3:5], ids=lambda s: s.rules)
def test_a_junk_answer_is_refused_and_changes_nothing(setup: GameSetup) -> None:
    """Every verb, with values of every type in each place: refused (never another
    exception), the game unchanged."""
    from ckdsl.turn.game import tables

    arity = {verb: form.count("{") for verb, form in tables().forms.items()}
    for where, game in list(positions(setup))[::10]:
        digest = game.state.digest()
        for verb, fields in arity.items():
            for value in JUNK:
                option = (verb, *([value] * fields))
                if option in game.pending.options:
                    continue
                with pytest.raises(IllegalAnswer):
                    game.answer(option)
        assert game.state.digest() == digest, where


def test_every_reason_met_fills_its_placeholders() -> None:
    """The reasons the random positions met (run after them) carry every field their
    English message names."""
    if not FOUND:
        pytest.skip("run with the tests of the positions")
    english = load_catalog("en")
    for key, why in FOUND.items():
        text = render(english, key, why.fields)
        assert "{" not in text and FALLBACK_MARK not in text and text != key, (key, text)


SAMPLE = {
    "at": 12, "to": 13, "other": 7, "tile": 4, "player": "blue", "victim": "white",
    "cost": {"brick": 1, "lumber": 1}, "held": {"brick": 0}, "need": {"wool": 4},
    "goods": {"ore": 2}, "good": "grain", "piece": "city_wall", "level": "mighty_knight",
    "improvement": "fortress", "track": "politics", "card": "bishop", "deck": "science",
    "id": "gems", "text": "2 gems", "answer": "biuld road 1-2", "legal": "'roll'",
    "total": 30, "move": "displace", "condition": "level(other) < 2",
    "moves": ["road", "settlement"], "action": "mercenary", "reason": "why not",
    "decision": "discard", "asked": "robber", "count": 2,
}  # fmt: skip
"""A value for every placeholder a refusal may have."""


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_refusal_reads_in_every_language(language: str) -> None:
    """Every refusal message (and every decision it may name), in each language: there,
    translated (no English fallback), every placeholder filled."""
    english = load_catalog("en").data["messages"]
    assert isinstance(english, dict)
    catalog = load_catalog(language)
    keys = [k for k in english if k.startswith(("refused_", "decision_"))]
    assert len(keys) > 80
    for key in keys:
        for count in (1, 2, 5):
            text = render(catalog, key, {**SAMPLE, "count": count})
            assert "{" not in text and FALLBACK_MARK not in text and text != key, (key, text)


def test_the_reasons_of_the_base_rules_conditions_are_theirs() -> None:
    """Each part of a base condition that ``unmet.KNOWN`` tells in words is a part of a
    base condition (renaming one in rules/base/turn.yaml must not silently lose it)."""
    from ckdsl.core.unmet import KNOWN

    game = start(GameSetup(players=4, seed=1))
    parts = {text for found in game.rules.programs.conjuncts.values() for text, _ in found}
    assert set(KNOWN) <= parts


def test_an_over_game_refuses_everything_as_over() -> None:
    game = start(GameSetup(players=4, seed=1))
    game.state.over = True
    game.refresh()
    assert explain(game, game.pending, ("roll",), FORMS) == Refusal("refused_game_over")
    with pytest.raises(IllegalAnswer, match="the game is over"):
        game.answer(("roll",))


def test_the_example_of_the_docs_runs() -> None:
    """docs/engine.md, "Why an answer is refused": its example runs as written."""
    doc = (Path(__file__).resolve().parent.parent / "docs" / "engine.md").read_text()
    section = doc.split("## Why an answer is refused", 1)[1].split("\n## ", 1)[0]
    code = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(code) == 1
    exec(compile(code[0], "docs/engine.md", "exec"), {})
