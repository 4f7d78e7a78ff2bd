"""Progress cards (source §12, design §7): drawing at a gate, the hand limit, playing.

A gate of a track's colour gives the top card of that track's deck to each player, the
roller first and then clockwise, whose level in the track draws on the red die's value;
an empty deck gives nothing. A card revealed on draw (Printer, Constitution) is shown at
once and counts its points. The hand limit is 4 progress cards, 5 during one's own turn:
a player over it discards at once (off their turn) or at the end of their turn, the card
of their choice. Cards are played on one's own turn after the roll (some only before it),
any number per turn; the effect runs (``ckdsl.dsl.runtime``) and the card goes under its
deck. Discarded cards go under their deck too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ckdsl.dsl.runtime import start_card, unplayable
from ckdsl.engine.allow import allowed
from ckdsl.engine.decisions import Option
from ckdsl.engine.state import Task

if TYPE_CHECKING:
    from ckdsl.engine.game import Game


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
        game.push(("discard_progress", player, over))
    return card


def hand_limit(game: Game, player: int) -> int:
    """Source §12: 4 progress cards, 5 during one's own turn."""
    own = player == game.state.current and game.state.turn > 0
    return int(game.rules.param("progress_hand_limit_own_turn" if own else "progress_hand_limit"))


def _discard_options(game: Game, task: Task) -> tuple[Option, ...]:
    held = game.state.players[task[1]].progress
    return tuple(("discard_card", card) for card in dict.fromkeys(held))


def _on_discard(game: Game, player: int, option: Option) -> None:
    from ckdsl.engine.turn import count_down  # turn needs this module first

    card = option[1]
    game.state.players[player].progress.remove(card)
    under_deck(game, card)
    game.log("discard_card", player, card=card)
    count_down(game)


def under_deck(game: Game, card: str) -> None:
    """A played or discarded card goes under its deck."""
    game.state.decks[game.rules.cards[card].deck].insert(0, card)


# --- playing -------------------------------------------------------------------------------


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


def blocked_cards(game: Game, player: int, timing: str) -> tuple[tuple[Option, str], ...]:
    """The cards in hand that cannot be played now, each with the reason (for refusals)."""
    held = game.state.players[player].progress
    if not held:
        return ()
    cards = game.rules.cards
    out = []
    for card in dict.fromkeys(held):
        if cards[card].timing != timing:
            when = "after" if timing == "after_roll" else "before"
            reason = f"{card} cannot be played {when} the roll"
        elif not allowed(game, "play", player, c=card):
            reason = "the rules do not allow it now"
        else:
            reason = unplayable(game, player, card) or ""
        if reason:
            out.append((("play", card), f"{card} cannot be played now: {reason}"))
    return tuple(out)


def main_options(game: Game, player: int, options: list[Option]) -> None:
    play_options(game, player, "after_roll", options)


def play(game: Game, player: int, card: str) -> None:
    game.state.players[player].progress.remove(card)
    game.log("play", player, card=card)
    start_card(game, player, card)


def _on_play(game: Game, player: int, option: Option) -> None:
    play(game, player, option[1])


HANDLERS = {"discard_progress": _on_discard}
MAIN_VERBS = {"play": _on_play}
TASK_OPTIONS = {"discard_progress": _discard_options}
