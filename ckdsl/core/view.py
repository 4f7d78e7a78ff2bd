"""What one player may know of a game: ``Game.view(player)``.

A player sees the board and every public piece, the levels, the bank, everyone's points,
how many cards each opponent holds and the cards they have shown, their own hand and
progress cards, how many cards each deck has left, and the log as they saw it. They do not
see the opponents' hands, the opponents' progress cards, the order of the decks or the
dice to come. Two games that differ only in what a player cannot see give that player
equal views (``PlayerView.key``), and so, for a bot that reads only its view, the same
answer.

Following boardgame.io's ``playerView`` and Game Park's split of *hidden* information
(nobody knows it: the decks, the dice) from *secret* information (one player knows it: a
hand), the view masks both, and ``determinize`` fills them back with a sample consistent
with everything the player knows: a full game a search bot can play on.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING, TypeVar

from ckdsl.core.decisions import new_decision
from ckdsl.core.state import GameState
from ckdsl.core.tasks import EffectTask, Task
from ckdsl.events import secret_fields
from ckdsl.rng import GAME_STREAMS

if TYPE_CHECKING:
    from ckdsl.board import Layout, Topology
    from ckdsl.core.compiled import CompiledRules
    from ckdsl.turn.game import Event, Game

# Events whose details some players may not see (the schema's secret fields): event ->
# (detail, who sees it besides the event's player: the detail naming the other party, or
# None for nobody).
_SECRET_DETAILS = secret_fields()
HIDDEN = "?"  # what a masked detail reads
_T = TypeVar("_T")


def visible_event(event: Event, player: int) -> Event:
    """``event`` as ``player`` saw it: a secret detail of someone else's is masked."""
    secret = _SECRET_DETAILS.get(event["event"])
    if secret is None or event["player"] == player:
        return event
    detail, party = secret
    if party is not None and event.get(party) == player:
        return event
    return {**event, detail: HIDDEN}


class PlayerView:
    """One player's knowledge of a game at one moment (valid while the game stands still:
    a bot reads it inside ``choose``).

    Public attributes only: ``player``, ``decision`` (the pending decision; when it is
    another player's, without its options, which could tell what they hold), ``rules``,
    ``topology``, ``layout``, ``players`` (how many), ``state`` (the state with the hidden
    parts masked), ``hand_sizes``, ``progress_counts``, ``deck_sizes``, ``events`` (the log
    as this player saw it), ``key()`` and ``determinize(rng)``. The view is computed on
    demand: a bot that only picks among the options pays nothing for the rest."""

    __slots__ = ("_game", "_state", "decision", "player")

    def __init__(self, game: Game, player: int) -> None:
        if not 0 <= player < game.n:
            raise ValueError(f"there is no player {player} in a game of {game.n}")
        self._game = game
        self._state: GameState | None = None
        self.player = player
        pending = game.pending
        if pending.player != player:
            pending = new_decision(pending.player, pending.kind, ())
        self.decision = pending

    @property
    def rules(self) -> CompiledRules:
        return self._game.rules

    @property
    def topology(self) -> Topology:
        return self._game.topo

    @property
    def layout(self) -> Layout:
        return self._game.layout

    @property
    def players(self) -> int:
        return self._game.n

    @property
    def state(self) -> GameState:
        """The game's state with what this player may not know masked: the opponents'
        hands and progress cards are empty lists (their sizes are in ``hand_sizes`` and
        ``progress_counts``), every deck is empty (``deck_sizes``), the random streams
        and any dice fixed in advance are gone. A copy: a bot may change it freely."""
        if self._state is None:
            full = self._game.state
            masked = full.copy()
            for q, seen in enumerate(masked.players):
                if q != self.player:
                    seen.hand = []
                    seen.progress = []
            masked.decks = [[] for _ in full.decks]
            masked.rng = {}
            masked.fixed_rolls = []
            self._state = masked
        return self._state

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """Resources and commodities each player holds (public: cards are counted)."""
        return tuple(sum(p.hand) for p in self._game.state.players)

    @property
    def progress_counts(self) -> tuple[int, ...]:
        return tuple(len(p.progress) for p in self._game.state.players)

    @property
    def deck_sizes(self) -> tuple[int, ...]:
        return tuple(len(deck) for deck in self._game.state.decks)

    @property
    def events(self) -> list[Event]:
        """The log as this player saw it (empty when the game keeps no log)."""
        return [visible_event(e, self.player) for e in self._game.events]

    def key(self) -> str:
        """A digest of everything in this view: equal for two games that differ only in
        what this player cannot see."""
        import hashlib
        import json

        data = {
            "player": self.player,
            "decision": self.decision,
            "state": self.state.to_data(),
            "hand_sizes": self.hand_sizes,
            "progress_counts": self.progress_counts,
            "deck_sizes": self.deck_sizes,
            "events": self.events,
            "ruleset": self.rules.ruleset_hash,
            "layout": repr(self.layout),
        }
        text = json.dumps(data, sort_keys=True, separators=(",", ":"), default=list)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def determinize(self, rng: random.Random, *, list_now: bool = True) -> Game:
        """A complete game consistent with this view, the hidden parts drawn with ``rng``:
        the opponents' hands from the goods neither in the bank nor in this player's hand,
        their progress cards and the decks' order from the cards not seen, and new random
        streams. Every hidden part is dealt anew from what this player may know (the
        masked ``state``'s counts), so it cannot depend on the rest: when the masked copy
        was not made, the full state is copied once and each hidden part overwritten
        (tests/test_clone_view.py: two games differing only in hidden cards give the same
        determinization). Without a log or history; the board is the game's, so its
        board stamps and the answers kept under them are too (``Game.with_hidden``). Its
        pending decision is listed anew (the same player and kind; the options may differ
        where they depend on what is hidden): here with ``list_now``, once, not again in
        every clone of the sample; else when first asked (``Game.pending``), for a caller
        that may not need it."""
        if self._state is not None:
            state = self._state.copy()
        else:  # one copy, not two: every hidden part is dealt anew below
            state = self._game.state.copy()
            state.fixed_rolls = []
        _deal_goods(self, state, rng)
        _deal_cards(self, state, rng)
        state.rng = {name: rng.getrandbits(64) for name in GAME_STREAMS}
        game = self._game.with_hidden(state)
        if list_now:
            game.pending  # noqa: B018 - listed now, so that clones share it
        return game


