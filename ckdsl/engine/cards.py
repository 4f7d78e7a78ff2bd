"""Playing progress cards (docs/rules.md, "Progress cards"): when a card in hand may be
played, and playing it (why one is refused: ``ckdsl.engine.refused_moves.play``).

Cards are played on one's own turn after the roll (some only before it), any number per
turn, when their effect can start (``ckdsl.dsl.runtime.unplayable``) and the rule set's
`play` condition allows it; the effect runs and the card then goes under its deck.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ckdsl.dsl.runtime import start_card, unplayable
from ckdsl.engine.allow import allowed
from ckdsl.engine.decisions import Option, Verb

if TYPE_CHECKING:
    from ckdsl.engine.game import Game


def play_options(game: Game, player: int, timing: str, options: list[Option]) -> None:
    """Add ("play", card) for each card in hand with this timing that can be played now."""
    held = game.state.players[player].progress
    if not held:
        return
    cards = game.rules.cards
    for card in dict.fromkeys(held):
        if (
            cards[card].timing == timing
            and unplayable(game, player, card) is None
            and allowed(game, "play", player, c=card)
        ):
            options.append(("play", card))


def main_options(game: Game, player: int, options: list[Option]) -> None:
    play_options(game, player, "after_roll", options)


def play(game: Game, player: int, card: str) -> None:
    game.state.players[player].progress.remove(card)
    game.log("play", player, card=card)
    start_card(game, player, card)


def _on_play(game: Game, player: int, option: Option) -> None:
    play(game, player, option[1])


VERBS = (Verb("play", "play {1}", main=_on_play),)
