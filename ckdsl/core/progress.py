"""Progress cards (docs/rules.md, "Progress cards"): drawing, the hand limit, discarding.

A card drawn from an empty deck is not there; a card revealed on draw (Printer,
Constitution) is shown at once and counts its points. The hand limit is 4 progress cards,
5 during one's own turn: a player over it discards at once (off their turn) or at the end
of their turn, the card of their choice. A played or discarded card goes under its deck.
Who draws at a gate is the rule set's `after_roll` hook; playing a card is ``cards``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ckdsl.core.decisions import Asked, Option, Verb
from ckdsl.core.frames import count_down
from ckdsl.core.tasks import DiscardProgressTask, Task, expect

if TYPE_CHECKING:
    from ckdsl.turn.game import Game


def draw(game: Game, player: int, deck: int) -> str | None:
    """Give ``player`` the top card of ``deck`` (None if it is empty)."""
    state, rules = game.state, game.rules
    cards = state.decks[deck]
    deck_id = rules.decks[deck].id
    if not cards:
        game.log("deck_empty", player, deck=deck_id)
        return None
    card = cards.pop()
    me = state.players[player]
    spec = rules.cards[card]
    if spec.timing == "on_draw":  # shown at once, kept as points, never in the hand
        me.revealed.append(card)
        game.add_points(player, spec.points)
        game.log("reveal", player, card=card)
        return card
    me.progress.append(card)
    game.log("draw", player, deck=deck_id, card=card)
    over = len(me.progress) - hand_limit(game, player)
    if over > 0:
        game.push(DiscardProgressTask("discard_progress", player, over))
    return card


def hand_limit(game: Game, player: int, *, own_turn: bool | None = None) -> int:
    """docs/rules.md, "The progress-card hand limit": 4 progress cards, 5 during one's own
    turn (``own_turn``: the limit of one's own turn or of another's; by default, as the
    game stands). The one place the engine reads these parameters."""
    if own_turn is None:
        own_turn = player == game.state.current and game.state.turn > 0
    name = "progress_hand_limit_own_turn" if own_turn else "progress_hand_limit"
    return game.rules.number(name)


def _discard_options(game: Game, task: Task) -> tuple[Option, ...]:
    held = game.state.players[expect(task, DiscardProgressTask).player].progress
    return tuple(("discard_card", card) for card in dict.fromkeys(held))


def _on_discard(game: Game, player: int, option: Option) -> None:
    card = option[1]
    game.state.players[player].progress.remove(card)
    under_deck(game, card)
    game.log("discard_card", player, card=card)
    count_down(game)


def under_deck(game: Game, card: str) -> None:
    """A played or discarded card goes under its deck."""
    game.state.decks[game.rules.cards[card].deck].insert(0, card)


DECISIONS = (Asked("discard_progress", _on_discard, _discard_options),)
VERBS = (Verb("discard_card", "discard {1}"),)