def _deal_goods(view: PlayerView, state: GameState, rng: random.Random) -> None:
    """The goods in no known place (not in the bank, not in my hand), dealt at random to
    the opponents, each getting as many as they hold."""
    me = view.player
    mine = state.players[me].hand
    goods = len(mine)
    bank = state.bank
    pool: list[int] = []
    for g, total in enumerate(view.rules.bank):
        away = total - bank[g] - mine[g]
        if away > 0:
            pool += [g] * away
    pool = _shuffled(pool, rng)
    sizes = view.hand_sizes
    at = 0
    for q, seen in enumerate(state.players):
        if q == me:
            continue
        hand = [0] * goods
        size = sizes[q]
        for g in pool[at : at + size]:
            hand[g] += 1
        at += size
        seen.hand = hand


def _deal_cards(view: PlayerView, state: GameState, rng: random.Random) -> None:
    """The progress cards not seen, per deck: as many as each opponent holds go to the
    opponents (never a card revealed on draw, which no hand can hold), the rest make
    the deck, in a random order."""
    rules = view.rules
    seen = state.players[view.player].progress[:]
    for p in state.players:
        seen += p.revealed
    if state.queue:
        seen += _cards_in_play(state.queue)
    sizes = view.deck_sizes
    held: list[str] = []
    for d, (cards, ids, on_draw) in enumerate(_deck_cards(rules)):
        unseen = cards
        known = [card for card in seen if card in ids]
        if known:  # the deck's cards less those seen (each seen card once)
            unseen = cards[:]
            for card in known:
                if card in unseen:
                    unseen.remove(card)
        unseen = _shuffled(unseen, rng)
        to_hands = len(unseen) - sizes[d]
        if not to_hands:
            state.decks[d] = unseen
            continue
        rest: list[str] = []
        for card in unseen:
            if to_hands and card not in on_draw:
                held.append(card)
                to_hands -= 1
            else:
                rest.append(card)
        state.decks[d] = rest
    if not held:
        return
    held = _shuffled(held, rng)
    counts = view.progress_counts
    at = 0
    for q, p in enumerate(state.players):
        if q != view.player:
            p.progress = held[at : at + counts[q]]
            at += counts[q]


_Deck = tuple[list[str], frozenset[str], frozenset[str]]
_DECKS: dict[int, tuple[object, list[_Deck]]] = {}


def _deck_cards(rules: CompiledRules) -> list[_Deck]:
    """Each deck's cards grouped as ``Counter.elements`` lists them, the ids in it, and
    those revealed on draw."""
    found = _DECKS.get(id(rules))
    if found is None or found[0] is not rules:
        decks: list[_Deck] = []
        for deck in rules.decks:
            counted = Counter(deck.cards)
            on_draw = frozenset(c for c in counted if rules.cards[c].timing == "on_draw")
            decks.append((list(counted.elements()), frozenset(counted), on_draw))
        found = _DECKS[id(rules)] = (rules, decks)
    return found[1]


def _shuffled(items: list[_T], rng: random.Random) -> list[_T]:
    """``items`` in a random order: sorted by random keys, which costs a tenth of
    ``random.shuffle``'s loop in Python (a determinization shuffles a dozen lists)."""
    draw = rng.random
    keys = [draw() for _ in items]
    return [items[i] for i in sorted(range(len(items)), key=keys.__getitem__)]


def _cards_in_play(queue: list[Task]) -> list[str]:
    """Cards whose effect is running (played, not yet under their deck)."""
    return [t.frame["id"] for t in queue if isinstance(t, EffectTask) and t.frame["src"] == "card"]
