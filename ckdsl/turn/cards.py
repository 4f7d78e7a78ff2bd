"""Playing progress cards (docs/rules.md, "Progress cards"): when a card in hand may be
played, and playing it (why one is refused: ``ckdsl.turn.refused_moves.play``).

Cards are played on one's own turn after the roll (some only before it), any number per
turn, when their effect can start (``ckdsl.dsl.runtime.unplayable``) and the rule set's
`play` condition allows it; the effect runs and the card then goes under its deck.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Final, TypeAlias

from ckdsl.core import derived
from ckdsl.core.allow import allowed
from ckdsl.core.decisions import Option, Verb
from ckdsl.dsl.runtime import start_card, unplayable

if TYPE_CHECKING:
    from ckdsl.turn.game import Game

PlayableKey: TypeAlias = "tuple[str, int, tuple[Hashable, ...]]"
"""A kept playability's key: the card, the player, and for each part of the state its
opening reads, that part's stamp or value (``_key``)."""


def play_options(game: Game, player: int, timing: str, options: list[Option]) -> None:
    """Add ("play", card) for each card in hand with this timing that can be played now."""
    held = game.state.players[player].progress
    if not held:
        return
    cards = game.rules.cards
    for card in dict.fromkeys(held):
        if (
            cards[card].timing == timing
            and why_not(game, player, card) is None
            and allowed(game, "play", player, c=card)
        ):
            options.append(("play", card))


def why_not(game: Game, player: int, card: str) -> str | None:
    """``runtime.unplayable``, kept while what the card's opening reads has not changed
    (``Program.opening_reads``; an opening that calls anything undeclared is asked every
    time). The key holds what it reads: ``Game.board_stamp`` (new at every change of the
    board), ``Game.points_changes`` (counted at every change of points; the table is
    emptied when the state is changed directly, ``Game.refresh``), the current player,
    and the knights' and buildings' lists themselves. Off with ``derived.ENABLED``."""
    reads = game.rules.programs.opening_reads.get(card)
    if reads is None or not derived.ENABLED:
        return unplayable(game, player, card)
    key = _key(game, player, card, reads)
    kept = game.playable
    answer = kept.get(key, _UNKNOWN)  # one lookup: the key's hash is not cached
    if answer is not _UNKNOWN:
        return answer
    if len(kept) >= _KEEP:
        kept.clear()  # answers kept for boards long gone
    found = kept[key] = unplayable(game, player, card)
    return found


def _key(game: Game, player: int, card: str, reads: frozenset[str]) -> PlayableKey:
    """Every part of the state the opening reads (``registry.READS``), by its stamp where
    it has one, else by its value."""
    state = game.state
    key: list[Hashable] = []
    if "board" in reads:
        key.append(game.board_stamp)
    if "points" in reads:
        key.append(("points", game.points_changes))
    if "current" in reads:
        key.append(("current", state.current))
    if "knights" in reads:  # activity and levels change without a new board stamp
        key += (tuple(state.knight), tuple(state.knight_level), tuple(state.knight_active))
    if "buildings" in reads:  # walls too
        key += (tuple(state.building), tuple(state.owner), tuple(state.wall))
    return card, player, tuple(key)


KEYED = frozenset({"board", "points", "current", "knights", "buildings"})
"""The parts of the state ``_key`` keys on: every part a function may declare
(``registry.READS``; tests/test_derived.py checks they are the same)."""

_KEEP: Final = 4096
"""How many playabilities a game keeps before it starts afresh."""

_UNKNOWN: Final = "\0 not kept"
"""What ``why_not`` finds for a playability not kept (no reason a card gives reads so)."""


def main_options(game: Game, player: int, options: list[Option]) -> None:
    play_options(game, player, "after_roll", options)


def play(game: Game, player: int, card: str) -> None:
    game.state.players[player].progress.remove(card)
    game.log("play", player, card=card)
    start_card(game, player, card)
    game.run_hook("card_played", player, {"c": card})  # before the card's effect


def _on_play(game: Game, player: int, option: Option) -> None:
    play(game, player, option[1])


VERBS = (Verb("play", "play {1}", main=_on_play),)


def stale_playability(game: Game) -> list[str]:
    """Every playability kept under the game's current stamps that a check from scratch
    does not give (an empty list when the table is exact; ``benchmarks/soak.py`` and
    tests/test_derived.py ask after every answer)."""
    out: list[str] = []
    for key, kept in list(game.playable.items()):
        card, player, _ = key
        reads = game.rules.programs.opening_reads.get(card)
        if reads is None or key != _key(game, player, card, reads):
            continue  # kept for another board, other points or another turn
        fresh = unplayable(game, player, card)
        if fresh != kept:
            out.append(f"kept playability of {card} for player {player} is {kept!r}, "
                       f"from scratch {fresh!r}")  # fmt: skip
    return out
